/* SPDX-License-Identifier: GPL-3.0-or-later */
/* verify_nvsmi_input.c: reading `nvidia-smi -q` (verify.h, layer 1): the
 * input in chunks as it comes, cut into lines for the parser
 * (verify_nvsmi.c), and what refuses it as a whole (empty, UTF-16,
 * binary, XML, the summary table, not nvidia-smi -q at all).
 *
 * What the reader keeps is bounded: the first 8 KiB (the UTF-16 and
 * control byte checks look at them), the line being cut, and the
 * parser's state; a refusal of the parser waits for the end of the input,
 * since the whole-input checks come first.
 */
#include "verify_int.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define NM(n) ((n) != NULL ? (n) : "<nvidia-smi -q>")
#define HEAD_MAX 8192

typedef struct gw_nvsmi_reader {
	gw_nvsmi *q;
	gw_nvsmi_parser *P;      /* NULL once it refused the input */
	const char *nm;
	gw_err perr;             /* the parser's refusal */
	int prc;                 /* 0, or -1: perr holds the refusal */
	size_t total;            /* bytes read */
	unsigned char head[HEAD_MAX];
	size_t nhead;
	int text;                /* a byte that is not a blank was read */
	size_t nul_at;           /* the first NUL's offset, or SIZE_MAX */
	gw_buf part;             /* the start of a line cut by a chunk's end */
	gw_buf line;             /* the line the parser cuts up */
	size_t lines;            /* lines handed to the parser */
	int xml_decl, xml_tag;   /* "<?xml" first, "<nvidia_smi_log" seen */
	int smi_title, smi_rule; /* "NVIDIA-SMI ", "+---" seen */
} gw_nvsmi_reader;

static gw_nvsmi_reader *
reader_new(gw_nvsmi *q, const char *name)
{
	gw_nvsmi_reader *r = gw_xcalloc(1, sizeof *r);

	r->q = q;
	r->nm = NM(name);
	r->P = gw_nvsmi_parser_new(q, r->nm, &r->perr);
	r->nul_at = SIZE_MAX;
	gw_buf_init(&r->part);
	gw_buf_init(&r->line);
	return r;
}

/* One whole line (without its '\n') to the parser, in a copy it may cut
 * up, and the words that tell what a refused input is (only while nothing
 * of nvidia-smi -q has been seen: then they are never asked); nothing
 * once the parser has refused the input. */
static void
take_line(void *ctx, const char *line, size_t n)
{
	gw_nvsmi_reader *r = ctx;
	const gw_nvsmi *q = r->q;
	char *s;

	if (r->P == NULL)
		return;
	r->line.len = 0;
	gw_buf_add(&r->line, line, n);
	s = r->line.data;
	if (r->lines++ == 0) {
		if (n >= 3 && memcmp(s, "\xef\xbb\xbf", 3) == 0) {
			s += 3;
			n -= 3;
		}
		r->xml_decl = n >= 5 && memcmp(s, "<?xml", 5) == 0;
	}
	if (!q->banner && q->ngpus == 0 && q->error_text == NULL) {
		r->xml_tag |= memmem(s, n, "<nvidia_smi_log", 15) != NULL;
		r->smi_title |= memmem(s, n, "NVIDIA-SMI ", 11) != NULL;
		r->smi_rule |= memmem(s, n, "+---", 4) != NULL;
	}
	if (gw_nvsmi_parser_line(r->P, s, n) != 0) {
		r->prc = -1;
		(void)gw_nvsmi_parser_end(r->P, -1);
		r->P = NULL;
	}
}

static void
reader_feed(gw_nvsmi_reader *r, const char *data, size_t len)
{
	const char *z;
	size_t i;

	if (r->nhead < HEAD_MAX) {
		size_t k = len < HEAD_MAX - r->nhead ? len : HEAD_MAX - r->nhead;

		memcpy(r->head + r->nhead, data, k);
		r->nhead += k;
	}
	for (i = 0; !r->text && i < len; i++)
		r->text = !isspace((unsigned char)data[i]);
	if (r->nul_at == SIZE_MAX && (z = memchr(data, '\0', len)) != NULL)
		r->nul_at = r->total + (size_t)(z - data);
	r->total += len;
	if (r->P != NULL)
		gw_lines_feed(&r->part, data, len, take_line, r);
}

/* Refuse what is not text (the checks of the whole input, first): 0 when
 * it is. */
