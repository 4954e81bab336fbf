/* wizard_view.c: the model as the screens see it.  ui/ includes wizard.h
 * only; everything it draws comes through these accessors, and where the
 * kind of host matters (the ESXi shell, the vSphere API, this Linux host)
 * the answer or the words come from here, so that the screens never branch
 * on it.  Each accessor reads the struct directly: when the model changes
 * shape, this file is the one to follow it. */
#include "wizard_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- life ------------------------------------------------------------ */

gw_wizard *
gw_wizard_new(const gw_table *t, gw_wizard_start *st, gw_err *e)
{
	gw_wizard *w = gw_xcalloc(1, sizeof *w);

	if (gw_wizard_init(w, t, st->answers, e) != 0) {
		gw_runner_close(st->runner);
		st->runner = NULL;
		gw_vs_close(st->vs);
		st->vs = NULL;
		gw_wizard_delete(w);
		return NULL;
	}
	if (st->runner) {
		gw_wizard_attach_esxi(w, st->runner, st->label);
		st->runner = NULL;
	}
	if (st->vs) {
		gw_wizard_attach_vsphere(w, st->vs, st->label);
		st->vs = NULL;
	}
	if (st->sample && gw_wizard_use_sample(w, st->sample, e) != 0) {
		gw_wizard_delete(w);
		return NULL;
	}
	return w;
}

void
gw_wizard_delete(gw_wizard *w)
{
	gw_wizard_free(w);
	free(w);
}

/* ---- what the screens draw ------------------------------------------ */

const gw_table *
gw_wizard_table(const gw_wizard *w)
{
	return w->table;
}

gw_step
gw_wizard_step(const gw_wizard *w)
{
	return w->step;
}

int
gw_wizard_visited(const gw_wizard *w, gw_step s)
{
	return s < GW_NSTEPS && w->visited[s];
}

gw_mode
gw_wizard_mode(const gw_wizard *w)
{
	return w->mode;
}

const gw_answers_file *
gw_wizard_answers(const gw_wizard *w)
{
	return &w->af;
}

const gw_plan *
gw_wizard_plan(const gw_wizard *w)
{
	return w->have_plan ? &w->plan : NULL;
}

const gw_vmx *
gw_wizard_vmx(const gw_wizard *w)
{
	return w->vmx;
}

const gw_apply_result *
gw_wizard_result(const gw_wizard *w)
{
	return w->written ? &w->result : NULL;
}

const char *
gw_wizard_scratch(const gw_wizard *w)
{
	return w->scratch;
}

const char *
gw_wizard_error(const gw_wizard *w, gw_wizard_err which)
{
	switch (which) {
	case GW_ERR_PLAN:
		return w->plan_error[0] ? w->plan_error : NULL;
	case GW_ERR_WRITE:
		return w->write_error[0] ? w->write_error : NULL;
	case GW_ERR_VMX:
		return w->vmx_error;
	case GW_ERR_CHECKS:
		return w->checks_error;
	case GW_ERR_DETECT:
		return w->detect_error;
	case GW_ERR_VMS:
		return w->sess.vms_error;
	}
	return NULL;
}

int
gw_wizard_is(const gw_wizard *w, gw_wizard_flag f)
{
	switch (f) {
	case GW_WIZ_DIRTY:
		return w->dirty;
	case GW_WIZ_WRITTEN:
		return w->written;
	case GW_WIZ_HOST_OVERRIDE:
		return w->host_override;
	}
	return 0;
}

/* ---- the host ---------------------------------------------------------- */

int
gw_wizard_can(const gw_wizard *w, gw_wizard_cap c)
{
	switch (c) {
	case GW_CAN_PROBE:
		return w->mode == GW_MODE_LINUX || gw_wizard_host_mode(w);
	case GW_CAN_ENABLE:
	case GW_CAN_VMS:
		return gw_wizard_host_mode(w);
	}
	return 0;
}

int
gw_wizard_reprobe(gw_wizard *w)
{
	if (gw_wizard_host_mode(w))
		return gw_wizard_probe_esxi(w);
	if (w->mode == GW_MODE_LINUX)
		return gw_wizard_probe_host(w);
	return 0;
}

const char *
gw_wizard_host_label(const gw_wizard *w)
{
	return w->host ? gw_host_label(w->host) : "";
}

int
gw_wizard_host_ok(const gw_wizard *w, int item)
{
	return item >= 0 && item < GW_NHOST && w->host_ok[item];
}

size_t
gw_wizard_checks(const gw_wizard *w, const gw_finding **out)
{
	if (out)
		*out = w->checks;
	return w->nchecks;
}

size_t
gw_wizard_detected(const gw_wizard *w, const gw_linux_gpu **out)
{
	if (out)
		*out = w->detected;
	return w->ndetected;
}

int
gw_wizard_detected_added(const gw_wizard *w, size_t idx)
{
	return w->detected_added && idx < w->ndetected &&
	       w->detected_added[idx];
}

