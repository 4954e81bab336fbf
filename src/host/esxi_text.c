/* SPDX-License-Identifier: GPL-3.0-or-later */
/* esxi_text.c: what every ESXi parser uses: errors, lines, small value
 * parsers, "Key: Value" fields and dashed tables (see esxi.h for the
 * rules the parsers share). */
#include "esxi_int.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- errors ------------------------------------------------------------ */

/* "NAME:LINE: text", "line LINE: text", "NAME: text" or the text alone
 * (line 0: about the whole input). */
static void
err_v(gw_err *e, const char *name, unsigned line, const char *fmt,
      va_list ap)
{
	char body[900];

	if (e == NULL)
		return;
	vsnprintf(body, sizeof body, fmt, ap);
	if (line == 0 && name)
		gw_err_set(e, "%s: %s", name, body);
	else if (line == 0)
		gw_err_set(e, "%s", body);
	else if (name)
		gw_err_set(e, "%s:%u: %s", name, line, body);
	else
		gw_err_set(e, _("line %u: %s"), line, body);
}

void
esxi_err_line(gw_err *e, const char *name, unsigned line, const char *fmt,
              ...)
{
	va_list ap;

	va_start(ap, fmt);
	err_v(e, name, line, fmt, ap);
	va_end(ap);
}

void
esxi_err_input(gw_err *e, const char *name, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	err_v(e, name, 0, fmt, ap);
	va_end(ap);
}

const char *
esxi_excerpt(const char *s, char *buf, size_t n)
{
	size_t len, k;

	s = esxi_skip_blanks(s);
	len = strlen(s);
	if (len < 48 && len < n) {
		memcpy(buf, s, len + 1);
		return buf;
	}
	k = 45 < n - 4 ? 45 : n - 4;
	while (k > 0 && ((unsigned char)s[k] & 0xC0) == 0x80)
		k--;
	memcpy(buf, s, k);
	memcpy(buf + k, "...", 4);
	return buf;
}

/* ---- lines ------------------------------------------------------------- */

static void
esxi_lines_free(esxi_lines *tl)
{
	size_t i;

	for (i = 0; i < tl->n; i++)
		free(tl->v[i]);
	free(tl->v);
	tl->v = NULL;
	tl->n = 0;
}

int
esxi_is_blank(int c)
{
	return c == ' ' || c == '\t';
}

const char *
esxi_skip_blanks(const char *s)
{
	while (esxi_is_blank(*s))
		s++;
	return s;
}

char *
esxi_trimmed_span(const char *a, const char *b)
{
	while (a < b && esxi_is_blank(*a))
		a++;
	while (b > a && esxi_is_blank(b[-1]))
		b--;
	return gw_xstrndup(a, (size_t)(b - a));
}

/* Index of the first control byte (other than tab, and a CR ending the
 * line) in the len bytes at p, or -1. */
static long
control_byte(const char *p, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)p[i];

		if ((c < 0x20 && c != '\t' && !(c == '\r' && i + 1 == len)) ||
		    c == 0x7f)
			return (long)i;
	}
	return -1;
}

void *
esxi_grow(void *v, size_t n, size_t *cap, size_t size, size_t first)
{
	if (n < *cap)
		return v;
	*cap = *cap ? *cap * 2 : first;
	return gw_xrealloc(v, *cap * size);
}

static void
lines_add(esxi_lines *tl, size_t *cap, char *line)
{
	tl->v = esxi_grow(tl->v, tl->n, cap, sizeof *tl->v, 64);
	tl->v[tl->n++] = line;
}

/* Split text into lines.  Control bytes other than tab (and the CR of a
 * CRLF) are refused as binary data, naming the line, unless controls_ok.
 * An input without a non-blank line is refused as empty.  cmd names the
 * command in errors. */
static int
esxi_split_lines(const char *text, const char *name, const char *cmd,
                 int controls_ok, esxi_lines *tl, gw_err *e)
{
	const char *p = text ? text : "";
	size_t cap = 0;
	int nonblank = 0;

	tl->v = NULL;
	tl->n = 0;
	if (strncmp(p, "\xEF\xBB\xBF", 3) == 0)
		p += 3;
	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		long bad = controls_ok ? -1 : control_byte(p, len);

		if (bad >= 0) {
			esxi_err_line(e, name, (unsigned)tl->n + 1,
			              _("binary data (control byte 0x%02x); "
			                "expected the text output of %s"),
			              (unsigned char)p[bad], cmd);
			esxi_lines_free(tl);
			return -1;
		}
		while (len > 0 && (p[len - 1] == '\r' ||
		                   esxi_is_blank(p[len - 1])))
			len--;
		if (len > 0)
			nonblank = 1;
		lines_add(tl, &cap, gw_xstrndup(p, len));
		if (nl == NULL)
			break;
		p = nl + 1;
	}
	if (!nonblank) {
		esxi_err_input(e, name, _("no output in it; expected the output "
		                          "of %s"), cmd);
		esxi_lines_free(tl);
		return -1;
	}
	return 0;
}

