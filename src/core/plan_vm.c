/* SPDX-License-Identifier: GPL-3.0-or-later */
/* plan_vm.c: the VM's own settings that passthrough needs: memory
 * reservation (KB 309986), EFI firmware, the hardware version and its
 * device limit (KB 1003746, KB 309986), nested virtualization (KB 437651),
 * and the options P2P and Code 43.
 */
#include "plan_int.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* sched.mem.max (the memory limit, MB) of the .vmx when it is below mb,
 * else NULL.  A missing or unparsable limit is no limit. */
static const char *
limit_below(const gw_vmx *v, long mb)
{
	const char *mx = v ? gw_vmx_get(v, "sched.mem.max") : NULL;
	unsigned long long lim;

	if (mx == NULL || gw_parse_uint(mx, (unsigned long long)LONG_MAX,
	                                &lim) != 0)
		return NULL;
	return (long long)lim < (long long)mb ? mx : NULL;
}

/* A memory limit below the reservation the plan writes: vSphere takes a
 * limit only when it is at least the reservation (vSphere API
 * ResourceAllocationInfo), and passthrough needs all of memsize reserved
 * (KB 309986), so the write raises it to memsize and says why. */
static void
raise_limit(plan_ctx *c, long mb, const char *val)
{
	const char *mx = limit_below(c->v, mb);

	if (mx == NULL)
		return;
	/* TRANSLATORS: the limit as it was and the new one, in MB. */
	pl_setting(c->p, c->v, GW_SET_MEM, "sched.mem.max", val,
	           gw_xasprintf(_("The memory limit of %s MB is below the reservation of %ld MB that passthrough needs; a limit must be at least the reservation: raised to %ld MB."),
	                        mx, mb, mb), SRC_MEMLIMIT);
	pl_finding(c->p, GW_SEV_WARN, "memory-limit", GW_TOPIC_MEMORY,
	           SRC_MEMLIMIT,
	           /* TRANSLATORS: the limit as it was, the memory size. */
	           gw_xasprintf(_("sched.mem.max = \"%s\" limits the VM to less than its %ld MB, which passthrough needs reserved, and vSphere refuses a reservation above the limit: the write raises the limit to %ld MB"),
	                        mx, mb, mb),
	           NULL);
}

