/* SPDX-License-Identifier: GPL-3.0-or-later */
/* out.h: stdout's errors kept for the exit (cli.c close_stdout): stdio's
 * error flag outlives a failed write, its errno does not; and a stream
 * whose text reaches a terminal escaped. */
#ifndef GW_OUT_H
#define GW_OUT_H

#include "gw.h"

#include <stdio.h>

/* fflush(stdout); a failure's errno is kept for gw_out_errno(). */
int gw_out_flush(void);

/* fputs(text, stdout) then gw_out_flush(); a failure's errno is kept too
 * (a text longer than stdio's buffer fails inside fputs, and stdio drops
 * what it could not write, so a later flush no longer sees the error). */
int gw_out_text(const char *text);

/* The errno of the first failed gw_out_flush() or gw_out_text(), 0 when
 * none failed. */
int gw_out_errno(void);

/* A stream to out whose text reaches it escaped for a terminal
 * (gw_fputs_escaped), whole lines at a time, through x; out itself when
 * raw.  End it with gw_out_escaped_close. */
typedef struct gw_out_esc {
	FILE *out;
	gw_buf pend;             /* what stdio wrote since the last line end */
} gw_out_esc;
FILE *gw_out_escaped_open(FILE *out, int raw, gw_out_esc *x);
void gw_out_escaped_close(FILE *f, FILE *out);

#endif
