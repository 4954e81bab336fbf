/* SPDX-License-Identifier: GPL-3.0-or-later */
/* host.c: the host interface (host.h): dispatch to the back ends, the
 * rows they share, and opening a host from the command line's options. */
#include "host_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- results ------------------------------------------------------------ */

void
gw_host_facts_free(gw_host_facts *f)
{
	free(f->release);
	free(f->system_id);
	free(f->system_id_error);
	memset(f, 0, sizeof *f);
}

void
gw_host_vms_free(gw_host_vms *v)
{
	gw_vm_list_free(&v->list);
	free(v->power);
	memset(v, 0, sizeof *v);
}

void
gw_host_probe_free(gw_host_probe *p)
{
	gw_linux_checks_free(p->checks, p->nchecks);
	free(p->checks_error);
	gw_gpu_devs_free(p->gpus, p->ngpus);
	free(p->gpus_error);
	gw_host_vms_free(&p->vms);
	free(p->vms_error);
	gw_host_facts_free(&p->facts);
	memset(p, 0, sizeof *p);
}

void
gw_host_write_free(gw_host_write *w)
{
	free(w->where);
	free(w->backup);
	memset(w, 0, sizeof *w);
}

/* ---- rows ------------------------------------------------------------- */

void
gw_host_row(gw_host_probe *p, const char *id, gw_sev st, char *title,
            char *msg, char *fix)
{
	gw_findings_add(&p->checks, &p->nchecks, st, id, GW_TOPIC_HOST, NULL,
	                title, msg, fix);
	p->fails += st == GW_SEV_ERROR;
}

int
gw_host_passthru_row(gw_host_probe *p, char *title, int capable, int enabled,
                     int active, char *pending, char *off_fix,
                     char *off_ui)
{
	if (capable == 0) {
		gw_host_row(p, "gpu-passthru", GW_SEV_ERROR, title,
		            gw_xstrdup(_("Passthru Capable: false: ESXi cannot pass this device through; the IOMMU (VT-d / AMD-Vi) is probably off in the BIOS")),
		            gw_xstrdup(_("Turn on VT-d (Intel) or AMD-Vi/IOMMU (AMD) and Above 4G decoding in the BIOS/UEFI setup, then reboot the host.")));
		free(pending);
		free(off_fix);
		free(off_ui);
		return 1;
	}
	if (enabled && active) {
		gw_host_row(p, "gpu-passthru", GW_SEV_PASS, title,
		            gw_xstrdup(_("passthrough enabled and active (owner: VM Passthru)")),
		            NULL);
		free(pending);
		free(off_fix);
		free(off_ui);
	} else if (enabled) {
		gw_host_row(p, "gpu-passthru", GW_SEV_WARN, title, pending,
		            gw_xstrdup(_("Reboot the host (maintenance mode first) so that passthrough takes effect.")));
		free(off_fix);
		free(off_ui);
	} else {
		gw_host_row(p, "gpu-passthru", GW_SEV_WARN, title,
		            gw_xstrdup(_("passthrough not enabled for this GPU")), off_fix);
		p->checks[p->nchecks - 1].fix_ui = off_ui;
		free(pending);
	}
	return 0;
}

void
gw_host_above4g_row(gw_host_probe *p)
{
	gw_host_row(p, "above-4g", GW_SEV_WARN,
	            gw_xstrdup(_("Checking Above 4G decoding")),
	            gw_xstrdup(_("not visible from ESXi")),
	            gw_xstrdup(_("Make sure \"Above 4G decoding\" (MMIO above 4 GB) is on in the BIOS/UEFI setup: GPUs with large BARs need it.")));
}

int
gw_host_gpus_row(gw_host_probe *p, char *none_msg)
{
	if (p->ngpus == 0) {
		gw_host_row(p, "gpu-present", GW_SEV_ERROR,
		            gw_xstrdup(_("Checking for GPUs")), none_msg,
		            gw_xstrdup(_("Check that the card is seated and powered; then look for it with: esxcli hardware pci list")));
		return 1;
	}
	free(none_msg);
	gw_host_row(p, "gpu-present", GW_SEV_PASS,
	            gw_xstrdup(_("Checking for GPUs")),
	            /* TRANSLATORS: %d is a count of GPUs. */
	            gw_xasprintf(_("GPUs found: %d"), (int)p->ngpus), NULL);
	return 0;
}