void
pl_memory(plan_ctx *c)
{
	gw_plan *p = c->p;
	const gw_answers *a = c->a;
	const gw_vmx *v = c->v;
	const char *ms = v ? gw_vmx_get(v, "memsize") : NULL;
	unsigned long long file_mb = 0;
	long mb = 0;
	char val[32];
	/* a VM of vGPUs only: the reservation is the vGPU's need, not a
	 * passthrough device's (the same reservation rule, KB 309986) */
	int vgpu_only = c->nvgpu_all > 0 && c->ndevices - c->nvgpu_all <= 0;
	int i;

	if (!a->reserve) {
		/* Only a .vmx can be checked; without one the operator just
		 * asked for no reservation lines.  A file already reserving
		 * all of memsize needs nothing. */
		const char *mn = v ? gw_vmx_get(v, "sched.mem.min") : NULL;

		if (v == NULL || (ms && mn && strcmp(ms, mn) == 0 &&
		                  gw_vmx_get_bool(v, "sched.mem.pin", 0)))
			return;
		if (ms && gw_parse_uint(ms, (unsigned long long)LONG_MAX,
		                        &file_mb) == 0 &&
		    limit_below(v, (long)file_mb) != NULL)
			/* --no-reserve: the plan writes no memory setting,
			 * so the limit is not raised either: said, with why */
			pl_fix_ui(pl_finding(p, GW_SEV_WARN, "memory-limit",
			           GW_TOPIC_MEMORY, SRC_MEMLIMIT,
			           /* TRANSLATORS: the limit, the memory size. */
			           gw_xasprintf(_("sched.mem.max = \"%s\" limits the VM to less than its %llu MB: not raised, because the memory reservation is left off (no reservation asked for); with it the VM can never reserve all its memory, which passthrough needs"),
			                        limit_below(v, (long)file_mb),
			                        file_mb),
			           gw_xasprintf(_("Raise the memory limit to at least the memory size (or set it to Unlimited) in the vSphere Client, or let gpuwiz reserve the memory (without --no-reserve): it then raises the limit too."))),
			          /* TRANSLATORS: the wizard's words for the fix
			           * above: "Reserve all guest memory" is the
			           * Options step's option. */
			          gw_xstrdup(_("Raise the memory limit to at least the memory size (or set it to Unlimited) in the vSphere Client, or tick \"Reserve all guest memory\" on the Options step: gpuwiz then raises the limit too.")));
		pl_fix_ui(pl_finding(p, GW_SEV_WARN, "memory-not-reserved",
		           GW_TOPIC_MEMORY, SRC_MEM,
		           vgpu_only ?
		           gw_xasprintf(_("Memory reservation is off: a VM with "
		                          "a vGPU only powers on with all of "
		                          "its memory reserved")) :
		           gw_xasprintf(_("Memory reservation is off: a VM with "
		                          "a passthrough device only powers on "
		                          "with all of its memory reserved")),
		           gw_xasprintf(_("Set sched.mem.min and "
		                          "sched.mem.minSize to the memory size "
		                          "in MB and sched.mem.pin = \"TRUE\" "
		                          "(Reserve all guest memory)."))),
		          /* TRANSLATORS: the wizard's words: "Reserve all
		           * guest memory" is the Options step's option. */
		          gw_xstrdup(_("Tick \"Reserve all guest memory\" on the Options step.")));
		return;
	}
	if (ms && gw_parse_uint(ms, (unsigned long long)LONG_MAX, &file_mb) != 0)
		file_mb = 0;
	if (file_mb > 0) {
		mb = (long)file_mb;
		if (a->memory_mb > 0 && a->memory_mb != mb)
			pl_finding(p, GW_SEV_WARN, "memory-mismatch",
			           GW_TOPIC_MEMORY, SRC_MEM,
			           gw_xasprintf(_("The memory size given (%ld MB) "
			                          "differs from memsize = %ld in "
			                          "the .vmx; the reservation must "
			                          "equal memsize, so %ld MB is "
			                          "used"), a->memory_mb, mb, mb),
			           NULL);
	} else if (a->memory_mb > 0) {
		mb = a->memory_mb;
	}
	p->memory_mb = mb;
	if (mb <= 0 && (a->outputs_do & GW_OUT_LOCKS_MEM) && a->ngpus > 0) {
		/* The BOSH vSphere CPI locks the reservation to the VM's
		 * memory itself when the VM has a PCI device or a vGPU
		 * (memory_reservation_locked_to_max, forced on; doc/design.md
		 * section 15.8), and every output asked for is made for it:
		 * no size to write, nothing to warn about. */
		pl_finding(p, GW_SEV_INFO, "memory-unknown",
		           GW_TOPIC_MEMORY, SRC_MEM,
		           gw_xasprintf(_("The VM's memory size is not needed: "
		                          "the outputs lock the reservation to "
		                          "the VM's memory themselves "
		                          "(memory_reservation_locked_to_max)")),
		           NULL);
		return;
	}
	if (mb <= 0) {
		pl_fix_ui(pl_finding(p, GW_SEV_WARN, "memory-unknown",
		           GW_TOPIC_MEMORY, SRC_MEM,
		           gw_xasprintf(_("The VM's memory size is unknown, so "
		                          "the full memory reservation cannot be "
		                          "written")),
		           gw_xasprintf(_("Set sched.mem.min and "
		                          "sched.mem.minSize to the VM's memsize "
		                          "in MB and sched.mem.pin = \"TRUE\" "
		                          "(Reserve all guest memory), or give "
		                          "the memory size."))),
		          /* TRANSLATORS: the wizard's words: "Memory in MB"
		           * is the VM step's field label (no colon). */
		          gw_xstrdup(_("Fill \"Memory in MB\" on the Virtual machine step with the VM's memory size.")));
		return;
	}
	snprintf(val, sizeof val, "%ld", mb);
	for (i = 0; i < 2; i++)
		pl_setting(p, v, GW_SET_MEM, i ? "sched.mem.minSize" :
		           "sched.mem.min", val,
		           /* the device that needs it: a VM of vGPUs only
		            * has no passthrough device */
		           vgpu_only ?
		           gw_xasprintf(_("Reserve all %ld MB of guest memory: "
		                          "a VM with a vGPU needs it."), mb) :
		           gw_xasprintf(_("Reserve all %ld MB of guest memory: "
		                          "passthrough needs it."), mb), SRC_MEM);
	pl_setting(p, v, GW_SET_MEM, "sched.mem.pin", "TRUE",
	           gw_xstrdup(_("Lock the reservation (Reserve all guest "
	                        "memory, All locked).")), SRC_MEM);
	raise_limit(c, mb, val);
}

