/* SPDX-License-Identifier: GPL-3.0-or-later */
/* wizard_next.c: the plan's unresolved WARN/FAIL findings as the first
 * next steps of the write step (wizard.h, gw_wizard_next_commands), and
 * the wizard's words for a finding's fix (gw_wizard_finding_fix).
 *
 * Each finding id maps to its action through one table (finding_actions):
 * the order of the table is the order of the steps (the missing device
 * block first: the VM would power on without its GPU); a NULL action
 * means the write itself resolves the finding; an id not in the table
 * gets its fix (or its message) as the step.  Facts (doc/design.md):
 *  - device blocks and the vSphere Client's Add new device > PCI Device:
 *    section 15.4;
 *  - EFI is never switched on an installed BIOS guest: section 15.3;
 *  - hardware upgrades: one-way, powered off, a copy of the .vmx first
 *    (a VM with a DirectPath device has no snapshots), never down,
 *    vim-cmd vmsvc/upgrade ID vmx-NN: sections 15.5 and 15.6;
 *  - unified memory needs a power-cycle and disables vGPU vMotion:
 *    section 15.1 (NVIDIA AI Enterprise documentation; NCCL issue 2101);
 *  - the reservation (KB 309986), nested virtualization (KB 437651):
 *    section 15.3.
 */
#include "wizard_next.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *
gw_wizard_finding_fix(const gw_finding *f)
{
	if (f == NULL)
		return NULL;
	return f->fix_ui ? f->fix_ui : f->fix;
}

const gw_vm *
wz_next_vm(const gw_wizard *w, int *shell)
{
	const gw_vm *vm = gw_session_vm(&w->sess);

	if (shell)
		*shell = 0;
	if (w->vmx == NULL || vm == NULL || !gw_wizard_host_mode(w) ||
	    wz_host_for(w, w->mode) != w->host)
		return NULL;
	if (shell)
		*shell = host_can(w->host, HOST_RELOAD);
	return vm;
}

/* ---- the actions ---------------------------------------------------------- */

typedef void (*next_action)(const gw_wizard *w, const gw_finding *f,
                            wz_strv *s);

/* "What was found. What to do" (the wizard's fix), or what was found. */
static void
act_fix(const gw_wizard *w, const gw_finding *f, wz_strv *s)
{
	const char *fix = gw_wizard_finding_fix(f);

	(void)w;
	if (fix)
		/* TRANSLATORS: a next step from a finding: %1$s what was
		 * found (no final period), %2$s what to do. */
		wz_strv_push(s, gw_xasprintf(_("%1$s. %2$s"), f->message, fix));
	else
		wz_strv_push(s, gw_xstrdup(f->message));
}

/* No pciPassthruN block for some GPUs: with the VM open on its host, the
 * host's detected list knows their addresses and the system id (not so
 * on this Linux host: no system id); else the vSphere Client or the VM
 * step's fields. */
static void
act_device(const gw_wizard *w, const gw_finding *f, wz_strv *s)
{
	if (wz_next_vm(w, NULL) && w->ndetected > 0)
		/* TRANSLATORS: %s is the finding ("1 passthrough GPU has
		 * no host PCI address: ..."); "Detected on this host"
		 * is the GPU step's heading, "GPU selection" its title. */
		wz_strv_push(s, gw_xasprintf(_("%s. Add the GPU from \"Detected on this host\" on the GPU selection step (its address and the host's system id are then known), or, with the VM off, add the device in the vSphere Client (Edit Settings > Add new device > PCI Device)."),
		                             f->message));
	else
		act_fix(w, f, s);
}

/* The hardware version, up only: the real Vmid when the VM is open on a
 * host's shell, the vSphere Client through the API, else <vmid>. */
static void
act_upgrade(const gw_wizard *w, const gw_finding *f, wz_strv *s)
{
	const gw_plan *p = wz_plan(w);
	const gw_vm *vm;
	char *cmd;
	int shell;

	(void)f;
	if (p->hw_target <= p->hw_current)
		return;   /* never a downgrade */
	vm = wz_next_vm(w, &shell);
	if (vm && !shell) {
		/* TRANSLATORS: %1$d, %2$d hardware versions; the vSphere
		 * Client's menu and the VM step's u key. */
		wz_strv_push(s, gw_xasprintf(_("Upgrade the hardware version from vmx-%1$d to vmx-%2$d (one-way: power the VM off and keep a copy of its .vmx first): in the vSphere Client, Actions > Compatibility > Upgrade VM Compatibility, or press u on the Virtual machine step"),
		                             p->hw_current, p->hw_target));
		return;
	}
	if (vm)
		cmd = gw_xasprintf("vim-cmd vmsvc/upgrade %lu vmx-%d",
		                   vm->vmid, p->hw_target);
	else
		cmd = gw_xasprintf("vim-cmd vmsvc/upgrade <vmid> vmx-%d",
		                   p->hw_target);
	if (vm)
		/* TRANSLATORS: %1$d, %2$d hardware versions, %3$s the
		 * command; u is the VM step's key. */
		wz_strv_push(s, gw_xasprintf(_("Upgrade the hardware version from vmx-%1$d to vmx-%2$d (one-way: power the VM off and keep a copy of its .vmx first): %3$s, or press u on the Virtual machine step"),
		                             p->hw_current, p->hw_target, cmd));
	else
		/* TRANSLATORS: %1$d, %2$d hardware versions, %3$s the
		 * command, %4$s the command that lists the Vmid. */
		wz_strv_push(s, gw_xasprintf(_("Upgrade the hardware version from vmx-%1$d to vmx-%2$d (one-way: power the VM off and keep a copy of its .vmx first): %3$s on the ESXi host (%4$s lists the Vmid)"),
		                             p->hw_current, p->hw_target, cmd,
		                             "vim-cmd vmsvc/getallvms"));
	free(cmd);
}

