/* hostctx.c: the host a command works on: --ssh USER@HOST, the ESXi
 * shell itself, --sample-host NAME, or a Linux host (--sysroot, else /).
 */
#include "cli_int.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Is vim-cmd on the PATH (gpuwiz runs on the ESXi shell itself)? */
int
cli_on_esxi_shell(void)
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

/* The runner's test and unusual-host settings from the environment:
 * GPUWIZ_ESXI_PATH is put first on the PATH the host's commands see,
 * GPUWIZ_ESXI_VOLUMES replaces /vmfs/volumes. */
void
cli_runner_env(gw_runner *r)
{
	const char *p = getenv("GPUWIZ_ESXI_PATH");
	const char *v = getenv("GPUWIZ_ESXI_VOLUMES");

	if (p && *p)
		gw_runner_set_path_prefix(r, p);
	if (v && *v)
		gw_runner_set_volumes_root(r, v);
}

/* gpuwiz on the ESXi shell itself: the commands run here. */
gw_runner *
cli_esxi_shell_runner(void)
{
	gw_runner *r = gw_runner_open_local();

	cli_runner_env(r);
	return r;
}

const char *
cli_esxi_shell_label(void)
{
	/* TRANSLATORS: the host gpuwiz runs on (the ESXi shell). */
	return _("this ESXi host");
}

gw_runner *
cli_open_ssh(cli_opts *o, gw_err *e)
{
	const char **extra = gw_xcalloc(2 * o->nssh_opts + 5, sizeof *extra);
	gw_runner *r;
	size_t n = 0, i;

	if (o->ssh_port) {
		extra[n++] = "-p";
		extra[n++] = o->ssh_port;
	}
	if (o->ssh_identity) {
		extra[n++] = "-i";
		extra[n++] = o->ssh_identity;
	}
	for (i = 0; i < o->nssh_opts; i++) {
		extra[n++] = "-o";
		extra[n++] = o->ssh_opts[i];
	}
	extra[n] = NULL;
	/* on a terminal ssh may ask for the password once (the master);
	 * otherwise keys only */
	r = gw_runner_open_ssh_prompt(o->ssh, extra, isatty(STDIN_FILENO) &&
	                              isatty(STDERR_FILENO), e);
	free(extra);
	return r;
}

/* The host options that exclude each other. */
static int
host_opts_ok(const cli_opts *o, gw_err *e)
{
	if (o->ssh && o->sample) {
		gw_err_set(e, "%s", _("--ssh and --sample-host exclude each other (a sample host is not reached over SSH)"));
		return 0;
	}
	if ((o->ssh || o->sample) && o->sysroot) {
		gw_err_set(e, _("--sysroot cannot be combined with %s"),
		           o->ssh ? "--ssh" : "--sample-host");
		return 0;
	}
	return 1;
}

/* Open the host a command works on.  need: 'e' an ESXi host (--ssh, a
 * sample ESXi host, or the ESXi shell), 'l' a Linux host (--sysroot, a
 * sample Linux host, else /), 'a' whichever the options name (ESXi when
 * --ssh, an ESXi sample, or the ESXi shell without --sysroot; else
 * Linux). */
int
cli_host_open(cli_opts *o, int need, host_ctx *h, gw_err *e)
{
	memset(h, 0, sizeof *h);
	if (!host_opts_ok(o, e))
		return -1;
	if (o->sample) {
		if (gw_sample_open(o->sample, &h->smp, e) != 0)
			return -1;
		h->have_sample = 1;
		h->label = gw_sample_label(&h->smp);
		if ((h->r = gw_sample_runner(&h->smp)) == NULL)
			h->sysroot = h->smp.sysroot;
	} else if (o->ssh) {
		if ((h->r = cli_open_ssh(o, e)) == NULL)
			return -1;
		cli_runner_env(h->r);
		h->label = gw_xstrdup(o->ssh);
	} else if (need != 'l' && !o->sysroot && cli_on_esxi_shell()) {
		h->r = cli_esxi_shell_runner();
		h->label = gw_xstrdup(cli_esxi_shell_label());
	} else {
		h->sysroot = o->sysroot;
	}
	if (need == 'e' && h->r == NULL) {
		gw_err_set(e, "%s", _("no ESXi host: give --ssh USER@HOST (or --sample-host with an ESXi sample), or run gpuwiz on the ESXi shell"));
		cli_host_close(h);
		return -1;
	}
	if (need == 'l' && h->r != NULL) {
		gw_err_set(e, "%s", _("this command reads a Linux host; an ESXi host has no /sys to read (use gpuwiz gpus or check with --ssh)"));
		cli_host_close(h);
		return -1;
	}
	return 0;
}

void
cli_host_close(host_ctx *h)
{
	gw_runner_close(h->r);
	if (h->have_sample)
		gw_sample_close(&h->smp, 1);
	free(h->label);
	memset(h, 0, sizeof *h);
}

/* The VM named by --vm: a Vmid (digits) or a name, exactly. */
const gw_esxi_vm *
cli_find_vm(const gw_esxi_vm_list *l, const char *spec, gw_err *e)
{
	unsigned long long id;
	size_t i, hits = 0;
	const gw_esxi_vm *vm = NULL;

	if (gw_parse_uint(spec, ~0UL, &id) == 0 &&
	    (vm = gw_esxi_vm_find(l, (unsigned long)id)) != NULL)
		return vm;
	for (i = 0; i < l->n; i++)
		if (strcmp(l->vms[i].name, spec) == 0) {
			vm = &l->vms[i];
			hits++;
		}
	if (hits == 1)
		return vm;
	if (hits > 1)
		gw_err_set(e, _("--vm: %zu VMs are named '%s'; give the Vmid instead (gpuwiz vms lists them)"),
		           hits, spec);
	else
		gw_err_set(e, _("--vm: no VM '%s' on the host (expected a name or Vmid that gpuwiz vms lists)"),
		           spec);
	return NULL;
}