/* A VM whose only encryption is its vTPM's: keys in encryption.keySafe,
 * settings in plain text (a VM with encryption.data is refused before,
 * plan.c).  Said, so the operator knows why it is edited. */
void
pl_encryption(plan_ctx *c)
{
	if (c->v == NULL || gw_vmx_get(c->v, "encryption.keySafe") == NULL)
		return;
	pl_finding(c->p, GW_SEV_INFO, "vmx-vtpm-keys", GW_TOPIC_VM, SRC_VTPM,
	           gw_vmx_get_bool(c->v, "vtpm.present", 0)
	           ? gw_xasprintf(_("The VM has a vTPM and its keys (encryption.keySafe), but its settings are plain text (no encryption.data): they are edited as in any other VM"))
	           : gw_xasprintf(_("The VM has encryption keys (encryption.keySafe), but its settings are plain text (no encryption.data): they are edited as in any other VM")),
	           NULL);
}

/* The largest BAR of the VM's GPUs in MiB (the table's BAR1; BAR3 is 32
 * MiB), or 0 when one GPU's BARs are unknown or it is a vGPU (NVIDIA: EFI
 * boot for C-series vGPUs), so that EFI is then still required. */
static unsigned long
largest_bar_mib(const gw_plan *p)
{
	unsigned long max = 0;
	size_t i;

	if (p->ngpus == 0)
		return 0;
	for (i = 0; i < p->ngpus; i++) {
		const gw_plan_gpu *g = &p->gpus[i];
		unsigned long mib = g->gpu ? gw_gpu_bar1_max_mib(g->gpu) : 0;

		if (g->profile || mib == 0)
			return 0;
		if (mib > max)
			max = mib;
	}
	return max;
}

/* BARs up to 16 GB map without EFI (doc/design.md, section 15.3): a BIOS
 * VM is then only told so; either way it is never switched. */
static int
bios_ok(gw_plan *p, const char *fw)
{
	unsigned long mib = largest_bar_mib(p);

	if (mib == 0 || mib > 16384)
		return 0;
	pl_finding(p, GW_SEV_INFO, "firmware-bios-small-bars",
	           GW_TOPIC_FIRMWARE, SRC_EFI,
	           gw_xasprintf(_("The VM boots with %s firmware; the GPUs' "
	                          "largest BAR is %lu MiB, so EFI is not "
	                          "needed for it (only BARs larger than 16 "
	                          "GB need EFI): the firmware is left as it "
	                          "is"), fw ? fw : "BIOS", mib),
	           NULL);
	return 1;
}

/* A GeForce in passthrough whose BAR1 the table does not know (its BAR1
 * depends on Resizable BAR), or NULL.  A datacenter or workstation GPU
 * of unknown BAR1 keeps the plain EFI warning. */
static const gw_plan_gpu *
bar_unknown_gpu(const gw_plan *p)
{
	size_t i;

	for (i = 0; i < p->ngpus; i++) {
		const gw_plan_gpu *g = &p->gpus[i];

		if (g->gpu && g->gpu->cls == GW_CLASS_GEFORCE &&
		    !g->profile && g->vram_gb > 0 &&
		    gw_gpu_bar1_max_mib(g->gpu) == 0)
			return g;
	}
	return NULL;
}

/* A BIOS VM and a GPU whose BAR1 is unknown: what it depends on
 * (doc/design.md, section 15.2: 256 MiB with Resizable BAR off, up to the
 * framebuffer's power of two with it on).  1 when said. */