/* Index of the first line of the output proper: blank lines, lines
 * starting with '#' and lines holding the command itself (a shell prompt
 * saved with the output) before it are skipped. */
static size_t
esxi_skip_preamble(const esxi_lines *tl, const char *cmd)
{
	size_t i;

	for (i = 0; i < tl->n; i++) {
		const char *s = esxi_skip_blanks(tl->v[i]);

		if (*s == '\0' || *s == '#' || strstr(s, cmd) != NULL)
			continue;
		break;
	}
	return i;
}

static int
each_line(const char *text, const char *name, const char *cmd,
          int controls_ok, esxi_line_fn *fn, void *ctx, gw_err *e)
{
	esxi_lines tl;
	size_t i;
	int rc = 0;

	if (esxi_split_lines(text, name, cmd, controls_ok, &tl, e) != 0)
		return -1;
	for (i = esxi_skip_preamble(&tl, cmd); i < tl.n && rc == 0; i++)
		rc = fn(ctx, tl.v[i], (unsigned)i + 1);
	esxi_lines_free(&tl);
	return rc;
}

int
esxi_each_line(const char *text, const char *name, const char *cmd,
               esxi_line_fn *fn, void *ctx, gw_err *e)
{
	return each_line(text, name, cmd, 0, fn, ctx, e);
}

int
esxi_each_line_names(const char *text, const char *name, const char *cmd,
                     esxi_line_fn *fn, void *ctx, gw_err *e)
{
	return each_line(text, name, cmd, 1, fn, ctx, e);
}

int
esxi_parse_table(const char *text, const char *name,
                 const esxi_table *t, void *ctx, gw_err *e)
{
	esxi_lines tl;
	size_t i;
	int rc = -1;

	if (esxi_split_lines(text, name, t->cmd, 0, &tl, e) != 0)
		return -1;
	i = esxi_skip_preamble(&tl, t->cmd);
	if (i >= tl.n) {
		esxi_err_input(e, name, _("no output in it; expected the output "
		                          "of %s"), t->cmd);
		goto done;
	}
	if (t->header(ctx, &tl, i) != 0)
		goto done;
	for (i += 2; i < tl.n; i++)
		if (tl.v[i][0] != '\0' && t->row(ctx, tl.v[i], (unsigned)i + 1)
		    != 0)
			goto done;
	rc = 0;
done:
	esxi_lines_free(&tl);
	return rc;
}

/* ---- small parsers ----------------------------------------------------- */

int
esxi_parse_0x(const char *s, int maxdig, unsigned *out)
{
	unsigned v = 0;
	int n = 0;

	if (s[0] != '0' || (s[1] != 'x' && s[1] != 'X'))
		return -1;
	for (s += 2; *s; s++, n++) {
		int d = gw_hexval((unsigned char)*s);

		if (d < 0 || n >= maxdig)
			return -1;
		v = v * 16 + (unsigned)d;
	}
	if (n == 0)
		return -1;
	*out = v;
	return 0;
}

int
esxi_parse_bool(const char *s, int *out)
{
	if (gw_strieq(s, "true")) {
		*out = 1;
		return 0;
	}
	if (gw_strieq(s, "false")) {
		*out = 0;
		return 0;
	}
	return -1;
}

/* n decimal digits exactly. */
static int
dec_digits(const char *s, size_t n, unsigned *out)
{
	unsigned v = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		if (!isdigit((unsigned char)s[i]))
			return -1;
		v = v * 10 + (unsigned)(s[i] - '0');
	}
	*out = v;
	return 0;
}

/* The old decimal form "000:128:00.0" (the caller checked the length and
 * the separators). */
static int
parse_old_addr(const char *s, unsigned *dom, unsigned *bus, unsigned *dev,
               unsigned *fn)
{
	unsigned a, b, c, f;

	if (dec_digits(s, 3, &a) != 0 || dec_digits(s + 4, 3, &b) != 0 ||
	    dec_digits(s + 8, 2, &c) != 0 || dec_digits(s + 11, 1, &f) != 0 ||
	    b > 255 || c > 31 || f > 7)
		return -1;
	*dom = a;
	*bus = b;
	*dev = c;
	*fn = f;
	return 0;
}

