/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vsapply.h: the plan (plan.c) through the vSphere API (vsphere.c).
 *
 * The plan works on a .vmx document.  Through the API there is no file, so
 * the VM as the API reports it is written as the .vmx it stands for
 * (gw_vs_vm_as_vmx: hardware version, firmware, memory, the reservation,
 * extraConfig, the passthrough devices as pciPassthruN blocks in device
 * order), the plan is built on that, and what the plan would change becomes
 * a ReconfigVM_Task spec (gw_vs_spec_from_plan): pciPassthruN device
 * blocks become VirtualPCIPassthrough devices to add, the sched.mem
 * reservation keys become memoryReservationLockedToMax, everything else is
 * extraConfig.  A VM that already has what the plan asks for gives an
 * empty spec, so applying twice changes nothing.
 */
#ifndef GW_VSAPPLY_H
#define GW_VSAPPLY_H

#include "gw.h"
#include "esxi.h"
#include "plan.h"
#include "vmx.h"
#include "vsphere.h"

/* The .vmx the VM stands for (name: "vsphere:VMNAME").  NULL and e on a
 * document that cannot be parsed (a key the API returned with characters
 * a .vmx cannot hold). */
gw_vmx *gw_vs_vm_as_vmx(const gw_vs_vm *vm, gw_err *e);

typedef struct gw_vs_plan_spec {
	gw_vs_spec spec;          /* points into the arrays below */
	char **keys, **vals;      /* extraConfig */
	size_t nec;
	gw_vs_add *adds;
	size_t nadds;
	char **strs;              /* strings the adds point to */
	size_t nstrs;
} gw_vs_plan_spec;

/* The changes of p (settings with keep == 0 that change something) as a
 * spec.  A device block needs its id (passthrough: the host PCI address,
 * from the decimal .vmx form), deviceId and vendorId, or a vgpu.  Returns
 * 0; -1 and e for a device block the API cannot express. */
int gw_vs_spec_from_plan(const gw_plan *p, gw_vs_plan_spec *out, gw_err *e);
void gw_vs_plan_spec_free(gw_vs_plan_spec *s);
/* Nothing to send? */
int gw_vs_spec_empty(const gw_vs_plan_spec *s);

/* The devices of a's passthrough GPUs when the operator named none (a's
 * counts are what vm ends with): for each GPU, vm's own device of its
 * vendor:device first (it counts; the plan pairs the address with the
 * device in the VM and adds nothing for it), else a device of host h that
 * is passthrough enabled, matches, and is not attached to any VM of inv.
 * In the order of a's GPUs, count of each (the plan's pairing);
 * *bdfs is malloc'ed (free with gw_strs_free).  -1 and e when fewer
 * free devices than GPUs left to add. */
int gw_vs_pick_devices(const gw_vs_inventory *inv, const gw_vs_host *h,
                       const gw_vs_vm *vm, const gw_answers *a,
                       char ***bdfs, size_t *n, gw_err *e);
/* Is host address id one of vm's own devices? */
int gw_vs_is_own_device(const gw_vs_vm *vm, const char *id);

/* The key of PCI device id attached to a VM whose host is slot: 0 any
 * VM, 1 a VM with no runtime.host, 2 + k a VM of inv->hosts[k]; -1 when
 * id is not a PCI address. */
static inline int
gw_vs_attached_key(unsigned slot, const char *id, uint64_t *key)
{
	unsigned dom, bus, dev, fn;

	if (id == NULL || gw_bdf_parse(id, &dom, &bus, &dev, &fn) != 0)
		return -1;
	*key = (uint64_t)slot << 48 | gw_idset_pci_key(dom, bus, dev, fn);
	return 0;
}
/* The API's power state as the ESXi shell's (one set of words and screens
 * for both routes). */
gw_power gw_vs_power_esxi(gw_vs_power p);

/* After a batch's ReconfigVM_Task was started for vm (one of inv's VMs):
 * its devices as the spec adds them, and inv's index of attached devices
 * with them, so that the next VM's pick sees them taken without the
 * inventory read again (doc/design.md 4.5). */
void gw_vs_inventory_note_adds(gw_vs_inventory *inv, gw_vs_vm *vm,
                               const gw_vs_spec *spec);

#endif