static int
bios_rebar(gw_plan *p, const char *fw)
{
	const gw_plan_gpu *g = bar_unknown_gpu(p);
	unsigned long gib = 1;
	size_t i;

	if (g == NULL)
		return 0;
	for (i = 0; i < p->ngpus; i++)   /* a known BAR over 16 GB: EFI */
		if (p->gpus[i].gpu && !p->gpus[i].profile &&
		    gw_gpu_bar1_max_mib(p->gpus[i].gpu) > 16384)
			return 0;
	while (gib < (unsigned long)g->vram_gb)
		gib <<= 1;
	if (gib <= 16) {
		pl_finding(p, GW_SEV_INFO, "firmware-bios-rebar",
		           GW_TOPIC_FIRMWARE, SRC_EFI,
		           gw_xasprintf(_("The VM boots with %s firmware; the "
		                          "BAR1 of %s depends on Resizable BAR: "
		                          "256 MiB with it off, at most %lu GiB "
		                          "with it on. Neither is larger than 16 "
		                          "GB, so EFI is not needed for it: the "
		                          "firmware is left as it is"),
		                        fw ? fw : "BIOS", g->label, gib),
		           NULL);
		return 1;
	}
	pl_finding(p, GW_SEV_WARN, "firmware-bios", GW_TOPIC_FIRMWARE, SRC_EFI,
	           gw_xasprintf(_("The VM boots with %s firmware, and the BAR1 "
	                          "of %s depends on Resizable BAR: 256 MiB "
	                          "with it off (BIOS maps it), up to %lu GiB "
	                          "with it on, which needs EFI firmware (BARs "
	                          "larger than 16 GB)"),
	                        fw ? fw : "BIOS", g->label, gib),
	           gw_xasprintf(_("Keep Resizable BAR off in the host's "
	                          "BIOS/UEFI setup for this VM, or install the "
	                          "guest in EFI mode (or convert its boot disk "
	                          "to EFI) and then set firmware = \"efi\"; "
	                          "gpuwiz does not switch an installed BIOS "
	                          "guest.")));
	return 1;
}

void
pl_firmware(plan_ctx *c)
{
	gw_plan *p = c->p;
	const gw_vmx *v = c->v;
	const char *fw;
	int line;

	if (v == NULL) {
		unsigned long mib = largest_bar_mib(p);

		if (mib > 0 && mib <= 16384)
			return;   /* known BARs, none over 16 GB */
		pl_finding(p, GW_SEV_INFO, "firmware-efi",
		           GW_TOPIC_FIRMWARE, SRC_EFI,
		           gw_xasprintf(_("The VM must boot with EFI firmware "
		                          "to map BARs larger than 16 GB; the "
		                          "guest must be installed in EFI "
		                          "mode")),
		           NULL);
		return;
	}
	fw = gw_vmx_get(v, "firmware");
	if (fw && gw_strieq(fw, "efi"))
		return;
	line = fw ? 0 : gw_vmx_malformed_line_of(v, "firmware");
	if (line == 0 && (bios_ok(p, fw) || bios_rebar(p, fw)))
		return;
	pl_finding(p, GW_SEV_WARN, "firmware-bios", GW_TOPIC_FIRMWARE, SRC_EFI,
	           fw ? gw_xasprintf(_("The VM boots with firmware = \"%s\", "
	                               "not EFI: BARs larger than 16 GB need "
	                               "EFI firmware"), fw)
	           : line ? gw_xasprintf(_("The firmware line (line %d) is "
	                                   "malformed, so EFI firmware cannot "
	                                   "be confirmed: BARs larger than 16 "
	                                   "GB need EFI firmware"), line)
	              : gw_xasprintf(_("The VM boots with BIOS firmware (no "
	                               "firmware key): BARs larger than 16 "
	                               "GB need EFI firmware")),
	           gw_xasprintf(_("The guest must be installed in EFI mode: "
	                          "switching an installed BIOS guest to EFI "
	                          "leaves it unbootable, so gpuwiz does not "
	                          "change it. Reinstall (or convert the boot "
	                          "disk to EFI), then set firmware = "
	                          "\"efi\".")));
}

/* The lowest hardware version for n devices; 8.0U1 allows 64 with 20. */
static int
hw_needed_for(int n, int is_80u1)
{
	if (n <= 16)
		return 13;
	if (n <= 32 || (n <= 64 && is_80u1))
		return 20;
	return 21;
}

/* KB 309986: the devices the VM's hardware version allows.  Over the
 * absolute maximum (128) the plan is refused before (plan_devices.c);
 * below it the limit of this version is a FAIL naming the upgrade. */
