/* SPDX-License-Identifier: GPL-3.0-or-later */
/* runner.c: the command runner: local (the ESXi shell itself) or through
 * one ssh ControlMaster, and running commands on it (runner_spawn.c does
 * the fork/exec, runner_file.c reads and writes files, runner_session.c
 * and runner_guard.c the ESXi operations). */
#include "runner_int.h"
#include "fatalsig.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* ---- helpers ---------------------------------------------------------- */

/* -v (gw_verbosity): a command run on the host, one line: where, the
 * command line as run there (for ssh the words as quoted for the remote
 * shell; never a file's data, which goes on stdin), its exit status
 * (rc 0) or that it did not run to its end, and its time from t0. */
static void
trace_run(const gw_runner *r, const char *cmd, int rc, int st, double t0)
{
	double t;

	if (gw_verbosity() != GW_VERBOSE)
		return;
	t = runner_now() - t0;
	if (r->remote && rc == 0)
		/* TRANSLATORS: -v: user@host, the command as run there, its
		 * exit status, its time in seconds. */
		gw_trace(_("ssh %s: %s: exit %d, %.3f s"), r->host, cmd, st, t);
	else if (r->remote)
		/* TRANSLATORS: -v: a command that was not started, ran past
		 * its time or wrote too much (the error follows). */
		gw_trace(_("ssh %s: %s: did not finish, %.3f s"), r->host, cmd, t);
	else if (rc == 0)
		/* TRANSLATORS: -v: a command run here (the ESXi shell). */
		gw_trace(_("local: %s: exit %d, %.3f s"), cmd, st, t);
	else
		gw_trace(_("local: %s: did not finish, %.3f s"), cmd, t);
}

void
runner_quote_word(gw_buf *b, const char *w)
{
	gw_buf_puts(b, "'");
	for (; *w; w++) {
		if (*w == '\'')
			gw_buf_puts(b, "'\\''");
		else
			gw_buf_add(b, w, 1);
	}
	gw_buf_puts(b, "'");
}

char *
runner_first_line(const char *s)
{
	size_t n = 0;

	if (s == NULL)
		return gw_xstrdup("");
	while (s[n] && s[n] != '\n' && s[n] != '\r' && n < 300)
		n++;
	return gw_xstrndup(s, n);
}

char *
runner_argv_text(const char *const argv[])
{
	gw_buf b;
	size_t i;

	gw_buf_init(&b);
	for (i = 0; argv[i]; i++) {
		if (i)
			gw_buf_puts(&b, " ");
		gw_buf_puts(&b, argv[i]);
	}
	return gw_buf_steal(&b);
}

void
runner_status_error(gw_err *e, const char *what, int st, const char *err)
{
	char *line = runner_first_line(err);

	gw_err_set(e, _("%s: failed (exit %d): %s"), what, st,
	           *line ? line : _("no message"));
	free(line);
}

/* ssh words shared by every ssh call; caller appends the rest. */
static size_t
ssh_base(const gw_runner *r, const char **v, int master)
{
	size_t n = 0, i;

	v[n++] = "ssh";
	if (master)
		v[n++] = "-M";
	v[n++] = "-S";
	v[n++] = r->sock;
	v[n++] = "-o";
	v[n++] = master ? "ControlPersist=600" : "ControlMaster=no";
	if (!(master && r->prompt)) {
		v[n++] = "-o";
		v[n++] = "BatchMode=yes";
	}
	v[n++] = "-o";
	v[n++] = "StrictHostKeyChecking=yes";
	v[n++] = "-o";
	v[n++] = "ConnectTimeout=20";
	v[n++] = "-T";
	for (i = 0; r->extra && r->extra[i]; i++)
		v[n++] = r->extra[i];
	return n;
}

static size_t
nextra(const gw_runner *r)
{
	size_t n = 0;

	while (r->extra && r->extra[n])
		n++;
	return n;
}

/* ssh_base() words, then tail (NULL-terminated), in a NULL-terminated
 * malloc'ed vector. */
