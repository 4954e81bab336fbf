/* SPDX-License-Identifier: GPL-3.0-or-later */
/* runner_session.c: the ESXi operations gpuwiz runs through a runner
 * (esxcli and vim-cmd; see runner.h), except the storage guard
 * (runner_guard.c). */
#include "runner_int.h"
#include "plan.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A power state as vim-cmd vmsvc/power.getstate prints it (left in
 * English in messages, so that it matches what the ESXi shell shows). */
static const char *
power_word(gw_power p)
{
	switch (p) {
	case GW_POWER_ON:
		return "Powered on";
	case GW_POWER_OFF:
		return "Powered off";
	case GW_POWER_SUSPENDED:
		return "Suspended";
	default:
		return _("in an unknown state");
	}
}

char *
runner_dev_label(const gw_esxi_pci_dev *d)
{
	if (d->device_name && *d->device_name)
		return gw_xasprintf("%s (%s)", d->bdf, d->device_name);
	return gw_xstrdup(d->bdf);
}

/* ---- listings --------------------------------------------------------- */

int
gw_esxi_session_version(gw_runner *r, gw_esxi_version *out, gw_err *e)
{
	const char *argv[] = {"esxcli", "system", "version", "get", NULL};
	char *o;
	int rc;

	memset(out, 0, sizeof *out);
	if (gw_runner_run_ok(r, argv, &o, e) != 0)
		return -1;
	rc = gw_esxi_parse_version(o, "esxcli system version get", out, e);
	free(o);
	return rc;
}

int
gw_esxi_session_uuid(gw_runner *r, char **uuid, gw_err *e)
{
	const char *argv[] = {"esxcli", "system", "uuid", "get", NULL};
	char *o;
	int rc;

	*uuid = NULL;
	if (gw_runner_run_ok(r, argv, &o, e) != 0)
		return -1;
	rc = gw_esxi_parse_uuid(o, "esxcli system uuid get", uuid, e);
	free(o);
	return rc;
}

/* A command run through the runner as a parser's gw_esxi_produce: its
 * output reaches the parser as it arrives. */
typedef struct run_cmd {
	gw_runner *r;
	const char *const *argv;
} run_cmd;

static int
run_produce(void *pctx, gw_esxi_sink *sink, void *sctx, gw_err *e)
{
	const run_cmd *c = pctx;

	return gw_runner_run_ok_sink(c->r, c->argv, sink, sctx, e);
}

/* esxcli hardware pci list: the device list and the GPUs read from it */
static const char *const pci_list_argv[] = {"esxcli", "hardware", "pci",
                                            "list", NULL};

int
gw_esxi_session_list_pci(gw_runner *r, gw_esxi_pci_keep *keep,
                         const void *kctx, gw_esxi_pci_list *out, gw_err *e)
{
	run_cmd c = { r, pci_list_argv };

	return gw_esxi_pci_list_read_from(run_produce, &c,
	                                  "esxcli hardware pci list", keep, kctx,
	                                  out, e);
}

int
gw_esxi_session_gpus(gw_runner *r, const gw_table *t, gw_gpu_list *out,
                     gw_err *e)
{
	run_cmd c = { r, pci_list_argv };

	return gw_esxi_gpu_list_read_from(t, run_produce, &c, NULL, out, e);
}

int
gw_esxi_session_list_vms(gw_runner *r, gw_vm_list *out, gw_err *e)
{
	const char *argv[] = {"vim-cmd", "vmsvc/getallvms", NULL};
	run_cmd c = { r, argv };

	return gw_esxi_parse_getallvms_from(run_produce, &c,
	                                    "vim-cmd vmsvc/getallvms", out, e);
}

int
gw_esxi_session_vm_processes(gw_runner *r, gw_esxi_vm_proc_list *out,
                             gw_err *e)
{
	const char *argv[] = {"esxcli", "vm", "process", "list", NULL};
	run_cmd c = { r, argv };

	return gw_esxi_parse_vm_processes_from(run_produce, &c,
	                                       "esxcli vm process list", out, e);
}

int
gw_esxi_session_power_state(gw_runner *r, unsigned long vmid,
                            gw_power *out, gw_err *e)
{
	char id[32], *o;
	const char *argv[] = {"vim-cmd", "vmsvc/power.getstate", id, NULL};
	int rc;

	*out = GW_POWER_UNKNOWN;
	snprintf(id, sizeof id, "%lu", vmid);
	if (gw_runner_run_ok(r, argv, &o, e) != 0)
		return -1;
	rc = gw_esxi_parse_power_state(o, "vim-cmd vmsvc/power.getstate", out,
	                               e);
	free(o);
	return rc;
}

/* 0 when VM vmid is Powered off, 1 when it is not (*p says how it is),
 * -1 (e set) when its state cannot be read. */
static int
need_powered_off(gw_runner *r, unsigned long vmid, gw_power *p,
                 gw_err *e)
{
	if (gw_esxi_session_power_state(r, vmid, p, e) != 0)
		return -1;
	return *p == GW_POWER_OFF ? 0 : 1;
}

/* ---- passthrough ------------------------------------------------------ */

