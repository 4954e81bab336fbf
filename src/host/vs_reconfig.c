/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vs_reconfig.c: what a gw_vs_spec still changes on a VM, and the
 * ReconfigVM_Task request for it (see vsphere.h). */
#include "vsphere_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- what is still needed ------------------------------------------------ */

static const char *
ec_value(const gw_vs_vm *vm, const char *key)
{
	const char *v = NULL;

	/* The last one wins, as in a .vmx. */
	for (size_t i = 0; i < vm->nec; i++)
		if (gw_strieq(vm->ec_keys[i], key))
			v = vm->ec_vals[i];
	return v;
}

static int
check_ec(const gw_vs_spec *spec, size_t i, gw_err *e)
{
	const char *k = spec->ec_keys[i], *v = spec->ec_vals[i];

	if (k == NULL || *k == '\0' || !vs_valid_text(k, 0) || strchr(k, ' ')) {
		gw_err_set(e, _("extraConfig key %zu is empty or holds blanks or control characters"), i + 1);
		return -1;
	}
	if (v == NULL || !vs_valid_text(v, 0)) {
		gw_err_set(e, _("extraConfig value of %s is missing or holds control characters"), k);
		return -1;
	}
	return 0;
}

/* The extraConfig entries still needed (flags in ec_need): the count, or
 * -1 on a bad entry. */
static int
need_ec(const gw_vs_vm *vm, const gw_vs_spec *spec, char *ec_need,
        gw_err *e)
{
	int n = 0;

	for (size_t i = 0; i < spec->nec; i++) {
		const char *k = spec->ec_keys[i], *cur;
		int later = 0;

		ec_need[i] = 0;
		if (check_ec(spec, i, e) != 0)
			return -1;
		/* Asked twice: the last wins. */
		for (size_t j = i + 1; j < spec->nec && !later; j++)
			later = spec->ec_keys[j] && gw_strieq(spec->ec_keys[j], k);
		if (later)
			continue;
		cur = ec_value(vm, k);
		if (cur == NULL || strcmp(cur, spec->ec_vals[i]) != 0) {
			ec_need[i] = 1;
			n++;
		}
	}
	return n;
}

/* A passthrough add (add i of the spec): norm set, 0, or -1. */
static int
check_pci_add(const gw_vs_add *a, size_t i, char norm[20], gw_err *e)
{
	vs_bdf_norm(a->id, norm);
	if (!norm[0]) {
		gw_err_set(e, _("device %zu to add: \"%s\" is not a PCI address like 0000:3b:00.0"),
		           i + 1, a->id);
		return -1;
	}
	if (a->system_id == NULL || *a->system_id == '\0' ||
	    !vs_valid_text(a->system_id, 0)) {
		gw_err_set(e, _("device %s has no systemId: passthrough is not active on the host yet (reboot the host after enabling it, then read the inventory again)"),
		           a->id);
		return -1;
	}
	if (a->vendor == 0 || a->vendor > 0xffff || a->device > 0xffff) {
		gw_err_set(e, _("device %s: vendor and device ids must be 16-bit PCI ids"),
		           a->id);
		return -1;
	}
	if (a->device_name && !vs_valid_text(a->device_name, 0)) {
		gw_err_set(e, _("device %s: the device name holds control characters"), a->id);
		return -1;
	}
	return 0;
}

/* Add i, the PCI device norm: not attached yet, nor asked before? */
static int
pci_add_needed(const gw_vs_vm *vm, const gw_vs_spec *spec, size_t i,
               const char *norm)
{
	for (size_t j = 0; j < vm->ndevs; j++)
		if (vm->devs[j].id && vs_bdf_eq(vm->devs[j].id, norm))
			return 0;
	for (size_t j = 0; j < i; j++)
		if (spec->adds[j].id && vs_bdf_eq(spec->adds[j].id, norm))
			return 0;
	return 1;
}

