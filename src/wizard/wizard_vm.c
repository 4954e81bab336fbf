/* SPDX-License-Identifier: GPL-3.0-or-later */
/* wizard_vm.c: the VM, MMIO and options steps and saving the answers
 * (wizard.h). */
#include "wizard_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <libgen.h>
#include <sys/stat.h>
#include <unistd.h>

#define SRC_MMIO "Broadcom KB 323402"

/* ---- VM step --------------------------------------------------------------- */

int
gw_wizard_open_vmx(gw_wizard *w, const char *path, gw_err *e)
{
	gw_vmx *v = NULL;
	char *full;

	if (path == NULL || *path == '\0') {
		wz_set_vmx(w, NULL, NULL);
		wz_changed(w);
		gw_wizard_propose_uvm(w);
		return 0;
	}
	full = wz_expand_tilde(path);
	if (gw_vmx_load_checked(&v, full, e) != 0) {
		free(full);
		return -1;
	}
	wz_set_vmx(w, v, full);
	wz_changed(w);
	/* a VM with vGPUs: UVM on unless the operator decided (15.1) */
	gw_wizard_propose_uvm(w);
	return 0;
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int
ends_with_vmx(const char *name)
{
	size_t n = strlen(name);

	return n > 4 && gw_strieq(name + n - 4, ".vmx");
}

char **
gw_path_complete(const char *prefix)
{
	wz_strv s = { NULL, 0 };
	const char *p = prefix ? prefix : "", *slash, *base;
	char *dirpart, *dirpath;
	size_t blen;
	DIR *d;
	struct dirent *de;

	slash = strrchr(p, '/');
	dirpart = slash ? gw_xstrndup(p, (size_t)(slash - p + 1)) : gw_xstrdup("");
	base = slash ? slash + 1 : p;
	blen = strlen(base);
	dirpath = *dirpart ? wz_expand_tilde(dirpart) : gw_xstrdup(".");
	d = opendir(dirpath);
	while (d && (de = readdir(d)) != NULL) {
		const char *name = de->d_name;
		struct stat st;
		char *full;
		int ok;

		if (strcmp(name, ".") == 0 || strcmp(name, "..") == 0)
			continue;
		if (name[0] == '.' && base[0] != '.')
			continue;
		if (strncmp(name, base, blen) != 0)
			continue;
		full = gw_xasprintf("%s%s%s", dirpath,
		                    dirpath[strlen(dirpath) - 1] == '/' ? "" : "/",
		                    name);
		ok = stat(full, &st) == 0;
		free(full);
		if (!ok)
			continue;
		if (S_ISDIR(st.st_mode))
			wz_strv_push(&s, gw_xasprintf("%s%s/", dirpart, name));
		else if (S_ISREG(st.st_mode) && ends_with_vmx(name))
			wz_strv_push(&s, gw_xasprintf("%s%s", dirpart, name));
	}
	if (d)
		closedir(d);
	free(dirpart);
	free(dirpath);
	if (s.n > 1)
		qsort(s.v, s.n, sizeof *s.v, cmp_str);
	return wz_strv_finish(&s);
}

char *
gw_common_prefix(char *const *v)
{
	size_t len, i, k;

	if (v == NULL || v[0] == NULL)
		return gw_xstrdup("");
	len = strlen(v[0]);
	for (i = 1; v[i]; i++) {
		for (k = 0; k < len && v[i][k] == v[0][k]; k++)
			;
		len = k;
	}
	/* do not cut a UTF-8 character: back off over continuation bytes */
	while (len > 0 && ((unsigned char)v[0][len] & 0xc0) == 0x80)
		len--;
	return gw_xstrndup(v[0], len);
}

/* ---- MMIO step ------------------------------------------------------------- */

/* The rule's size for the current GPUs (0 when no plan can be made). */
static uint64_t
current_rule(const gw_wizard *w)
{
	gw_answers a;
	gw_plan p;
	gw_err le;
	uint64_t rule = 0;

	if (wz_plan(w))
		return w->plan.rule_gb;
	a = w->af.a;             /* shallow: gw_plan_build only reads it */
	a.mmio_gb = 0;
	a.allow_below_rule = 0;
	if (gw_plan_build(&a, gw_wizard_table(w), w->vmx, &p, &le) == 0)
		rule = p.rule_gb;
	gw_plan_free(&p);
	return rule;
}

int
gw_wizard_set_mmio(gw_wizard *w, uint64_t gb, int confirmed, gw_err *e)
{
	uint64_t rule;

	if (gb > GW_MMIO_MAX_WINDOW_GB) {
		gw_err_set(e, _("MMIO size: %llu GB is not plausible (expected 1..%llu)"),
		           (unsigned long long)gb,
		           (unsigned long long)GW_MMIO_MAX_WINDOW_GB);
		return -1;
	}
	if (gb == 0) {
		w->af.a.mmio_gb = 0;
		w->af.a.allow_below_rule = 0;
		wz_changed(w);
		return 0;
	}
	rule = current_rule(w);
	if (rule && gb < rule && !confirmed) {
		gw_err_set(e, _("MMIO size: %llu GB is below the rule's %llu GB (%s) and the VM may not power on; confirm to use it anyway"),
		           (unsigned long long)gb, (unsigned long long)rule,
		           SRC_MMIO);
		return -1;
	}
	w->af.a.mmio_gb = gb;
	w->af.a.allow_below_rule = confirmed && (rule == 0 || gb < rule);
	wz_changed(w);
	return 0;
}

/* ---- options step ----------------------------------------------------------- */

void
gw_wizard_set_uvm(gw_wizard *w, int on)
{
	w->af.a.uvm = on ? 1 : 0;
	w->af.uvm_set = 1;      /* decided: no longer proposed */
	wz_changed(w);
}

void
gw_wizard_set_p2p(gw_wizard *w, int on)
{
	w->af.a.p2p = on ? 1 : 0;
	wz_changed(w);
}

int
gw_wizard_takes_dynamic(const gw_wizard *w)
{
	return gw_host_takes_dynamic(wz_host_for(w, w->mode));
}

int
gw_wizard_set_dynamic(gw_wizard *w, int on, gw_err *e)
{
	gw_host *h = wz_host_for(w, w->mode);

	/* the rule is gw_host_takes_dynamic's; the words are the options
	 * step's, one line */
	if (on && !gw_host_takes_dynamic(h)) {
		if (h == NULL)
			gw_err_set(e, "%s", _("No vCenter on this route: Dynamic DirectPath I/O needs vCenter 7 or later to place the VM."));
		else if (gw_host_kind_of(h) == GW_HOST_VSPHERE)
			gw_err_set(e, "%s", _("A standalone ESXi host, not vCenter: Dynamic DirectPath I/O needs vCenter 7 or later to place the VM."));
		else
			gw_err_set(e, "%s", _("A host reached directly, not vCenter: Dynamic DirectPath I/O needs vCenter 7 or later to place the VM."));
		return -1;
	}
	w->af.a.dynamic = on ? 1 : 0;
	wz_changed(w);
	return 0;
}

void
gw_wizard_set_reserve(gw_wizard *w, int on)
{
	w->af.a.reserve = on ? 1 : 0;
	wz_changed(w);
}

void
gw_wizard_set_code43(gw_wizard *w, int on)
{
	w->af.a.code43 = on ? 1 : 0;
	wz_changed(w);
}

void
gw_wizard_set_force(gw_wizard *w, int on)
{
	w->af.force = on ? 1 : 0;
	wz_changed(w);
}

void
gw_wizard_set_formats(gw_wizard *w, int mask)
{
	w->af.formats = mask & GW_FMT_ALL;
	w->af.formats_set = 1;   /* the operator's choice wins */
	wz_changed(w);
}

int
gw_wizard_set_outdir(gw_wizard *w, const char *dir, gw_err *e)
{
	struct stat st;
	char *full;

	if (dir == NULL || *dir == '\0') {
		gw_err_set(e, "%s", _("Output directory: empty (expected the directory to write the snippets into)"));
		return -1;
	}
	full = wz_expand_tilde(dir);
	if (stat(full, &st) == 0 && !S_ISDIR(st.st_mode)) {
		gw_err_set(e, _("%s: exists and is not a directory"), full);
		free(full);
		return -1;
	}
	free(w->af.out_dir);
	w->af.out_dir = full;
	wz_changed(w);
	return 0;
}

int
gw_wizard_set_esxi(gw_wizard *w, const char *version, gw_err *e)
{
	if (version && *version && gw_esxi_to_hw(version) == 0) {
		gw_err_set(e, _("ESXi version: '%s' is not a known ESXi version (expected e.g. 7.0U3, 8.0U2, 9.0)"),
		           version);
		return -1;
	}
	free(w->af.a.esxi_version);
	w->af.a.esxi_version = version && *version ? gw_xstrdup(version) : NULL;
	wz_changed(w);
	return 0;
}

int
gw_wizard_esxi_wanted(const gw_wizard *w)
{
	size_t i;

	for (i = 0; w->have_plan && i < w->plan.nfindings; i++)
		if (strcmp(w->plan.findings[i].id, "hw-target-unknown") == 0)
			return w->plan.findings[i].sev >= GW_SEV_WARN;
	return 0;
}

int
gw_wizard_set_memory(gw_wizard *w, long mb, gw_err *e)
{
	if (mb < 0 || mb > 64L * 1024 * 1024) {
		gw_err_set(e, _("Memory: %ld is not a memory size in MB (expected 1..67108864)"),
		           mb);
		return -1;
	}
	w->af.a.memory_mb = mb;
	wz_changed(w);
	return 0;
}

int
gw_wizard_set_name(gw_wizard *w, const char *name, gw_err *e)
{
	const char *q;

	if (name && *name) {
		for (q = name; *q; q++)
			if (!isalnum((unsigned char)*q) && *q != '-' && *q != '_')
				break;
		if (*q != '\0' || strlen(name) > 80) {
			gw_err_set(e, _("VM extension name: '%s' may contain only letters, digits, '-' and '_' (no periods), at most 80"),
			           name);
			return -1;
		}
	}
	free(w->af.a.name);
	w->af.a.name = name && *name ? gw_xstrdup(name) : NULL;
	wz_changed(w);
	return 0;
}

int
gw_wizard_add_bdf(gw_wizard *w, const char *bdf, gw_err *e)
{
	if (gw_answers_add_bdf(&w->af.a, bdf, _("Host PCI address"), e) != 0)
		return -1;
	wz_changed(w);
	return 0;
}

void
gw_wizard_clear_bdfs(gw_wizard *w)
{
	gw_strs_free(w->af.a.bdfs, w->af.a.nbdfs);
	w->af.a.bdfs = NULL;
	w->af.a.nbdfs = 0;
	wz_changed(w);
}

int
gw_wizard_set_system_id(gw_wizard *w, const char *uuid, gw_err *e)
{
	if (uuid == NULL || *uuid == '\0') {
		free(w->af.a.system_id);
		w->af.a.system_id = NULL;
	} else if (gw_answers_set_system_id(&w->af.a, uuid, _("System id"),
	                                    e) != 0) {
		return -1;
	}
	wz_changed(w);
	return 0;
}

/* ---- review step: saving the answers ----------------------------------------- */

static char *
absolute(const char *p)
{
	char *cwd;
	char *out;

	if (p[0] == '/')
		return gw_xstrdup(p);
	cwd = getcwd(NULL, 0);
	if (cwd == NULL)
		return gw_xstrdup(p);
	while (p[0] == '.' && p[1] == '/')
		p += 2;
	out = gw_xasprintf("%s/%s", strcmp(cwd, "/") == 0 ? "" : cwd, p);
	free(cwd);
	return out;
}

/* target as the answers file in dir will read it back: relative when it
 * lies under dir, else absolute. */
static char *
path_for_answers(const char *target, const char *dir)
{
	char *abs = absolute(target), *out;
	size_t n = strlen(dir);

	if (strncmp(abs, dir, n) == 0 && abs[n] == '/' && abs[n + 1] != '\0') {
		out = gw_xstrdup(abs + n + 1);
		free(abs);
		return out;
	}
	return abs;
}

/* Does p lie in directory dir (or is it dir)? */
static int
path_under(const char *p, const char *dir)
{
	char *abs = absolute(p);
	size_t n = strlen(dir);
	int in = strncmp(abs, dir, n) == 0 && (abs[n] == '/' || abs[n] == '\0');

	free(abs);
	return in;
}

/* The address of a host connected from the box or a replay, into c's
 * [host] (malloc'ed: own[] frees them): an SSH host's USER@HOST[:PORT]
 * and identity, the API's URL, user and pinned thumbprint.  0, or -1
 * when the wizard did not connect the host itself. */
static int
save_address(const gw_wizard *w, gw_answers_file *c, char *own[4])
{
	gw_wizard_address a;

	if (gw_wizard_address_of(w, &a) != 0)
		return -1;
	c->host = GW_AHOST_SSH;
	if (a.url) {
		c->host = GW_AHOST_API;
		c->host_address = own[0] = gw_xstrdup(a.url);
		c->host_user = own[1] = a.user ? gw_xstrdup(a.user) : NULL;
		c->host_thumbprint = own[2] = a.thumbprint ?
		                     gw_xstrdup(a.thumbprint) : NULL;
		return 0;
	}
	c->host_address = own[0] = a.port ?
	                  gw_xasprintf("%s:%s", a.target, a.port) :
	                  gw_xstrdup(a.target);
	/* "~/" stays for the home directory of the replay; a relative
	 * path is made absolute (the file's are relative to the file) */
	if (a.identity)
		c->host_identity = own[3] = a.identity[0] == '~' ?
		                   gw_xstrdup(a.identity) : absolute(a.identity);
	return 0;
}

/* The route as the answers file says it: a sample host by its name, this
 * Linux host, an SSH or API host by the address it was connected with
 * (save_address), one given on the command line by the file's own values
 * while it is the same kind (port, identity, user, thumbprint), or
 * offline.  The file's host that was not reached stays as it was. */
static void
save_host(const gw_wizard *w, gw_answers_file *c, char *own[4])
{
	const char *sample = gw_wizard_sample_name(w);
	gw_answers_host kind = GW_AHOST_OFFLINE;

	c->host_address = c->host_identity = c->host_user = NULL;
	c->host_thumbprint = NULL;
	if (w->host_error) {
		kind = w->af.host;
	} else if (sample) {
		kind = GW_AHOST_SAMPLE;
		c->host_address = (char *)sample;
	} else if (w->mode == GW_MODE_LINUX) {
		kind = GW_AHOST_LINUX;
	} else if (save_address(w, c, own) == 0) {
		kind = c->host;
	} else if (w->mode == GW_MODE_ESXI_SSH || w->mode == GW_MODE_VSPHERE) {
		kind = w->mode == GW_MODE_VSPHERE ? GW_AHOST_API : GW_AHOST_SSH;
		if (w->af.host != kind)
			c->host_address = (char *)gw_wizard_host_label(w);
	}
	c->host = kind;
	if (kind == w->af.host && c->host_address == NULL) {
		c->host_address = w->af.host_address;
		c->host_identity = w->af.host_identity;
		c->host_user = w->af.host_user;
		c->host_thumbprint = w->af.host_thumbprint;
	}
	/* a host the file cannot name (the ESXi shell gpuwiz runs on): no
	 * [host], the replay takes the command line's */
	if (gw_answers_host_addressed(kind) &&
	    !gw_answers_host_address_ok(kind, c->host_address)) {
		c->host = GW_AHOST_NONE;
		c->host_address = c->host_identity = c->host_user = NULL;
		c->host_thumbprint = NULL;
	}
}

/* The host changes queued and not yet run, as the replay queues them
 * again: the GPUs whose passthrough is to be enabled (by address), the
 * open VM's hardware upgrade.  Only for a host the file names. */
static void
save_changes(const gw_wizard *w, gw_answers_file *c)
{
	size_t k;

	c->host_enable = NULL;
	c->nhost_enable = 0;
	c->upgrade_hw = 0;
	if (!gw_answers_host_addressed(c->host))
		return;
	for (k = 0; k < w->ndetected; k++)
		if (gw_wizard_enable_queued(w, k) == 1 && w->detected[k].bdf) {
			c->host_enable = gw_xrealloc(c->host_enable,
			                             (c->nhost_enable + 1) *
			                             sizeof *c->host_enable);
			c->host_enable[c->nhost_enable++] = w->detected[k].bdf;
		}
	c->upgrade_hw = c->vm_name != NULL && gw_wizard_upgrade_queued(w) > 0;
}

int
wz_savable(const gw_wizard *w, const char *path, gw_err *e)
{
	if (w->af.a.ngpus == 0 && gw_wizard_existing_gpus(w) == 0) {
		if (e)
			gw_err_set(e, _("%s: no GPU chosen: choose at least one before saving the answers"),
			           path);
		return 0;
	}
	if (w->af.formats == 0 && w->af.vmx_path == NULL &&
	    gw_session_vm(&w->sess) == NULL) {
		if (e)
			gw_err_set(e, _("%s: nothing to write: choose an output format or a .vmx before saving the answers"),
			           path);
		return 0;
	}
	return 1;
}

int
gw_wizard_save_answers(gw_wizard *w, const char *path, gw_err *e)
{
	const gw_vm *vm = gw_session_vm(&w->sess);
	gw_answers_file copy;
	char *apath, *dir, *d, *own[4] = { NULL, NULL, NULL, NULL };
	int rc;
	size_t i;

	if (path == NULL || *path == '\0') {
		gw_err_set(e, "%s", _("Answers file: no file name given"));
		return -1;
	}
	if (!wz_savable(w, path, e))
		return -1;
	apath = absolute(path);
	d = gw_xstrdup(apath);
	dir = gw_xstrdup(dirname(d));
	free(d);
	copy = w->af;            /* shallow: what differs is set here */
	copy.activity = (int)gw_wizard_activity(w);
	copy.vm_name = vm ? vm->name : w->host_error ? w->af.vm_name : NULL;
	save_host(w, &copy, own);
	save_changes(w, &copy);
	copy.vmx_path = w->af.vmx_path && !vm ?
	                path_for_answers(w->af.vmx_path, dir) : NULL;
	/* a sample's scratch directory is made anew on each start: the
	 * outputs go into the new one (no dir) */
	copy.out_dir = w->af.formats && w->af.out_dir &&
	               !(w->scratch && copy.host == GW_AHOST_SAMPLE &&
	                 path_under(w->af.out_dir, w->scratch)) ?
	               path_for_answers(w->af.out_dir, dir) : NULL;
	rc = gw_answers_save(&copy, path, e);
	free(copy.host_enable);   /* the addresses are the detected GPUs' */
	for (i = 0; i < 4; i++)
		free(own[i]);
	free(copy.vmx_path);
	free(copy.out_dir);
	free(dir);
	free(apath);
	if (rc == 0)
		w->dirty = 0;
	return rc;
}

