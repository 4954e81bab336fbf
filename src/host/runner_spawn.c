/* SPDX-License-Identifier: GPL-3.0-or-later */
/* runner_spawn.c: start one command with fork/exec and pipes (never
 * system() or popen()), feed its stdin, collect its stdout and stderr, and
 * kill it when it runs past the timeout or writes too much. */
#include "runner_int.h"
#include "fatalsig.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* One command being run. */
typedef struct spawn_job {
	const gw_runner *r;
	const char *what;
	const char *in;          /* stdin data */
	size_t inlen, inoff;
	int pin[2], pout[2], perr[2];
	struct sigaction old;    /* SIGPIPE before the command */
	gw_buf bo, be;           /* stdout, stderr */
	gw_esxi_sink *sink;      /* set: stdout goes there, not to bo */
	void *sctx;
	size_t olen;             /* the bytes of stdout read */
	volatile pid_t pid;      /* 0 once reaped */
	int own_group;           /* the child leads its own process group */
	double deadline;
	int timed_out, too_much;
} spawn_job;

double
runner_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static unsigned
timeout_s(const gw_runner *r)
{
	return r->timeout ? r->timeout : GW_RUNNER_TIMEOUT;
}

static void
close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

static void
close_all(spawn_job *j)
{
	close_fd(&j->pin[0]);
	close_fd(&j->pin[1]);
	close_fd(&j->pout[0]);
	close_fd(&j->pout[1]);
	close_fd(&j->perr[0]);
	close_fd(&j->perr[1]);
}

/* The PATH the command gets: the runner's prefix first (local runner
 * only; the ssh runner sets it in the remote script).  NULL: unchanged. */
static char *
new_path(const gw_runner *r)
{
	const char *p;

	if (r->remote || r->path_prefix == NULL)
		return NULL;
	p = getenv("PATH");
	return gw_xasprintf("%s:%s", r->path_prefix, p ? p : "/bin:/usr/bin");
}

/* A fatal signal while the command runs (in the handler): stop it, and
 * its process group when it has one. */
static void
kill_child(void *arg)
{
	const spawn_job *j = arg;
	pid_t pid = j->pid;

	if (pid > 0)
		kill(j->own_group ? -pid : pid, SIGTERM);
}

/* In the child: the pipes on 0, 1 and 2, and exec; never returns. */
static void
child_exec(const spawn_job *j, char *const argv[], const char *path)
{
	const char *m;
	ssize_t w;

	signal(SIGPIPE, SIG_DFL);
	if (!j->r->foreground)
		setpgid(0, 0);
	if (dup2(j->pin[0], 0) < 0 || dup2(j->pout[1], 1) < 0 ||
	    dup2(j->perr[1], 2) < 0)
		_exit(127);
	if (path)
		setenv("PATH", path, 1);
	execvp(argv[0], argv);
	m = strerror(errno);
	w = write(2, argv[0], strlen(argv[0]));
	w = write(2, ": ", 2);
	w = write(2, m, strlen(m));
	w = write(2, "\n", 1);
	(void)w;
	_exit(127);
}

/* Pipes, SIGPIPE ignored, fork; in the parent the child's ends closed. */
static int
start(spawn_job *j, char *const argv[], const char *path, gw_err *e)
{
	struct sigaction ign;

	if (pipe2(j->pin, O_CLOEXEC) != 0 || pipe2(j->pout, O_CLOEXEC) != 0 ||
	    pipe2(j->perr, O_CLOEXEC) != 0) {
		gw_err_set(e, _("%s: cannot start it: %s"), j->what,
		           strerror(errno));
		return -1;
	}
	memset(&ign, 0, sizeof ign);
	ign.sa_handler = SIG_IGN;
	sigemptyset(&ign.sa_mask);
	sigaction(SIGPIPE, &ign, &j->old);
	j->own_group = !j->r->foreground;
	j->pid = fork();
	if (j->pid < 0) {
		gw_err_set(e, _("%s: cannot start it: %s"), j->what,
		           strerror(errno));
		sigaction(SIGPIPE, &j->old, NULL);
		return -1;
	}
	if (j->pid == 0)
		child_exec(j, argv, path);
	if (j->own_group)   /* as the child does: no kill before it is so */
		setpgid(j->pid, j->pid);
	close_fd(&j->pin[0]);
	close_fd(&j->pout[1]);
	close_fd(&j->perr[1]);
	if (j->inlen == 0)
		close_fd(&j->pin[1]);
	else
		fcntl(j->pin[1], F_SETFL, fcntl(j->pin[1], F_GETFL) | O_NONBLOCK);
	return 0;
}

/* The open pipes to poll; idx[] gets the place of stdout, stderr and stdin
 * in pf (-1 when closed).  Their number. */
static int
poll_set(const spawn_job *j, struct pollfd *pf, int *idx)
{
	const int fds[3] = { j->pout[0], j->perr[0], j->pin[1] };
	int k, nf = 0;

	for (k = 0; k < 3; k++) {
		idx[k] = -1;
		if (fds[k] < 0)
			continue;
		pf[nf].fd = fds[k];
		pf[nf].events = k < 2 ? POLLIN : POLLOUT;
		pf[nf].revents = 0;
		idx[k] = nf++;
	}
	return nf;
}