/* Add i, a vGPU: more of its profile than the VM has? */
static int
vgpu_add_needed(const gw_vs_vm *vm, const gw_vs_spec *spec, size_t i)
{
	const char *profile = spec->adds[i].vgpu;
	size_t have = 0, before = 0;

	for (size_t j = 0; j < vm->ndevs; j++)
		if (vm->devs[j].vgpu && strcmp(vm->devs[j].vgpu, profile) == 0)
			have++;
	for (size_t j = 0; j < i; j++)
		if (spec->adds[j].vgpu && strcmp(spec->adds[j].vgpu, profile) == 0)
			before++;
	/* The VM's own vGPUs of this profile count for the first adds of
	 * it. */
	return before >= have;
}

/* Add i, a Dynamic DirectPath I/O device: more of its PCI ids than the
 * VM has (any device of those ids, fixed or dynamic, counts, as in the
 * plan)? */
static int
dynamic_add_needed(const gw_vs_vm *vm, const gw_vs_spec *spec, size_t i)
{
	const gw_vs_add *a = &spec->adds[i];
	size_t have = 0, before = 0;

	for (size_t j = 0; j < vm->ndevs; j++)
		if (!vm->devs[j].vgpu && vm->devs[j].vendor == a->vendor &&
		    vm->devs[j].device == a->device)
			have++;
	for (size_t j = 0; j < i; j++)
		if (spec->adds[j].dynamic && spec->adds[j].vendor == a->vendor &&
		    spec->adds[j].device == a->device)
			before++;
	return before >= have;
}

/* Add i still needed: 1 or 0, or -1 on a bad add. */
static int
add_needed(const gw_vs_vm *vm, const gw_vs_spec *spec, size_t i, gw_err *e)
{
	const gw_vs_add *a = &spec->adds[i];
	char norm[20];

	if (a->dynamic) {
		if (a->id || a->vgpu || a->vendor == 0 || a->vendor > 0xffff ||
		    a->device > 0xffff) {
			gw_err_set(e, _("device %zu to add: a Dynamic DirectPath I/O device needs 16-bit vendor and device ids and no address or vGPU"),
			           i + 1);
			return -1;
		}
		return dynamic_add_needed(vm, spec, i);
	}
	if ((a->id == NULL) == (a->vgpu == NULL)) {
		gw_err_set(e, _("device %zu to add: give either a PCI id or a vGPU profile"), i + 1);
		return -1;
	}
	if (a->id) {
		if (check_pci_add(a, i, norm, e) != 0)
			return -1;
		return pci_add_needed(vm, spec, i, norm);
	}
	if (*a->vgpu == '\0' || !vs_valid_text(a->vgpu, 0) || strchr(a->vgpu, ' ')) {
		gw_err_set(e, _("device %zu to add: the vGPU profile is empty or holds blanks"), i + 1);
		return -1;
	}
	return vgpu_add_needed(vm, spec, i);
}

/* Which of spec's parts are still needed: flags per extraConfig entry and
 * per add; returns the count, -1 on a bad spec. */
static int
plan_changes(const gw_vs_vm *vm, const gw_vs_spec *spec, char *ec_need,
             char *add_need, int *reserve_need, gw_err *e)
{
	int n = need_ec(vm, spec, ec_need, e);

	if (n < 0)
		return -1;
	*reserve_need = 0;
	if ((spec->reserve_locked == 0 || spec->reserve_locked == 1) &&
	    vm->reserve_locked != spec->reserve_locked) {
		*reserve_need = 1;
		n++;
	}
	for (size_t i = 0; i < spec->nadds; i++) {
		int need = add_needed(vm, spec, i, e);

		if (need < 0)
			return -1;
		add_need[i] = (char)need;
		n += need;
	}
	return n;
}

/* ---- the request ------------------------------------------------------------ */

