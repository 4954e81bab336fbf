/* SPDX-License-Identifier: GPL-3.0-or-later */
/* diagnose.c: known GPU passthrough / vGPU failures, from log text to
 * cause and fix (doc/design.md, sections 15.10, 15.1-15.4, 15.6 and 15.9): the scan.
 *
 * How it works: the input comes in chunks (gw_diag_scan_feed) and is cut
 * into lines; each line is folded, the first words of all the rules'
 * patterns (and the words of the facts, diagnose_facts.c) are found in it
 * in one pass, and the patterns of the rules whose words it holds are
 * searched in it (diagnose_match.c).  What is kept is bounded by the
 * longest line: the line being cut, a copy of each rule's matching line,
 * counts and the facts.  The texts are built after the scan, from the
 * numbers captured (diagnose_rules.c).
 * The report is src/report/diagnose_report.c.
 */
#include "diagnose_int.h"

#include <stdlib.h>
#include <string.h>

/* The line being scanned. */
typedef struct scan_line {
	const gw_buf *fold;     /* the line folded */
	unsigned long lineno;
	const char *s;          /* the line as read */
	size_t len;
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
			/* the line may hold NUL bytes: copied by length */
			free(h->line);
			h->line = gw_xmalloc(sl->len + 1);
			memcpy(h->line, sl->s, sl->len);
			h->line[sl->len] = '\0';
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
/* a bit for each fact (GW_DIAG_FACT_ID two: it needs both its words),
 * below them, and the patterns' words the bits below those */
#define W_FACT(k) ((uint64_t)1 << (62 - GW_DIAG_NFACTS - 1 + (k)))
#define W_BITS (62 - GW_DIAG_NFACTS - 1)

/* The words of the patterns: pattern p of rule r can match a line only
 * where the line holds the words of need[r * PATS + p] (0: never). */
#define PATS (sizeof gw_diag_rules[0].pats / sizeof gw_diag_rules[0].pats[0])
typedef struct rule_words {
	gw_diag_words ws;
	size_t first;          /* the patterns' and facts' words:
	                        * ws.word[first..] */
	size_t nbits;          /* the bits the patterns' words took */
	uint64_t fact[GW_DIAG_NFACTS];   /* the bits of each fact's words */
	uint64_t pats;         /* the bits of the patterns' words */
	/* the patterns that can match, by the lowest bit of their words:
	 * those of bit b are cand[bstart[b] .. bstart[b + 1]) */
	struct {
		size_t r;
		uint64_t need;
	} *cand;
	size_t bstart[W_BITS + 1];
	unsigned char bitno[64];   /* a bit's number, by de Bruijn */
	uint64_t need[];
} rule_words;

#define DE_BRUIJN 0x03f79d71b4ca8b09ULL

/* The number of the single bit b. */
static unsigned
bit_number(const rule_words *rw, uint64_t b)
{
	return rw->bitno[(b * DE_BRUIJN) >> 58];
}

/* The bit of the m bytes at w among the patterns' words in rw's set,
 * added when new; 0 when there is no bit left. */
static uint64_t
word_bit(rule_words *rw, const char *w, size_t m)
{
	size_t k;

	for (k = rw->first; k < rw->ws.n; k++)
		if (rw->ws.word[k].bit < W_FACT(0) && rw->ws.word[k].m == m &&
		    memcmp(rw->ws.word[k].w, w, m) == 0)
			return rw->ws.word[k].bit;
	if (rw->nbits >= W_BITS)
		return 0;
	if (gw_diag_words_add(&rw->ws, w, m, (uint64_t)1 << rw->nbits) < 0)
		return 0;
	return (uint64_t)1 << rw->nbits++;
}

/* The two longest literal runs of pattern pat (between the bytes " '#*"):
 * a match holds each of them whole.  0 for a pattern without a first
 * word, which never matches (gw_diag_pat_find). */
static int
longest_runs(const char *pat, size_t at[2], size_t len[2])
{
	size_t i = 0;

	if (strcspn(pat, " '#*") == 0)
		return 0;

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
	return 1;
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
	/* the words every pattern and fact needs first, then the second
	 * runs where there is room */
	for (r = 0; r < gw_diag_nrules; r++)
		for (p = 0; gw_diag_rules[r].pats[p]; p++) {
			const char *pat = gw_diag_rules[r].pats[p];
			uint64_t b;
			size_t at[2], len[2];

			/* need stays 0 for a pattern without a first word */
			if (!longest_runs(pat, at, len))
				continue;
			if ((b = word_bit(rw, pat + at[0], len[0])) == 0)
				goto full;
			rw->need[r * PATS + p] = b;
		}
	for (r = 0; r < GW_DIAG_NFACTS; r++)
		for (p = 0; gw_diag_fact_words[r][p]; p++) {
			const char *w = gw_diag_fact_words[r][p];
			/* the words of GW_DIAG_FACT_ID (0) a bit each */
			uint64_t b = W_FACT(r + (r > 0 || p > 0));

			if (gw_diag_words_add(&rw->ws, w, strlen(w), b) < 0)
				goto full;
			rw->fact[r] |= b;
		}
	for (r = 0; r < gw_diag_nrules; r++)
		for (p = 0; gw_diag_rules[r].pats[p]; p++) {
			const char *pat = gw_diag_rules[r].pats[p];
			uint64_t b;
			size_t at[2], len[2];

			/* the second run, where it is long enough to be rare
			 * and there is room for it */
			if (!longest_runs(pat, at, len))
				continue;
			if (len[1] >= 4 &&
			    (b = word_bit(rw, pat + at[1], len[1])) != 0)
				rw->need[r * PATS + p] |= b;
		}
	for (r = 0; r < 64; r++)
		rw->bitno[(((uint64_t)1 << r) * DE_BRUIJN) >> 58] =
			(unsigned char)r;
	rw->cand = gw_xcalloc(gw_diag_nrules * PATS, sizeof *rw->cand);
	/* counted by lowest bit, then placed */
	for (r = 0; r < gw_diag_nrules * PATS; r++)
		if (rw->need[r] != 0)
			rw->bstart[bit_number(rw, rw->need[r] &
			                          (~rw->need[r] + 1)) + 1]++;
	for (r = 0; r < W_BITS; r++)
		rw->bstart[r + 1] += rw->bstart[r];
	{
		size_t at[W_BITS];

		memcpy(at, rw->bstart, sizeof at);
		for (r = 0; r < gw_diag_nrules * PATS; r++) {
			uint64_t need = rw->need[r];
			size_t *k;

			if (need == 0)
				continue;
			k = &at[bit_number(rw, need & (~need + 1))];
			rw->cand[*k].r = r / PATS;
			rw->cand[(*k)++].need = need;
			rw->pats |= need;
		}
	}
	return rw;
full:
	free(rw);
	return NULL;
}

struct gw_diag_scan {
	rule_words *rw;         /* NULL: every rule tried on every line */
	gw_diag_hit *hits;      /* per rule, and for the rules that need
	                         * ESXi, the hit when the input does not name
	                         * it (noesxi = hits + gw_diag_nrules) */
	uint64_t seen;          /* W_NCCL, W_ESXI: found in the input */
	gw_diag_facts facts;
	unsigned long *stamp;   /* per rule, the last line it was matched on */
	gw_buf fold;
	unsigned long lineno;
	gw_buf part;            /* the start of a line cut by a chunk's end */
	int any;                /* a byte was fed */
};

gw_diag_scan *
gw_diag_scan_new(void)
{
	gw_diag_scan *sc = gw_xcalloc(1, sizeof *sc);

	sc->rw = words_of_rules();
	sc->hits = gw_xcalloc(2 * gw_diag_nrules, sizeof *sc->hits);
	sc->stamp = gw_xcalloc(gw_diag_nrules, sizeof *sc->stamp);
	gw_buf_init(&sc->fold);
	gw_buf_init(&sc->part);
	return sc;
}

/* Match rule r on the line sl; *line_esxi is whether the line is ESXi's
 * (gw_diag_esxi_line), -1 until a rule asks. */
static void
line_rule(gw_diag_scan *sc, size_t r, const scan_line *sl, int *line_esxi)
{
	const gw_diag_rule *ru = &gw_diag_rules[r];

	if (!(ru->flags & GW_DIAG_R_NEEDS_ESXI)) {
		match_rule(ru, &sc->hits[r], sl);
		return;
	}
	if (*line_esxi == -1)
		*line_esxi = gw_diag_esxi_line(sc->fold.data, sc->fold.len, -1);
	if (*line_esxi != 0)
		match_rule(ru, &sc->hits[r], sl);
	if (*line_esxi == 1)
		match_rule(ru, &sc->hits[gw_diag_nrules + r], sl);
}

/* Match every rule on one line (split at CR and LF): the line folded, its
 * words found at once, and only the rules whose first words it holds
 * matched.  Two facts of the whole text are known only at its end:
 * whether it holds "nccl" (GW_DIAG_R_NEEDS_NCCL) and whether it names ESXi
 * (gw_diag_esxi_line); the rules that need the second keep a hit for
 * either answer (hits for ESXi, noesxi for not).  The bits of the words
 * the line holds. */
static uint64_t
scan_line_rules(gw_diag_scan *sc, const char *s, size_t n)
{
	const rule_words *rw = sc->rw;
	uint64_t words;
	scan_line sl;
	int may[GW_DIAG_NFACTS], line_esxi = -1;   /* 1, 0, or -1: as the
	                                             * text */
	uint64_t m;
	size_t r;

	sl.fold = &sc->fold;
	sl.lineno = ++sc->lineno;
	sl.s = s;
	sl.len = n;
	gw_diag_fold_line(s, n, &sc->fold);
	if (rw != NULL) {
		words = gw_diag_words_in(&rw->ws, sc->fold.data, sc->fold.len);
	} else {
		words = ~(uint64_t)0 & ~(W_NCCL | W_ESXI);
		if (gw_diag_ci_contains(s, n, "nccl"))
			words |= W_NCCL;
		if (gw_diag_esxi_line(s, n, 0))
			words |= W_ESXI;
	}
	sc->seen |= words & (W_NCCL | W_ESXI);
	for (r = 0; r < GW_DIAG_NFACTS; r++)
		may[r] = rw == NULL || (words & rw->fact[r]) != 0;
	gw_diag_facts_line(&sc->facts, s, n, sc->fold.data, sc->fold.len, may);
	if (rw == NULL) {
		for (r = 0; r < gw_diag_nrules; r++)
			line_rule(sc, r, &sl, &line_esxi);
		return words;
	}
	/* the rules with a pattern whose words the line holds, each once:
	 * the patterns filed under each bit of the line's words */
	for (m = words & rw->pats; m != 0; m &= m - 1) {
		unsigned b = bit_number(rw, m & (~m + 1));
		size_t c;

		for (c = rw->bstart[b]; c < rw->bstart[b + 1]; c++) {
			r = rw->cand[c].r;
			if ((words & rw->cand[c].need) != rw->cand[c].need ||
			    sc->stamp[r] == sl.lineno)
				continue;
			sc->stamp[r] = sl.lineno;
			line_rule(sc, r, &sl, &line_esxi);
		}
	}
	return words;
}

/* One line of the input as split at LF (its LF not included): the lines
 * of the scan are its pieces between CRs (a CR at its end ends the last
 * piece and begins none). */
static void
scan_lf_line(void *ctx, const char *s, size_t n)
{
	gw_diag_scan *sc = ctx;
	const rule_words *rw = sc->rw;
	uint64_t words = 0;
	size_t pos = 0;
	const char *cr;

	while ((cr = memchr(s + pos, '\r', n - pos)) != NULL) {
		words |= scan_line_rules(sc, s + pos, (size_t)(cr - s) - pos);
		pos = (size_t)(cr - s) + 1;
		if (pos == n)
			break;
	}
	if (cr == NULL)
		words |= scan_line_rules(sc, s + pos, n - pos);
	gw_diag_facts_lf_line(&sc->facts, s, n,
	                      rw == NULL ||
	                      (words & rw->fact[GW_DIAG_FACT_ID]) ==
	                      rw->fact[GW_DIAG_FACT_ID]);
}

void
gw_diag_scan_feed(gw_diag_scan *sc, const char *data, size_t len)
{
	sc->any |= len > 0;
	gw_lines_feed(&sc->part, data, len, scan_lf_line, sc);
}

/* The finding of rule r from its hit. */
static void
fill_finding(gw_diag_finding *f, size_t r, const gw_diag_hit *h,
             const gw_diag_facts *x)
{
	gw_finding_set(&f->f, GW_SEV_ERROR, gw_diag_rules[r].id, GW_TOPIC_DIAG,
	               gw_diag_rules[r].source, NULL, NULL, NULL);
	f->lineno = h->lineno;
	f->matches = h->matches;
	f->line = gw_diag_quote_line(h->line, h->line_len,
	                             gw_diag_orig_offset(h->line, h->line_len,
	                                                 h->match_off));
	gw_diag_rules[r].build(f, h, x);
}

/* The findings of the hits, in out. */
static void
findings(gw_diag_scan *sc, const gw_diag_ctx *ctx, gw_diag_result *out)
{
	static const gw_diag_ctx none;
	gw_diag_hit *hits = sc->hits;
	size_t r;
	int specific = 0;

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
		fill_finding(f, r, &hits[r], &sc->facts);
		if (f->f.message != NULL) {
			out->n++;
			continue;
		}
		/* the builder declined */
		gw_finding_free(&f->f);
		free(f->line);
		memset(f, 0, sizeof *f);
	}
	if (out->n == 0) {
		free(out->findings);
		out->findings = NULL;
	}
}

