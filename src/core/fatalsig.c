/* SPDX-License-Identifier: GPL-3.0-or-later */
/* fatalsig.c: the command line's handler for SIGINT, SIGTERM, SIGHUP and
 * SIGQUIT, its cleanups, and core dumps off (fatalsig.h). */
#include "fatalsig.h"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#define NSLOTS 16

static const int fatal_sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };
#define NSIGS (sizeof fatal_sigs / sizeof fatal_sigs[0])

static struct {
	gw_fatal_fn volatile fn;
	void *volatile arg;
} slots[NSLOTS];
static volatile sig_atomic_t hold, held;
static pid_t owner;

/* The default action of sig, now. */
static void
die(int sig)
{
	sigset_t s;

	signal(sig, SIG_DFL);
	raise(sig);
	sigemptyset(&s);
	sigaddset(&s, sig);
	sigprocmask(SIG_UNBLOCK, &s, NULL);
	_exit(128 + sig);
}

static void
on_fatal(int sig)
{
	int saved = errno;
	size_t i;

	if (getpid() != owner)   /* a child between fork and exec */
		die(sig);
	for (i = 0; i < NSLOTS; i++) {
		gw_fatal_fn fn = slots[i].fn;

		if (fn)
			fn(slots[i].arg);
	}
	if (hold > 0) {
		if (held == 0)
			held = sig;
		errno = saved;
		return;
	}
	die(sig);
}

void
gw_fatal_signals_install(void)
{
	struct sigaction sa, old;
	size_t i;

	owner = getpid();
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_fatal;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < NSIGS; i++)
		sigaddset(&sa.sa_mask, fatal_sigs[i]);
	sa.sa_flags = SA_RESTART;
	for (i = 0; i < NSIGS; i++) {
		if (sigaction(fatal_sigs[i], NULL, &old) == 0 &&
		    old.sa_handler == SIG_IGN)
			continue;   /* nohup, a background job: stays ignored */
		sigaction(fatal_sigs[i], &sa, NULL);
	}
}

int
gw_fatal_add(gw_fatal_fn fn, void *arg)
{
	int i;

	for (i = 0; i < NSLOTS; i++) {
		if (slots[i].fn == NULL) {
			slots[i].arg = arg;
			slots[i].fn = fn;
			return i;
		}
	}
	return -1;
}

void
gw_fatal_remove(int slot)
{
	if (slot >= 0 && slot < NSLOTS) {
		slots[slot].fn = NULL;
		slots[slot].arg = NULL;
	}
}

void
gw_fatal_hold(void)
{
	hold++;
}

int
gw_fatal_held(void)
{
	return held;
}

void
gw_fatal_release(void)
{
	if (hold > 0)
		hold--;
	if (hold == 0 && held != 0)
		raise(held);
}

void
gw_no_core_dumps(void)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_CORE, &rl) == 0) {
		rl.rlim_cur = 0;
		setrlimit(RLIMIT_CORE, &rl);
	}
#ifdef __linux__
	prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
#endif
}
