/* SPDX-License-Identifier: GPL-3.0-or-later */
/* fatalsig.h: how the command line ends on SIGINT, SIGTERM, SIGHUP and
 * SIGQUIT, and core dumps while a secret is held (doc/design.md, 4.6).
 *
 * One handler for the four signals (gw_fatal_signals_install, from
 * gw_cli_main): it runs the cleanups registered with gw_fatal_add (the
 * password prompt's terminal mode, the running child, the ssh master and
 * its socket), then raises the signal again with its default action, so
 * the exit status is 128 + the signal.  A signal the program was started
 * with ignored stays ignored.  The wizard's screens install their own
 * flag-only handlers while curses runs (ui/tui.c) and end through the
 * normal exit path, which closes the host; they put these back after.
 *
 * Cleanups run inside the signal handler: they may only call
 * async-signal-safe functions (kill, unlink, rmdir, tcsetattr, write).
 */
#ifndef GW_FATALSIG_H
#define GW_FATALSIG_H

typedef void (*gw_fatal_fn)(void *arg);

/* The handler for SIGINT, SIGTERM, SIGHUP and SIGQUIT in this process. */
void gw_fatal_signals_install(void);

/* Register fn(arg) to run when one of the four signals ends the process;
 * a slot for gw_fatal_remove, -1 when all slots are taken. */
int gw_fatal_add(gw_fatal_fn fn, void *arg);
void gw_fatal_remove(int slot);

/* Between gw_fatal_hold and gw_fatal_release a signal runs the cleanups
 * but does not end the process: it is kept (gw_fatal_held) and raised
 * again by the release.  For a step that must finish its own cleanup
 * first (starting the ssh master: once it is in the background only the
 * normal path can end it).  Nests. */
void gw_fatal_hold(void);
int gw_fatal_held(void);
void gw_fatal_release(void);

/* No core dump for the rest of the process (RLIMIT_CORE 0, and on Linux
 * not dumpable, which also covers a core_pattern pipe and keeps other
 * processes of the user from reading its memory).  Called before a
 * password is read. */
void gw_no_core_dumps(void);

#endif
