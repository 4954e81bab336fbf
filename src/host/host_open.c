/* SPDX-License-Identifier: GPL-3.0-or-later */
/* host_open.c: opening the host the command line names (gw_host_spec):
 * a sample, ssh, the vSphere API, the ESXi shell, or a Linux root. */
#include "host_int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The ESXi shell gpuwiz runs on: is vim-cmd on the PATH?  And its runner
 * (GPUWIZ_ESXI_PATH / GPUWIZ_ESXI_VOLUMES applied) and label. */
static int
gw_host_on_esxi_shell(void)
{
	const char *path = getenv("PATH");
	char *copy, *p, *dir;
	int found = 0;

	if (path == NULL)
		return 0;
	copy = gw_xstrdup(path);
	for (p = copy; !found && (dir = strsep(&p, ":")) != NULL;) {
		char *f = gw_xasprintf("%s/vim-cmd", *dir ? dir : ".");

		found = access(f, X_OK) == 0;
		free(f);
	}
	free(copy);
	return found;
}

/* GPUWIZ_ESXI_PATH / GPUWIZ_ESXI_VOLUMES (tests, unusual hosts): on this
 * host (local) checked like every path the program loads (gw_env_path);
 * over ssh they name the remote host's folders, read with secure_getenv
 * only. */
static void
gw_host_runner_env(gw_runner *r, int local)
{
	const char *p = local ? gw_env_path("GPUWIZ_ESXI_PATH", GW_PATH_DIR)
	                      : secure_getenv("GPUWIZ_ESXI_PATH");
	const char *v = local ? gw_env_path("GPUWIZ_ESXI_VOLUMES", GW_PATH_DIR)
	                      : secure_getenv("GPUWIZ_ESXI_VOLUMES");

	if (p && *p)
		gw_runner_set_path_prefix(r, p);
	if (v && *v)
		gw_runner_set_volumes_root(r, v);
}

static gw_runner *
gw_host_esxi_shell_runner(void)
{
	gw_runner *r = gw_runner_open_local();

	gw_host_runner_env(r, 1);
	return r;
}

static const char *
gw_host_esxi_shell_label(void)
{
	/* TRANSLATORS: the host gpuwiz runs on (the ESXi shell). */
	return _("this ESXi host");
}

int
gw_host_ssh_port_check(const char *port, gw_err *e)
{
	unsigned long long v;

	if (gw_parse_uint(port, 65535, &v) != 0 || v == 0) {
		gw_err_set(e, _("--ssh-port: '%s' is not a port (expected 1..65535)"),
		           port);
		/* TRANSLATORS: the SSH connection box's port field. */
		gw_err_set_ui(e, _("Port: '%s' is not a port (expected 1..65535, or empty for 22)"),
		              port);
		return -1;
	}
	return 0;
}

static gw_runner *
open_ssh(const gw_host_spec *s, gw_err *e)
{
	const char **extra;
	gw_runner *r;
	size_t n = 0, i;

	if (s->ssh_port && gw_host_ssh_port_check(s->ssh_port, e) != 0)
		return NULL;
	/* ssh itself only warns about a key file it cannot read, then
	 * tries the others: say which file is missing instead */
	if (s->ssh_identity && access(s->ssh_identity, R_OK) != 0) {
		int err = errno;

		gw_err_set(e, _("--ssh-identity: %s: %s"), s->ssh_identity,
		           strerror(err));
		/* TRANSLATORS: the SSH connection box's identity file
		 * field; %s the file, then why it cannot be read. */
		gw_err_set_ui(e, _("Identity file: %s: %s"), s->ssh_identity,
		              strerror(err));
		return NULL;
	}
	extra = gw_xcalloc(2 * s->nssh_opts + 5, sizeof *extra);

	if (s->ssh_port) {
		extra[n++] = "-p";
		extra[n++] = s->ssh_port;
	}
	if (s->ssh_identity) {
		extra[n++] = "-i";
		extra[n++] = s->ssh_identity;
	}
	for (i = 0; i < s->nssh_opts; i++) {
		extra[n++] = "-o";
		extra[n++] = s->ssh_opts[i];
	}
	extra[n] = NULL;
	r = gw_runner_open_ssh_prompt(s->ssh, extra, s->ssh_prompt, e);
	free(extra);
	if (r != NULL)
		gw_host_runner_env(r, 0);
	return r;
}

int
gw_vs_available(gw_err *e)
{
#if GW_WITH_VSPHERE
	(void)e;
	return 0;
#else
	gw_err_set(e, "%s", _("this build of gpuwiz has no vSphere module (configured --without-vsphere): the vSphere API (gpuwiz vsphere, --url, the wizard's vSphere route) is not available; use --ssh or a build with the module"));
	return -1;
#endif
}

