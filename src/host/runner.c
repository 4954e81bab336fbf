/* runner.c: local and ssh command runner, ESXi session helpers. */
#include "runner.h"
#include "plan.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

struct gw_runner {
	int remote;
	char *host;          /* user@host */
	char **extra;        /* extra ssh words, NULL-terminated (or NULL) */
	char *dir;           /* private temporary directory of the socket */
	char *sock;          /* control socket */
	char *path_prefix;
	char *volumes_root;
	unsigned timeout;
	int prompt;          /* the master may ask for a password on the tty */
	int foreground;      /* spawn in the terminal's process group (a
	                      * prompting master: a background group would be
	                      * stopped reading /dev/tty) */
};

/* ---- helpers ---------------------------------------------------------- */

/* word -> 'word' with every ' written as '\'' */
static void
quote_word(gw_buf *b, const char *w)
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

/* First line of s (at most 300 bytes), for error messages; malloc'ed. */
static char *
first_line(const char *s)
{
	size_t n = 0;

	if (s == NULL)
		return gw_xstrdup("");
	while (s[n] && s[n] != '\n' && s[n] != '\r' && n < 300)
		n++;
	return gw_xstrndup(s, n);
}

static char *
argv_text(const char *const argv[])
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

static double
now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Run argv (exec'ed with execvp) with in[0..inlen) on its stdin; collect
 * stdout and stderr.  what names the command in errors. */
static int
spawn(const gw_runner *r, char *const argv[], const char *in, size_t inlen,
      char **out, size_t *olen, char **err, int *status, const char *what,
      gw_err *e)
{
	int pin[2] = {-1, -1}, pout[2] = {-1, -1}, perr[2] = {-1, -1};
	struct sigaction ign, old;
	gw_buf bo, be;
	char *newpath = NULL, buf[65536];
	size_t inoff = 0;
	double deadline;
	pid_t pid;
	int wst, rc = -1, too_much = 0, timed_out = 0;

	if (out)
		*out = NULL;
	if (err)
		*err = NULL;
	*status = -1;
	if (!r->remote && r->path_prefix) {
		const char *p = getenv("PATH");
		newpath = gw_xasprintf("%s:%s", r->path_prefix,
		                       p ? p : "/bin:/usr/bin");
	}
	if (pipe2(pin, O_CLOEXEC) != 0 || pipe2(pout, O_CLOEXEC) != 0 ||
	    pipe2(perr, O_CLOEXEC) != 0) {
		gw_err_set(e, _("%s: cannot start it: %s"), what, strerror(errno));
		goto close_fds;
	}
	memset(&ign, 0, sizeof ign);
	ign.sa_handler = SIG_IGN;
	sigemptyset(&ign.sa_mask);
	sigaction(SIGPIPE, &ign, &old);
	pid = fork();
	if (pid < 0) {
		gw_err_set(e, _("%s: cannot start it: %s"), what, strerror(errno));
		sigaction(SIGPIPE, &old, NULL);
		goto close_fds;
	}
	if (pid == 0) {
		signal(SIGPIPE, SIG_DFL);
		if (!r->foreground)
			setpgid(0, 0);
		if (dup2(pin[0], 0) < 0 || dup2(pout[1], 1) < 0 ||
		    dup2(perr[1], 2) < 0)
			_exit(127);
		if (newpath)
			setenv("PATH", newpath, 1);
		execvp(argv[0], argv);
		{
			const char *m = strerror(errno);
			ssize_t w;
			w = write(2, argv[0], strlen(argv[0]));
			w = write(2, ": ", 2);
			w = write(2, m, strlen(m));
			w = write(2, "\n", 1);
			(void)w;
		}
		_exit(127);
	}
	close(pin[0]);
	close(pout[1]);
	close(perr[1]);
	pin[0] = pout[1] = perr[1] = -1;
	if (inlen == 0) {
		close(pin[1]);
		pin[1] = -1;
	} else {
		fcntl(pin[1], F_SETFL, fcntl(pin[1], F_GETFL) | O_NONBLOCK);
	}
	gw_buf_init(&bo);
	gw_buf_init(&be);
	deadline = now_s() + (r->timeout ? r->timeout : GW_RUNNER_TIMEOUT);
	while (pout[0] >= 0 || perr[0] >= 0) {
		struct pollfd pf[3];
		int nf = 0, io = -1, ie = -1, ii = -1, left, k;
		double rem = deadline - now_s();

		if (rem <= 0) {
			timed_out = 1;
			break;
		}
		left = rem > 1e6 ? 1000000000 : (int)(rem * 1000) + 1;
		if (pout[0] >= 0) {
			pf[nf].fd = pout[0]; pf[nf].events = POLLIN; io = nf++;
		}
		if (perr[0] >= 0) {
			pf[nf].fd = perr[0]; pf[nf].events = POLLIN; ie = nf++;
		}
		if (pin[1] >= 0) {
			pf[nf].fd = pin[1]; pf[nf].events = POLLOUT; ii = nf++;
		}
		k = poll(pf, (nfds_t)nf, left);
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0)
			break;
		if (ii >= 0 && pf[ii].revents) {
			ssize_t w = write(pin[1], in + inoff, inlen - inoff);
			if (w > 0)
				inoff += (size_t)w;
			if ((w < 0 && errno != EAGAIN && errno != EINTR) ||
			    inoff == inlen) {
				close(pin[1]);
				pin[1] = -1;
			}
		}
		for (k = 0; k < 2; k++) {
			int idx = k ? ie : io;
			int *fd = k ? &perr[0] : &pout[0];
			gw_buf *b = k ? &be : &bo;
			ssize_t n;

			if (idx < 0 || !pf[idx].revents)
				continue;
			n = read(*fd, buf, sizeof buf);
			if (n < 0 && errno == EINTR)
				continue;
			if (n <= 0) {
				close(*fd);
				*fd = -1;
				continue;
			}
			if (b->len + (size_t)n > GW_RUNNER_MAX_OUTPUT) {
				too_much = 1;
				break;
			}
			gw_buf_add(b, buf, (size_t)n);
		}
		if (too_much)
			break;
	}
	if (timed_out || too_much || pout[0] >= 0 || perr[0] >= 0)
		kill(-pid, SIGKILL);
	while (waitpid(pid, &wst, 0) < 0 && errno == EINTR)
		;
	sigaction(SIGPIPE, &old, NULL);
	if (timed_out) {
		gw_err_set(e, _("%s: no answer within %u seconds; stopped it"),
		           what, r->timeout ? r->timeout : GW_RUNNER_TIMEOUT);
	} else if (too_much) {
		gw_err_set(e, _("%s: wrote more than %u bytes; stopped it"), what,
		           GW_RUNNER_MAX_OUTPUT);
	} else if (pout[0] >= 0 || perr[0] >= 0) {
		gw_err_set(e, _("%s: cannot read its output: %s"), what,
		           strerror(errno));
	} else {
		*status = WIFEXITED(wst) ? WEXITSTATUS(wst)
		        : WIFSIGNALED(wst) ? 128 + WTERMSIG(wst) : 255;
		rc = 0;
	}
	if (rc == 0 && olen)
		*olen = bo.len;
	if (rc == 0 && out)
		*out = gw_buf_steal(&bo);
	if (rc == 0 && err)
		*err = gw_buf_steal(&be);
	gw_buf_free(&bo);
	gw_buf_free(&be);
close_fds:
	if (pin[0] >= 0) close(pin[0]);
	if (pin[1] >= 0) close(pin[1]);
	if (pout[0] >= 0) close(pout[0]);
	if (pout[1] >= 0) close(pout[1]);
	if (perr[0] >= 0) close(perr[0]);
	if (perr[1] >= 0) close(perr[1]);
	free(newpath);
	return rc;
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
	if (master) {
		v[n++] = "-o";
		v[n++] = "ControlPersist=600";
	} else {
		v[n++] = "-o";
		v[n++] = "ControlMaster=no";
	}
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

/* Run a shell script made only of fixed text and quote_word()ed words:
 * "sh -c SCRIPT" here, "ssh ... HOST SCRIPT" for a remote runner. */
static int
run_script(gw_runner *r, const char *script, const char *in, size_t inlen,
           char **out, size_t *olen, char **err, int *status, const char *what, gw_err *e)
{
	const char **v;
	gw_buf full;
	size_t n;
	int rc;

	v = gw_xcalloc(nextra(r) + 24, sizeof *v);
	gw_buf_init(&full);
	if (r->remote) {
		if (r->path_prefix) {
			gw_buf_puts(&full, "PATH=");
			quote_word(&full, r->path_prefix);
			gw_buf_puts(&full, ":\"$PATH\"; export PATH; ");
		}
		gw_buf_puts(&full, script);
		n = ssh_base(r, v, 0);
		v[n++] = "--";
		v[n++] = r->host;
		v[n++] = full.data;
	} else {
		n = 0;
		v[n++] = "/bin/sh";
		v[n++] = "-c";
		v[n++] = script;
	}
	v[n] = NULL;
	rc = spawn(r, (char *const *)v, in, inlen, out, olen, err, status, what,
	           e);
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

gw_runner *
gw_runner_open_ssh(const char *user_at_host, const char *const extra[],
                   gw_err *e)
{
	return gw_runner_open_ssh_prompt(user_at_host, extra, 0, e);
}

gw_runner *
gw_runner_open_ssh_prompt(const char *user_at_host, const char *const extra[],
                          int prompt, gw_err *e)
{
	const char *tmp = getenv("TMPDIR");
	const char **v;
	gw_runner *r;
	char *err = NULL, *line;
	size_t n, i;
	int st;

	if (user_at_host == NULL || user_at_host[0] == '\0' ||
	    user_at_host[0] == '-' || strpbrk(user_at_host, " \t\r\n'\"\\")) {
		gw_err_set(e, _("--ssh: \"%s\" is not a host; expected user@host, "
		                "e.g. root@esx01"),
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
	v = gw_xcalloc(n + 24, sizeof *v);
	i = ssh_base(r, v, 1);
	v[i++] = "--";
	v[i++] = r->host;
	v[i++] = "true";
	v[i] = NULL;
	r->foreground = r->prompt;
	if (spawn(r, (char *const *)v, NULL, 0, NULL, NULL, &err, &st, "ssh", e)
	    != 0) {
		free(v);
		runner_free(r);
		return NULL;
	}
	r->foreground = 0;
	free(v);
	if (st != 0) {
		line = first_line(err);
		if (strstr(err ? err : "", "Host key verification failed"))
			/* TRANSLATORS: %s is user@host, then ssh's message. */
			gw_err_set(e, _("ssh %s: %s: the host's key is not in known_hosts or has changed; log in once with ssh yourself and check the key's fingerprint on the host's console (gpuwiz never accepts a key unseen)"),
			           r->host, *line ? line : _("no message"));
		else if (!r->prompt && strstr(err ? err : "", "Permission denied"))
			gw_err_set(e, _("ssh %s: %s: no key was accepted and there is no terminal to ask for a password; use ssh keys (ssh-copy-id, or /etc/ssh/keys-root/authorized_keys on ESXi) or run gpuwiz on a terminal"),
			           r->host, *line ? line : _("no message"));
		else
			gw_err_set(e, _("ssh %s: cannot connect (exit %d): %s"), r->host,
			           st, *line ? line : _("no message"));
		free(line);
		free(err);
		runner_free(r);
		return NULL;
	}
	free(err);
	return r;
}

void
gw_runner_close(gw_runner *r)
{
	if (r == NULL)
		return;
	if (r->remote) {
		const char **v = gw_xcalloc(nextra(r) + 24, sizeof *v);
		size_t i = ssh_base(r, v, 0);
		int st;
		gw_err e;

		v[i++] = "-O";
		v[i++] = "exit";
		v[i++] = "--";
		v[i++] = r->host;
		v[i] = NULL;
		(void)spawn(r, (char *const *)v, NULL, 0, NULL, NULL, NULL, &st, "ssh",
		            &e);
		free(v);
	}
	runner_free(r);
}

int
gw_runner_is_remote(const gw_runner *r)
{
	return r->remote;
}

void
gw_runner_set_timeout(gw_runner *r, unsigned seconds)
{
	r->timeout = seconds ? seconds : GW_RUNNER_TIMEOUT;
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

static int
run_argv(gw_runner *r, const char *const argv[], char **out, size_t *olen,
         char **err, int *status, gw_err *e)
{
	char *what;
	int rc;

	if (argv == NULL || argv[0] == NULL || argv[0][0] == '\0') {
		gw_err_set(e, _("no command to run"));
		return -1;
	}
	what = argv_text(argv);
	if (r->remote) {
		gw_buf s;
		size_t i;

		gw_buf_init(&s);
		for (i = 0; argv[i]; i++) {
			if (i)
				gw_buf_puts(&s, " ");
			quote_word(&s, argv[i]);
		}
		rc = run_script(r, s.data, NULL, 0, out, olen, err, status, what,
		                e);
		gw_buf_free(&s);
	} else {
		rc = spawn(r, (char *const *)argv, NULL, 0, out, olen, err,
		           status, what, e);
	}
	free(what);
	return rc;
}

int
gw_runner_run(gw_runner *r, const char *const argv[], char **out, char **err,
              int *status, gw_err *e)
{
	return run_argv(r, argv, out, NULL, err, status, e);
}

static void
status_error(gw_err *e, const char *what, int st, const char *err)
{
	char *line = first_line(err);

	gw_err_set(e, _("%s: failed (exit %d): %s"), what, st,
	           *line ? line : _("no message"));
	free(line);
}

int
gw_runner_run_ok(gw_runner *r, const char *const argv[], char **out,
                 gw_err *e)
{
	char *err = NULL, *o = NULL, *what;
	int st;

	if (out)
		*out = NULL;
	if (gw_runner_run(r, argv, &o, &err, &st, e) != 0)
		return -1;
	if (st != 0) {
		what = argv_text(argv);
		status_error(e, what, st, err);
		free(what);
		free(o);
		free(err);
		return -1;
	}
	free(err);
	if (out)
		*out = o;
	else
		free(o);
	return 0;
}

static int
check_abs(const char *path, gw_err *e)
{
	if (path == NULL || path[0] != '/') {
		gw_err_set(e, _("%s: expected an absolute path"),
		           path ? path : "");
		return -1;
	}
	return 0;
}

int
gw_runner_read_file(gw_runner *r, const char *path, char **data, size_t *len,
                    gw_err *e)
{
	const char *argv[] = {"cat", path, NULL};
	char *err = NULL, *o = NULL;
	int st;

	*data = NULL;
	*len = 0;
	if (check_abs(path, e) != 0)
		return -1;
	if (run_argv(r, argv, &o, len, &err, &st, e) != 0)
		return -1;
	if (st != 0) {
		char *line = first_line(err);
		gw_err_set(e, _("%s: cannot read it (exit %d): %s"), path, st,
		           *line ? line : _("no message"));
		free(line);
		free(err);
		free(o);
		*len = 0;
		return -1;
	}
	free(err);
	*data = o;   /* NUL-terminated by gw_buf; *len from the pipe */
	return 0;
}

int
gw_runner_write_file_atomic(gw_runner *r, const char *path, const char *data,
                            size_t len, char **backup, gw_err *e)
{
	char stamp[32], *tmp, *base, *out = NULL, *err = NULL, *line;
	struct tm tm;
	time_t now = time(NULL);
	gw_buf s;
	int st, rc = -1;

	if (backup)
		*backup = NULL;
	if (check_abs(path, e) != 0)
		return -1;
	if (localtime_r(&now, &tm) == NULL ||
	    strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &tm) == 0)
		snprintf(stamp, sizeof stamp, "%lld", (long long)now);
	tmp = gw_xasprintf("%s.gpuwiz-tmp", path);
	base = gw_xasprintf("%s.%s.bak", path, stamp);
	gw_buf_init(&s);
	/* Exit codes: 10 backup, 11 temporary copy, 12 writing, 13 size,
	 * 14 rename.  Only quote_word()ed words are put in. */
	gw_buf_puts(&s, "p=");
	quote_word(&s, path);
	gw_buf_puts(&s, "; t=");
	quote_word(&s, tmp);
	gw_buf_puts(&s, "; b=");
	quote_word(&s, base);
	gw_buf_printf(&s, "; n=%zu; ", len);
	gw_buf_puts(&s,
	    "k=\"$b\"; i=1; "
	    "if [ -e \"$p\" ]; then "
	    "while [ -e \"$k\" ]; do k=\"$b.$i\"; i=$((i+1)); done; "
	    "cp -p \"$p\" \"$k\" || exit 10; "
	    "cp -p \"$p\" \"$t\" || { rm -f \"$t\"; exit 11; }; "
	    "else k=; fi; "
	    "cat > \"$t\" || { rm -f \"$t\"; exit 12; }; "
	    "w=$(wc -c < \"$t\"); "
	    "[ \"$w\" -eq \"$n\" ] || { rm -f \"$t\"; exit 13; }; "
	    "mv -f \"$t\" \"$p\" || { rm -f \"$t\"; exit 14; }; "
	    "printf '%s' \"$k\"");
	if (run_script(r, s.data, data, len, &out, NULL, &err, &st, path, e)
	    != 0)
		goto done;
	if (st != 0) {
		line = first_line(err);
		switch (st) {
		case 10:
			gw_err_set(e, _("%s: cannot make a backup beside it: %s"),
			           path, line);
			break;
		case 11: case 12:
			gw_err_set(e, _("%s: cannot write the temporary file %s: %s"),
			           path, tmp, line);
			break;
		case 13:
			gw_err_set(e, _("%s: the temporary file %s does not have the "
			                "%zu bytes sent; nothing changed"),
			           path, tmp, len);
			break;
		case 14:
			gw_err_set(e, _("%s: cannot rename %s over it: %s"), path, tmp,
			           line);
			break;
		default:
			status_error(e, path, st, err);
			break;
		}
		free(line);
		goto done;
	}
	if (backup && out && *out)
		*backup = gw_xstrdup(out);
	rc = 0;
done:
	gw_buf_free(&s);
	free(out);
	free(err);
	free(tmp);
	free(base);
	return rc;
}

/* ---- ESXi session ----------------------------------------------------- */

/* A power state as vim-cmd vmsvc/power.getstate prints it (left in
 * English in messages, so that it matches what the ESXi shell shows). */
static const char *
power_word(gw_esxi_power p)
{
	switch (p) {
	case GW_ESXI_POWER_ON:
		return "Powered on";
	case GW_ESXI_POWER_OFF:
		return "Powered off";
	case GW_ESXI_POWER_SUSPENDED:
		return "Suspended";
	default:
		return _("in an unknown state");
	}
}

static int
run_parse_text(gw_runner *r, const char *const argv[], char **out, gw_err *e)
{
	return gw_runner_run_ok(r, argv, out, e);
}

int
gw_esxi_session_list_pci(gw_runner *r, gw_esxi_pci_list *out, gw_err *e)
{
	const char *argv[] = {"esxcli", "hardware", "pci", "list", NULL};
	char *o;
	int rc;

	memset(out, 0, sizeof *out);
	if (run_parse_text(r, argv, &o, e) != 0)
		return -1;
	rc = gw_esxi_parse_pci_list(o, "esxcli hardware pci list", out, e);
	free(o);
	return rc;
}

int
gw_esxi_session_version(gw_runner *r, gw_esxi_version *out, gw_err *e)
{
	const char *argv[] = {"esxcli", "system", "version", "get", NULL};
	char *o;
	int rc;

	memset(out, 0, sizeof *out);
	if (run_parse_text(r, argv, &o, e) != 0)
		return -1;
	rc = gw_esxi_parse_version(o, "esxcli system version get", out, e);
	free(o);
	return rc;
}

int
gw_esxi_session_uuid(gw_runner *r, char **uuid, gw_err *e)
{
	const char *argv[] = {"esxcli", "system", "uuid", "get", NULL};
	char *o;
	int rc;

	*uuid = NULL;
	if (run_parse_text(r, argv, &o, e) != 0)
		return -1;
	rc = gw_esxi_parse_uuid(o, "esxcli system uuid get", uuid, e);
	free(o);
	return rc;
}

int
gw_esxi_session_list_vms(gw_runner *r, gw_esxi_vm_list *out, gw_err *e)
{
	const char *argv[] = {"vim-cmd", "vmsvc/getallvms", NULL};
	char *o;
	int rc;

	memset(out, 0, sizeof *out);
	if (run_parse_text(r, argv, &o, e) != 0)
		return -1;
	rc = gw_esxi_parse_getallvms(o, "vim-cmd vmsvc/getallvms", out, e);
	free(o);
	return rc;
}

int
gw_esxi_session_power_state(gw_runner *r, unsigned long vmid,
                            gw_esxi_power *out, gw_err *e)
{
	char id[32], *o;
	const char *argv[] = {"vim-cmd", "vmsvc/power.getstate", id, NULL};
	int rc;

	*out = GW_ESXI_POWER_UNKNOWN;
	snprintf(id, sizeof id, "%lu", vmid);
	if (run_parse_text(r, argv, &o, e) != 0)
		return -1;
	rc = gw_esxi_parse_power_state(o, "vim-cmd vmsvc/power.getstate", out,
	                               e);
	free(o);
	return rc;
}

/* "0000:18:00.0 (SAS3008 PCI-Express Fusion-MPT SAS-3)" for messages. */
static char *
dev_label(const gw_esxi_pci_dev *d)
{
	if (d->device_name && *d->device_name)
		return gw_xasprintf("%s (%s)", d->bdf, d->device_name);
	return gw_xstrdup(d->bdf);
}

/* Run one storage listing and parse it; the error says why the adapter
 * cannot be shown to be safe. */
static int
guard_list(gw_runner *r, const char *const argv[], char **out,
           const char *label, const char *adapter, gw_err *e)
{
	gw_err why;

	if (gw_runner_run_ok(r, argv, out, &why) != 0) {
		gw_err_set(e, _("%s is storage adapter %s and gpuwiz cannot tell "
		                "whether it holds a datastore or the boot device, "
		                "so it is not passed through: %s"),
		           label, adapter, why.msg);
		return -1;
	}
	return 0;
}

int
gw_esxi_session_passthru_guard(gw_runner *r, const gw_esxi_pci_dev *dev,
                               gw_err *e)
{
	const char *pargv[] = {"esxcli", "storage", "core", "path", "list",
	                       NULL};
	const char *xargv[] = {"esxcli", "storage", "vmfs", "extent", "list",
	                       NULL};
	const char *dargv[] = {"esxcli", "storage", "core", "device", "list",
	                       NULL};
	gw_esxi_storage_path_list pl;
	gw_esxi_vmfs_extent_list xl;
	gw_esxi_storage_dev_list dl;
	char *po = NULL, *xo = NULL, *dout = NULL, *label, *unknown = NULL;
	const char *adapter;
	gw_buf ds;
	size_t i, j, k, nds = 0;
	int boot = 0, rc = -1;
	gw_err why;

	if (dev == NULL) {
		gw_err_set(e, "%s", _("no PCI device given"));
		return -1;
	}
	adapter = dev->vmkernel_name;
	if (adapter == NULL || strncmp(adapter, "vmhba", 5) != 0)
		return 0;
	memset(&pl, 0, sizeof pl);
	memset(&xl, 0, sizeof xl);
	memset(&dl, 0, sizeof dl);
	gw_buf_init(&ds);
	label = dev_label(dev);
	if (guard_list(r, pargv, &po, label, adapter, e) != 0 ||
	    guard_list(r, xargv, &xo, label, adapter, e) != 0 ||
	    guard_list(r, dargv, &dout, label, adapter, e) != 0)
		goto done;
	if (gw_esxi_parse_storage_paths(po, "esxcli storage core path list",
	                                &pl, &why) != 0 ||
	    gw_esxi_parse_vmfs_extents(xo, "esxcli storage vmfs extent list",
	                               &xl, &why) != 0 ||
	    gw_esxi_parse_storage_devices(dout,
	                                  "esxcli storage core device list",
	                                  &dl, &why) != 0) {
		gw_err_set(e, _("%s is storage adapter %s and gpuwiz cannot tell "
		                "whether it holds a datastore or the boot device, "
		                "so it is not passed through: %s"),
		           label, adapter, why.msg);
		goto done;
	}
	for (i = 0; i < pl.n; i++) {
		const char *d = pl.paths[i].device;
		const gw_esxi_storage_dev *sd;

		if (strcmp(pl.paths[i].adapter, adapter) != 0)
			continue;
		for (k = 0; k < i; k++)     /* a device seen on an earlier path */
			if (strcmp(pl.paths[k].adapter, adapter) == 0 &&
			    strcmp(pl.paths[k].device, d) == 0)
				break;
		if (k < i)
			continue;
		for (j = 0; j < xl.n; j++) {
			const gw_esxi_vmfs_extent *x = &xl.extents[j];
			const char *vol = *x->volume_name ? x->volume_name
			                : x->vmfs_uuid ? x->vmfs_uuid : x->device_name;
			char *q;

			if (strcmp(x->device_name, d) != 0)
				continue;
			q = gw_xasprintf("\"%s\"", vol);
			if (ds.len == 0 || strstr(ds.data, q) == NULL) {
				gw_buf_printf(&ds, "%s%s", nds ? ", " : "", q);
				nds++;
			}
			free(q);
		}
		sd = gw_esxi_storage_dev_find(&dl, d);
		if (sd && sd->is_boot == 1)
			boot = 1;
		else if ((sd == NULL || sd->is_boot < 0) && unknown == NULL)
			unknown = gw_xstrdup(d);
	}
	if (boot && nds)
		gw_err_set(e, _("%s is storage adapter %s, which holds the boot "
		                "device and the datastore(s) %s: passing it through "
		                "would take them away from ESXi; refused"),
		           label, adapter, ds.data);
	else if (nds)
		gw_err_set(e, _("%s is storage adapter %s, which holds the "
		                "datastore(s) %s: passing it through would take "
		                "them away from ESXi; refused"),
		           label, adapter, ds.data);
	else if (boot)
		gw_err_set(e, _("%s is storage adapter %s, which holds the boot "
		                "device: passing it through would take it away "
		                "from ESXi; refused"), label, adapter);
	else if (unknown)
		gw_err_set(e, _("%s is storage adapter %s, and this ESXi does not "
		                "say whether its device %s is the boot device (no "
		                "'Is Boot Device' in esxcli storage core device "
		                "list before ESXi 6.7), so it is not passed "
		                "through; if it is not, pass it through in the "
		                "Host Client"), label, adapter, unknown);
	else
		rc = 0;
done:
	gw_esxi_storage_path_list_free(&pl);
	gw_esxi_vmfs_extent_list_free(&xl);
	gw_esxi_storage_dev_list_free(&dl);
	gw_buf_free(&ds);
	free(po);
	free(xo);
	free(dout);
	free(unknown);
	free(label);
	return rc;
}

static int
owned_by_passthru(const gw_esxi_pci_dev *d)
{
	return d->current_owner != NULL &&
	       gw_strieq(d->current_owner, "VM Passthru");
}

int
gw_esxi_session_enable_passthru(gw_runner *r, const char *bdf,
                                int *reboot_needed, gw_err *e)
{
	unsigned d, b, s, f;
	char addr[32], *err = NULL, *label = NULL;
	const char *argv[] = {"esxcli", "hardware", "pci", "pcipassthru", "set",
	                      "-d", addr, "-e", "true", "-a", NULL};
	gw_esxi_pci_list l;
	const gw_esxi_pci_dev *dev;
	gw_err why;
	int st, rc = -1;

	if (reboot_needed)
		*reboot_needed = 0;
	if (bdf == NULL || gw_bdf_parse(bdf, &d, &b, &s, &f) != 0) {
		gw_err_set(e, _("\"%s\" is not a PCI address; expected e.g. "
		                "0000:3b:00.0"), bdf ? bdf : "");
		return -1;
	}
	snprintf(addr, sizeof addr, "%04x:%02x:%02x.%x", d, b, s, f);
	if (gw_esxi_session_list_pci(r, &l, e) != 0)
		return -1;
	dev = gw_esxi_pci_find(&l, addr);
	if (dev == NULL) {
		gw_err_set(e, _("%s: no such PCI device on this host (esxcli "
		                "hardware pci list does not list it)"), addr);
		goto done;
	}
	label = dev_label(dev);
	if (dev->passthru_capable == 0) {
		gw_err_set(e, _("%s cannot be passed through (Passthru Capable: "
		                "false): the IOMMU (Intel VT-d or AMD-Vi) is "
		                "probably off in the BIOS; turn it on there and "
		                "reboot the host"), label);
		goto done;
	}
	if (gw_esxi_pci_passthru_enabled(dev) == 1 && owned_by_passthru(dev)) {
		rc = 0;
		goto done;
	}
	if (gw_esxi_session_passthru_guard(r, dev, e) != 0)
		goto done;
	if (gw_runner_run(r, argv, NULL, &err, &st, e) != 0)
		goto done;
	if (st != 0) {
		if (err && strstr(err, "Unknown command or namespace"))
			gw_err_set(e, _("%s: this ESXi has no 'esxcli hardware pci "
			                "pcipassthru' (it came with ESXi 7.0); before "
			                "7.0, turn passthrough on in the Host Client "
			                "(Manage > Hardware > PCI Devices, Toggle "
			                "passthrough) and reboot the host"), label);
		else {
			char *what = argv_text(argv);
			status_error(e, what, st, err);
			free(what);
		}
		goto done;
	}
	gw_esxi_pci_list_free(&l);
	if (gw_esxi_session_list_pci(r, &l, &why) != 0) {
		gw_err_set(e, _("passthrough was turned on for %s, but the device "
		                "list cannot be read again to see whether the host "
		                "needs a reboot: %s"), label, why.msg);
		goto done;
	}
	dev = gw_esxi_pci_find(&l, addr);
	if (reboot_needed)
		*reboot_needed = dev == NULL || !owned_by_passthru(dev);
	rc = 0;
done:
	gw_esxi_pci_list_free(&l);
	free(err);
	free(label);
	return rc;
}

int
gw_esxi_session_upgrade(gw_runner *r, unsigned long vmid, int current_hw,
                        int target_hw, gw_err *e)
{
	char id[32], hw[32];
	const char *argv[] = {"vim-cmd", "vmsvc/upgrade", id, hw, NULL};
	gw_esxi_power p;

	if (target_hw < GW_ESXI_HW_MIN || target_hw > GW_ESXI_HW_MAX) {
		gw_err_set(e, _("vmx-%02d is not a hardware version gpuwiz can "
		                "upgrade to (expected vmx-%02d to vmx-%02d)"),
		           target_hw, GW_ESXI_HW_MIN, GW_ESXI_HW_MAX);
		return -1;
	}
	if (target_hw == current_hw) {
		gw_err_set(e, _("VM %lu is already vmx-%02d: nothing to upgrade"),
		           vmid, current_hw);
		return -1;
	}
	if (target_hw < current_hw) {
		gw_err_set(e, _("VM %lu is vmx-%02d; vmx-%02d would be a "
		                "downgrade, and the hardware version only goes "
		                "up: refused"), vmid, current_hw, target_hw);
		return -1;
	}
	if (gw_esxi_session_power_state(r, vmid, &p, e) != 0)
		return -1;
	if (p != GW_ESXI_POWER_OFF) {
		gw_err_set(e, _("VM %lu is %s, not Powered off: power it off "
		                "before its hardware version is upgraded; nothing "
		                "changed"), vmid, power_word(p));
		return -1;
	}
	snprintf(id, sizeof id, "%lu", vmid);
	snprintf(hw, sizeof hw, "vmx-%02d", target_hw);
	return gw_runner_run_ok(r, argv, NULL, e);
}

int
gw_esxi_session_reload(gw_runner *r, unsigned long vmid, gw_err *e)
{
	char id[32];
	const char *argv[] = {"vim-cmd", "vmsvc/reload", id, NULL};

	snprintf(id, sizeof id, "%lu", vmid);
	return gw_runner_run_ok(r, argv, NULL, e);
}

int
gw_esxi_session_vmx_path(gw_runner *r, const gw_esxi_vm *vm, char **path,
                         gw_err *e)
{
	const char *p;

	*path = NULL;
	if (vm == NULL || vm->datastore == NULL || vm->path == NULL ||
	    vm->datastore[0] == '\0' || strchr(vm->datastore, '/') ||
	    strcmp(vm->datastore, "..") == 0 || strcmp(vm->datastore, ".") == 0) {
		gw_err_set(e, _("VM %lu: its file \"%s\" does not name a "
		                "datastore; expected \"[datastore] folder/name.vmx\""),
		           vm ? vm->vmid : 0ul,
		           vm && vm->file ? vm->file : "");
		return -1;
	}
	if (vm->path[0] == '/' || vm->path[0] == '\0')
		goto bad;
	for (p = vm->path; *p; ) {
		size_t n = strcspn(p, "/");
		if (n == 2 && strncmp(p, "..", 2) == 0)
			goto bad;
		p += n;
		if (*p == '/')
			p++;
	}
	*path = gw_xasprintf("%s/%s/%s", r->volumes_root, vm->datastore,
	                     vm->path);
	return 0;
bad:
	gw_err_set(e, _("VM %lu: its file \"%s\" leaves the datastore; "
	                "expected \"[datastore] folder/name.vmx\""),
	           vm->vmid, vm->file ? vm->file : "");
	return -1;
}

int
gw_esxi_session_read_vmx(gw_runner *r, const char *path, gw_vmx **out,
                         gw_err *e)
{
	char *data;
	size_t len;
	int rc;

	*out = NULL;
	if (gw_runner_read_file(r, path, &data, &len, e) != 0)
		return -1;
	rc = gw_vmx_parse(out, data, len, path, e);
	free(data);
	return rc;
}

int
gw_esxi_session_save_vmx(gw_runner *r, unsigned long vmid, const char *path,
                         const gw_vmx *v, char **backup, gw_err *e)
{
	gw_esxi_power p;
	char *data;
	size_t len;
	int rc;

	if (backup)
		*backup = NULL;
	if (gw_esxi_session_power_state(r, vmid, &p, e) != 0)
		return -1;
	if (p != GW_ESXI_POWER_OFF) {
		gw_err_set(e, _("VM %lu is %s, not Powered off: power it off "
		                "before its .vmx is changed; %s not written"),
		           vmid, power_word(p), path);
		return -1;
	}
	data = gw_vmx_serialize(v, &len);
	rc = gw_runner_write_file_atomic(r, path, data, len, backup, e);
	free(data);
	return rc;
}
