/* SPDX-License-Identifier: GPL-3.0-or-later */
/* host_esxi.c: the ESXi back end of host.h: the ESXi shell through a
 * runner (runner.h: the commands run here on the ESXi shell, over ssh, or
 * on a sample's stand-ins).  The rows say: the host and its version, the
 * system id, GPUs present, and per GPU whether passthrough is capable,
 * enabled and active; the vGPU readiness rows (host_esxi_vgpu.c); Above-4G
 * decoding cannot be seen from ESXi. */
#include "host_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static void
esxi_close(gw_host *h)
{
	gw_runner_close(h->runner);
	gw_esxi_pci_list_free(&h->pci);
}

/* The host and its version (-> facts.release). */
static void
version_rows(gw_host *h, gw_host_probe *p)
{
	gw_esxi_version ver;
	gw_err e;
	int hw;

	e.msg[0] = '\0';
	if (gw_esxi_session_version(h->runner, &ver, &e) != 0) {
		/* TRANSLATORS: %s is the host (root@esx01). */
		gw_host_row(p, "esxi-host", GW_SEV_ERROR,
		            gw_xasprintf(_("Checking the ESXi host %s"), h->label),
		            gw_xstrdup(e.msg),
		            gw_xstrdup(_("Check that SSH is enabled on the host (Host Client: Manage > Services > TSM-SSH) and that you can log in with ssh yourself.")));
		gw_esxi_version_free(&ver);
		return;
	}
	hw = ver.release ? gw_esxi_to_hw(ver.release) : 0;
	gw_host_row(p, "esxi-host", GW_SEV_PASS,
	            gw_xasprintf(_("Checking the ESXi host %s"), h->label),
	            /* TRANSLATORS: product, version, build, then the
	             * newest VM hardware version it runs. */
	            gw_xasprintf(_("%s %s (%s): VM hardware version up to %d"),
	                         ver.product ? ver.product : "ESXi",
	                         ver.version ? ver.version : "?",
	                         ver.build ? ver.build : "?", hw),
	            NULL);
	if (ver.release && hw > 0)
		p->facts.release = gw_xstrdup(ver.release);
	if (ver.release && strncmp(ver.release, "6.", 2) == 0)
		gw_host_row(p, "esxi-version", GW_SEV_WARN,
		            gw_xstrdup(_("Checking the ESXi release")),
		            gw_xasprintf(_("ESXi %s has no esxcli pcipassthru commands"),
		                         ver.release),
		            gw_xstrdup(_("Toggle passthrough in the Host Client (Manage > Hardware > PCI Devices) and reboot; ESXi 7.0 or later is recommended for current GPUs.")));
	gw_esxi_version_free(&ver);
}

/* The system id, for whole device blocks (-> facts.system_id). */
static void
sysid_rows(gw_host *h, gw_host_probe *p)
{
	char *uuid = NULL;
	gw_answers tmp;
	gw_err e;

	e.msg[0] = '\0';
	if (gw_esxi_session_uuid(h->runner, &uuid, &e) != 0) {
		gw_host_row(p, "esxi-system-id", GW_SEV_WARN,
		            gw_xstrdup(_("Checking the host's system id")),
		            gw_xstrdup(e.msg),
		            gw_xstrdup(_("Without it gpuwiz cannot write a whole pciPassthruN device block; add the GPU in the vSphere Client (Edit Settings > Add New Device > PCI Device) or the ESXi Host Client (Edit Settings > Add other device > PCI device) and let gpuwiz write the other settings.")));
		p->facts.system_id_error = gw_xstrdup(e.msg);
		free(uuid);
		return;
	}
	/* the answers' own check: what the plan would refuse is a WARN */
	gw_answers_init(&tmp);
	if (gw_answers_set_system_id(&tmp, uuid, _("System id"), &e) == 0) {
		gw_host_row(p, "esxi-system-id", GW_SEV_PASS,
		            gw_xstrdup(_("Checking the host's system id")),
		            /* TRANSLATORS: %s is the id (esxcli system uuid get). */
		            gw_xasprintf(_("%s (for the pciPassthruN.systemId of the device blocks)"),
		                         uuid),
		            NULL);
		p->facts.system_id = uuid;
	} else {
		gw_host_row(p, "esxi-system-id", GW_SEV_WARN,
		            gw_xstrdup(_("Checking the host's system id")),
		            gw_xstrdup(e.msg), NULL);
		p->facts.system_id_error = gw_xstrdup(e.msg);
		free(uuid);
	}
	gw_answers_free(&tmp);
}

