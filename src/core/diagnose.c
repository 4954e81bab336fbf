/* SPDX-License-Identifier: GPL-3.0-or-later */
/* diagnose.c: known GPU passthrough / vGPU failures, from log text to
 * cause and fix (doc/design.md, sections 15.10, 15.1-15.4, 15.6 and 15.9): the scan.
 *
 * How it works: the input is split into lines; each line is folded, the
 * first words of all the rules' patterns are found in it in one pass, and
 * the patterns of the rules whose words it holds are searched in it
 * (diagnose_match.c).  The texts
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

/* Match rule ru on the line; updates its hit. */
static void
match_rule(const gw_diag_rule *ru, gw_diag_hit *h, const scan_line *sl)
{
	const gw_buf *fold = sl->fold;
	size_t p;

	if (ru->also && !gw_diag_find(fold->data, fold->len, ru->also,
	                              strlen(ru->also)))
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

/* The words of one pass over a line: each word found carries a bit, and
 * two bits say whether the line holds "nccl" or names ESXi
 * (gw_diag_esxi_words). */
#define W_NCCL ((uint64_t)1 << 62)
#define W_ESXI ((uint64_t)1 << 63)
#define W_BITS 62

/* The words of the patterns: pattern p of rule r can match a line only
 * where the line holds the words of need[r * PATS + p] (0: never). */
#define PATS (sizeof gw_diag_rules[0].pats / sizeof gw_diag_rules[0].pats[0])
typedef struct rule_words {
	gw_diag_words ws;
	size_t first;          /* the patterns' words: ws.word[first..] */
	uint64_t need[];
} rule_words;

/* The bit of the m bytes at w in rw's set, added when new; 0 when the set
 * is full. */
static uint64_t
word_bit(rule_words *rw, const char *w, size_t m)
{
	size_t k;

	for (k = rw->first; k < rw->ws.n; k++)
		if (rw->ws.word[k].m == m && memcmp(rw->ws.word[k].w, w, m) == 0)
			return rw->ws.word[k].bit;
	if (rw->ws.n >= W_BITS)
		return 0;
	if (gw_diag_words_add(&rw->ws, w, m, (uint64_t)1 << rw->ws.n) < 0)
		return 0;
	return rw->ws.word[rw->ws.n - 1].bit;
}

/* The two longest literal runs of pattern pat (between the bytes " '#*"):
 * a match holds each of them whole. */
static void
longest_runs(const char *pat, size_t at[2], size_t len[2])
{
	size_t i = 0;

	len[0] = len[1] = 0;
	at[0] = at[1] = 0;
	while (pat[i]) {
		size_t m = strcspn(pat + i, " '#*");

		if (m > len[0]) {
			at[1] = at[0];
			len[1] = len[0];
			at[0] = i;
			len[0] = m;
		} else if (m > len[1]) {
			at[1] = i;
			len[1] = m;
		}
		i += m;
		if (pat[i])
			i++;
	}
}

/* Every pattern's two longest literal runs, and the side words; NULL
 * when they do not fit in a gw_diag_words (every rule is then tried on
 * every line). */
static rule_words *
words_of_rules(void)
{
	rule_words *rw = gw_xcalloc(1, sizeof *rw + gw_diag_nrules * PATS *
	                                             sizeof rw->need[0]);
	size_t r, p;

	gw_diag_words_init(&rw->ws);
	if (gw_diag_words_add(&rw->ws, "nccl", 4, W_NCCL) < 0)
		goto full;
	for (p = 0; gw_diag_esxi_words[p]; p++)
		if (gw_diag_words_add(&rw->ws, gw_diag_esxi_words[p],
		                      strlen(gw_diag_esxi_words[p]), W_ESXI) < 0)
			goto full;
	rw->first = rw->ws.n;
	for (r = 0; r < gw_diag_nrules; r++)
		for (p = 0; gw_diag_rules[r].pats[p]; p++) {
			const char *pat = gw_diag_rules[r].pats[p];
			uint64_t *need = &rw->need[r * PATS + p], b;
			size_t at[2], len[2];

			/* a pattern without a first word never matches
			 * (gw_diag_pat_find): need stays 0 */
			if (strcspn(pat, " '#*") == 0)
				continue;
			longest_runs(pat, at, len);
			if ((b = word_bit(rw, pat + at[0], len[0])) == 0)
				goto full;
			*need = b;
			/* the second run, where it is long enough to be rare
			 * and there is room for it */
			if (len[1] >= 4 &&
			    (b = word_bit(rw, pat + at[1], len[1])) != 0)
				*need |= b;
		}
	return rw;
full:
	free(rw);
	return NULL;
}

/* Can rule r match a line that holds the words of bits (rw NULL: yes)? */
static int
rule_may_match(const rule_words *rw, size_t r, uint64_t bits)
{
	size_t p;

	if (rw == NULL)
		return 1;
	for (p = 0; p < PATS; p++) {
		uint64_t need = rw->need[r * PATS + p];

		if (need != 0 && (bits & need) == need)
			return 1;
	}
	return 0;
}

/* Match every rule on every line of text[0..len) (LF, CRLF or CR), in one
 * pass: each line folded, its words found at once, and only the rules
 * whose first words it holds matched.  Two facts of the whole text are
 * known only at its end: whether it holds "nccl" (GW_DIAG_R_NEEDS_NCCL)
 * and whether it names ESXi (gw_diag_esxi_line); the rules that need the
 * second keep a hit for either answer (hits for ESXi, noesxi for not). */
static void
scan(const char *text, size_t len, gw_diag_hit *hits, gw_diag_hit *noesxi)
{
	rule_words *rw = words_of_rules();
	uint64_t seen = 0;
	gw_buf fold;
	scan_line sl;
	size_t pos = 0, r;

	if (rw == NULL) {
		if (gw_diag_ci_contains(text, len, "nccl"))
			seen |= W_NCCL;
		if (gw_diag_esxi_text(text, len))
			seen |= W_ESXI;
	}
	gw_buf_init(&fold);
	sl.fold = &fold;
	sl.lineno = 0;
	while (pos < len) {
		const char *nl = memchr(text + pos, '\n', len - pos);
		size_t end = nl ? (size_t)(nl - text) : len;
		const char *cr = memchr(text + pos, '\r', end - pos);
		uint64_t words;
		int line_esxi = -1;   /* 1, 0, or -1: as the text */

		if (cr != NULL)
			end = (size_t)(cr - text);
		sl.lineno++;
		sl.off = pos;
		sl.len = end - pos;
		gw_diag_fold_line(text + pos, end - pos, &fold);
		words = rw ? gw_diag_words_in(&rw->ws, fold.data, fold.len) : 0;
		seen |= words & (W_NCCL | W_ESXI);
		for (r = 0; r < gw_diag_nrules; r++) {
			const gw_diag_rule *ru = &gw_diag_rules[r];

			if (!rule_may_match(rw, r, words))
				continue;
			if (!(ru->flags & GW_DIAG_R_NEEDS_ESXI)) {
				match_rule(ru, &hits[r], &sl);
				continue;
			}
			if (line_esxi == -1)
				line_esxi = gw_diag_esxi_line(fold.data,
				                              fold.len, -1);
			if (line_esxi != 0)
				match_rule(ru, &hits[r], &sl);
			if (line_esxi == 1)
				match_rule(ru, &noesxi[r], &sl);
		}
		/* one line break: \n, \r\n or \r */
		if (end < len && text[end] == '\r' && end + 1 < len &&
		    text[end + 1] == '\n')
			end++;
		pos = end + 1;
	}
	for (r = 0; r < gw_diag_nrules; r++) {
		if ((gw_diag_rules[r].flags & GW_DIAG_R_NEEDS_NCCL) &&
		    !(seen & W_NCCL))
			memset(&hits[r], 0, sizeof hits[r]);
		if ((gw_diag_rules[r].flags & GW_DIAG_R_NEEDS_ESXI) &&
		    !(seen & W_ESXI))
			hits[r] = noesxi[r];
	}
	gw_buf_free(&fold);
	free(rw);
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
	hits = gw_xcalloc(2 * gw_diag_nrules, sizeof *hits);
	scan(text, len, hits, hits + gw_diag_nrules);
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
