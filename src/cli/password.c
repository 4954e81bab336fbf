/* SPDX-License-Identifier: GPL-3.0-or-later */
/* password.c: the vSphere login: --url, --user, the password
 * (GPUWIZ_PASSWORD, a connection variable of connenv.c, or asked on the
 * terminal, never from the command line).  The connection itself:
 * hostctx.c.  Signals at the prompt and core dumps: fatalsig.h.
 */
#include "cli_int.h"
#include "fatalsig.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

static struct termios pw_saved;
static volatile int pw_fd = -1;

/* A fatal signal at the prompt (in the handler): the terminal's mode of
 * before, and the line ended. */
static void
pw_restore(void *arg)
{
	int fd = pw_fd;
	ssize_t w;

	(void)arg;
	if (fd < 0)
		return;
	tcsetattr(fd, TCSAFLUSH, &pw_saved);
	w = write(fd, "\n", 1);
	(void)w;
}

/* A variable taken out of the environment (cli_int.h): the value wiped
 * where the environment holds it (the block the process started with,
 * which /proc/PID/environ shows) and the variable unset. */
char *
cli_take_env(const char *name)
{
	char *env = getenv(name), *r;

	if (env == NULL)
		return NULL;
	r = gw_xstrdup(env);
	memset(env, 0, strlen(env));
	unsetenv(name);
	return r;
}

/* A secret freed (cli_int.h): its bytes zeroed first, with a store the
 * compiler may not drop as dead before the free. */
void
cli_secret_free(char **p)
{
	if (*p != NULL) {
		explicit_bzero(*p, strlen(*p));
		free(*p);
		*p = NULL;
	}
}

/* the password of GOVC_URL, GOVC_PASSWORD or VMWARE_PASSWORD */
static char *env_password;

void
cli_env_password_set(char *pw)
{
	cli_secret_free(&env_password);
	env_password = pw;
}

/* The password: GPUWIZ_PASSWORD, else the connection variables' (GOVC_*,
 * then VMWARE_*), else asked on the terminal without echo (never from
 * the command line).  NULL and e when there is none.  Core dumps are off
 * from here to the end of the process: the password and the session
 * that it opens stay in memory until then. */
char *
cli_read_password(const char *user, const char *url, gw_err *e)
{
	struct termios t;
	char buf[512], *r;
	FILE *tty;
	int ok, slot;

	gw_no_core_dumps();
	if ((r = cli_take_env("GPUWIZ_PASSWORD")) != NULL) {
		cli_env_password_set(NULL);     /* the variables' is not used */
		return r;
	}
	if (env_password != NULL) {
		r = env_password;
		env_password = NULL;
		return r;
	}
	tty = fopen("/dev/tty", "r+");
	if (tty == NULL || tcgetattr(fileno(tty), &pw_saved) != 0) {
		if (tty)
			fclose(tty);
		gw_err_set(e, "%s", _("no password: set GPUWIZ_PASSWORD (or GOVC_PASSWORD, VMWARE_PASSWORD) or run gpuwiz on a terminal (the password is never taken from the command line)"));
		return NULL;
	}
	pw_fd = fileno(tty);
	slot = gw_fatal_add(pw_restore, NULL);
	t = pw_saved;
	t.c_lflag &= ~(tcflag_t)ECHO;
	tcsetattr(pw_fd, TCSAFLUSH, &t);
	/* TRANSLATORS: the password prompt; %s is the user, then the URL. */
	fprintf(tty, _("Password for %s at %s: "), user, url);
	fflush(tty);
	ok = fgets(buf, sizeof buf, tty) != NULL;
	tcsetattr(pw_fd, TCSAFLUSH, &pw_saved);
	pw_fd = -1;
	gw_fatal_remove(slot);
	fputc('\n', tty);
	fclose(tty);
	if (!ok) {
		memset(buf, 0, sizeof buf);
		gw_err_set(e, "%s", _("no password given"));
		return NULL;
	}
	buf[strcspn(buf, "\r\n")] = '\0';
	r = gw_xstrdup(buf);
	memset(buf, 0, sizeof buf);
	return r;
}