static int
owner_is_passthru(const char *o)
{
	return o != NULL && strcasecmp(o, "VM Passthru") == 0;
}

/* esxcli's block of GPU idx of the last probe, or NULL. */
static const gw_esxi_pci_dev *
gpu_dev(const gw_host *h, size_t idx)
{
	size_t i;

	if (idx >= h->ngpu)
		return NULL;
	for (i = 0; i < h->pci.n; i++)
		if (strcmp(h->pci.devs[i].bdf, h->gpu_bdf[idx]) == 0)
			return &h->pci.devs[i];
	return NULL;
}

static void
passthru_rows(gw_host *h, gw_host_probe *p)
{
	size_t i;

	for (i = 0; i < p->ngpus; i++) {
		const gw_gpu_dev *g = &p->gpus[i];
		const gw_esxi_pci_dev *d = gpu_dev(h, i);
		/* TRANSLATORS: %s is a PCI address, %s the GPU's name. */
		char *title = gw_xasprintf(_("Checking passthrough of %s (%s)"),
		                           g->bdf, g->name ? g->name : "?");
		char *cmd = gw_xasprintf("esxcli hardware pci pcipassthru set -d %s -e true -a",
		                         g->bdf);

		gw_host_passthru_row(p, title, d->passthru_capable,
		                     owner_is_passthru(d->configured_owner),
		                     owner_is_passthru(d->current_owner),
		                     /* TRANSLATORS: %s is the current owner
		                      * as esxcli prints it (VMkernel). */
		                     gw_xasprintf(_("passthrough configured, but the device is still owned by %s"),
		                                  d->current_owner ? d->current_owner : "?"),
		                     /* TRANSLATORS: the PCI address, then
		                      * the esxcli command it runs. */
		                     gw_xasprintf(_("Enable it: gpuwiz passthru --enable %s with the same host (runs: %s), then reboot if it says so."),
		                                  g->bdf, cmd),
		                     /* TRANSLATORS: %s is the esxcli command. */
		                     gw_xasprintf(_("Press e on this row to enable it (runs: %s)."),
		                                  cmd));
		free(cmd);
	}
}

static void
gpu_rows(gw_host *h, const gw_table *t, gw_host_probe *p)
{
	size_t i;
	gw_err e;

	e.msg[0] = '\0';
	gw_esxi_pci_list_free(&h->pci);
	gw_host_drop_bdfs(h);
	/* the displays only: the rows and the GPUs' blocks (gpu_dev) */
	if (gw_esxi_session_list_pci(h->runner, gw_esxi_pci_keep_display, NULL,
	                             &h->pci, &e) != 0) {
		p->gpus_error = gw_xstrdup(e.msg);
		gw_host_row(p, "gpu-present", GW_SEV_ERROR,
		            gw_xstrdup(_("Checking for GPUs")), gw_xstrdup(e.msg),
		            NULL);
		return;
	}
	p->gpus = gw_xcalloc(h->pci.n ? h->pci.n : 1, sizeof *p->gpus);
	for (i = 0; i < h->pci.n; i++) {
		gw_gpu_dev g;

		if (!gw_esxi_pci_is_display(&h->pci.devs[i]))
			continue;
		gw_esxi_gpu_dev(t, &h->pci.devs[i], &g);
		if (g.onboard)
			gw_host_gpu_drop(&g);
		else
			p->gpus[p->ngpus++] = g;
	}
	gw_host_keep_bdfs(h, p->gpus, p->ngpus);
	gw_host_gpus_row(p, gw_xstrdup(_("esxcli hardware pci list shows no GPU (only on-board displays, if any)")));
	passthru_rows(h, p);
}