static const char **
ssh_argv(const gw_runner *r, int master, const char *const tail[])
{
	const char **v = gw_xcalloc(nextra(r) + 24, sizeof *v);
	size_t n = ssh_base(r, v, master), i;

	for (i = 0; tail[i]; i++)
		v[n++] = tail[i];
	v[n] = NULL;
	return v;
}

int
runner_run_script(gw_runner *r, const char *script, const char *in,
                  size_t inlen, const runner_out *o, char **err,
                  int *status, const char *what, gw_err *e)
{
	const char **v;
	gw_buf full;
	double t0 = runner_now();
	int rc;

	gw_buf_init(&full);
	if (r->remote) {
		if (r->path_prefix) {
			gw_buf_puts(&full, "PATH=");
			runner_quote_word(&full, r->path_prefix);
			gw_buf_puts(&full, ":\"$PATH\"; export PATH; ");
		}
		gw_buf_puts(&full, script);
		{
			const char *tail[] = { "--", r->host, full.data, NULL };

			v = ssh_argv(r, 0, tail);
		}
	} else {
		v = gw_xcalloc(4, sizeof *v);
		v[0] = "/bin/sh";
		v[1] = "-c";
		v[2] = script;
	}
	rc = runner_spawn(r, (char *const *)v, in, inlen, o, err,
	                  status, what, e);
	trace_run(r, r->remote ? full.data : script, rc, *status, t0);
	gw_buf_free(&full);
	free(v);
	return rc;
}

/* ---- runner ----------------------------------------------------------- */

static gw_runner *
runner_new(void)
{
	gw_runner *r = gw_xcalloc(1, sizeof *r);

	r->timeout = GW_RUNNER_TIMEOUT;
	r->fatal_slot = -1;
	r->volumes_root = gw_xstrdup("/vmfs/volumes");
	return r;
}

gw_runner *
gw_runner_open_local(void)
{
	return runner_new();
}

static void
runner_free(gw_runner *r)
{
	size_t i;

	gw_fatal_remove(r->fatal_slot);
	if (r->sock)
		unlink(r->sock);
	if (r->dir)
		rmdir(r->dir);
	for (i = 0; r->extra && r->extra[i]; i++)
		free(r->extra[i]);
	free(r->extra);
	free(r->host);
	free(r->dir);
	free(r->sock);
	free(r->path_prefix);
	free(r->volumes_root);
	free(r);
}

/* A remote runner for user_at_host with its private socket directory;
 * NULL (e set) when the host is not user@host or the directory cannot be
 * made. */
static gw_runner *
ssh_runner_new(const char *user_at_host, const char *const extra[],
               int prompt, gw_err *e)
{
	const char *tmp = getenv("TMPDIR");
	gw_runner *r;
	size_t n, i;

	if (user_at_host == NULL || user_at_host[0] == '\0' ||
	    user_at_host[0] == '-' || strpbrk(user_at_host, " \t\r\n'\"\\")) {
		gw_err_set(e, _("--ssh: \"%s\" is not a host; expected user@host, "
		                "e.g. root@esx01"),
		           user_at_host ? user_at_host : "");
		/* TRANSLATORS: the SSH connection box's host field. */
		gw_err_set_ui(e, _("User@host: \"%s\" is not a host; expected user@host, e.g. root@esx01"),
		              user_at_host ? user_at_host : "");
		return NULL;
	}
	r = runner_new();
	r->remote = 1;
	r->prompt = prompt ? 1 : 0;
	r->host = gw_xstrdup(user_at_host);
	for (n = 0; extra && extra[n]; n++)
		;
	r->extra = gw_xcalloc(n + 1, sizeof *r->extra);
	for (i = 0; i < n; i++)
		r->extra[i] = gw_xstrdup(extra[i]);
	r->dir = gw_xasprintf("%s/gpuwiz-ssh.XXXXXX",
	                      tmp && *tmp && strlen(tmp) < 60 ? tmp : "/tmp");
	if (mkdtemp(r->dir) == NULL) {
		gw_err_set(e, _("%s: cannot create a directory for the ssh "
		                "control socket: %s"), r->dir, strerror(errno));
		free(r->dir);
		r->dir = NULL;
		runner_free(r);
		return NULL;
	}
	r->sock = gw_xasprintf("%s/ctl", r->dir);
	return r;
}

