/* SPDX-License-Identifier: GPL-3.0-or-later */
/* out.c: flushing stdout without losing why it failed, and a stream
 * escaped for a terminal (out.h). */
#include "out.h"
#include "textesc.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

static int out_errno;

int
gw_out_flush(void)
{
	if (fflush(stdout) == 0)
		return 0;
	if (out_errno == 0)
		out_errno = errno;
	return -1;
}

int
gw_out_text(const char *text)
{
	if (fputs(text, stdout) == EOF) {
		if (out_errno == 0)
			out_errno = errno;
		return -1;
	}
	return gw_out_flush();
}

int
gw_out_errno(void)
{
	return out_errno;
}

/* ---- a stream escaped for a terminal ----------------------------------- */

/* Whole lines at a time: escaped a character at a time, the lines of a
 * text escape as the whole text does, and a character is never cut. */
static ssize_t
esc_write(void *c, const char *p, size_t n)
{
	gw_out_esc *x = c;
	const char *nl;
	size_t k;
	char keep;

	gw_buf_add(&x->pend, p, n);
	nl = memrchr(x->pend.data, '\n', x->pend.len);
	if (nl == NULL)
		return (ssize_t)n;
	k = (size_t)(nl - x->pend.data) + 1;
	keep = x->pend.data[k];
	x->pend.data[k] = '\0';
	gw_fputs_escaped(x->pend.data, x->out);
	x->pend.data[k] = keep;
	memmove(x->pend.data, x->pend.data + k, x->pend.len - k + 1);
	x->pend.len -= k;
	return (ssize_t)n;
}

static int
esc_close(void *c)
{
	gw_out_esc *x = c;

	if (x->pend.len > 0)
		gw_fputs_escaped(x->pend.data, x->out);
	gw_buf_free(&x->pend);
	return 0;
}

FILE *
gw_out_escaped_open(FILE *out, int raw, gw_out_esc *x)
{
	static const cookie_io_functions_t io = { .write = esc_write,
	                                          .close = esc_close };
	FILE *f;

	if (raw)
		return out;
	x->out = out;
	gw_buf_init(&x->pend);
	if ((f = fopencookie(x, "w", io)) == NULL)
		abort();
	return f;
}

void
gw_out_escaped_close(FILE *f, FILE *out)
{
	if (f != out)
		fclose(f);
}