/* Every listed VM's power state in one command, esxcli vm process list
 * (doc/design.md 15.6), and power.getstate only for the VMs it cannot
 * tell apart.  Left NULL when esxcli fails: gw_host_power asks then. */
static void
esxi_vms_power(gw_host *h, gw_host_vms *out)
{
	gw_esxi_vm_proc_list procs;
	gw_power *pw;
	size_t i;
	gw_err e;

	if (gw_esxi_session_vm_processes(h->runner, &procs, &e) != 0)
		return;
	pw = gw_xcalloc(out->list.n ? out->list.n : 1, sizeof *pw);
	gw_esxi_vms_power(&out->list, &procs, pw);
	gw_esxi_vm_proc_list_free(&procs);
	for (i = 0; i < out->list.n; i++)
		if (pw[i] == GW_POWER_UNKNOWN &&
		    gw_esxi_session_power_state(h->runner, out->list.vms[i].vmid,
		                                &pw[i], &e) != 0) {
			free(pw);
			return;
		}
	out->power = pw;
}

static int
esxi_list_vms(gw_host *h, gw_host_vms *out, gw_err *e)
{
	if (gw_esxi_session_list_vms(h->runner, &out->list, e) != 0)
		return -1;
	esxi_vms_power(h, out);
	return 0;
}

static int
esxi_probe(gw_host *h, const gw_table *t, gw_host_probe *p)
{
	gw_err e;

	version_rows(h, p);
	sysid_rows(h, p);
	gpu_rows(h, t, p);
	gw_host_esxi_vgpu_rows(h, p);
	gw_host_above4g_row(p);
	e.msg[0] = '\0';
	if (esxi_list_vms(h, &p->vms, &e) != 0)
		p->vms_error = gw_xstrdup(e.msg);
	return p->fails;
}

static int
esxi_facts(gw_host *h, gw_host_facts *f, gw_err *e)
{
	gw_esxi_version ver;

	if (gw_esxi_session_version(h->runner, &ver, e) != 0)
		return -1;
	if (ver.release && gw_esxi_to_hw(ver.release) > 0)
		f->release = gw_xstrdup(ver.release);
	gw_esxi_version_free(&ver);
	if (gw_esxi_session_uuid(h->runner, &f->system_id, e) != 0) {
		f->system_id_error = gw_xstrdup(e->msg);
		free(f->system_id);
		f->system_id = NULL;
	}
	return 0;
}

static int
esxi_power(gw_host *h, const gw_vm *vm, gw_power *out, gw_err *e)
{
	return gw_esxi_session_power_state(h->runner, vm->vmid, out, e);
}

static int
esxi_vm_key(gw_host *h, const gw_vm *vm, char **key, gw_err *e)
{
	return gw_esxi_session_vmx_path(h->runner, vm, key, e);
}

static int
esxi_read_vmx(gw_host *h, const gw_vm *vm, gw_vmx **out, char **where,
              char **release, gw_err *e)
{
	(void)release;
	if (gw_esxi_session_vmx_path(h->runner, vm, where, e) != 0 ||
	    gw_esxi_session_read_vmx(h->runner, *where, out, e) != 0) {
		free(*where);
		*where = NULL;
		return -1;
	}
	return 0;
}

/* Save the .vmx on the datastore (powered off only: the runner asks the
 * host again; backup beside it unless one was taken), then vim-cmd
 * vmsvc/reload. */
