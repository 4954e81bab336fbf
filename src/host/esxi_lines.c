/* SPDX-License-Identifier: GPL-3.0-or-later */
/* esxi_lines.c: the lines of an ESXi command's output, read in one pass
 * whatever the source (a text in memory, a file, or a command's output
 * as it arrives: esxi_src), checked as they go by and handed to a parser
 * one at a time: memory bounded by the longest line. */
#include "esxi_int.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Index of the first control byte (other than tab, and a CR ending the
 * line) in the len bytes at p, or -1. */
static long
control_byte(const char *p, size_t len)
{
	for (size_t i = gw_plain_prefix(p, len, 1); i < len; i++) {
		unsigned char c = (unsigned char)p[i];

		if ((c < 0x20 && c != '\t' && !(c == '\r' && i + 1 == len)) ||
		    c == 0x7f)
			return (long)i;
	}
	return -1;
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

/* The reader: the line being assembled and what the checks found so far.
 * The refusals do not depend on where a parser stops, nor on the order of
 * the lines: a file larger than its limit, a NUL byte in a file, control
 * bytes other than tab (and the CR of a CRLF) as binary data (unless
 * controls_ok), an input without a non-blank line as empty; any of them
 * wins over the parser's own error.  Once one is certain, or the parser
 * has failed, the lines are only checked. */
typedef struct esxi_feed {
	const char *name, *cmd;
	int controls_ok;
	int file;                /* a NUL is kept (and refused); else it
	                          * ends the text */
	size_t max, total;       /* file: its limit, the bytes read */
	esxi_line_fn *fn;        /* NULL: only checked */
	void *ctx;
	gw_err *e;
	char *buf;               /* the line, NUL-terminated, no '\n' */
	size_t len, cap;
	unsigned ln;             /* lines read */
	int rc;                  /* the parser's first non-zero return */
	int preamble, nonblank, nul, ended, too_large;
	int spaces_only;         /* no byte but isspace() read yet */
	unsigned bad_ln;
	unsigned char bad_c;
} esxi_feed;

static void
feed_add(esxi_feed *f, const char *p, size_t n)
{
	if (f->len + n + 1 > f->cap) {
		f->cap = f->len + n + 1 > 2 * f->cap ? f->len + n + 1 + 64
		                                     : 2 * f->cap;
		f->buf = gw_xrealloc(f->buf, f->cap);
	}
	memcpy(f->buf + f->len, p, n);
	f->len += n;
}

/* A whole line, the len bytes at b (b[len] writable: the '\n' it had, or
 * room in f->buf): check it, then the parser. */
static void
feed_line(esxi_feed *f, char *b, size_t len)
{
	b[len] = '\0';
	if (++f->ln == 1 && len >= 3 && memcmp(b, "\xEF\xBB\xBF", 3) == 0) {
		b += 3;
		len -= 3;
	}
	if (f->file && memchr(b, '\0', len) != NULL)
		f->nul = 1;
	if (!f->controls_ok && f->bad_ln == 0) {
		long bad = control_byte(b, len);

		if (bad >= 0) {
			f->bad_ln = f->ln;
			f->bad_c = (unsigned char)b[bad];
		}
	}
	while (len > 0 && (b[len - 1] == '\r' || esxi_is_blank(b[len - 1])))
		len--;
	b[len] = '\0';
	if (len > 0)
		f->nonblank = 1;
	if (f->fn == NULL || f->rc != 0 || f->nul || f->bad_ln != 0)
		return;
	if (f->preamble && esxi_preamble_line(b, f->cmd))
		return;
	f->preamble = 0;
	f->rc = f->fn(f->ctx, b, f->ln);
}

/* The k bytes at p end a line: with what f->buf holds of it, or alone,
 * where they are (p[k] is overwritten). */
static void
feed_end_line(esxi_feed *f, char *p, size_t k)
{
	if (f->len == 0) {
		feed_line(f, p, k);
		return;
	}
	feed_add(f, p, k);
	k = f->len;
	f->len = 0;
	feed_line(f, f->buf, k);
}

/* Are the n bytes at p spaces too? */
static void
spaces(esxi_feed *f, const char *p, size_t n)
{
	size_t i;

	for (i = 0; f->spaces_only && i < n; i++)
		if (!isspace((unsigned char)p[i]))
			f->spaces_only = 0;
}

/* n more bytes of the input (a gw_esxi_sink: the lines are cut where
 * they are, p's bytes changed). */
static int
feed_bytes(void *ctx, char *p, size_t n)
{
	esxi_feed *f = ctx;

	if (f->ended)
		return 0;
	if (f->file && (f->total += n) > f->max) {
		f->too_large = f->ended = 1;
		return 0;
	}
	while (n > 0) {
		char *nl = memchr(p, '\n', n), *z;
		size_t k = nl ? (size_t)(nl - p) : n;

		if (!f->file && (z = memchr(p, '\0', k)) != NULL) {
			k = (size_t)(z - p);
			spaces(f, p, k);
			if (f->len + k > 0)
				feed_end_line(f, p, k);
			f->ended = 1;
			return 0;
		}
		spaces(f, p, k);
		if (nl == NULL) {
			feed_add(f, p, k);
			return 0;
		}
		feed_end_line(f, p, k);
		p += k + 1;
		n -= k + 1;
	}
	return 0;
}

/* The input's end: its last line, then the checks' verdict. */
static int
feed_end(esxi_feed *f, const esxi_src *src)
{
	if (!f->ended && f->len > 0) {
		size_t k = f->len;

		f->len = 0;
		feed_line(f, f->buf, k);
	}
	free(f->buf);
	f->buf = NULL;
	if (src->empty_ok && f->spaces_only && !f->too_large)
		return 0;
	if (f->too_large) {
		gw_err_set(f->e, _("%s: file is too large (more than %zu "
		                   "bytes)"), src->path, src->max);
		return -1;
	}
	if (f->nul) {
		gw_err_set(f->e, _("%s: binary data (NUL byte); expected the "
		                   "text output of %s"), src->path, f->cmd);
		return -1;
	}
	if (f->bad_ln != 0) {
		esxi_err_line(f->e, f->name, f->bad_ln,
		              _("binary data (control byte 0x%02x); "
		                "expected the text output of %s"), f->bad_c,
		              f->cmd);
		return -1;
	}
	if (!f->nonblank) {
		esxi_err_input(f->e, f->name, _("no output in it; expected the "
		                                "output of %s"), f->cmd);
		return -1;
	}
	return f->rc;
}

/* Every line of src through f; -1 (e set) when src cannot be read. */
static int
feed_src(esxi_feed *f, const esxi_src *src)
{
	char chunk[65536];
	size_t n;

	f->file = src->f != NULL;
	f->max = src->max;
	if (src->produce != NULL)
		return src->produce(src->pctx, feed_bytes, f, f->e);
	if (src->f == NULL) {
		const char *t = src->text ? src->text : "";
		size_t left = strlen(t);

		/* in pieces, so that the lines are cut in a copy */
		while (!f->ended && left > 0) {
			n = left < sizeof chunk ? left : sizeof chunk;
			memcpy(chunk, t, n);
			feed_bytes(f, chunk, n);
			t += n;
			left -= n;
		}
		return 0;
	}
	while (!f->ended && (n = fread(chunk, 1, sizeof chunk, src->f)) > 0)
		feed_bytes(f, chunk, n);
	if (!f->ended && ferror(src->f)) {
		gw_err_set(f->e, _("%s: cannot read: %s"), src->path,
		           strerror(errno));
		return -1;
	}
	return 0;
}

int
esxi_src_each_line(const esxi_src *src, const char *name, const char *cmd,
                   int controls_ok, esxi_line_fn *fn, void *ctx, gw_err *e)
{
	esxi_feed f;

	memset(&f, 0, sizeof f);
	f.name = name;
	f.cmd = cmd;
	f.controls_ok = controls_ok;
	f.fn = fn;
	f.ctx = ctx;
	f.e = e;
	f.preamble = 1;
	f.spaces_only = 1;
	if (feed_src(&f, src) != 0) {
		free(f.buf);
		return -1;
	}
	return feed_end(&f, src);
}

int
esxi_each_line(const char *text, const char *name, const char *cmd,
               esxi_line_fn *fn, void *ctx, gw_err *e)
{
	esxi_src src = { .text = text };

	return esxi_src_each_line(&src, name, cmd, 0, fn, ctx, e);
}

/* ---- tables: every line kept (a header needs the dashes under it) ----- */

static void
esxi_lines_free(esxi_lines *tl)
{
	gw_strs_free(tl->v, tl->n);
	tl->v = NULL;
	tl->n = 0;
}

typedef struct lines_keep {
	esxi_lines *tl;
	size_t cap;
} lines_keep;

static int
keep_line(void *ctx, const char *s, unsigned ln)
{
	lines_keep *k = ctx;

	(void)ln;
	k->tl->v = esxi_grow(k->tl->v, k->tl->n, &k->cap, sizeof *k->tl->v,
	                     64);
	k->tl->v[k->tl->n++] = gw_xstrdup(s);
	return 0;
}

/* Split text into lines, checked as esxi_src_each_line checks them. */
static int
esxi_split_lines(const char *text, const char *name, const char *cmd,
                 esxi_lines *tl, gw_err *e)
{
	esxi_src src = { .text = text };
	lines_keep k = { .tl = tl };
	esxi_feed f;

	tl->v = NULL;
	tl->n = 0;
	memset(&f, 0, sizeof f);
	f.name = name;
	f.cmd = cmd;
	f.fn = keep_line;
	f.ctx = &k;
	f.e = e;
	feed_src(&f, &src);
	if (feed_end(&f, &src) != 0) {
		esxi_lines_free(tl);
		return -1;
	}
	return 0;
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
esxi_parse_table(const char *text, const char *name,
                 const esxi_table *t, void *ctx, gw_err *e)
{
	esxi_lines tl;
	size_t i;
	int rc = -1;

	if (esxi_split_lines(text, name, t->cmd, &tl, e) != 0)
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