static void
device_limit(gw_plan *p, const char *esxi, int ndevices)
{
	int hw, limit, need, u1;
	gw_finding *f;

	hw = p->hw_current ? p->hw_current : p->hw_target;
	/* Only where it matters, and never for a missing version (the
	 * parser's optimised && reads as uninitialised under valgrind). */
	u1 = esxi != NULL && (hw == 20 || ndevices > 32) &&
	     pl_esxi_is_80u1(esxi);
	limit = gw_hw_max_passthru(hw);
	if (hw == 20 && u1)
		limit = 64;
	if (limit == 0 || ndevices <= limit)
		return;
	need = hw_needed_for(ndevices, u1);
	f = pl_finding(p, GW_SEV_ERROR, "hw-too-many-devices",
	               GW_TOPIC_VERSION, SRC_LIMITS,
	               gw_xasprintf(P_("%d passthrough device in one VM, but "
	                               "hardware version %d allows %d (16 for "
	                               "13-19, 32 for 20 on ESXi 8.0, 64 on "
	                               "8.0U1, 128 for 21)",
	                               "%d passthrough devices in one VM, but "
	                               "hardware version %d allows %d (16 for "
	                               "13-19, 32 for 20 on ESXi 8.0, 64 on "
	                               "8.0U1, 128 for 21)", ndevices),
	                            ndevices, hw, limit),
	               need > p->hw_target && p->hw_target
	               ? gw_xasprintf(_("Hardware version %d is needed, newer "
	                                "than ESXi %s supports: move the VM "
	                                "to a newer host (ESXi 8.0 for 32 "
	                                "devices, 8.0U1 for 64, 8.0U2 for "
	                                "128), or give it fewer devices."),
	                              need, esxi)
	               : gw_xasprintf(_("With the VM off and a copy of its "
	                                ".vmx kept (one-way): vim-cmd "
	                                "vmsvc/upgrade <vmid> vmx-%d, or give "
	                                "it fewer devices."),
	                              need > p->hw_target ? need : p->hw_target));
	if (need <= p->hw_target)
		/* TRANSLATORS: the wizard's words: u is the Virtual machine
		 * step's key that queues the hardware upgrade. */
		pl_fix_ui(f, gw_xasprintf(_("Press u on the Virtual machine step to upgrade to vmx-%d (one-way: the VM off; the write keeps a copy of the .vmx first), or choose fewer GPUs."),
		                          p->hw_target));
}

/* Below GW_HW_MIN_PASSTHRU the VM takes no passthrough device at all:
 * a FAIL naming the upgrade (to the host's newest version when known). */
static void
hw_no_passthrough(gw_plan *p, const char *esxi)
{
	gw_finding *f;

	f = pl_finding(p, GW_SEV_ERROR, "hw-no-passthrough", GW_TOPIC_VERSION,
	               SRC_HWMIN,
	               /* TRANSLATORS: the VM's hardware version, then the
	                * oldest one with passthrough (7). */
	               gw_xasprintf(_("The VM has hardware version %d: passthrough devices (DirectPath I/O and vGPU) need hardware version %d or newer, so this VM cannot take a GPU at all"),
	                            p->hw_current, GW_HW_MIN_PASSTHRU),
	               p->hw_target
	               ? gw_xasprintf(_("Upgrade it with the VM off and a copy of its .vmx kept (one-way): vim-cmd vmsvc/upgrade <vmid> vmx-%d, the newest ESXi %s supports."),
	                              p->hw_target, esxi)
	               : gw_xasprintf(_("Upgrade it with the VM off and a copy of its .vmx kept (one-way) to the newest version the host supports (vim-cmd vmsvc/upgrade <vmid> vmx-NN; ESXi 6.7: 14, 7.0: 17, 8.0: 20, 8.0U2: 21).")));
	if (p->hw_target)
		/* TRANSLATORS: the wizard's words: u is the Virtual machine
		 * step's key that queues the hardware upgrade. */
		pl_fix_ui(f, gw_xasprintf(_("Press u on the Virtual machine step to upgrade to vmx-%d (one-way: the VM off; the write keeps a copy of the .vmx first)."),
		                          p->hw_target));
}

