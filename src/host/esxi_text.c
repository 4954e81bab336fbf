/* SPDX-License-Identifier: GPL-3.0-or-later */
/* esxi_text.c: what every ESXi parser uses: errors, lines, small value
 * parsers, "Key: Value" fields and dashed tables (see esxi.h for the
 * rules the parsers share). */
#include "esxi_int.h"

#include <ctype.h>
#include <errno.h>
#include <stdint.h>
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
	const uint64_t ones = 0x0101010101010101ULL;
	const uint64_t high = 0x8080808080808080ULL;
	size_t i = 0;

	/* eight bytes at a time while none is below 0x20 or 0x7f */
	for (; i + 8 <= len; i += 8) {
		uint64_t w, del;

		memcpy(&w, p + i, 8);
		del = w ^ (ones * 0x7f);
		if (((w - ones * 0x20) & ~w & high) != 0 ||
		    ((del - ones) & ~del & high) != 0)
			break;
	}
	for (; i < len; i++) {
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

/* Reads the lines of a source one at a time into one buffer: memory
 * bounded by the longest line, whatever the input's size. */
typedef struct esxi_reader {
	const esxi_src *src;
	const char *p;        /* text: the next line, NULL at the end */
	char *buf;            /* the line read, NUL-terminated, no '\n' */
	size_t cap, len;
	size_t raw;           /* file: the bytes read for it, '\n' included */
	unsigned ln;          /* its number */
} esxi_reader;

static void
reader_open(esxi_reader *r, const esxi_src *src)
{
	memset(r, 0, sizeof *r);
	r->src = src;
	if (src->f != NULL) {
		rewind(src->f);
		return;
	}
	r->p = src->text ? src->text : "";
	if (strncmp(r->p, "\xEF\xBB\xBF", 3) == 0)
		r->p += 3;
	if (*r->p == '\0')
		r->p = NULL;
}

static void
reader_close(esxi_reader *r)
{
	free(r->buf);
	r->buf = NULL;
}

/* The next line into r->buf: 1, 0 at the end, -1 when the file cannot be
 * read (errno set).  A text's embedded NUL ends it; a file's is kept
 * (r->len counts it). */
static int
reader_next(esxi_reader *r)
{
	if (r->src->f != NULL) {
		ssize_t n = getline(&r->buf, &r->cap, r->src->f);

		if (n < 0)
			return ferror(r->src->f) ? -1 : 0;
		r->raw = r->len = (size_t)n;
		if (r->len > 0 && r->buf[r->len - 1] == '\n')
			r->buf[--r->len] = '\0';
		if (r->ln == 0 && r->len >= 3 &&
		    memcmp(r->buf, "\xEF\xBB\xBF", 3) == 0) {
			memmove(r->buf, r->buf + 3, r->len - 2);
			r->len -= 3;
		}
	} else {
		const char *nl;

		if (r->p == NULL)
			return 0;
		nl = strchr(r->p, '\n');
		r->len = nl ? (size_t)(nl - r->p) : strlen(r->p);
		if (r->len + 1 > r->cap) {
			r->cap = r->len + 1 > 2 * r->cap ? r->len + 1 : 2 * r->cap;
			r->buf = gw_xrealloc(r->buf, r->cap);
		}
		memcpy(r->buf, r->p, r->len);
		r->buf[r->len] = '\0';
		r->p = nl && nl[1] ? nl + 1 : NULL;
	}
	r->ln++;
	return 1;
}

/* r->buf without its CR and trailing blanks; its length. */
static size_t
reader_trim(esxi_reader *r)
{
	while (r->len > 0 && (r->buf[r->len - 1] == '\r' ||
	                      esxi_is_blank(r->buf[r->len - 1])))
		r->len--;
	r->buf[r->len] = '\0';
	return r->len;
}

/* Check the whole source before a line of it is parsed, so that the
 * refusals do not depend on where a parser stops: a file larger than its
 * limit, a NUL byte in a file, control bytes other than tab (and the CR
 * of a CRLF) as binary data, naming the line, unless controls_ok; an
 * input without a non-blank line as empty.  cmd names the command in
 * errors. */
static int
esxi_check_src(const esxi_src *src, const char *name, const char *cmd,
               int controls_ok, gw_err *e)
{
	esxi_reader r;
	size_t total = 0;
	unsigned bad_ln = 0;
	unsigned char bad_c = 0;
	int nonblank = 0, nul = 0, k;

	reader_open(&r, src);
	while ((k = reader_next(&r)) > 0) {
		long bad;

		if (src->f != NULL) {
			total += r.raw;
			if (total > src->max) {
				gw_err_set(e, _("%s: file is too large (more than "
				                "%zu bytes)"), src->path, src->max);
				reader_close(&r);
				return -1;
			}
			nul = nul || memchr(r.buf, '\0', r.len) != NULL;
		}
		bad = controls_ok ? -1 : control_byte(r.buf, r.len);
		if (bad >= 0 && bad_ln == 0) {
			bad_ln = r.ln;
			bad_c = (unsigned char)r.buf[bad];
		}
		if (!nonblank && reader_trim(&r) > 0)
			nonblank = 1;
	}
	reader_close(&r);
	if (k < 0) {
		gw_err_set(e, _("%s: cannot read: %s"), src->path,
		           strerror(errno));
		return -1;
	}
	if (nul) {
		gw_err_set(e, _("%s: binary data (NUL byte); expected the text "
		                "output of %s"), src->path, cmd);
		return -1;
	}
	if (bad_ln != 0) {
		esxi_err_line(e, name, bad_ln,
		              _("binary data (control byte 0x%02x); "
		                "expected the text output of %s"), bad_c, cmd);
		return -1;
	}
	if (!nonblank) {
		esxi_err_input(e, name, _("no output in it; expected the output "
		                          "of %s"), cmd);
		return -1;
	}
	return 0;
}

/* Split text into lines (for the tables, whose header needs the line of
 * dashes under it), checked as esxi_check_src does. */
static int
esxi_split_lines(const char *text, const char *name, const char *cmd,
                 int controls_ok, esxi_lines *tl, gw_err *e)
{
	esxi_src src = { .text = text };
	esxi_reader r;
	size_t cap = 0;

	tl->v = NULL;
	tl->n = 0;
	if (esxi_check_src(&src, name, cmd, controls_ok, e) != 0)
		return -1;
	reader_open(&r, &src);
	while (reader_next(&r) > 0) {
		reader_trim(&r);
		lines_add(tl, &cap, gw_xstrndup(r.buf, r.len));
	}
	reader_close(&r);
	return 0;
}

/* Is line s part of the preamble before the output proper: blank, a
 * '#' comment or the command itself (a shell prompt saved with the
 * output)? */
static int
esxi_preamble_line(const char *s, const char *cmd)
{
	s = esxi_skip_blanks(s);
	return *s == '\0' || *s == '#' || strstr(s, cmd) != NULL;
}

/* Index of the first line of the output proper. */
static size_t
esxi_skip_preamble(const esxi_lines *tl, const char *cmd)
{
	size_t i;

	for (i = 0; i < tl->n; i++)
		if (!esxi_preamble_line(tl->v[i], cmd))
			break;
	return i;
}

int
esxi_src_each_line(const esxi_src *src, const char *name, const char *cmd,
                   int controls_ok, esxi_line_fn *fn, void *ctx, gw_err *e)
{
	esxi_reader r;
	int rc = 0, k, preamble = 1;

	if (esxi_check_src(src, name, cmd, controls_ok, e) != 0)
		return -1;
	reader_open(&r, src);
	while (rc == 0 && (k = reader_next(&r)) > 0) {
		reader_trim(&r);
		if (preamble && esxi_preamble_line(r.buf, cmd))
			continue;
		preamble = 0;
		rc = fn(ctx, r.buf, r.ln);
	}
	if (rc == 0 && k < 0) {
		gw_err_set(e, _("%s: cannot read: %s"), src->path,
		           strerror(errno));
		rc = -1;
	}
	reader_close(&r);
	return rc;
}

int
esxi_each_line(const char *text, const char *name, const char *cmd,
               esxi_line_fn *fn, void *ctx, gw_err *e)
{
	esxi_src src = { .text = text };

	return esxi_src_each_line(&src, name, cmd, 0, fn, ctx, e);
}

int
esxi_each_line_names(const char *text, const char *name, const char *cmd,
                     esxi_line_fn *fn, void *ctx, gw_err *e)
{
	esxi_src src = { .text = text };

	return esxi_src_each_line(&src, name, cmd, 1, fn, ctx, e);
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