static int
check_text(const gw_nvsmi_reader *r, gw_err *e)
{
	const unsigned char *d = r->head;
	size_t i, n = r->nhead, ctl = 0, oddnul = 0;

	if (!r->text) {
		gw_err_set(e, _("%s: the file is empty; expected the output of "
		                "nvidia-smi -q"), r->nm);
		return -1;
	}
	for (i = 1; i < n; i += 2)
		oddnul += d[i] == '\0';
	if ((r->total >= 2 && ((d[0] == 0xff && d[1] == 0xfe) ||
	                       (d[0] == 0xfe && d[1] == 0xff))) ||
	    (n >= 16 && oddnul * 4 > n)) {
		gw_err_set(e, _("%s: looks like UTF-16 text (as PowerShell's > "
		                "writes it); save it as UTF-8, for example with "
		                "nvidia-smi -q -f FILE"), r->nm);
		return -1;
	}
	if (r->nul_at != SIZE_MAX) {
		gw_err_set(e, _("%s: binary data (NUL byte at offset %zu); "
		                "expected the text output of nvidia-smi -q"),
		           r->nm, r->nul_at);
		return -1;
	}
	for (i = 0; i < n; i++) {
		unsigned char c = d[i];

		if (c < 0x20 && c != '\t' && c != '\n' && c != '\r' &&
		    c != '\f' && c != '\v' && c != 0x1b)
			ctl++;
	}
	if (ctl > 8 && ctl * 32 > n) {
		gw_err_set(e, _("%s: binary data (control bytes); expected the "
		                "text output of nvidia-smi -q"), r->nm);
		return -1;
	}
	return 0;
}

/* Say what an input without anything of nvidia-smi -q is. */
static void
not_nvsmi(const gw_nvsmi_reader *r, gw_err *e)
{
	if (r->xml_tag || r->xml_decl)
		gw_err_set(e, _("%s: XML output (nvidia-smi -q -x); gpuwiz reads "
		                "the text output of nvidia-smi -q"), r->nm);
	else if (r->smi_title && r->smi_rule)
		gw_err_set(e, _("%s: the nvidia-smi summary table; gpuwiz reads "
		                "the output of nvidia-smi -q"), r->nm);
	else
		gw_err_set(e, _("%s: not the output of nvidia-smi -q: no \"NVSMI "
		                "LOG\" banner and no \"GPU 00000000:xx:xx.x\" "
		                "section"), r->nm);
}

static int
reader_end(gw_nvsmi_reader *r, gw_err *e)
{
	int rc;

	/* the last line, when the input does not end with one */
	gw_lines_end(&r->part, take_line, r);
	rc = check_text(r, e);
	if (rc == 0 && r->prc != 0) {
		if (e != NULL)
			*e = r->perr;
		rc = -1;
	}
	if (r->P != NULL) {
		int prc = gw_nvsmi_parser_end(r->P, rc);

		if (rc == 0 && prc == -1 && e != NULL)
			*e = r->perr;
		rc = rc == 0 ? prc : rc;
	}
	if (rc == 1) {
		not_nvsmi(r, e);
		rc = -1;
	}
	if (rc != 0)
		gw_nvsmi_free(r->q);
	gw_buf_free(&r->line);
	free(r);
	return rc;
}

int
gw_nvsmi_parse_pieces(gw_nvsmi *q, const char *data, size_t len,
                      size_t piece, const char *name, gw_err *e)
{
	gw_nvsmi_reader *r = reader_new(q, name);
	size_t at = 0;

	if (data == NULL)
		len = 0;
	if (piece == 0)
		piece = len;
	while (at < len) {
		size_t k = len - at < piece ? len - at : piece;

		reader_feed(r, data + at, k);
		at += k;
	}
	return reader_end(r, e);
}

static void
take_chunk(void *r, const char *data, size_t len)
{
	reader_feed(r, data, len);
}

int
gw_nvsmi_parse_file(gw_nvsmi *q, const char *path, gw_err *e)
{
	gw_nvsmi_reader *r;
	int fd, rc;

	memset(q, 0, sizeof *q);
	q->attached_gpus = -1;
	if ((fd = gw_open_regular(path, e)) < 0)
		return -1;
	r = reader_new(q, path);
	rc = gw_read_stream(fd, path, GW_NVSMI_MAX_BYTES, take_chunk, r, e);
	close(fd);
	if (rc != 0) {
		reader_end(r, NULL);
		gw_nvsmi_free(q);
		return -1;
	}
	return reader_end(r, e);
}
