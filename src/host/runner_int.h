/* SPDX-License-Identifier: GPL-3.0-or-later */
/* runner_int.h: what the pieces of the command runner share (runner.c:
 * the runner and its commands; runner_spawn.c: fork/exec with pipes and a
 * timeout; runner_file.c: files through the runner; runner_session.c and
 * runner_guard.c: the ESXi operations).  Private to src/host/runner*.c
 * and tests/unit/host/test_runner.c (which shortens the timeout). */
#ifndef GW_RUNNER_INT_H
#define GW_RUNNER_INT_H

#include "runner.h"

#include <sys/types.h>

struct gw_runner {
	int remote;
	char *host;          /* user@host */
	char **extra;        /* extra ssh words, NULL-terminated (or NULL) */
	char *dir;           /* private temporary directory of the socket */
	char *sock;          /* control socket */
	char *path_prefix;
	char *volumes_root;
	unsigned timeout;     /* seconds one command may run
	                      * (GW_RUNNER_TIMEOUT) */
	int prompt;          /* the master may ask for a password on the tty */
	int foreground;      /* spawn in the terminal's process group (a
	                      * prompting master: a background group would be
	                      * stopped reading /dev/tty) */
	volatile pid_t master; /* the ssh master in the background (ssh -O
	                      * check), 0 when unknown */
	int fatal_slot;      /* its cleanup on a fatal signal (fatalsig.h),
	                      * -1 when none */
};

/* ---- runner_spawn.c ---------------------------------------------------- */

/* Where a command's stdout goes: collected in *out (NUL-terminated, its
 * length in *olen; each may be NULL), or with sink set handed to sink
 * chunk by chunk as it arrives, never collected (*olen: its length). */
typedef struct runner_out {
	char **out;
	size_t *olen;
	gw_esxi_sink *sink;
	void *sctx;
} runner_out;

/* Run argv (exec'ed with execvp) with in[0..inlen) on its stdin; stdout
 * to o, stderr collected.  what names the
 * command in errors.  0 with the exit status in *status (128+N when killed
 * by signal N), or -1: not started, past the timeout, too much output. */
int runner_spawn(const gw_runner *r, char *const argv[], const char *in,
                 size_t inlen, const runner_out *o, char **err,
                 int *status, const char *what, gw_err *e);
/* CLOCK_MONOTONIC in seconds: the timeouts and the times -v shows. */
double runner_now(void);

/* ---- runner.c ---------------------------------------------------------- */

/* word -> 'word' with every ' written as '\'' */
void runner_quote_word(gw_buf *b, const char *w);
/* First line of s (at most 300 bytes), for error messages; malloc'ed. */
char *runner_first_line(const char *s);
/* The words of argv joined by blanks, for messages; malloc'ed. */
char *runner_argv_text(const char *const argv[]);
/* "WHAT: failed (exit ST): first line of err". */
void runner_status_error(gw_err *e, const char *what, int st,
                         const char *err);
/* Run a shell script made only of fixed text and runner_quote_word()ed
 * words: "sh -c SCRIPT" here, "ssh ... HOST SCRIPT" for a remote runner. */
int runner_run_script(gw_runner *r, const char *script, const char *in,
                      size_t inlen, const runner_out *o, char **err,
                      int *status, const char *what, gw_err *e);
/* gw_runner_run, stdout to o. */
int runner_run_argv(gw_runner *r, const char *const argv[],
                    const runner_out *o, char **err, int *status, gw_err *e);

/* ---- runner_session.c -------------------------------------------------- */

/* "0000:18:00.0 (SAS3008 PCI-Express Fusion-MPT SAS-3)" for messages;
 * malloc'ed. */
char *runner_dev_label(const gw_esxi_pci_dev *d);

#endif
