/* password.c: the vSphere login: --url, --user, the password
 * (GPUWIZ_PASSWORD or asked on the terminal, never from the command
 * line), --thumbprint / --cafile / --insecure, --timeout.
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
static char *
read_password(const char *user, const char *url, gw_err *e)
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

/* --url and --user given, --thumbprint and --insecure not both: 0, else
 * -1 and e. */
int
cli_vs_check_opts(const cli_opts *o, gw_err *e)
{
	if (o->url == NULL || o->user == NULL) {
		gw_err_set(e, "%s", o->url == NULL ?
		           _("--url: missing (expected the vCenter or ESXi address, e.g. https://vc01/sdk)") :
		           _("--user: missing (expected the vSphere user, e.g. administrator@vsphere.local)"));
		return -1;
	}
	if (o->thumbprint && o->insecure) {
		gw_err_set(e, "%s", _("--thumbprint and --insecure exclude each other: pin the certificate, or (only if you must) skip verification"));
		return -1;
	}
	return 0;
}

/* Connect and log in. */
gw_vs *
cli_vs_open(cli_opts *o, gw_err *e)
{
	gw_vs_opts vo;
	gw_vs *s;
	char *pw;

	if (cli_vs_check_opts(o, e) != 0)
		return NULL;
	if ((pw = read_password(o->user, o->url, e)) == NULL)
		return NULL;
	memset(&vo, 0, sizeof vo);
	vo.url = o->url;
	vo.user = o->user;
	vo.password = pw;
	vo.thumbprint = o->thumbprint;
	vo.cafile = o->cafile;
	vo.insecure = o->insecure;
	if (o->timeout > 0) {
		vo.call_timeout = o->timeout;
		vo.connect_timeout = o->timeout < 10 ? o->timeout : 10;
	}
	s = gw_vs_connect(&vo, e);
	memset(pw, 0, strlen(pw));
	free(pw);
	return s;
}