int
gw_wizard_machine_has_gpu(const gw_wizard *w)
{
	gw_linux_gpu *g = NULL;
	size_t n = 0, i;
	int found = 0;
	gw_err e;

	if (gw_linux_gpus(w->table, gw_wizard_sysroot(), &g, &n, &e) != 0)
		return 1;
	for (i = 0; i < n; i++)
		found |= !g[i].onboard;
	gw_linux_gpus_free(g, n);
	return found;
}

size_t
gw_wizard_vms(const gw_wizard *w, const gw_esxi_vm **out)
{
	if (out)
		*out = w->sess.vms.list.vms;
	return w->sess.vms.list.n;
}

long
gw_wizard_vm_open(const gw_wizard *w)
{
	return w->sess.vm;
}

gw_esxi_power
gw_wizard_vm_power(const gw_wizard *w)
{
	return w->sess.power;
}

const char *
gw_wizard_vm_picked(const gw_wizard *w)
{
	return w->mode == GW_MODE_VSPHERE ? w->sess.picked : NULL;
}

size_t
gw_wizard_vm_devices(const gw_wizard *w, gw_vm_device *out, size_t max)
{
	const gw_vmx *v = w->vmx;
	size_t n = 0;
	int i;

	for (i = 0; v != NULL && i < 128; i++) {
		char key[64];
		gw_vm_device d;

		snprintf(key, sizeof key, "pciPassthru%d.present", i);
		if (!gw_vmx_get_bool(v, key, 0))
			continue;
		d.n = i;
		snprintf(key, sizeof key, "pciPassthru%d.vgpu", i);
		d.vgpu = gw_vmx_get(v, key);
		snprintf(key, sizeof key, "pciPassthru%d.vendorId", i);
		d.vendor_id = gw_vmx_get(v, key);
		snprintf(key, sizeof key, "pciPassthru%d.deviceId", i);
		d.device_id = gw_vmx_get(v, key);
		if (n < max)
			out[n] = d;
		n++;
	}
	return n;
}

/* ---- the words of the host ------------------------------------------- */

char *
gw_wizard_checks_title(const gw_wizard *w)
{
	const char *label = gw_wizard_host_label(w);

	if (w->mode == GW_MODE_VSPHERE)
		/* TRANSLATORS: heading of the API server's checks; %s is its
		 * URL.  At most 78 cells. */
		return gw_xasprintf(_("Checks through the vSphere API (%s):"),
		                    label);
	if (w->mode == GW_MODE_ESXI_SSH)
		/* TRANSLATORS: heading of the ESXi host's checks; %s is the
		 * host (root@esx01).  At most 78 cells. */
		return gw_xasprintf(_("Checks of the ESXi host %s:"), label);
	/* TRANSLATORS: heading of the live host checks; %s is the root
	 * checked ("/" or GPUWIZ_SYSROOT).  At most 78 cells. */
	return gw_xasprintf(_("Checks of this Linux host (%s):"),
	                    w->sysroot ? w->sysroot : gw_wizard_sysroot());
}

char *
gw_wizard_enable_question(const gw_wizard *w, size_t idx)
{
	const char *bdf = idx < w->ndetected ? w->detected[idx].bdf : "";

	if (w->mode == GW_MODE_VSPHERE)
		/* TRANSLATORS: asked on e through the API; %s is the PCI
		 * address; y/n are keys. */
		return gw_xasprintf(_("Enable passthrough for %s on its host (UpdatePassthruConfig)? y/n"),
		                    bdf);
	/* TRANSLATORS: asked on e; %s is the PCI address; y/n are keys. */
	return gw_xasprintf(_("Enable passthrough for %s on the host (esxcli hardware pci pcipassthru set -a)? y/n"),
	                    bdf);
}

char *
gw_wizard_vm_title(const gw_wizard *w)
{
	const gw_esxi_vm *vm;

	if (w->sess.vm < 0 || (size_t)w->sess.vm >= w->sess.vms.list.n)
		return NULL;
	vm = &w->sess.vms.list.vms[w->sess.vm];
	if (w->mode == GW_MODE_VSPHERE)
		/* TRANSLATORS: the open VM through the API: its name and
		 * power state. */
		return gw_xasprintf(_("%s: %s"), vm->name,
		                    gw_esxi_power_name(w->sess.power));
	/* TRANSLATORS: the open VM: its name, id and power state. */
	return gw_xasprintf(_("%s: Vmid %lu, %s"), vm->name, vm->vmid,
	                    gw_esxi_power_name(w->sess.power));
}

static const char *
host_help_linux(void)
{
	/* TRANSLATORS: help of step 2 when configuring this Linux host,
	 * wrapped to about 70 cells.  r and o are keys. */
	return _("gpuwiz checked this Linux host the way gpuwiz check does: hardware "
	         "virtualization, the IOMMU in the firmware (ACPI DMAR/IVRS) and in the kernel, "
	         "the kernel command line, the IOMMU units and the driver of each GPU. Each row "
	         "shows PASS, WARN or FAIL; Up/Down highlight a row and show its message and fix "
	         "below the rows.\n"
	         "r runs the checks again (after you changed the host). Enter goes on when no "
	         "row FAILs; a FAIL blocks it. To go on anyway, press o and confirm with y (o "
	         "again takes it back).\n"
	         "GPUWIZ_SYSROOT, when set, names the root whose /proc and /sys are checked "
	         "instead of /.");
}

