/* password.c: the vSphere login: --url, --user, the password
 * (GPUWIZ_PASSWORD or asked on the terminal, never from the command
 * line).  The connection itself: hostctx.c.
 */
#include "cli_int.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>

static struct termios pw_saved;
static int pw_fd = -1;

static void
pw_restore(int sig)
{
	if (pw_fd >= 0)
		tcsetattr(pw_fd, TCSAFLUSH, &pw_saved);
	signal(sig, SIG_DFL);
	raise(sig);
}

/* The password: GPUWIZ_PASSWORD, else asked on the terminal without echo
 * (never from the command line).  NULL and e when there is neither. */
char *
cli_read_password(const char *user, const char *url, gw_err *e)
{
	const char *env = getenv("GPUWIZ_PASSWORD");
	struct termios t;
	struct sigaction sa, oint, oterm, ohup;
	char buf[512];
	FILE *tty;
	int ok;

	if (env != NULL)
		return gw_xstrdup(env);
	tty = fopen("/dev/tty", "r+");
	if (tty == NULL) {
		gw_err_set(e, "%s", _("no password: set GPUWIZ_PASSWORD or run gpuwiz on a terminal (the password is never taken from the command line)"));
		return NULL;
	}
	pw_fd = fileno(tty);
	if (tcgetattr(pw_fd, &pw_saved) != 0) {
		fclose(tty);
		pw_fd = -1;
		gw_err_set(e, "%s", _("no password: set GPUWIZ_PASSWORD or run gpuwiz on a terminal (the password is never taken from the command line)"));
		return NULL;
	}
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = pw_restore;
	sigaction(SIGINT, &sa, &oint);
	sigaction(SIGTERM, &sa, &oterm);
	sigaction(SIGHUP, &sa, &ohup);
	t = pw_saved;
	t.c_lflag &= ~(tcflag_t)ECHO;
	tcsetattr(pw_fd, TCSAFLUSH, &t);
	/* TRANSLATORS: the password prompt; %s is the user, then the URL. */
	fprintf(tty, _("Password for %s at %s: "), user, url);
	fflush(tty);
	ok = fgets(buf, sizeof buf, tty) != NULL;
	tcsetattr(pw_fd, TCSAFLUSH, &pw_saved);
	fputc('\n', tty);
	sigaction(SIGINT, &oint, NULL);
	sigaction(SIGTERM, &oterm, NULL);
	sigaction(SIGHUP, &ohup, NULL);
	fclose(tty);
	pw_fd = -1;
	if (!ok) {
		gw_err_set(e, "%s", _("no password given"));
		return NULL;
	}
	buf[strcspn(buf, "\r\n")] = '\0';
	{
		char *r = gw_xstrdup(buf);

		memset(buf, 0, sizeof buf);
		return r;
	}
}