static gw_vs *
open_vs(const gw_host_spec *s, gw_err *e)
{
	gw_vs_opts vo;

	memset(&vo, 0, sizeof vo);
	vo.url = s->url;
	vo.user = s->user;
	vo.password = s->password ? s->password : "";
	vo.thumbprint = s->thumbprint;
	vo.cafile = s->cafile;
	vo.insecure = s->insecure;
	vo.verbose = gw_verbosity() == GW_VERBOSE;
	vo.untrusted = s->untrusted;
	vo.timeout = s->timeout;
	return gw_vs_connect(&vo, e);
}

static int
check_vs(const gw_host_spec *s, gw_err *e)
{
	if (s->url == NULL || s->user == NULL) {
		gw_err_set(e, "%s", s->url == NULL ?
		           _("--url: missing (expected the vCenter or ESXi address, e.g. https://vc01/sdk)") :
		           _("--user: missing (expected the vSphere user, e.g. administrator@vsphere.local)"));
		return -1;
	}
	if (s->thumbprint && s->insecure) {
		gw_err_set(e, "%s", _("--thumbprint and --insecure exclude each other: pin the certificate, or (only if you must) skip verification"));
		return -1;
	}
	return 0;
}

int
gw_host_spec_check(const gw_host_spec *s, gw_err *e)
{
	if (s->lspci && (s->listing || s->ssh || s->sample || s->sysroot ||
	                 s->url)) {
		gw_err_set(e, "%s", _("--lspci-file reads a saved lspci capture; it cannot be combined with --esxcli-file, --ssh, --sample-host, --sysroot or --url"));
		return -1;
	}
	if (s->listing && (s->ssh || s->sample || s->sysroot || s->url)) {
		gw_err_set(e, "%s", _("--esxcli-file reads a saved listing; it cannot be combined with --ssh, --sample-host, --sysroot or --url"));
		return -1;
	}
	if (s->url && s->sysroot) {
		gw_err_set(e, "%s", _("--url (the vSphere API) excludes --sysroot: pick one way to reach the host"));
		return -1;
	}
	if (s->ssh && s->sample) {
		gw_err_set(e, "%s", _("--ssh and --sample-host exclude each other (a sample host is not reached over SSH)"));
		return -1;
	}
	if (s->url && (s->ssh || s->sample)) {
		gw_err_set(e, "%s", _("--url (the vSphere API) excludes --ssh and --sample-host: pick one way to reach the host"));
		return -1;
	}
	if ((s->ssh || s->sample) && s->sysroot) {
		gw_err_set(e, _("--sysroot cannot be combined with %s"),
		           s->ssh ? "--ssh" : "--sample-host");
		return -1;
	}
	/* the options' combinations first (a usage error whatever the
	 * build), then whether this build can take --url at all */
	if (s->url && gw_vs_available(e) != 0)
		return -1;
	return s->url ? check_vs(s, e) : 0;
}

/* The host the options name, before checking what the caller needs. */
static int
open_named(const gw_host_spec *s, gw_host **out, gw_err *e)
{
	gw_runner *r;
	gw_vs *vs;

	*out = NULL;
	if (s->sample)
		return gw_host_open_sample(s->sample, s->keep_scratch, out, e);
	if (s->ssh) {
		if ((r = open_ssh(s, e)) == NULL)
			return -1;
		*out = gw_host_open_esxi(r, s->ssh);
	} else if (s->url) {
		if ((vs = open_vs(s, e)) == NULL)
			return -1;
		*out = gw_host_open_vsphere(vs, s->url);
	} else if (s->esxi_shell && s->need != GW_HOST_NEED_LINUX &&
	           !s->sysroot && gw_host_on_esxi_shell()) {
		*out = gw_host_open_esxi(gw_host_esxi_shell_runner(),
		                         gw_host_esxi_shell_label());
	} else {
		*out = gw_host_open_linux(s->sysroot);
	}
	return 0;
}

int
gw_host_open(const gw_host_spec *s, gw_host **out, gw_err *e)
{
	gw_host *h;
	int esxi;

	*out = NULL;
	if (gw_host_spec_check(s, e) != 0 || open_named(s, &h, e) != 0)
		return -1;
	esxi = gw_host_kind_of(h) != GW_HOST_LINUX;
	if (s->need == GW_HOST_NEED_ESXI && !esxi) {
		gw_err_set(e, "%s", _("no ESXi host: give --ssh USER@HOST (or --sample-host with an ESXi sample), or run gpuwiz on the ESXi shell"));
		gw_host_close(h);
		return -1;
	}
	if (s->need == GW_HOST_NEED_LINUX && esxi) {
		gw_err_set(e, "%s", _("this command reads a Linux host; an ESXi host has no /sys to read (use gpuwiz gpus or check with --ssh)"));
		gw_host_close(h);
		return -1;
	}
	*out = h;
	return 0;
}