static const char *
host_help_esxi(void)
{
	/* TRANSLATORS: help of step 2 on an ESXi host, wrapped to about 70
	 * cells.  r, e and o are keys. */
	return _("gpuwiz read the ESXi host through its shell (esxcli and vim-cmd, over SSH "
	         "or on the host itself): its version (the newest VM hardware version it "
	         "runs), its system id (for the pciPassthruN device blocks) and each GPU's "
	         "passthrough state from esxcli hardware pci list. \"Passthru Capable: false\" "
	         "means the IOMMU (VT-d/AMD-Vi) is off in the BIOS. Above 4G decoding cannot "
	         "be seen from ESXi: check it in the BIOS.\n"
	         "e on a GPU's row enables its passthrough (esxcli hardware pci pcipassthru set "
	         "-d ADDRESS -e true -a) after you confirm; gpuwiz refuses a storage controller "
	         "that holds a datastore or the boot device, and says when the host needs a "
	         "reboot.\n"
	         "r reads the host again. Enter goes on when no row FAILs; o goes on anyway "
	         "after a confirmation.");
}

static const char *
host_help_api(void)
{
	/* TRANSLATORS: help of step 2 through the vSphere API, wrapped to
	 * about 70 cells.  r, e and o are keys. */
	return _("gpuwiz read the server through the vSphere API: its hosts with their "
	         "versions (the newest VM hardware version each runs) and each GPU's "
	         "passthrough state (hardware.pciDevice, config.pciPassthruInfo). \"Passthru "
	         "Capable: false\" means the IOMMU (VT-d/AMD-Vi) is off in the BIOS. Above 4G "
	         "decoding cannot be seen from ESXi: check it in the BIOS.\n"
	         "e on a GPU's row enables its passthrough (UpdatePassthruConfig) after you "
	         "confirm; a free ESXi licence refuses API writes: then start gpuwiz with --ssh "
	         "root@HOST instead.\n"
	         "r reads the server again. Enter goes on when no row FAILs; o goes on anyway "
	         "after a confirmation.");
}

static const char *
vm_help_esxi(void)
{
	/* TRANSLATORS: help of step 4 on an ESXi host, wrapped to about 70
	 * cells.  u and r are keys. */
	return _("The list shows the host's VMs (vim-cmd vmsvc/getallvms). Enter or Space "
	         "opens the highlighted VM: gpuwiz asks the host for its power state and reads "
	         "its .vmx from the datastore, and shows its hardware version, firmware, memory "
	         "and reservation and the passthrough devices already in it, with its advice. "
	         "Enter on the open VM goes on; \"No VM\" writes the snippets only.\n"
	         "The write step saves the changed .vmx on the datastore (temporary file, then "
	         "a move; the old file is kept as a backup beside it) and runs vim-cmd "
	         "vmsvc/reload. A VM that is not powered off is never changed.\n"
	         "u upgrades the open VM's hardware version to the newest this host runs "
	         "(vim-cmd vmsvc/upgrade), after you confirm: only with the VM powered off, "
	         "never down; the upgrade cannot be undone, so take a snapshot or backup "
	         "first.\n"
	         "r reads the host's VM list again.");
}

static const char *
vm_help_api(void)
{
	/* TRANSLATORS: help of step 4 through the vSphere API, wrapped to
	 * about 70 cells.  u and r are keys. */
	return _("The list shows the server's VMs. Enter or Space opens the highlighted VM: "
	         "gpuwiz shows its hardware version, firmware, memory and reservation and the "
	         "passthrough devices already in it, with its advice, and the free, "
	         "passthrough-enabled devices of its host that the write step attaches. Enter on "
	         "the open VM goes on; \"No VM\" writes the snippets only.\n"
	         "The write step sends one ReconfigVM_Task (extraConfig, "
	         "memoryReservationLockedToMax, a VirtualPCIPassthrough device per GPU) and shows "
	         "its progress; what the VM already has is not added again. A VM that is not "
	         "powered off is never changed.\n"
	         "u upgrades the open VM's hardware version to the newest its host runs "
	         "(UpgradeVM_Task), after you confirm: only powered off, never down; the upgrade "
	         "cannot be undone.\n"
	         "r reads the server again.");
}

const char *
gw_wizard_step_help(const gw_wizard *w, gw_step s)
{
	int api = w->mode == GW_MODE_VSPHERE;

	if (s == GW_STEP_HOST && gw_wizard_host_mode(w))
		return api ? host_help_api() : host_help_esxi();
	if (s == GW_STEP_HOST && w->mode == GW_MODE_LINUX)
		return host_help_linux();
	if (s == GW_STEP_VM && gw_wizard_host_mode(w))
		return api ? vm_help_api() : vm_help_esxi();
	return NULL;
}