/* Why the master did not start (ssh exited with st, err its stderr). */
static void
master_error(const gw_runner *r, int st, const char *err, gw_err *e)
{
	char *line = runner_first_line(err);
	const char *msg = *line ? line : _("no message");

	if (err == NULL)
		err = "";
	if (strstr(err, "Host key verification failed"))
		/* TRANSLATORS: %s is user@host, then ssh's message. */
		gw_err_set(e, _("ssh %s: %s: the host's key is not in known_hosts or has changed; log in once with ssh yourself and check the key's fingerprint on the host's console (gpuwiz never accepts a key unseen)"),
		           r->host, msg);
	else if (!r->prompt && strstr(err, "Permission denied")) {
		gw_err_set(e, _("ssh %s: %s: no key was accepted and there is no terminal to ask for a password; use ssh keys (ssh-copy-id, or /etc/ssh/keys-root/authorized_keys on ESXi) or run gpuwiz on a terminal"),
		           r->host, msg);
		/* TRANSLATORS: the wizard's SSH connection box; %s is
		 * user@host, then ssh's message. */
		gw_err_set_ui(e, _("ssh %s: %s: no key was accepted; use ssh keys (ssh-copy-id, or /etc/ssh/keys-root/authorized_keys on ESXi), or start gpuwiz with --ssh USER@HOST to type the password before the screens start"),
		              r->host, msg);
	}
	else
		gw_err_set(e, _("ssh %s: cannot connect (exit %d): %s"), r->host,
		           st, msg);
	free(line);
}

/* A fatal signal (in the handler): the master in the background ended,
 * its socket and directory removed. */
static void
master_kill(void *arg)
{
	const gw_runner *r = arg;
	pid_t pid = r->master;

	if (pid > 0)
		kill(pid, SIGTERM);
	unlink(r->sock);
	rmdir(r->dir);
}

/* The master's pid, from "Master running (pid=N)" of ssh -O check; 0
 * when it does not say. */
static pid_t
master_pid(gw_runner *r)
{
	const char *tail[] = { "-O", "check", "--", r->host, NULL };
	const char **v = ssh_argv(r, 0, tail);
	char *err = NULL, *p;
	long pid = 0;
	int st;
	gw_err e;

	if (runner_spawn(r, (char *const *)v, NULL, 0, &(runner_out){ 0 }, &err, &st,
	                 "ssh", &e) == 0 && st == 0 && err &&
	    (p = strstr(err, "(pid=")) != NULL)
		pid = strtol(p + 5, NULL, 10);
	free(err);
	free(v);
	return pid > 1 ? (pid_t)pid : 0;
}

/* ssh -O exit: the master ends and removes its socket. */
static void
master_exit(gw_runner *r)
{
	const char *tail[] = { "-O", "exit", "--", r->host, NULL };
	const char **v = ssh_argv(r, 0, tail);
	int st;
	gw_err e;

	(void)runner_spawn(r, (char *const *)v, NULL, 0, &(runner_out){ 0 }, NULL, &st,
	                   "ssh", &e);
	free(v);
}

/* Start the master.  Fatal signals are held until its pid is known and
 * its cleanup registered: once ssh has put it in the background, only
 * this process can end it.  A signal that came meanwhile ends the master
 * here, then the process. */