void
gw_host_gpu_drop(gw_gpu_dev *g)
{
	gw_gpu_dev *one = gw_xmalloc(sizeof *one);

	*one = *g;
	gw_gpu_devs_free(one, 1);
	memset(g, 0, sizeof *g);
}

void
gw_host_drop_bdfs(gw_host *h)
{
	gw_strs_free(h->gpu_bdf, h->ngpu);
	h->gpu_bdf = NULL;
	h->ngpu = 0;
}

void
gw_host_keep_bdfs(gw_host *h, const gw_gpu_dev *g, size_t n)
{
	size_t i;

	gw_host_drop_bdfs(h);
	h->gpu_bdf = gw_xcalloc(n ? n : 1, sizeof *h->gpu_bdf);
	for (i = 0; i < n; i++)
		h->gpu_bdf[i] = gw_xstrdup(g[i].bdf);
	h->ngpu = n;
}

/* ---- dispatch --------------------------------------------------------- */

gw_host *
gw_host_new(const gw_host_methods *m, const char *label)
{
	gw_host *h = gw_xcalloc(1, sizeof *h);

	h->m = m;
	h->label = gw_xstrdup(label ? label : "");
	return h;
}


void
gw_host_close(gw_host *h)
{
	if (h == NULL)
		return;
	if (h->m->close)
		h->m->close(h);
	gw_host_drop_bdfs(h);
	if (h->have_sample)
		gw_sample_close(&h->smp, !h->keep_scratch);
	free(h->label);
	free(h->sysroot);
	free(h);
}

gw_host_kind
gw_host_kind_of(const gw_host *h)
{
	return h->m->kind;
}

/* Dynamic DirectPath I/O is vCenter's placement: DRS picks a host with a
 * free GPU of the ids at power-on.  A host reached directly (the ESXi
 * shell, ssh, a sample) or a standalone ESXi through the API keeps fixed
 * passthrough (doc/design.md, section 15.4). */
int
gw_host_takes_dynamic(const gw_host *h)
{
	return h != NULL && h->m->kind == GW_HOST_VSPHERE && h->vs != NULL &&
	       gw_vs_is_vcenter(h->vs);
}

int
gw_host_dynamic_check(const gw_host *h, const gw_answers *a, gw_err *e)
{
	if (h == NULL || !a->dynamic || gw_host_takes_dynamic(h))
		return 0;
	if (h->m->kind == GW_HOST_VSPHERE) {
		gw_err_set(e, "%s", _("--dynamic: this server is a standalone ESXi host, not vCenter: Dynamic DirectPath I/O needs vCenter 7 or later to place the VM on a host with a free GPU; leave --dynamic out for fixed passthrough on this host"));
		/* TRANSLATORS: the wizard's words for the error above. */
		gw_err_set_ui(e, "%s", _("This server is a standalone ESXi host, not vCenter: Dynamic DirectPath I/O ([options] dynamic in the answers file) needs vCenter 7 or later to place the VM; set it to no for fixed passthrough on this host."));
	} else {
		gw_err_set(e, "%s", _("--dynamic: Dynamic DirectPath I/O needs vCenter, which places the VM on a host with a free GPU; a VM on a host reached directly gets that host's own GPUs (fixed passthrough): use gpuwiz --url https://VCENTER --user USER vsphere apply --dynamic, or leave --dynamic out"));
		/* TRANSLATORS: the wizard's words for the error above. */
		gw_err_set_ui(e, "%s", _("This host is reached directly, not through vCenter: Dynamic DirectPath I/O ([options] dynamic in the answers file) needs vCenter 7 or later to place the VM; set it to no for fixed passthrough on this host."));
	}
	return -1;
}

int
gw_host_can(const gw_host *h, int cap)
{
	return h != NULL && (h->m->caps & cap) == cap;
}

const char *
gw_host_label(const gw_host *h)
{
	return h->label;
}

const char *
gw_host_sysroot(const gw_host *h)
{
	return h->sysroot;
}

const char *
gw_host_scratch(const gw_host *h)
{
	return h->have_sample ? h->smp.scratch : NULL;
}

void
gw_host_set_progress(gw_host *h, gw_host_progress_fn fn, void *ctx)
{
	h->progress = fn;
	h->progress_ctx = ctx;
}

/* A method the back end lacks. */
static int
lacks(const gw_host *h, gw_err *e)
{
	/* TRANSLATORS: %s names the kind of host (linux, esxi, vsphere). */
	gw_err_set(e, _("this host (%s) cannot do that"), h->m->name);
	return -1;
}