void
pl_hw(plan_ctx *c)
{
	gw_plan *p = c->p;
	const gw_answers *a = c->a;
	const gw_vmx *v = c->v;
	const char *hv = v ? gw_vmx_get(v, "virtualHW.version") : NULL;
	const char *esxi = a->esxi_version;
	unsigned long long cur = 0;

	if (hv && gw_parse_uint(hv, 999, &cur) == 0)
		p->hw_current = (int)cur;
	p->hw_target = gw_esxi_to_hw(esxi);

	if (p->hw_current > 0 && p->hw_current < GW_HW_MIN_PASSTHRU) {
		hw_no_passthrough(p, esxi);
	} else if (p->hw_target == 0 && p->hw_current > 0 && p->hw_current < 17) {
		/* The upgrade matters (as hw-upgrade's WARN below 17) and
		 * its version is the host's: the ESXi version is asked for
		 * (the wizard's VM step moves to its field). */
		pl_fix_ui(pl_finding(p, GW_SEV_WARN, "hw-target-unknown",
		           GW_TOPIC_VERSION, SRC_HW,
		           gw_xasprintf(_("The VM has hardware version %d, "
		                          "below 17 (Dynamic DirectPath I/O "
		                          "needs 17): the version to upgrade to "
		                          "is the newest the host's ESXi "
		                          "release supports, which is not "
		                          "given"), p->hw_current),
		           gw_xasprintf(_("Give the host's ESXi version "
		                          "(--esxi; esxcli system version get "
		                          "shows it), or upgrade with the VM off "
		                          "and a copy of its .vmx kept: ESXi "
		                          "7.0: 17, 7.0U1: 18, 7.0U2: 19, 8.0: "
		                          "20, 8.0U2: 21, 9.0: 22 (vim-cmd "
		                          "vmsvc/upgrade <vmid> vmx-NN; one-way; "
		                          "never downgrade)."))),
		          /* TRANSLATORS: the wizard's words: "ESXi version" is
		           * the Virtual machine step's field label. */
		          gw_xstrdup(_("Type the host's ESXi version in \"ESXi version\" on the Virtual machine step (esxcli system version get shows it): the advice then names the hardware version to upgrade to.")));
	} else if (p->hw_target == 0 && p->hw_current >= 17) {
		/* The VM has what the plan needs (Dynamic DirectPath I/O:
		 * 17; the device limits are device_limit's): no upgrade to
		 * advise without the host's version. */
	} else if (p->hw_target == 0 && (a->outputs_do & GW_OUT_UPGRADES_HW)) {
		/* The outputs upgrade the VM themselves (the BOSH CPI's
		 * upgrade_hw_version): nothing to do by hand. */
		pl_finding(p, GW_SEV_INFO, "hw-target-unknown",
		           GW_TOPIC_VERSION, SRC_HW,
		           gw_xasprintf(_("The hardware version needs no "
		                          "upgrade by hand: the outputs "
		                          "upgrade the VM to the newest its host "
		                          "runs themselves "
		                          "(upgrade_hw_version)")),
		           NULL);
	} else if (p->hw_target == 0) {
		pl_finding(p, GW_SEV_INFO, "hw-target-unknown",
		           GW_TOPIC_VERSION, SRC_HW,
		           esxi ? gw_xasprintf(_("ESXi version '%s' is not "
		                                 "known to gpuwiz: use the "
		                                 "newest hardware version the "
		                                 "host supports"), esxi)
		                : gw_xasprintf(_("ESXi version not given: use "
		                                 "the newest hardware version "
		                                 "the host supports")),
		           gw_xasprintf(_("ESXi 6.0: 11, 6.5: 13, 6.7: 14, "
		                          "6.7U2: 15, "
		                          "7.0: 17, 7.0U1: 18, 7.0U2: 19, 8.0: "
		                          "20, 8.0U2: 21, 9.0: 22. With the VM "
		                          "off and a copy of its .vmx kept: "
		                          "vim-cmd vmsvc/upgrade <vmid> vmx-NN "
		                          "(one-way; never downgrade).")));
	} else if (p->hw_current && p->hw_current > p->hw_target) {
		pl_finding(p, GW_SEV_ERROR, "hw-too-new",
		           GW_TOPIC_VERSION, SRC_HW,
		           gw_xasprintf(_("The VM has hardware version %d, newer "
		                          "than ESXi %s supports (%d): it needs "
		                          "a newer host"), p->hw_current, esxi,
		                        p->hw_target),
		           gw_xasprintf(_("Run the VM on a host that supports "
		                          "hardware version %d; hardware "
		                          "versions cannot be downgraded "
		                          "safely."), p->hw_current));
	} else if (p->hw_current && p->hw_current < p->hw_target) {
		/* No documented minimum for 64-bit MMIO (doc/design.md, section 15.5, open):
		 * an upgrade is advice (INFO), a WARN below 17, which Dynamic
		 * DirectPath I/O needs. */
		int ws = p->hw_current == 12 || p->hw_current == 16;

		pl_finding(p, p->hw_current < 17 ? GW_SEV_WARN : GW_SEV_INFO,
		           "hw-upgrade", GW_TOPIC_VERSION, SRC_HW,
		           ws ? gw_xasprintf(_("The VM has hardware version %d "
		                               "(a Workstation/Fusion version); "
		                               "ESXi %s supports %d"),
		                             p->hw_current, esxi, p->hw_target)
		              : gw_xasprintf(_("The VM has hardware version %d; "
		                               "ESXi %s supports %d (Dynamic "
		                               "DirectPath I/O needs 17)"),
		                             p->hw_current, esxi, p->hw_target),
		           gw_xasprintf(_("Power the VM off and keep a copy of "
		                          "its .vmx (the upgrade is one-way), "
		                          "then run: vim-cmd vmsvc/upgrade "
		                          "<vmid> vmx-%d (vim-cmd "
		                          "vmsvc/getallvms shows the Vmid)"),
		                        p->hw_target));
	} else if (p->hw_current == 0) {
		pl_finding(p, GW_SEV_INFO, "hw-target",
		           GW_TOPIC_VERSION, SRC_HW,
		           gw_xasprintf(_("Use hardware version vmx-%d, the "
		                          "newest ESXi %s supports"),
		                        p->hw_target, esxi),
		           NULL);
	}
	device_limit(p, esxi, c->ndevices);
}