static int
owned_by_passthru(const gw_esxi_pci_dev *d)
{
	return d->current_owner != NULL &&
	       gw_strieq(d->current_owner, "VM Passthru");
}

/* esxcli hardware pci pcipassthru set -d ADDR -e true -a. */
static int
set_passthru(gw_runner *r, const char *addr, const char *label, gw_err *e)
{
	const char *argv[] = {"esxcli", "hardware", "pci", "pcipassthru", "set",
	                      "-d", addr, "-e", "true", "-a", NULL};
	char *err = NULL, *what;
	int st;

	if (gw_runner_run(r, argv, NULL, &err, &st, e) != 0)
		return -1;
	if (st == 0) {
		free(err);
		return 0;
	}
	if (err && strstr(err, "Unknown command or namespace")) {
		gw_err_set(e, _("%s: this ESXi has no 'esxcli hardware pci "
		                "pcipassthru' (it came with ESXi 7.0); before 7.0, "
		                "turn passthrough on in the Host Client (Manage > "
		                "Hardware > PCI Devices, Toggle passthrough) and "
		                "reboot the host"), label);
	} else {
		what = runner_argv_text(argv);
		runner_status_error(e, what, st, err);
		free(what);
	}
	free(err);
	return -1;
}

/* Steps 1 to 3 of gw_esxi_session_enable_passthru() for the device dev
 * of the list (label names it): 1 when nothing was needed, 0 when
 * passthrough was set, -1. */
static int
enable_dev(gw_runner *r, const gw_esxi_pci_dev *dev, const char *addr,
           const char *label, int check_only, gw_err *e)
{
	if (dev->passthru_capable == 0) {
		gw_err_set(e, _("%s cannot be passed through (Passthru Capable: "
		                "false): the IOMMU (Intel VT-d or AMD-Vi) is "
		                "probably off in the BIOS; turn it on there and "
		                "reboot the host"), label);
		return -1;
	}
	if (gw_esxi_pci_passthru_enabled(dev) == 1 && owned_by_passthru(dev))
		return 1;
	if (gw_esxi_session_passthru_guard(r, dev, e) != 0)
		return -1;
	if (check_only)
		return 0;
	return set_passthru(r, addr, label, e);
}

/* Step 4: the device list again; does the host need a reboot?  (The
 * list holds the device at a alone, or nothing.) */
static int
reboot_check(gw_runner *r, const gw_esxi_addr *a, const char *label,
             int *reboot_needed, gw_err *e)
{
	gw_esxi_pci_list l;
	const gw_esxi_pci_dev *dev;
	gw_err why;

	if (gw_esxi_session_list_pci(r, gw_esxi_pci_keep_addr, a, &l, &why) != 0) {
		gw_err_set(e, _("passthrough was turned on for %s, but the device "
		                "list cannot be read again to see whether the host "
		                "needs a reboot: %s"), label, why.msg);
		return -1;
	}
	dev = l.n > 0 ? &l.devs[0] : NULL;
	if (reboot_needed)
		*reboot_needed = dev == NULL || !owned_by_passthru(dev);
	gw_esxi_pci_list_free(&l);
	return 0;
}

/* Steps 1 to 3 (check_only: 1 and 2), then 4. */
static int
enable_passthru(gw_runner *r, const char *bdf, int check_only,
                int *reboot_needed, gw_err *e)
{
	gw_esxi_addr a;
	char addr[32], *label = NULL;
	gw_esxi_pci_list l;
	const gw_esxi_pci_dev *dev;
	int rc = -1;

	if (reboot_needed)
		*reboot_needed = 0;
	if (bdf == NULL || gw_bdf_parse(bdf, &a.dom, &a.bus, &a.dev, &a.fn) != 0) {
		gw_err_set(e, _("\"%s\" is not a PCI address; expected e.g. "
		                "0000:3b:00.0"), bdf ? bdf : "");
		return -1;
	}
	snprintf(addr, sizeof addr, "%04x:%02x:%02x.%x", a.dom, a.bus, a.dev,
	         a.fn);
	/* the device alone is kept */
	if (gw_esxi_session_list_pci(r, gw_esxi_pci_keep_addr, &a, &l, e) != 0)
		return -1;
	dev = gw_esxi_pci_find(&l, addr);
	if (dev == NULL) {
		gw_err_set(e, _("%s: no such PCI device on this host (esxcli "
		                "hardware pci list does not list it)"), addr);
	} else {
		label = runner_dev_label(dev);
		rc = enable_dev(r, dev, addr, label, check_only, e);
	}
	gw_esxi_pci_list_free(&l);
	if (rc == 0 && !check_only)
		rc = reboot_check(r, &a, label, reboot_needed, e);
	else if (rc == 1 && !check_only)
		rc = 0;
	free(label);
	return rc;
}

int
gw_esxi_session_enable_passthru(gw_runner *r, const char *bdf,
                                int *reboot_needed, gw_err *e)
{
	return enable_passthru(r, bdf, 0, reboot_needed, e);
}

int
gw_esxi_session_enable_check(gw_runner *r, const char *bdf, gw_err *e)
{
	return enable_passthru(r, bdf, 1, NULL, e);
}

