/* SPDX-License-Identifier: GPL-3.0-or-later */
/* diagnose.c: known GPU passthrough / vGPU failures, from log text to
 * cause and fix (doc/design.md, sections 15.10, 15.1-15.4, 15.6 and 15.9): the scan.
 *
 * How it works: the input is split into lines; each line is folded and
 * every rule's patterns are searched in it (diagnose_match.c).  The texts
 * are built after the scan, from the numbers captured (diagnose_rules.c).
 * The report is src/report/diagnose_report.c.
 */
#include "diagnose_int.h"

#include <stdlib.h>
#include <string.h>

/* Where the line being scanned is. */
typedef struct scan_line {
	const gw_buf *fold;     /* the line folded */
	unsigned long lineno;
	size_t off, len;        /* in the input */
} scan_line;

/* Does a match with captures c replace the line h holds?  The first match
 * counts, except for R_KEEP_MAX rules: the one with the largest first
 * number. */
static int
takes_over(const gw_diag_rule *ru, const gw_diag_hit *h,
           const gw_diag_caps *c)
{
	if (!h->found)
		return 1;
	if (!(ru->flags & GW_DIAG_R_KEEP_MAX) || c->n == 0 || !c->ok[0])
		return 0;
	return h->c.n == 0 || !h->c.ok[0] || c->v[0] > h->c.v[0];
}

/* Match rule ru on the line; updates its hit.  esxi: whether the whole
 * input names ESXi's files or esxcli (gw_diag_esxi_text). */
static void
match_rule(const gw_diag_rule *ru, gw_diag_hit *h, const scan_line *sl,
           int esxi)
{
	const gw_buf *fold = sl->fold;
	size_t p;

	if (ru->also && !gw_diag_find(fold->data, fold->len, ru->also,
	                              strlen(ru->also)))
		return;
	if ((ru->flags & GW_DIAG_R_NEEDS_ESXI) &&
	    !gw_diag_esxi_line(fold->data, fold->len, esxi))
		return;
	for (p = 0; ru->pats[p]; p++) {
		gw_diag_caps c;
		long at = gw_diag_pat_find(fold->data, fold->len, ru->pats[p],
		                           &c);

		if (at < 0)
			continue;
		if (takes_over(ru, h, &c)) {
			h->found = 1;
			h->lineno = sl->lineno;
			h->line_off = sl->off;
			h->line_len = sl->len;
			h->match_off = (size_t)at;
			h->c = c;
		}
		h->matches++;
		break;
	}
}

/* Match every rule on every line of text[0..len) (LF, CRLF or CR). */
static void
scan(const char *text, size_t len, gw_diag_hit *hits)
{
	int has_nccl = gw_diag_ci_contains(text, len, "nccl");
	int esxi = gw_diag_esxi_text(text, len);
	gw_buf fold;
	scan_line sl;
	size_t pos = 0, r;

	gw_buf_init(&fold);
	sl.fold = &fold;
	sl.lineno = 0;
	while (pos < len) {
		size_t end = pos;

		while (end < len && text[end] != '\n' && text[end] != '\r')
			end++;
		sl.lineno++;
		sl.off = pos;
		sl.len = end - pos;
		gw_diag_fold_line(text + pos, end - pos, &fold);
		for (r = 0; r < gw_diag_nrules; r++)
			if (!(gw_diag_rules[r].flags & GW_DIAG_R_NEEDS_NCCL) ||
			    has_nccl)
				match_rule(&gw_diag_rules[r], &hits[r], &sl,
				           esxi);
		/* one line break: \n, \r\n or \r */
		if (end < len && text[end] == '\r' && end + 1 < len &&
		    text[end + 1] == '\n')
			end++;
		pos = end + 1;
	}
	gw_buf_free(&fold);
}

/* The finding of rule r from its hit. */
static void
fill_finding(gw_diag_finding *f, size_t r, const gw_diag_hit *h,
             const char *text, size_t len)
{
	const char *line = text + h->line_off;

	gw_finding_set(&f->f, GW_SEV_ERROR, gw_diag_rules[r].id, GW_TOPIC_DIAG,
	               gw_diag_rules[r].source, NULL, NULL, NULL);
	f->lineno = h->lineno;
	f->matches = h->matches;
	f->line = gw_diag_quote_line(line, h->line_len,
	                             gw_diag_orig_offset(line, h->line_len,
	                                                 h->match_off));
	gw_diag_rules[r].build(f, h, text, len);
}

int
gw_diagnose_text_ctx(const char *text, size_t len, const gw_diag_ctx *ctx,
                     gw_diag_result *out)
{
	static const gw_diag_ctx none;
	gw_diag_hit *hits;
	size_t r;
	int specific = 0;

	if (out == NULL || (text == NULL && len > 0))
		return -1;
	out->findings = NULL;
	out->n = 0;
	if (len == 0)
		return 0;
	hits = gw_xcalloc(gw_diag_nrules, sizeof *hits);
	scan(text, len, hits);
	for (r = 0; r < gw_diag_nrules; r++)
		hits[r].ctx = ctx ? ctx : &none;
	for (r = 0; r < gw_diag_nrules; r++)
		if (hits[r].found &&
		    (gw_diag_rules[r].flags & GW_DIAG_R_POWERON_CAUSE))
			specific = 1;
	out->findings = gw_xcalloc(gw_diag_nrules, sizeof *out->findings);
	for (r = 0; r < gw_diag_nrules; r++) {
		gw_diag_finding *f = &out->findings[out->n];

		if (!hits[r].found ||
		    ((gw_diag_rules[r].flags & GW_DIAG_R_GENERIC) && specific))
			continue;
		fill_finding(f, r, &hits[r], text, len);
		if (f->f.message != NULL) {
			out->n++;
			continue;
		}
		/* the builder declined */
		gw_finding_free(&f->f);
		free(f->line);
		memset(f, 0, sizeof *f);
	}
	free(hits);
	if (out->n == 0) {
		free(out->findings);
		out->findings = NULL;
	}
	return (int)out->n;
}

void
gw_diag_result_free(gw_diag_result *r)
{
	size_t i;

	if (r == NULL)
		return;
	for (i = 0; i < r->n; i++) {
		gw_finding_free(&r->findings[i].f);
		free(r->findings[i].line);
	}
	free(r->findings);
	r->findings = NULL;
	r->n = 0;
}