/* More of the input on stdin; closed at its end or on an error. */
static void
feed(spawn_job *j)
{
	ssize_t w = write(j->pin[1], j->in + j->inoff, j->inlen - j->inoff);

	if (w > 0)
		j->inoff += (size_t)w;
	if ((w < 0 && errno != EAGAIN && errno != EINTR) || j->inoff == j->inlen)
		close_fd(&j->pin[1]);
}

/* Read what is ready on *fd into b (or, for stdout with a sink, hand it
 * to the sink); closed at its end.  -1 when the output grows past
 * GW_RUNNER_MAX_OUTPUT. */
static int
drain(spawn_job *j, int *fd, gw_buf *b)
{
	char buf[65536];
	ssize_t n = read(*fd, buf, sizeof buf);
	int to_sink = b == &j->bo && j->sink != NULL;

	if (n < 0 && errno == EINTR)
		return 0;
	if (n <= 0) {
		close_fd(fd);
		return 0;
	}
	if ((to_sink ? j->olen : b->len) + (size_t)n > GW_RUNNER_MAX_OUTPUT)
		return -1;
	if (to_sink) {
		j->olen += (size_t)n;
		j->sink(j->sctx, buf, (size_t)n);
	} else {
		gw_buf_add(b, buf, (size_t)n);
	}
	return 0;
}

/* Wait for what poll says is ready, once.  -1 to stop: poll failed or the
 * output is too large (too_much). */
static int
pump_once(spawn_job *j, int left)
{
	struct pollfd pf[3];
	int idx[3], nf, k;

	nf = poll_set(j, pf, idx);
	k = poll(pf, (nfds_t)nf, left);
	if (k < 0)
		return errno == EINTR ? 0 : -1;
	if (idx[2] >= 0 && pf[idx[2]].revents)
		feed(j);
	if (idx[0] >= 0 && pf[idx[0]].revents && drain(j, &j->pout[0], &j->bo) != 0)
		j->too_much = 1;
	if (!j->too_much && idx[1] >= 0 && pf[idx[1]].revents &&
	    drain(j, &j->perr[0], &j->be) != 0)
		j->too_much = 1;
	return j->too_much ? -1 : 0;
}

/* Until stdout and stderr are closed, the deadline passes (timed_out) or
 * something fails. */
static void
pump(spawn_job *j)
{
	while (j->pout[0] >= 0 || j->perr[0] >= 0) {
		double rem = j->deadline - runner_now();
		int left;

		if (rem <= 0) {
			j->timed_out = 1;
			return;
		}
		left = rem > 1e6 ? 1000000000 : (int)(rem * 1000) + 1;
		if (pump_once(j, left) != 0)
			return;
	}
}

/* Kill the command if it is not done, wait for it and say how it ended. */
static int
finish(spawn_job *j, int *status, gw_err *e)
{
	int wst, open = j->pout[0] >= 0 || j->perr[0] >= 0;

	if (j->timed_out || j->too_much || open)
		kill(-j->pid, SIGKILL);
	while (waitpid(j->pid, &wst, 0) < 0 && errno == EINTR)
		;
	j->pid = 0;
	sigaction(SIGPIPE, &j->old, NULL);
	if (j->timed_out) {
		gw_err_set(e, P_("%s: no answer within %u second; stopped it",
		                 "%s: no answer within %u seconds; stopped it",
		                 timeout_s(j->r)),
		           j->what, timeout_s(j->r));
		return -1;
	}
	if (j->too_much) {
		gw_err_set(e, P_("%s: wrote more than %u byte; stopped it",
		                 "%s: wrote more than %u bytes; stopped it",
		                 GW_RUNNER_MAX_OUTPUT),
		           j->what, GW_RUNNER_MAX_OUTPUT);
		return -1;
	}
	if (open) {
		gw_err_set(e, _("%s: cannot read its output: %s"), j->what,
		           strerror(errno));
		return -1;
	}
	*status = WIFEXITED(wst) ? WEXITSTATUS(wst)
	        : WIFSIGNALED(wst) ? 128 + WTERMSIG(wst) : 255;
	return 0;
}

int
runner_spawn(const gw_runner *r, char *const argv[], const char *in,
             size_t inlen, const runner_out *o, char **err, int *status,
             const char *what, gw_err *e)
{
	spawn_job j;
	char *path = new_path(r);
	int rc = -1, slot;

	if (o->out)
		*o->out = NULL;
	if (err)
		*err = NULL;
	*status = -1;
	memset(&j, 0, sizeof j);
	j.sink = o->sink;
	j.sctx = o->sctx;
	j.r = r;
	j.what = what;
	j.in = in;
	j.inlen = inlen;
	j.pin[0] = j.pin[1] = j.pout[0] = j.pout[1] = -1;
	j.perr[0] = j.perr[1] = -1;
	if (start(&j, argv, path, e) != 0)
		goto done;
	slot = gw_fatal_add(kill_child, &j);
	gw_buf_init(&j.bo);
	gw_buf_init(&j.be);
	j.deadline = runner_now() + timeout_s(r);
	pump(&j);
	rc = finish(&j, status, e);
	gw_fatal_remove(slot);
	if (rc == 0 && o->olen)
		*o->olen = j.sink ? j.olen : j.bo.len;
	if (rc == 0 && o->out)
		*o->out = gw_buf_steal(&j.bo);
	if (rc == 0 && err)
		*err = gw_buf_steal(&j.be);
	gw_buf_free(&j.bo);
	gw_buf_free(&j.be);
done:
	close_all(&j);
	free(path);
	return rc;
}
