/* SPDX-License-Identifier: GPL-3.0-or-later */
/* diagnose_guide.c: the builders of gpuwiz diagnose for wrong advice
 * found in pasted text: a guide's lines, a shell history, a boot.cfg or
 * esx.conf (diagnose_int.h; doc/design.md, sections 15.10 and 15.11).
 * Each finding says that the command or setting is wrong for ESXi, why,
 * and what to do instead, with its source.
 *
 * The Linux IOMMU parameters (intel_iommu=on, amd_iommu=on, iommu=pt) are
 * right on a Linux or KVM host's kernel command line: their rule is
 * flagged GW_DIAG_R_NEEDS_ESXI, so a line is read as ESXi's only where
 * it or the text shows ESXi (gw_diag_esxi_line, diagnose_match.c).
 */
#include "diagnose_int.h"
#include "mmio.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The MMIO window rule, the one sentence the MMIO findings share. */
static const char *
mmio_rule_sentence(void)
{
	return _("The window is a setting of each VM, in its .vmx and in GB: "
	         "pciPassthru.use64bitMMIO = \"TRUE\" and "
	         "pciPassthru.64bitMMIOSizeGB sized by the documented rule "
	         "for the VM's GPUs (their total memory rounded up to a power "
	         "of two, then one power of two higher: a 12 GB RTX 3060 "
	         "gives 32); gpuwiz mmio --gpu MODEL computes it. BARs larger "
	         "than 16 GB need EFI firmware (firmware = \"efi\").");
}

/* How ESXi's IOMMU is turned on and the GPU enabled, the one sentence
 * the IOMMU findings share. */
static const char *
vtd_sentence(void)
{
	return _("Turn on VT-d (Intel) or AMD-Vi / IOMMU (AMD) in the host's "
	         "BIOS/UEFI setup and reboot the host (gpuwiz knows of no "
	         "esxcli command that reports it). Then esxcli hardware pci list shows the GPU with "
	         "Passthru Capable: true (false while the IOMMU is off); "
	         "enable it with esxcli hardware pci pcipassthru set -d "
	         "ADDRESS -e true -a, and esxcli hardware pci pcipassthru list "
	         "shows it enabled.");
}

void
gw_diag_build_mmio_kernel(gw_diag_finding *f, const gw_diag_hit *h,
                          const gw_diag_facts *x)
{
	(void)h;
	(void)x;
	f->f.message = gw_xstrdup(_("Wrong for ESXi: the VMkernel has no "
	                            "setting pciPassthru64bitMMIOSizeMB. esxcli "
	                            "system settings kernel set -s "
	                            "pciPassthru64bitMMIOSizeMB has nothing to "
	                            "set (esxcli system settings kernel list "
	                            "does not show it), and a line for it in "
	                            "/etc/vmware/esx.conf does nothing. The "
	                            "64-bit MMIO window is not a host "
	                            "setting."));
	/* TRANSLATORS: %s: another translated sentence (the MMIO rule). */
	f->f.fix = gw_xasprintf(_("Leave the host's kernel settings alone and "
	                          "remove such a line from esx.conf. Power the "
	                          "VM off and set the window in its .vmx. %s"),
	                        mmio_rule_sentence());
}

void
gw_diag_build_iommu_option(gw_diag_finding *f, const gw_diag_hit *h,
                           const gw_diag_facts *x)
{
	(void)h;
	(void)x;
	f->f.message = gw_xstrdup(_("Wrong for ESXi: the VMkernel has no "
	                            "setting iommu_enabled or any other IOMMU "
	                            "switch, so esxcli system settings kernel "
	                            "list | grep iommu says nothing about VT-d "
	                            "and there is nothing to set to true. VT-d "
	                            "and AMD-Vi are settings of the host's "
	                            "BIOS/UEFI."));
	f->f.fix = gw_xstrdup(vtd_sentence());
}

void
gw_diag_build_linux_iommu(gw_diag_finding *f, const gw_diag_hit *h,
                          const gw_diag_facts *x)
{
	(void)h;
	(void)x;
	f->f.message = gw_xstrdup(_("Wrong for ESXi: intel_iommu=on, "
	                            "amd_iommu=on and iommu=pt are Linux kernel "
	                            "parameters (right on a Linux or KVM host's "
	                            "kernel command line); the VMkernel does not "
	                            "know them, so adding them to the kernelopt "
	                            "line of ESXi's /bootbank/boot.cfg turns "
	                            "nothing on."));
	/* TRANSLATORS: %s: another translated sentence (VT-d in the BIOS). */
	f->f.fix = gw_xasprintf(_("Remove them from /bootbank/boot.cfg. %s"),
	                        vtd_sentence());
}

/* "esxcli hardware pci pcipassthru set -d X -e false": wrong where the
 * text calls it a way to turn ASPM off; otherwise just what it does. */