int
gw_diag_scan_end(gw_diag_scan *sc, const gw_diag_ctx *ctx,
                 gw_diag_result *out)
{
	gw_diag_hit *hits = sc->hits, *noesxi = sc->hits + gw_diag_nrules;
	size_t r;

	/* the last line, when the input does not end with one */
	gw_lines_end(&sc->part, scan_lf_line, sc);
	for (r = 0; r < gw_diag_nrules; r++) {
		if ((gw_diag_rules[r].flags & GW_DIAG_R_NEEDS_NCCL) &&
		    !(sc->seen & W_NCCL)) {
			free(hits[r].line);
			memset(&hits[r], 0, sizeof hits[r]);
		}
		if ((gw_diag_rules[r].flags & GW_DIAG_R_NEEDS_ESXI) &&
		    !(sc->seen & W_ESXI)) {
			free(hits[r].line);
			hits[r] = noesxi[r];
			noesxi[r].line = NULL;
		}
	}
	gw_diag_facts_end(&sc->facts);
	if (out != NULL) {
		out->findings = NULL;
		out->n = 0;
		if (sc->any)
			findings(sc, ctx, out);
	}
	for (r = 0; r < 2 * gw_diag_nrules; r++)
		free(hits[r].line);
	free(hits);
	free(sc->stamp);
	if (sc->rw != NULL)
		free(sc->rw->cand);
	free(sc->rw);
	gw_buf_free(&sc->fold);
	free(sc);
	return out != NULL ? (int)out->n : -1;
}

int
gw_diagnose_text_ctx(const char *text, size_t len, const gw_diag_ctx *ctx,
                     gw_diag_result *out)
{
	gw_diag_scan *sc;

	if (out == NULL || (text == NULL && len > 0))
		return -1;
	sc = gw_diag_scan_new();
	if (len > 0)
		gw_diag_scan_feed(sc, text, len);
	return gw_diag_scan_end(sc, ctx, out);
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