gw_runner *
gw_runner_open_ssh_prompt(const char *user_at_host, const char *const extra[],
                          int prompt, gw_err *e)
{
	gw_runner *r = ssh_runner_new(user_at_host, extra, prompt, e);
	const char **v;
	char *err = NULL;
	double t0;
	int st, rc, held;

	if (r == NULL)
		return NULL;
	{
		const char *tail[] = { "--", r->host, "true", NULL };

		v = ssh_argv(r, 1, tail);
	}
	gw_fatal_hold();
	r->foreground = r->prompt;
	t0 = runner_now();
	rc = runner_spawn(r, (char *const *)v, NULL, 0, &(runner_out){ 0 }, &err, &st,
	                  "ssh", e);
	r->foreground = 0;
	trace_run(r, "true", rc, st, t0);
	free(v);
	if (rc == 0 && st != 0) {
		master_error(r, st, err, e);
		rc = -1;
	}
	free(err);
	if (rc == 0 && !gw_fatal_held())
		r->master = master_pid(r);
	held = gw_fatal_held();
	if (held)           /* whatever ssh had put in the background */
		master_exit(r);
	else if (rc == 0)
		r->fatal_slot = gw_fatal_add(master_kill, r);
	if (rc != 0 || held) {
		runner_free(r);
		r = NULL;
	}
	gw_fatal_release();   /* a held signal ends the process here */
	return r;
}

void
gw_runner_close(gw_runner *r)
{
	if (r == NULL)
		return;
	if (r->remote)
		master_exit(r);
	runner_free(r);
}

void
gw_runner_set_path_prefix(gw_runner *r, const char *dir)
{
	free(r->path_prefix);
	r->path_prefix = gw_xstrdup(dir);
}

void
gw_runner_set_volumes_root(gw_runner *r, const char *dir)
{
	free(r->volumes_root);
	r->volumes_root = gw_xstrdup(dir ? dir : "/vmfs/volumes");
}

/* ---- commands --------------------------------------------------------- */

int
runner_run_argv(gw_runner *r, const char *const argv[], const runner_out *o,
                char **err, int *status, gw_err *e)
{
	char *what;
	int rc;

	if (argv == NULL || argv[0] == NULL || argv[0][0] == '\0') {
		gw_err_set(e, _("no command to run"));
		return -1;
	}
	what = runner_argv_text(argv);
	if (r->remote) {
		gw_buf s;
		size_t i;

		gw_buf_init(&s);
		for (i = 0; argv[i]; i++) {
			if (i)
				gw_buf_puts(&s, " ");
			runner_quote_word(&s, argv[i]);
		}
		rc = runner_run_script(r, s.data, NULL, 0, o, err, status,
		                       what, e);
		gw_buf_free(&s);
	} else {
		double t0 = runner_now();

		rc = runner_spawn(r, (char *const *)argv, NULL, 0, o, err,
		                  status, what, e);
		trace_run(r, what, rc, *status, t0);
	}
	free(what);
	return rc;
}

int
gw_runner_run(gw_runner *r, const char *const argv[], char **out, char **err,
              int *status, gw_err *e)
{
	return runner_run_argv(r, argv, &(runner_out){ .out = out }, err,
	                       status, e);
}

/* gw_runner_run_ok, stdout to o. */
static int
run_ok(gw_runner *r, const char *const argv[], const runner_out *o,
       gw_err *e)
{
	char *err = NULL, *what;
	int st;

	if (runner_run_argv(r, argv, o, &err, &st, e) != 0)
		return -1;
	if (st != 0) {
		what = runner_argv_text(argv);
		runner_status_error(e, what, st, err);
		free(what);
		free(err);
		return -1;
	}
	free(err);
	return 0;
}

int
gw_runner_run_ok(gw_runner *r, const char *const argv[], char **out,
                 gw_err *e)
{
	char *o = NULL;

	if (out)
		*out = NULL;
	if (run_ok(r, argv, &(runner_out){ .out = &o }, e) != 0) {
		free(o);
		return -1;
	}
	if (out)
		*out = o;
	else
		free(o);
	return 0;
}

int
gw_runner_run_ok_sink(gw_runner *r, const char *const argv[],
                      gw_esxi_sink *sink, void *sctx, gw_err *e)
{
	return run_ok(r, argv, &(runner_out){ .sink = sink, .sctx = sctx }, e);
}