static void
nested(gw_plan *p, const gw_vmx *v)
{
	if (v == NULL || !gw_vmx_get_bool(v, "vhv.enable", 0))
		return;
	pl_setting(p, v, GW_SET_NESTED, "vhv.enable", "FALSE",
	           gw_xstrdup(_("Nested virtualization cannot be combined "
	                        "with passthrough devices.")), SRC_NESTED);
	pl_finding(p, GW_SEV_WARN, "nested-virt", GW_TOPIC_VM, SRC_NESTED,
	           gw_xasprintf(_("vhv.enable is TRUE (nested "
	                          "virtualization), which is not supported "
	                          "with passthrough devices: it is turned "
	                          "off")),
	           NULL);
}



/* P2P: only when asked and with two GPUs or more. */
static void
p2p(gw_plan *p, const gw_vmx *v)
{
	uint64_t ngpus_all = 0;
	size_t i;

	for (i = 0; i < p->ngpus; i++)
		ngpus_all += (uint64_t)p->gpus[i].count;
	if (ngpus_all < 2) {
		pl_finding(p, GW_SEV_INFO, "p2p-single", GW_TOPIC_P2P, SRC_P2P,
		           gw_xasprintf(_("P2P needs two GPUs or more in "
		                          "the VM: not set")),
		           NULL);
		return;
	}
	pl_setting(p, v, GW_SET_P2P, "pciPassthru.allowP2P",
	           "TRUE", gw_xstrdup(_("Allow peer-to-peer "
	                                "transfers between the "
	                                "VM's GPUs.")), SRC_P2P);
	pl_setting(p, v, GW_SET_P2P,
	           "pciPassthru.RelaxACSforP2P", "TRUE",
	           gw_xstrdup(_("Relax ACS so P2P works between "
	                        "GPUs under one root complex.")),
	           SRC_P2P);
}

static void
code43(gw_plan *p, const gw_vmx *v)
{
	pl_setting(p, v, GW_SET_CODE43, "hypervisor.cpuid.v0", "FALSE",
	           gw_xstrdup(_("Hide the hypervisor from old GeForce "
	                        "drivers (Code 43).")), SRC_CODE43);
	pl_finding(p, GW_SEV_INFO, "code43", GW_TOPIC_VM, SRC_CODE43,
	           gw_xasprintf(_("hypervisor.cpuid.v0 = \"FALSE\" is "
	                          "only for GeForce drivers older than "
	                          "R465; newer drivers allow GeForce "
	                          "passthrough without it")),
	           NULL);
}

/* The options the operator asked for, then nested virtualization. */
void
pl_options(plan_ctx *c)
{
	if (c->a->p2p)
		p2p(c->p, c->v);
	if (c->a->code43)
		code43(c->p, c->v);
	nested(c->p, c->v);
}
