/* SPDX-License-Identifier: GPL-3.0-or-later */
/* out.h: stdout's errors kept for the exit (cli.c close_stdout): stdio's
 * error flag outlives a failed write, its errno does not. */
#ifndef GW_OUT_H
#define GW_OUT_H

/* fflush(stdout); a failure's errno is kept for gw_out_errno(). */
int gw_out_flush(void);

/* fputs(text, stdout) then gw_out_flush(); a failure's errno is kept too
 * (a text longer than stdio's buffer fails inside fputs, and stdio drops
 * what it could not write, so a later flush no longer sees the error). */
int gw_out_text(const char *text);

/* The errno of the first failed gw_out_flush() or gw_out_text(), 0 when
 * none failed. */
int gw_out_errno(void);

#endif
