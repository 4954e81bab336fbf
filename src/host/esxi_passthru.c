/* esxi_passthru.c: `esxcli hardware pci pcipassthru list` (ESXi 7.0+; see
 * esxi.h for the format). */
#include "esxi_int.h"

#include <stdlib.h>
#include <string.h>

void
gw_esxi_passthru_list_free(gw_esxi_passthru_list *l)
{
	if (l == NULL)
		return;
	free(l->items);
	l->items = NULL;
	l->n = 0;
}

/* Where the two columns gpuwiz reads are. */
typedef struct passthru_cols {
	esxi_column cols[16];
	size_t ncols;
	size_t ci, ce;           /* Device ID, Enabled */
} passthru_cols;

/* Copy words ci and ce of the blank-separated words of s into a and b
 * (each n bytes); the number of words. */
static size_t
row_words(const char *s, size_t ci, size_t ce, char *a, char *b, size_t n)
{
	const char *p = s;
	size_t k = 0;

	a[0] = b[0] = '\0';
	for (;;) {
		size_t w;

		p = esxi_skip_blanks(p);
		if (*p == '\0')
			break;
		for (w = 0; p[w] && !esxi_is_blank(p[w]); w++)
			;
		if ((k == ci || k == ce) && w < n) {
			char *dst = k == ci ? a : b;

			memcpy(dst, p, w);
			dst[w] = '\0';
		}
		k++;
		p += w;
	}
	return k;
}

/* One row: address and flag, from the columns, else (a row whose cells do
 * not sit under the dashes) from its blank-separated words, one a column. */
static int
passthru_row(const char *s, const passthru_cols *pc, char *bdf, size_t bdfn,
             int *enabled)
{
	char a[64], b[64];
	unsigned dom, bus, dev, fn;

	esxi_cell(s, &pc->cols[pc->ci], a, sizeof a);
	esxi_cell(s, &pc->cols[pc->ce], b, sizeof b);
	if (esxi_parse_addr(a, 0, &dom, &bus, &dev, &fn) != 0 ||
	    esxi_parse_bool(b, enabled) != 0) {
		size_t k = row_words(s, pc->ci, pc->ce, a, b, sizeof a);

		/* Every column, or the first ones up to the two needed
		 * (empty cells at the end). */
		if (k > pc->ncols || k <= (pc->ci > pc->ce ? pc->ci : pc->ce) ||
		    esxi_parse_addr(a, 0, &dom, &bus, &dev, &fn) != 0 ||
		    esxi_parse_bool(b, enabled) != 0)
			return -1;
	}
	esxi_fmt_bdf(bdf, bdfn, dom, bus, dev, fn);
	return 0;
}

/* A header whose blanks were squeezed (copied from a web page): "Device
 * ID Enabled" over "------------ -------"? */
static int
squeezed_header(const char *header, passthru_cols *pc)
{
	char *h = gw_xstrdup(header), *r, *w;
	int ok;

	for (r = w = h; *r; r++)
		if (!esxi_is_blank(*r) || (w > h && !esxi_is_blank(w[-1])))
			*w++ = esxi_is_blank(*r) ? ' ' : *r;
	*w = '\0';
	ok = pc->ncols == 2 && gw_strieq(gw_trim(h), "Device ID Enabled");
	free(h);
	if (ok) {
		pc->ci = 0;
		pc->ce = 1;
	}
	return ok ? 0 : -1;
}

/* The parser's state. */
typedef struct passthru_parse {
	passthru_cols pc;
	gw_esxi_passthru_list *out;
	size_t cap;              /* of out->items */
	const char *name;
	gw_err *e;
} passthru_parse;

/* The header at line index i and the dashes under it. */
static int
passthru_header(void *ctx, const esxi_lines *tl, size_t i)
{
	static const char *const names[] = { "Device ID", "Enabled" };
	passthru_parse *ps = ctx;
	passthru_cols *pc = &ps->pc;
	const char *h = tl->v[i];
	size_t at[2];
	char ex[64];
	int rc;

	rc = esxi_table_dashes(tl, i, strstr(h, "Device ID") &&
	                       strstr(h, "Enabled"), pc->cols,
	                       sizeof pc->cols / sizeof pc->cols[0], &pc->ncols,
	                       ps->name, ps->e);
	if (rc < 0)
		return -1;
	if (rc == 0) {
		esxi_find_columns(h, pc->cols, pc->ncols, names, 2, at);
		pc->ci = at[0];
		pc->ce = at[1];
		if ((pc->ci != ESXI_NO_COL && pc->ce != ESXI_NO_COL) ||
		    squeezed_header(h, pc) == 0)
			return 0;
	}
	esxi_err_line(ps->e, ps->name, (unsigned)i + 1,
	              _("expected the column names 'Device ID' and 'Enabled' "
	                "of %s, found '%s'"), CMD_PASSTHRU,
	              esxi_excerpt(h, ex, sizeof ex));
	return -1;
}

/* The row s at line ln, appended to the list. */
static int
passthru_add(void *ctx, const char *s, unsigned ln)
{
	passthru_parse *ps = ctx;
	gw_esxi_passthru_list *out = ps->out;
	gw_esxi_passthru *it;
	char ex[64];
	size_t j;

	out->items = esxi_grow(out->items, out->n, &ps->cap,
	                       sizeof *out->items, 32);
	it = &out->items[out->n];
	memset(it, 0, sizeof *it);
	it->line = ln;
	if (passthru_row(s, &ps->pc, it->bdf, sizeof it->bdf,
	                 &it->enabled) != 0) {
		esxi_err_line(ps->e, ps->name, ln,
		              _("expected a device address and true or false "
		                "under Device ID and Enabled, found '%s'"),
		              esxi_excerpt(s, ex, sizeof ex));
		return -1;
	}
	for (j = 0; j < out->n; j++)
		if (strcmp(out->items[j].bdf, it->bdf) == 0) {
			esxi_err_line(ps->e, ps->name, ln,
			              _("device %s is listed twice (first at line "
			                "%u)"), it->bdf, out->items[j].line);
			return -1;
		}
	out->n++;
	return 0;
}

int
gw_esxi_parse_pcipassthru_list(const char *text, const char *name,
                               gw_esxi_passthru_list *out, gw_err *e)
{
	static const esxi_table table = {
		CMD_PASSTHRU, passthru_header, passthru_add
	};
	passthru_parse ps = { .out = out, .name = name, .e = e };

	memset(out, 0, sizeof *out);
	if (esxi_parse_table(text, name, &table, &ps, e) == 0)
		return 0;
	gw_esxi_passthru_list_free(out);
	return -1;
}

int
gw_esxi_passthru_enabled(const gw_esxi_passthru_list *l, const char *bdf)
{
	unsigned dom, bus, dev, fn;
	char norm[16];
	size_t i;

	if (l == NULL || bdf == NULL ||
	    esxi_parse_addr(bdf, 1, &dom, &bus, &dev, &fn) != 0)
		return -1;
	esxi_fmt_bdf(norm, sizeof norm, dom, bus, dev, fn);
	for (i = 0; i < l->n; i++)
		if (strcmp(l->items[i].bdf, norm) == 0)
			return l->items[i].enabled;
	return -1;
}