void
gw_diag_build_passthru_off(gw_diag_finding *f, const gw_diag_hit *h,
                           const gw_diag_facts *x)
{
	const char *keep = _("To use the GPU in a VM, keep passthrough on: "
	                     "esxcli hardware pci pcipassthru set -d ADDRESS "
	                     "-e true -a (reboot the host when the device does "
	                     "not become active), then check esxcli hardware "
	                     "pci pcipassthru list.");

	(void)h;
	if (!x->aspm) {
		f->f.id = GW_DIAG_PASSTHRU_OFF;
		f->f.message = gw_xstrdup(_("esxcli hardware pci pcipassthru set "
		                            "... -e false turns passthrough off for "
		                            "the device and gives it back to the "
		                            "VMkernel: a VM that has the device "
		                            "cannot power on until passthrough is "
		                            "enabled again."));
		f->f.fix = gw_xstrdup(keep);
		return;
	}
	f->f.message = gw_xstrdup(_("Wrong: esxcli hardware pci pcipassthru "
	                            "set ... -e false does not turn ASPM (PCIe "
	                            "link power management) off. It turns "
	                            "passthrough off for the device and gives "
	                            "it back to the VMkernel, so no VM can use "
	                            "it until it is enabled again."));
	/* TRANSLATORS: %s: another translated sentence (keep passthrough
	 * on). */
	f->f.fix = gw_xasprintf(_("%s No esxcli command turns a device's ASPM "
	                          "off; where the host's BIOS offers PCIe ASPM, "
	                          "it is set there. A GPU that cannot be reset "
	                          "between power-ons needs another reset method "
	                          "in /etc/vmware/passthru.map."), keep);
}

uint64_t
gw_diag_line_vram(const char *fold, size_t n)
{
	static const char *const pats[] = {
		"rtx*# gb", "gtx*# gb", "tesla*# gb", "quadro*# gb", NULL
	};
	size_t p;

	for (p = 0; pats[p]; p++) {
		gw_diag_caps c;

		if (gw_diag_pat_find(fold, n, pats[p], &c) >= 0 && c.n >= 1 &&
		    c.ok[0] && c.v[0] >= 1 && c.v[0] <= 1024)
			return c.v[0];
	}
	return 0;
}

/* pciPassthru.64bitMMIOSizeGB = "N": too small for the GPU the text names
 * (by the documented rule), or, with no GPU named, below 16, which the
 * rule gives for no GPU of 8 GB or more.  A size that is large enough
 * gives no finding (the message stays NULL). */
void
gw_diag_build_mmio_small(gw_diag_finding *f, const gw_diag_hit *h,
                         const gw_diag_facts *x)
{
	uint64_t n = h->c.v[0], vram, rule = 0;
	gw_err e;

	if (h->c.n < 1 || !h->c.ok[0])
		return;
	vram = x->vram_gb;
	if (vram && gw_mmio_rule(vram, &rule, &e) == 0 && n < rule) {
		f->mmio_gb = rule;
		/* TRANSLATORS: %llu: the size in the text, the GPU's memory
		 * in GB, the rule's size; %s: another translated sentence
		 * (the MMIO rule). */
		f->f.message = gw_xasprintf(_("Wrong: pciPassthru.64bitMMIOSizeGB "
		                              "= \"%llu\" is too small for the "
		                              "%llu GB GPU the text names: the "
		                              "documented rule gives %llu. With "
		                              "Resizable BAR on, the GPU's BAR1 "
		                              "alone can be as large as its "
		                              "memory."),
		                            (unsigned long long)n,
		                            (unsigned long long)vram,
		                            (unsigned long long)rule);
		f->f.fix = gw_xasprintf(_("Power the VM off and set "
		                          "pciPassthru.64bitMMIOSizeGB = \"%llu\" "
		                          "for this GPU alone (the window is per "
		                          "VM: add up the memory of all its GPUs). "
		                          "%s"),
		                        (unsigned long long)rule,
		                        mmio_rule_sentence());
		return;
	}
	if (vram || n >= 16)
		return;
	f->f.message = gw_xasprintf(_("Wrong for a large GPU: "
	                              "pciPassthru.64bitMMIOSizeGB = \"%llu\" is "
	                              "smaller than the documented rule gives "
	                              "for any GPU with 8 GB of memory or more "
	                              "(8 GB: 16, 12 GB: 32, 24 GB: 64)."),
	                            (unsigned long long)n);
	/* TRANSLATORS: %s: another translated sentence (the MMIO rule). */
	f->f.fix = gw_xasprintf(_("Power the VM off and size the window for "
	                          "its GPUs. %s"), mmio_rule_sentence());
}

void
gw_diag_build_mmio_model(gw_diag_finding *f, const gw_diag_hit *h,
                         const gw_diag_facts *x)
{
	(void)h;
	(void)x;
	f->f.message = gw_xstrdup(_("Wrong: the 64-bit MMIO window does not "
	                            "depend on the model being served (Llama, "
	                            "GPTQ...) or on the memory it uses. It must "
	                            "hold the BARs of the VM's GPUs, which "
	                            "follow the GPUs' memory, not what runs on "
	                            "them."));
	/* TRANSLATORS: %s: another translated sentence (the MMIO rule). */
	f->f.fix = gw_xasprintf(_("Size it for the GPUs. %s"),
	                        mmio_rule_sentence());
}
