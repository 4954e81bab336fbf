/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hostctx.c: the host a command works on, as the options name it, opened
 * through the host layer (host.h): --ssh USER@HOST, the ESXi shell itself,
 * --sample-host NAME, a Linux host (--sysroot, else /), or the vSphere
 * API (--url, --user and the password).
 */
#include "cli_int.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* --ssh and its options */
static void
spec_ssh(const cli_opts *o, gw_host_spec *s)
{
	s->ssh = o->ssh;
	s->ssh_port = o->ssh_port;
	s->ssh_identity = o->ssh_identity;
	s->ssh_opts = o->ssh_opts;
	s->nssh_opts = o->nssh_opts;
	/* on a terminal ssh may ask for the password once (the master);
	 * otherwise keys only */
	s->ssh_prompt = isatty(STDIN_FILENO) && isatty(STDERR_FILENO);
}

/* Open the host a command works on.  need: GW_HOST_NEED_ESXI an ESXi host
 * (--ssh, a sample ESXi host, or the ESXi shell), GW_HOST_NEED_LINUX a
 * Linux host (--sysroot, a sample Linux host, else /), GW_HOST_NEED_ANY
 * whichever the options name (ESXi when --ssh, an ESXi sample, or the ESXi
 * shell without --sysroot; else Linux).  --url is the vsphere command's. */
int
cli_host_open(const cli_opts *o, int need, gw_host **h, gw_err *e)
{
	gw_host_spec s;

	memset(&s, 0, sizeof s);
	spec_ssh(o, &s);
	s.sysroot = o->sysroot;
	s.sample = o->sample;
	s.esxi_shell = 1;
	s.need = need;
	return gw_host_open(&s, h, e);
}

/* --url, --user, --thumbprint / --cafile / --insecure, --timeout */
static void
spec_vs(const cli_opts *o, gw_host_spec *s)
{
	memset(s, 0, sizeof *s);
	s->url = o->url;
	s->user = o->user;
	s->thumbprint = o->thumbprint;
	s->cafile = o->cafile;
	s->insecure = o->insecure;
	s->timeout = o->timeout;
}

/* --url and --user given, --thumbprint and --insecure not both, no other
 * way to the host beside (check takes both kinds): 0, else -1 and e. */
int
cli_vs_check_opts(const cli_opts *o, gw_err *e)
{
	if (o->url == NULL) {
		/* the host layer checks --url's company; that it is there
		 * is the vsphere command's own need */
		gw_err_set(e, "%s", _("--url: missing (expected the vCenter or ESXi address, e.g. https://vc01/sdk)"));
		return -1;
	}
	return cli_host_check(o, e);
}

int
cli_host_check(const cli_opts *o, gw_err *e)
{
	gw_host_spec s;

	spec_vs(o, &s);
	spec_ssh(o, &s);
	s.sysroot = o->sysroot;
	s.sample = o->sample;
	s.listing = o->esxcli_file;
	s.lspci = o->lspci_file;
	return gw_host_spec_check(&s, e);
}

/* An error about the URL when a variable gave it (connenv.c): named by
 * the variable, not by --url. */
static void
url_error_from_env(const cli_opts *o, gw_err *e)
{
	char *rest;

	if (o->env_url_var == NULL || o->url != o->env_url ||
	    strncmp(e->msg, "--url: ", 7) != 0)
		return;
	rest = gw_xstrdup(e->msg + 7);
	gw_err_set(e, "%s: %s", o->env_url_var, rest);
	free(rest);
}

/* Connect and log in: the options checked first, then the password
 * (GPUWIZ_PASSWORD, a connection variable, or asked). */
int
cli_vs_host_open(const cli_opts *o, gw_host **h, gw_err *e)
{
	gw_host_spec s;
	char *pw;
	int rc;

	*h = NULL;
	if (cli_vs_check_opts(o, e) != 0)
		return -1;
	if ((pw = cli_read_password(o->user, o->url, e)) == NULL)
		return -1;
	spec_vs(o, &s);
	s.password = pw;
	rc = gw_host_open(&s, h, e);
	cli_secret_free(&pw);
	if (rc != 0)
		url_error_from_env(o, e);
	return rc;
}

/* The wizard's connection, opened before the screen starts: the vSphere
 * password prompt, or ssh asking for a password or passphrase on the
 * terminal, once; on the ESXi shell itself its local runner.  Nothing for
 * a sample or a Linux host (the wizard opens those itself). */
int
cli_wizard_connection(const cli_opts *o, gw_wizard_start *st, gw_err *e)
{
	gw_host_spec s;
	gw_host *h = NULL;

	if (o->sample)
		return 0;
	if (o->url) {
		if (cli_vs_host_open(o, &h, e) != 0)
			return -1;
	} else {
		memset(&s, 0, sizeof s);
		spec_ssh(o, &s);
		s.esxi_shell = 1;
		if (gw_host_open(&s, &h, e) != 0)
			return -1;
		if (host_can(h, HOST_SYSROOT)) {
			/* this Linux host: the wizard's own mode */
			gw_host_close(h);
			h = NULL;
		}
	}
	st->host = h;
	return 0;
}