/* One deviceChange "add" of a VirtualPCIPassthrough with key. */
static void
add_device(req *r, xmlNodePtr cs, const gw_vs_add *a, int key)
{
	xmlNodePtr dc, dev, b;
	char k[16];

	dc = vs_add_el(cs, "deviceChange");
	vs_add_text(dc, "operation", "add");
	dev = vs_add_el(dc, "device");
	vs_set_xsi_type(r, dev, "VirtualPCIPassthrough");
	snprintf(k, sizeof k, "%d", key);
	vs_add_text(dev, "key", k);
	b = vs_add_el(dev, "backing");
	if (a->dynamic) {
		xmlNodePtr ad;
		char vid[16], did[16];

		/* VirtualPCIPassthroughDynamicBackingInfo (vSphere API 7.0):
		 * deviceName, useAutoDetect, then allowedDevice, whose
		 * vendorId and deviceId are xsd:int */
		snprintf(vid, sizeof vid, "%u", a->vendor);
		snprintf(did, sizeof did, "%u", a->device);
		vs_set_xsi_type(r, b, "VirtualPCIPassthroughDynamicBackingInfo");
		vs_add_text(b, "deviceName", a->device_name ? a->device_name : "");
		ad = vs_add_el(b, "allowedDevice");
		vs_add_text(ad, "vendorId", vid);
		vs_add_text(ad, "deviceId", did);
	} else if (a->id) {
		char norm[20], did[16], vid[16];
		int sv = a->vendor > 0x7fff ? (int)a->vendor - 0x10000 : (int)a->vendor;

		vs_bdf_norm(a->id, norm);
		snprintf(did, sizeof did, "%04x", a->device & 0xffff);
		snprintf(vid, sizeof vid, "%d", sv);
		vs_set_xsi_type(r, b, "VirtualPCIPassthroughDeviceBackingInfo");
		vs_add_text(b, "deviceName", a->device_name ? a->device_name : "");
		vs_add_text(b, "id", norm);
		vs_add_text(b, "deviceId", did);
		vs_add_text(b, "systemId", a->system_id);
		vs_add_text(b, "vendorId", vid);
	} else {
		vs_set_xsi_type(r, b, "VirtualPCIPassthroughVmiopBackingInfo");
		vs_add_text(b, "vgpu", a->vgpu);
	}
}

/* The ReconfigVM_Task request of what is needed. */
static void
build_request(const gw_vs_vm *vm, const gw_vs_spec *spec, const char *ec_need,
              const char *add_need, int reserve_need, req *r)
{
	xmlNodePtr cs;
	int key = -100;

	vs_req_init(r, "ReconfigVM_Task");
	vs_add_moref(r->method, "_this", "VirtualMachine", vm->moref);
	cs = vs_add_el(r->method, "spec");
	/* VirtualMachineConfigSpec order: deviceChange, extraConfig, ...,
	 * memoryReservationLockedToMax. */
	for (size_t i = 0; i < spec->nadds; i++)
		if (add_need[i])
			add_device(r, cs, &spec->adds[i], key--);
	for (size_t i = 0; i < spec->nec; i++) {
		xmlNodePtr ov, v;

		if (!ec_need[i])
			continue;
		ov = vs_add_el(cs, "extraConfig");
		vs_add_text(ov, "key", spec->ec_keys[i]);
		v = vs_add_text(ov, "value", spec->ec_vals[i]);
		vs_set_xsi_type(r, v, "xsd:string");
	}
	if (reserve_need)
		vs_add_text(cs, "memoryReservationLockedToMax",
		            spec->reserve_locked ? "true" : "false");
}

int
vs_build_reconfigure(const gw_vs_vm *vm, const gw_vs_spec *spec, req *r,
                     gw_err *e)
{
	char *ec_need, *add_need;
	int reserve_need, n;

	if (vm == NULL || spec == NULL ||
	    (spec->nec && (!spec->ec_keys || !spec->ec_vals)) ||
	    (spec->nadds && !spec->adds)) {
		gw_err_set(e, _("no VM or no changes given"));
		return -1;
	}
	ec_need = gw_xcalloc(spec->nec + 1, 1);
	add_need = gw_xcalloc(spec->nadds + 1, 1);
	n = plan_changes(vm, spec, ec_need, add_need, &reserve_need, e);
	if (n > 0 && r != NULL)
		build_request(vm, spec, ec_need, add_need, reserve_need, r);
	free(ec_need);
	free(add_need);
	return n;
}

int
gw_vs_reconfigure_body(const gw_vs_vm *vm, const gw_vs_spec *spec,
                       const char *api_version, char **body, gw_err *e)
{
	req r;
	size_t len;
	int n;

	(void)api_version;
	if (body)
		*body = NULL;
	n = vs_build_reconfigure(vm, spec, body ? &r : NULL, e);
	if (n > 0 && body) {
		*body = vs_req_dump(&r, &len);
		vs_req_free(&r);
	}
	return n;
}