/* ---- VMs -------------------------------------------------------------- */

int
gw_esxi_session_upgrade(gw_runner *r, unsigned long vmid, int current_hw,
                        int target_hw, gw_err *e)
{
	char id[32], hw[32];
	const char *argv[] = {"vim-cmd", "vmsvc/upgrade", id, hw, NULL};
	gw_power p;
	int off;

	if (target_hw < GW_ESXI_HW_MIN || target_hw > GW_ESXI_HW_MAX) {
		gw_err_set(e, _("vmx-%02d is not a hardware version gpuwiz can "
		                "upgrade to (expected vmx-%02d to vmx-%02d)"),
		           target_hw, GW_ESXI_HW_MIN, GW_ESXI_HW_MAX);
		return -1;
	}
	if (target_hw == current_hw) {
		gw_err_set(e, _("VM %lu is already vmx-%02d: nothing to upgrade"),
		           vmid, current_hw);
		return -1;
	}
	if (target_hw < current_hw) {
		gw_err_set(e, _("VM %lu is vmx-%02d; vmx-%02d would be a "
		                "downgrade, and the hardware version only goes "
		                "up: refused"), vmid, current_hw, target_hw);
		return -1;
	}
	off = need_powered_off(r, vmid, &p, e);
	if (off < 0)
		return -1;
	if (off > 0) {
		gw_err_set(e, _("VM %lu is %s, not Powered off: power it off "
		                "before its hardware version is upgraded; nothing "
		                "changed"), vmid, power_word(p));
		return -1;
	}
	snprintf(id, sizeof id, "%lu", vmid);
	snprintf(hw, sizeof hw, "vmx-%02d", target_hw);
	return gw_runner_run_ok(r, argv, NULL, e);
}

int
gw_esxi_session_reload(gw_runner *r, unsigned long vmid, gw_err *e)
{
	char id[32];
	const char *argv[] = {"vim-cmd", "vmsvc/reload", id, NULL};

	snprintf(id, sizeof id, "%lu", vmid);
	return gw_runner_run_ok(r, argv, NULL, e);
}

/* A datastore name that stays one folder under the volumes root. */
static int
datastore_ok(const char *ds)
{
	return ds != NULL && ds[0] != '\0' && strchr(ds, '/') == NULL &&
	       strcmp(ds, "..") != 0 && strcmp(ds, ".") != 0;
}

/* A relative path without ".." components. */
static int
path_inside(const char *path)
{
	const char *p;

	if (path[0] == '/' || path[0] == '\0')
		return 0;
	for (p = path; *p; ) {
		size_t n = strcspn(p, "/");

		if (n == 2 && strncmp(p, "..", 2) == 0)
			return 0;
		p += n;
		if (*p == '/')
			p++;
	}
	return 1;
}

int
gw_esxi_session_vmx_path(gw_runner *r, const gw_vm *vm, char **path,
                         gw_err *e)
{
	*path = NULL;
	if (vm == NULL || !datastore_ok(vm->datastore) || vm->path == NULL) {
		gw_err_set(e, _("VM %lu: its file \"%s\" does not name a "
		                "datastore; expected \"[datastore] folder/name.vmx\""),
		           vm ? vm->vmid : 0ul,
		           vm && vm->file ? vm->file : "");
		return -1;
	}
	if (!path_inside(vm->path)) {
		gw_err_set(e, _("VM %lu: its file \"%s\" leaves the datastore; "
		                "expected \"[datastore] folder/name.vmx\""),
		           vm->vmid, vm->file ? vm->file : "");
		return -1;
	}
	*path = gw_xasprintf("%s/%s/%s", r->volumes_root, vm->datastore,
	                     vm->path);
	return 0;
}

int
gw_esxi_session_read_vmx(gw_runner *r, const char *path, gw_vmx **out,
                         gw_err *e)
{
	char *data;
	size_t len;
	int rc;

	*out = NULL;
	if (gw_runner_read_file(r, path, &data, &len, e) != 0)
		return -1;
	rc = gw_vmx_parse(out, data, len, path, e);
	free(data);
	return rc;
}

int
gw_esxi_session_save_vmx(gw_runner *r, unsigned long vmid, const char *path,
                         const gw_vmx *v, const gw_vmx *was, int force,
                         char **backup, gw_err *e)
{
	gw_power p;
	char *data, *wdata = NULL;
	size_t len, wlen = 0;
	int rc, off;

	if (backup)
		*backup = NULL;
	off = need_powered_off(r, vmid, &p, e);
	if (off < 0)
		return -1;
	if (off > 0) {
		gw_err_set(e, _("VM %lu is %s, not Powered off: power it off "
		                "before its .vmx is changed; %s not written"),
		           vmid, power_word(p), path);
		return -1;
	}
	data = gw_vmx_serialize(v, &len);
	if (was != NULL)
		wdata = gw_vmx_serialize(was, &wlen);
	rc = gw_runner_write_file_atomic(r, path, data, len, wdata, wlen,
	                                 force, backup, e);
	free(wdata);
	free(data);
	return rc;
}