static int
esxi_write_vmx(gw_host *h, const gw_vm *vm, const char *where,
               const gw_plan *p, const gw_vmx *before, const gw_vmx *after,
               const char *taken, int force, gw_host_write *res, gw_err *e)
{
	char *a, *b;
	size_t alen, blen;
	gw_err le;

	(void)p;
	a = gw_vmx_serialize(after, &alen);
	b = gw_vmx_serialize(before, &blen);
	res->changed = alen != blen || memcmp(a, b, alen) != 0;
	free(a);
	free(b);
	res->where = gw_xstrdup(where);
	if (!res->changed)
		return 0;
	if (gw_esxi_session_save_vmx(h->runner, vm->vmid, where, after, before,
	                             force, taken ? NULL : &res->backup, e) != 0)
		return -1;
	if (taken)
		res->backup = gw_xstrdup(taken);
	le.msg[0] = '\0';
	res->reloaded = gw_esxi_session_reload(h->runner, vm->vmid, &le) == 0;
	if (!res->reloaded)
		snprintf(res->reload_error, sizeof res->reload_error, "%s", le.msg);
	return 0;
}

/* A copy of the .vmx on the datastore, beside it. */
static int
esxi_backup_vmx(gw_host *h, const char *where, char **backup, gw_err *e)
{
	return gw_runner_backup_file(h->runner, where, backup, e);
}

static int
esxi_gpu_passthru(const gw_host *h, size_t idx)
{
	const gw_esxi_pci_dev *d = gpu_dev(h, idx);

	return d ? gw_esxi_pci_passthru_enabled(d) : -1;
}

static int
esxi_enable_bdf(gw_host *h, const char *bdf, const char *host_name,
                int *reboot, gw_err *e)
{
	int rb = 0;

	(void)host_name;
	if (gw_esxi_session_enable_passthru(h->runner, bdf, &rb, e) != 0)
		return -1;
	if (reboot)
		*reboot = rb;
	return 0;
}

static int
esxi_enable_check(gw_host *h, const char *bdf, const char *host_name,
                  gw_err *e)
{
	(void)host_name;
	return gw_esxi_session_enable_check(h->runner, bdf, e);
}

static int
esxi_enable_gpu(gw_host *h, size_t idx, int *reboot, gw_err *e)
{
	return esxi_enable_bdf(h, h->gpu_bdf[idx], NULL, reboot, e);
}

static int
esxi_upgrade(gw_host *h, const gw_vm *vm, int current, int target,
             gw_err *e)
{
	return gw_esxi_session_upgrade(h->runner, vm->vmid, current, target, e);
}

/* gpuwiz gpus: esxcli's own listing, read as a saved one is, as it
 * arrives. */
static int
esxi_gpus(gw_host *h, const gw_table *t, gw_gpu_list *out, gw_err *e)
{
	return gw_esxi_session_gpus(h->runner, t, out, e);
}

const gw_host_methods gw_host_esxi_methods = {
	.name = "esxi",
	.kind = GW_HOST_ESXI,
	.caps = HOST_CHECKS | HOST_GPUS | HOST_VMS | HOST_PASSTHRU |
	        HOST_UPGRADE | HOST_RELOAD | HOST_BACKUP,
	.close = esxi_close,
	.probe = esxi_probe,
	.facts = esxi_facts,
	.list_vms = esxi_list_vms,
	.power = esxi_power,
	.vm_key = esxi_vm_key,
	.read_vmx = esxi_read_vmx,
	.write_vmx = esxi_write_vmx,
	.gpu_passthru = esxi_gpu_passthru,
	.enable_gpu = esxi_enable_gpu,
	.enable_check = esxi_enable_check,
	.enable_bdf = esxi_enable_bdf,
	.upgrade = esxi_upgrade,
	.backup_vmx = esxi_backup_vmx,
	.gpus = esxi_gpus,
};

gw_host *
gw_host_open_esxi(gw_runner *r, const char *label)
{
	gw_host *h = gw_host_new(&gw_host_esxi_methods, label);

	h->runner = r;
	return h;
}
