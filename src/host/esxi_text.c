/* SPDX-License-Identifier: GPL-3.0-or-later */
/* esxi_text.c: what every ESXi parser uses: errors, lines, small value
 * parsers, "Key: Value" fields and dashed tables (see esxi.h for the
 * rules the parsers share; esxi_lines.c reads the lines). */
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

/* ---- blanks and arrays ----------------------------------------------- */

char *
esxi_trimmed_span(const char *a, const char *b)
{
	while (a < b && esxi_is_blank(*a))
		a++;
	while (b > a && esxi_is_blank(b[-1]))
		b--;
	return gw_xstrndup(a, (size_t)(b - a));
}

void *
esxi_grow(void *v, size_t n, size_t *cap, size_t size, size_t first)
{
	if (n < *cap)
		return v;
	*cap = *cap ? *cap * 2 : first;
	return gw_xrealloc(v, *cap * size);
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
	static const char hex[] = "0123456789abcdef";
	char b[13];

	/* "%04x:%02x:%02x.%x" of the masked parts, without printf: every
	 * device block of a listing formats one */
	b[0] = hex[dom >> 12 & 15];
	b[1] = hex[dom >> 8 & 15];
	b[2] = hex[dom >> 4 & 15];
	b[3] = hex[dom & 15];
	b[4] = ':';
	b[5] = hex[bus >> 4 & 15];
	b[6] = hex[bus & 15];
	b[7] = ':';
	b[8] = hex[dev >> 4 & 1];
	b[9] = hex[dev & 15];
	b[10] = '.';
	b[11] = hex[fn & 7];
	b[12] = '\0';
	if (n == 0)
		return;
	n = n < sizeof b ? n - 1 : sizeof b - 1;
	memcpy(out, b, n);
	out[n] = '\0';
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