int
esxi_parse_addr(const char *s, int loose, unsigned *dom, unsigned *bus,
                unsigned *dev, unsigned *fn)
{
	size_t len = strlen(s);

	if (len == 12 && s[3] == ':' && s[7] == ':' && s[10] == '.')
		return parse_old_addr(s, dom, bus, dev, fn);
	if (!loose && !(len == 12 && s[4] == ':' && s[7] == ':' &&
	                s[10] == '.'))
		return -1;
	return gw_bdf_parse(s, dom, bus, dev, fn);
}

void
esxi_fmt_bdf(char *out, size_t n, unsigned dom, unsigned bus, unsigned dev,
             unsigned fn)
{
	snprintf(out, n, "%04x:%02x:%02x.%x", dom & 0xffffu, bus & 0xffu,
	         dev & 0x1fu, fn & 7u);
}

/* ---- "Key: Value" fields ----------------------------------------------- */

const gw_esxi_field *
esxi_find_field(const gw_esxi_field *f, size_t n, const char *key)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (gw_strieq(f[i].key, key))
			return &f[i];
	return NULL;
}

void
esxi_fields_free(gw_esxi_field *f, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(f[i].key);
		free(f[i].value);
	}
	free(f);
}

void
esxi_field_add(gw_esxi_field **f, size_t *n, size_t *cap, char *key,
               const char *value, unsigned line)
{
	gw_esxi_field *x;

	*f = esxi_grow(*f, *n, cap, sizeof **f, 32);
	x = &(*f)[(*n)++];
	x->key = key;
	x->value = gw_trim(gw_xstrdup(value));
	x->line = line;
}

/* ---- tables with a line of dashes -------------------------------------- */

int
esxi_dash_line(const char *s)
{
	size_t k;

	for (k = 0; s[k]; k++)
		if (s[k] != '-' && !esxi_is_blank(s[k]))
			return 0;
	return strchr(s, '-') != NULL;
}

/* The columns of a table from its line of dashes ("------------  -------"):
 * each run of dashes starts a column that ends where the next one starts
 * (the last is open).  -1 when there are more than max. */
static int
esxi_dash_columns(const char *dash, esxi_column *cols, size_t max,
                  size_t *ncols)
{
	size_t k, n = 0;

	for (k = 0; dash[k]; ) {
		if (dash[k] != '-') {
			k++;
			continue;
		}
		if (n == max)
			return -1;
		cols[n].start = k;
		while (dash[k] == '-')
			k++;
		if (n > 0)
			cols[n - 1].end = cols[n].start;
		cols[n].end = (size_t)-1;
		n++;
	}
	*ncols = n;
	return 0;
}

const char *
esxi_cell(const char *s, const esxi_column *c, char *buf, size_t n)
{
	size_t len = strlen(s), a = c->start, b = c->end, k;

	if (a > len)
		a = len;
	if (b > len)
		b = len;
	while (a < b && esxi_is_blank(s[a]))
		a++;
	while (b > a && esxi_is_blank(s[b - 1]))
		b--;
	k = b - a < n - 1 ? b - a : n - 1;
	memcpy(buf, s + a, k);
	buf[k] = '\0';
	return buf;
}

int
esxi_table_dashes(const esxi_lines *tl, size_t i, int named,
                  esxi_column *cols, size_t max, size_t *ncols,
                  const char *name, gw_err *e)
{
	const char *dash = i + 1 < tl->n ? tl->v[i + 1] : "";
	char ex[64];

	if (!esxi_dash_line(dash)) {
		if (!named)
			return 1;
		esxi_err_line(e, name, (unsigned)i + 2,
		              _("expected a line of dashes under the column "
		                "names, found '%s'"),
		              esxi_excerpt(dash, ex, sizeof ex));
		return -1;
	}
	if (esxi_dash_columns(dash, cols, max, ncols) != 0)
		return 1;
	return 0;
}

void
esxi_find_columns(const char *header, const esxi_column *cols, size_t ncols,
                  const char *const names[], size_t nnames, size_t *at)
{
	char nm[64];
	size_t j, k;

	for (j = 0; j < nnames; j++)
		at[j] = ESXI_NO_COL;
	for (k = 0; k < ncols; k++) {
		esxi_cell(header, &cols[k], nm, sizeof nm);
		for (j = 0; j < nnames; j++)
			if (gw_strieq(nm, names[j]))
				at[j] = k;
	}
}
