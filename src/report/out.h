/* out.h: stdout's errors kept for the exit (cli.c close_stdout): stdio's
 * error flag outlives a failed write, its errno does not. */
#ifndef GW_OUT_H
#define GW_OUT_H

/* fflush(stdout); a failure's errno is kept for gw_out_errno(). */
int gw_out_flush(void);

/* The errno of the first failed gw_out_flush(), 0 when none failed. */
int gw_out_errno(void);

#endif