int
gw_host_probe_all(gw_host *h, const gw_table *t, gw_host_probe *p)
{
	memset(p, 0, sizeof *p);
	return h->m->probe(h, t, p);
}

int
gw_host_facts_get(gw_host *h, gw_host_facts *f, gw_err *e)
{
	memset(f, 0, sizeof *f);
	return h->m->facts ? h->m->facts(h, f, e) : 0;
}

int
gw_host_list_vms(gw_host *h, gw_host_vms *out, gw_err *e)
{
	memset(out, 0, sizeof *out);
	return h->m->list_vms ? h->m->list_vms(h, out, e) : lacks(h, e);
}

int
gw_host_power(gw_host *h, const gw_vm *vm, gw_power *out, gw_err *e)
{
	*out = GW_POWER_UNKNOWN;
	return h->m->power ? h->m->power(h, vm, out, e) : lacks(h, e);
}

int
gw_host_vm_key(gw_host *h, const gw_vm *vm, char **key, gw_err *e)
{
	*key = NULL;
	return h->m->vm_key ? h->m->vm_key(h, vm, key, e) : lacks(h, e);
}

int
gw_host_read_vmx(gw_host *h, const gw_vm *vm, gw_vmx **out, char **where,
                 char **release, gw_err *e)
{
	*out = NULL;
	*where = NULL;
	*release = NULL;
	return h->m->read_vmx ? h->m->read_vmx(h, vm, out, where, release, e)
	                      : lacks(h, e);
}

int
gw_host_gpu_passthru(const gw_host *h, size_t idx)
{
	return h->m->gpu_passthru ? h->m->gpu_passthru(h, idx) : -1;
}

int
gw_host_pick(gw_host *h, const gw_vm *vm, gw_answers *a, char **picked,
             int *attached, gw_err *e)
{
	*picked = NULL;
	if (attached)
		*attached = 0;
	return h->m->pick ? h->m->pick(h, vm, a, picked, attached, e) : 0;
}

int
gw_host_write_vmx(gw_host *h, const gw_vm *vm, const char *where,
                  const gw_plan *p, const gw_vmx *before, const gw_vmx *after,
                  const char *taken, int force, gw_host_write *res,
                  gw_err *e)
{
	memset(res, 0, sizeof *res);
	return h->m->write_vmx ? h->m->write_vmx(h, vm, where, p, before, after,
	                                         taken, force, res, e)
	                       : lacks(h, e);
}

int
gw_host_enable_gpu(gw_host *h, size_t idx, int *reboot, gw_err *e)
{
	if (reboot)
		*reboot = 0;
	if (h->m->enable_gpu == NULL)
		return lacks(h, e);
	if (idx >= h->ngpu) {
		gw_err_set(e, _("No detected GPU %zu."), idx + 1);
		return -1;
	}
	return h->m->enable_gpu(h, idx, reboot, e);
}

int
gw_host_enable_check(gw_host *h, const char *bdf, const char *host_name,
                     gw_err *e)
{
	return h->m->enable_check ? h->m->enable_check(h, bdf, host_name, e)
	                          : 0;
}

int
gw_host_enable_bdf(gw_host *h, const char *bdf, const char *host_name,
                   int *reboot, gw_err *e)
{
	if (reboot)
		*reboot = 0;
	return h->m->enable_bdf ? h->m->enable_bdf(h, bdf, host_name, reboot, e)
	                        : lacks(h, e);
}

int
gw_host_backup_vmx(gw_host *h, const char *where, char **backup, gw_err *e)
{
	*backup = NULL;
	return h->m->backup_vmx ? h->m->backup_vmx(h, where, backup, e)
	                        : lacks(h, e);
}

int
gw_host_upgrade(gw_host *h, const gw_vm *vm, int current, int target,
                gw_err *e)
{
	if (h->m->upgrade == NULL)
		return lacks(h, e);
	if (target <= current) {
		gw_err_set(e, "%s", _("Nothing to upgrade: the VM already has the newest hardware version this host runs."));
		return -1;
	}
	return h->m->upgrade(h, vm, current, target, e);
}

int
gw_host_gpus(gw_host *h, const gw_table *t, gw_gpu_list *out, gw_err *e)
{
	memset(out, 0, sizeof *out);
	if (h->m->gpus == NULL)
		return lacks(h, e);
	if (h->m->gpus(h, t, out, e) != 0) {
		gw_gpu_list_free(out);
		return -1;
	}
	return 0;
}

void
gw_host_set_batch(gw_host *h, int on)
{
	h->batch = on;
}