/* BIOS: never switched by gpuwiz; reinstall or convert, then EFI. */
static void
act_efi(const gw_wizard *w, const gw_finding *f, wz_strv *s)
{
	(void)w;
	(void)f;
	wz_strv_push(s, gw_xstrdup(_("Firmware: the VM boots with BIOS and gpuwiz leaves it so (an installed BIOS guest does not boot after a switch to EFI). For BARs over 16 GB, reinstall the guest in EFI mode or convert its boot disk to EFI, then, with the VM off: Edit Settings > VM Options > Boot Options > Firmware: EFI")));
}

/* Unified memory: a power-cycle, not a guest reboot. */
static void
act_power_cycle(const gw_wizard *w, const gw_finding *f, wz_strv *s)
{
	(void)w;
	(void)f;
	wz_strv_push(s, gw_xstrdup(_("Unified memory takes effect only after a power-cycle (off, then on), not a guest reboot; vMotion of this VM's vGPUs is then disabled")));
}

/* The order of the next steps; NULL: the write resolves it. */
static const struct {
	const char *id;
	next_action act;
} finding_actions[] = {
	{ "devices-without-address", act_device },
	{ "device-mismatch", act_fix },
	{ "hw-too-new", act_fix },
	{ "hw-too-many-devices", act_fix },
	{ "hw-upgrade", act_upgrade },
	{ "firmware-bios", act_efi },
	{ "memory-not-reserved", act_fix },
	{ "memory-unknown", act_fix },
	{ "memory-mismatch", NULL },     /* the reservation is memsize */
	{ "memory-below-vram", act_fix }, /* memsize: the vSphere Client */
	{ "device-hotadd", NULL },       /* mem/vcpu.hotadd = FALSE written */
	{ "nested-virt", NULL },         /* vhv.enable = FALSE is written */
	{ "vmx-id-hex", NULL },          /* the decimal id is written */
	{ "mmio-below-rule", act_fix },
	{ "mmio-below-bars", act_fix },
	{ "gpu-unknown", act_fix },
	{ "gpu-vram-unknown", act_fix },
	{ "vgpu-profile-unknown", act_fix },
	{ "uvm-indices", act_fix },
	{ "uvm-vmotion", act_power_cycle },
	{ "uvm-a100-p2p", act_fix },
	{ "uvm-fractional", act_fix },   /* a 1:1 profile or passthrough */
	{ "uvm-windows", act_fix },
	{ "uvm-wrong-key", act_fix },    /* the line is removed by hand */
	{ "vgpu-mixed-board", act_fix },
	{ "vgpu-mixed-size", act_fix },
};
#define N_ACTIONS (sizeof finding_actions / sizeof finding_actions[0])

static int
needs_action(const gw_finding *f)
{
	return f->sev >= GW_SEV_WARN;
}

/* Index of id in the table, or -1. */
static long
action_of(const char *id)
{
	size_t k;

	for (k = 0; k < N_ACTIONS; k++)
		if (strcmp(finding_actions[k].id, id) == 0)
			return (long)k;
	return -1;
}

void
wz_next_findings(const gw_wizard *w, wz_strv *s)
{
	const gw_plan *p = wz_plan(w);
	size_t k, i;

	if (p == NULL)
		return;
	for (k = 0; k < N_ACTIONS; k++)
		for (i = 0; i < p->nfindings; i++)
			if (needs_action(&p->findings[i]) &&
			    strcmp(p->findings[i].id, finding_actions[k].id) == 0 &&
			    finding_actions[k].act)
				finding_actions[k].act(w, &p->findings[i], s);
	/* ids the table does not know yet: their fix, in the plan's order */
	for (i = 0; i < p->nfindings; i++)
		if (needs_action(&p->findings[i]) &&
		    action_of(p->findings[i].id) < 0)
			act_fix(w, &p->findings[i], s);
}
