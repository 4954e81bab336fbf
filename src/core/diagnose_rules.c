/* SPDX-License-Identifier: GPL-3.0-or-later */
/* diagnose_rules.c: the known failures of gpuwiz diagnose
 * (diagnose_int.h), from log text to cause and fix (doc/design.md,
 * sections 15.10, 15.1-15.4, 15.6 and 15.9): the rule table, and for each rule the function that
 * writes its texts from the numbers captured.
 */
#include "diagnose_int.h"
#include "mmio.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GIB        (UINT64_C(1) << 30)
/* Captured numbers above these are treated as absent (the finding keeps
 * its advice without figures): they cannot come from a real host. */
#define MAX_PAGES  (UINT64_C(1) << 40)   /* 4 PiB of 4 KiB pages */
#define MAX_KB     (UINT64_C(1) << 42)   /* 4 PiB */
#define MAX_MB     (UINT64_C(1) << 32)   /* 4 PiB of guest memory */

#define SRC_MMIO_PAGES "Dell KB 000199172; Broadcom KB 323402"
#define SRC_MMIO_FW    "field reports (an L4 failed with a 32 GB window, worked with 64); Broadcom KB 323402"
#define SRC_MEM        "Broadcom KB 309986"
#define SRC_REGISTER   "field reports (device reset: /etc/vmware/passthru.map; virtual IOMMU)"
#define SRC_HOTPLUG    "Broadcom KB (HPE servers, PCIe hot-plug); HPE advisory a00121002en_us"
#define SRC_SYSTEMID   "field reports"
#define SRC_FREE_ESXI  "field reports (free ESXi license)"
#define SRC_GUEST_BAR  "field reports (NVRM, lspci); Broadcom KB 323402"
#define SRC_BOSH_CPI "Broadcom KB (Tanzu AI Services: vLLM worker VM fails to power on with DevicePowerOn, L40S passthrough); Broadcom KB 323402; bosh-vsphere-cpi-release (vmx_options)"
#define SRC_POWERON    "Broadcom KB 323402; Dell KB 000199172; Broadcom KB 309986; Broadcom KB 437651"
#define SRC_INTR       "VMware vSphere Networking documentation (virtual machines with SR-IOV virtual functions fail to power on: out of interrupt vectors); Broadcom KB 313395"

/* "16.05" from hundredths. */
static void
fmt_x100(uint64_t x100, char *buf, size_t n)
{
	snprintf(buf, n, "%llu.%02llu", (unsigned long long)(x100 / 100),
	         (unsigned long long)(x100 % 100));
}

/* Fill need_bytes, need_gib_x100 and mmio_gb from a need in bytes
 * (1 .. 2^52).  The recommendation is the smallest power of two strictly
 * above the need, so a need of exactly 16 GiB gives 32: the window also
 * holds the small BARs. */
static void
set_need(gw_diag_finding *f, uint64_t bytes)
{
	uint64_t whole = bytes / GIB + (bytes % GIB != 0);
	uint64_t p = gw_pow2_ceil(whole ? whole : 1);

	if (p * GIB == bytes)
		p *= 2;
	f->need_bytes = bytes;
	f->need_gib_x100 = bytes / GIB * 100 +
	                   ((bytes % GIB) * 100 + GIB / 2) / GIB;
	/* rounding must not show the need as big as the recommendation */
	if (f->need_gib_x100 >= p * 100)
		f->need_gib_x100 = p * 100 - 1;
	f->mmio_gb = p;
}

static const char *
mmio_tail(void)
{
	return _("If you know the GPUs, also take the documented rule "
	         "(total VRAM rounded up to a power of two, then one power of "
	         "two higher; gpuwiz mmio --gpu SPEC) and use the larger "
	         "number. BARs larger than 16 GB need EFI firmware "
	         "(firmware = \"efi\"); a guest installed in BIOS mode must be "
	         "reinstalled in EFI mode, not just switched.");
}

static char *
mmio_fix_plain(void)
{
	return gw_xstrdup(_("Power the VM off and set pciPassthru.use64bitMMIO "
	                    "= \"TRUE\" and pciPassthru.64bitMMIOSizeGB to the "
	                    "documented rule for its GPUs (total VRAM rounded "
	                    "up to a power of two, then one power of two "
	                    "higher; gpuwiz mmio --gpu SPEC). BARs larger than "
	                    "16 GB need EFI firmware (firmware = \"efi\"); a "
	                    "guest installed in BIOS mode must be reinstalled "
	                    "in EFI mode, not just switched."));
}

/* The wizard's words (gw_finding.fix_ui): the doctor pre-fills the size
 * and opens the review (src/wizard/wizard_doctor.c). */
static const char *
mmio_ui_tail(void)
{
	return _("BARs larger than 16 GB need EFI firmware (firmware = "
	         "\"efi\"); a guest installed in BIOS mode must be reinstalled "
	         "in EFI mode, not just switched.");
}

static char *
mmio_fix_ui(uint64_t gb)
{
	if (gb == 0)
		return gw_xasprintf(_("The review shows pciPassthru.use64bitMMIO "
		                      "= \"TRUE\" and pciPassthru.64bitMMIOSizeGB "
		                      "from the rule for the VM's GPUs (the MMIO "
		                      "size step shows it); write, then power the "
		                      "VM on again. %s"), mmio_ui_tail());
	/* TRANSLATORS: %llu: the window size in GB; %s another translated
	 * sentence (EFI firmware). */
	return gw_xasprintf(_("The review shows pciPassthru.use64bitMMIO = "
	                      "\"TRUE\" and pciPassthru.64bitMMIOSizeGB = "
	                      "\"%llu\" pre-filled, or the rule for the VM's "
	                      "GPUs when that is larger (the MMIO size step "
	                      "shows both); write, then power the VM on again. "
	                      "%s"), (unsigned long long)gb, mmio_ui_tail());
}

static void
build_mmio_pages(gw_diag_finding *f, const gw_diag_hit *h,
                 const gw_diag_facts *x)
{
	char need[32], lim[32];
	uint64_t n = h->c.v[0], m = h->c.v[1];

	(void)x;
	if (h->c.n == 2 && h->c.ok[0] && h->c.ok[1] && n >= 1 &&
	    n <= MAX_PAGES && m <= MAX_PAGES) {
		f->pages_needed = n;
		f->pages_limit = m;
		set_need(f, n * 4096);
		fmt_x100(f->need_gib_x100, need, sizeof need);
		fmt_x100((m * 4096 / GIB) * 100 +
		         ((m * 4096 % GIB) * 100 + GIB / 2) / GIB, lim, sizeof lim);
		f->f.message = gw_xasprintf(_("The VM's MMIO window is too small for "
		                              "its passthrough devices: their BARs "
		                              "need %llu pages of 4 KiB = %llu bytes "
		                              "(%s GiB), more than the VM's limit of "
		                              "%llu pages (%s GiB)."),
		                            (unsigned long long)n,
		                            (unsigned long long)f->need_bytes, need,
		                            (unsigned long long)m, lim);
		/* TRANSLATORS: %llu twice: the window size in GB; %s: the
		 * need in GiB ("16.05"); the last %s is another translated
		 * sentence (about the documented rule and EFI firmware). */
		f->f.fix = gw_xasprintf(_("Power the VM off and set "
		                          "pciPassthru.use64bitMMIO = \"TRUE\" and "
		                          "pciPassthru.64bitMMIOSizeGB = \"%llu\" or "
		                          "more: %llu is the smallest power of two "
		                          "above the %s GiB needed. %s"),
		                        (unsigned long long)f->mmio_gb,
		                        (unsigned long long)f->mmio_gb, need,
		                        mmio_tail());
		f->f.fix_ui = mmio_fix_ui(f->mmio_gb);
		return;
	}
	f->f.message = gw_xstrdup(_("The VM's MMIO window is too small for the BARs "
	                            "of its passthrough devices."));
	f->f.fix = mmio_fix_plain();
	f->f.fix_ui = mmio_fix_ui(0);
}

static void
build_mmio_firmware(gw_diag_finding *f, const gw_diag_hit *h,
                    const gw_diag_facts *x)
{
	char need[32];
	uint64_t kb = h->c.v[0];

	(void)x;
	if (h->c.n >= 1 && h->c.ok[0] && kb >= 1 && kb <= MAX_KB) {
		f->alloc_kb = kb;
		set_need(f, kb * 1024);
		fmt_x100(f->need_gib_x100, need, sizeof need);
		f->f.message = gw_xasprintf(_("The VM's firmware could not place the "
		                              "GPU's BARs: %llu KB (%s GiB) of PCI MMIO "
		                              "did not fit, so the 64-bit MMIO window "
		                              "is off or too small, or the VM boots "
		                              "with BIOS firmware, which cannot map "
		                              "large BARs."),
		                            (unsigned long long)kb, need);
		/* TRANSLATORS: as the message before; the last %s is another
		 * translated sentence. */
		f->f.fix = gw_xasprintf(_("Power the VM off and set "
		                          "pciPassthru.use64bitMMIO = \"TRUE\" and "
		                          "pciPassthru.64bitMMIOSizeGB = \"%llu\" or "
		                          "more: %llu is the smallest power of two "
		                          "above the %s GiB the firmware could not "
		                          "allocate (the message may count only part "
		                          "of the BARs). %s"),
		                        (unsigned long long)f->mmio_gb,
		                        (unsigned long long)f->mmio_gb, need,
		                        mmio_tail());
		f->f.fix_ui = mmio_fix_ui(f->mmio_gb);
		return;
	}
	f->f.message = gw_xstrdup(_("The VM's firmware could not place the GPU's "
	                            "BARs: the 64-bit MMIO window is off or too "
	                            "small, or the VM boots with BIOS firmware, "
	                            "which cannot map large BARs."));
	f->f.fix = mmio_fix_plain();
	f->f.fix_ui = mmio_fix_ui(0);
}

static const char *
memory_fix_ui(void)
{
	return _("The review shows sched.mem.min and sched.mem.minSize equal "
	         "to memsize and sched.mem.pin = \"TRUE\" pre-filled (\"Reserve "
	         "all guest memory\" on the options step); write, then power "
	         "the VM on again.");
}

static void
build_memory(gw_diag_finding *f, const gw_diag_hit *h,
             const gw_diag_facts *x)
{
	uint64_t mb = h->c.v[0];

	(void)x;
	if (h->c.n >= 1 && h->c.ok[0] && mb >= 1 && mb <= MAX_MB) {
		f->memsize_mb = mb;
		f->f.message = gw_xasprintf(_("The VM has a passthrough device but "
		                              "not all of its memory is reserved: the "
		                              "reservation (sched.mem.min) must equal "
		                              "memsize, here %llu MB."),
		                            (unsigned long long)mb);
		f->f.fix = gw_xasprintf(_("Power the VM off and reserve all of its "
		                          "memory: sched.mem.min = \"%llu\", "
		                          "sched.mem.minSize = \"%llu\" and "
		                          "sched.mem.pin = \"TRUE\" (vSphere Client or "
		                          "ESXi Host Client: Edit Settings > Memory, "
		                          "Reserve all guest memory (All locked))."),
		                        (unsigned long long)mb,
		                        (unsigned long long)mb);
		f->f.fix_ui = gw_xstrdup(memory_fix_ui());
		return;
	}
	f->f.message = gw_xstrdup(_("The VM has a passthrough device but not all of "
	                            "its memory is reserved: the reservation "
	                            "(sched.mem.min) must equal memsize."));
	f->f.fix = gw_xstrdup(_("Power the VM off and set sched.mem.min and "
	                        "sched.mem.minSize to the VM's memsize in MB and "
	                        "sched.mem.pin = \"TRUE\" (vSphere Client or "
	                        "ESXi Host Client: Edit Settings > Memory, "
	                        "Reserve all guest memory (All locked))."));
	f->f.fix_ui = gw_xstrdup(memory_fix_ui());
}

static void
build_register(gw_diag_finding *f, const gw_diag_hit *h,
               const gw_diag_facts *x)
{
	char dev[40];

	(void)x;
	if (h->c.n >= 1 && h->c.ok[0] && h->c.v[0] < 1000)
		snprintf(dev, sizeof dev, "pciPassthru%llu",
		         (unsigned long long)h->c.v[0]);
	else
		snprintf(dev, sizeof dev, "pciPassthruN");
	f->f.message = gw_xasprintf(_("ESXi could not attach the device %s to the "
	                              "VM (\"unavailable hardware or software "
	                              "support\"): usually the host cannot reset "
	                              "the device, or the VM has a virtual IOMMU "
	                              "enabled."), dev);
	f->f.fix = gw_xstrdup(_("Power the VM off. If the VM has a virtual IOMMU "
	                        "(vvtd.enable = \"TRUE\"; vSphere Client or ESXi "
	                        "Host Client: Edit Settings > CPU, IOMMU), turn "
	                        "it off. Otherwise give the device "
	                        "another reset method in /etc/vmware/passthru.map "
	                        "on the host (a line \"VENDOR DEVICE METHOD "
	                        "false\", METHOD one of d3d0, link, bridge, "
	                        "default; the IDs in hexadecimal without 0x, "
	                        "from esxcli hardware pci list) and reboot the "
	                        "host."));
}


static void
build_not_passthru(gw_diag_finding *f, const gw_diag_hit *h,
                   const gw_diag_facts *x)
{
	char *dev = gw_diag_not_passthru_device(h);
	/* TRANSLATORS: %s: the device as the log names it ("6:0.0"); the
	 * result goes into "ESXi does not see %s as a passthrough device". */
	char *what = dev ? gw_xasprintf(_("the device %s"), dev)
	                 : gw_xstrdup(_("the device"));

	(void)x;
	f->f.message = gw_xasprintf(_("ESXi does not see %s as a passthrough device "
	                              "when the VM powers on: on HPE servers PCIe "
	                              "native hot-plug makes the GPU look removed "
	                              "and inserted again (vmkernel.log: PCIEHP ... "
	                              "Adapter removed, Adapter inserted)."), what);
	f->f.fix = gw_xstrdup(_("Turn PCIe native hot-plug off on the host: "
	                        "esxcli system settings kernel set -s "
	                        "enablePCIEHotplug -v FALSE, reboot the host, and "
	                        "check that esxcli system settings kernel list -o "
	                        "enablePCIEHotplug shows FALSE. Then check that "
	                        "the device is still enabled for passthrough "
	                        "(esxcli hardware pci pcipassthru list)."));
	free(what);
	free(dev);
}


static void
build_systemid(gw_diag_finding *f, const gw_diag_hit *h,
               const gw_diag_facts *x)
{
	(void)h;
	(void)x;
	f->f.message = gw_xstrdup(_("A pciPassthruN.systemId (or deviceId) in the "
	                            ".vmx does not match this host, typically after "
	                            "the VM was moved or cloned to another host or "
	                            "ESXi was reinstalled."));
	f->f.fix = gw_xstrdup(_("Power the VM off and set pciPassthruN.systemId "
	                        "to the output of esxcli system uuid get on this "
	                        "host, and pciPassthruN.deviceId to the device's "
	                        "ID from esxcli hardware pci list (hexadecimal, "
	                        "e.g. 0x26b9); or remove the PCI device from the "
	                        "VM and add it again, which writes both."));
}

static void
build_free_esxi(gw_diag_finding *f, const gw_diag_hit *h,
                const gw_diag_facts *x)
{
	(void)h;
	(void)x;
	f->f.message = gw_xstrdup(_("The host's license (free ESXi) or version "
	                            "refuses changes through the API, although it "
	                            "answers reads."));
	f->f.fix = gw_xstrdup(_("Use the ESXi shell instead (enable SSH on the "
	                        "host): power the VM off, edit its .vmx under "
	                        "/vmfs/volumes/DATASTORE/VM/ (vim-cmd "
	                        "vmsvc/getallvms shows the VM id and file), run "
	                        "vim-cmd vmsvc/reload VMID so that ESXi reads it "
	                        "again, then power the VM on."));
}

static void
build_guest_bar(gw_diag_finding *f, const gw_diag_hit *h,
                const gw_diag_facts *x)
{
	(void)h;
	(void)x;
	f->f.message = gw_xstrdup(_("The guest sees the GPU but its BARs got no "
	                            "address (size 0 or <unassigned>): the VM's "
	                            "64-bit MMIO window is off or too small, or, on "
	                            "a physical machine, above-4G decoding is off "
	                            "in the BIOS."));
	f->f.fix = gw_xstrdup(_("In a VM: power it off and set "
	                        "pciPassthru.use64bitMMIO = \"TRUE\" and "
	                        "pciPassthru.64bitMMIOSizeGB to the documented "
	                        "rule for its GPUs (gpuwiz mmio --gpu SPEC), with "
	                        "EFI firmware. On a physical machine (bare metal, "
	                        "or the ESXi host itself): enable Above 4G "
	                        "decoding (MMIO above 4 GB) in the BIOS."));
	f->f.fix_ui = gw_xstrdup(_("In a VM: power it off; the MMIO size step "
	                           "computes the window for its GPUs and the "
	                           "review writes pciPassthru.use64bitMMIO and "
	                           "pciPassthru.64bitMMIOSizeGB (with EFI "
	                           "firmware). On a physical machine (bare metal, "
	                           "or the ESXi host itself): enable Above 4G "
	                           "decoding (MMIO above 4 GB) in the BIOS."));
}

/* "failed to register interrupt" (vmware.log) / "Out of interrupt
 * vectors" (vmkernel.log): the host has no interrupt vectors left for a
 * passthrough device's MSI/MSI-X interrupts.  The vectors scale with the
 * host's CPUs and are shared by its devices and powered-on VMs; VMware
 * documents no way to count the free ones, only fewer devices
 * (doc/design.md, 15.10). */
static void
build_intr(gw_diag_finding *f, const gw_diag_hit *h,
           const gw_diag_facts *x)
{
	(void)h;
	(void)x;
	f->f.message = gw_xstrdup(_("The host could not give a passthrough "
	                            "device of this VM the interrupt vectors "
	                            "(MSI/MSI-X) it asked for (vmware.log: "
	                            "\"failed to register interrupt\"; "
	                            "vmkernel.log: \"Out of interrupt "
	                            "vectors\"). A host's vectors grow with its "
	                            "physical CPUs and are shared by its own "
	                            "devices and the powered-on VMs, so VMs with "
	                            "many passthrough devices or SR-IOV virtual "
	                            "functions run out."));
	f->f.fix = gw_xstrdup(_("Lower the number of passthrough devices and "
	                        "SR-IOV virtual functions on the host's "
	                        "powered-on VMs: remove devices this VM does not "
	                        "need, or give another VM's SR-IOV network "
	                        "adapter back to a standard or distributed "
	                        "switch, or run the VM on a host with more CPUs "
	                        "or fewer devices. Then power the VM on again. "
	                        "vmkernel.log names the device and the vectors it "
	                        "asked for (VMKPCIPassthru: ... numVectors); "
	                        "VMware documents no way to count the vectors "
	                        "left on a host."));
}

/* A BOSH director's vSphere CPI log: the CPI created a VM of a VM type with
 * a passthrough GPU, vCenter's power-on task (Drm.ExecuteVmPowerOnLRO)
 * failed with DevicePowerOn, and BOSH deleted the VM ("Deleting vm"),
 * its vmware.log with it.  The fix goes into the VM type (the AI Services
 * tile's Infrastructure Config, a BOSH VM extension's vmx_options), then
 * Apply Changes: BOSH creates the VM again, nobody powers it on by hand
 * (doc/design.md, 15.10; docs: the Tanzu KB of the tile's vLLM worker). */
static void
build_bosh_poweron(gw_diag_finding *f, const gw_diag_hit *h,
                   const gw_diag_facts *x)
{
	(void)h;
	(void)x;
	f->f.message = gw_xstrdup(_("BOSH's vSphere CPI could not power on a VM "
	                            "with a passthrough GPU "
	                            "(Drm.ExecuteVmPowerOnLRO: Module "
	                            "'DevicePowerOn' power on failed) and BOSH "
	                            "deletes such a VM at once (\"Deleting vm\"), "
	                            "its vmware.log with it. With a large GPU (an "
	                            "L40S, an A100) the usual cause is a 64-bit "
	                            "MMIO window too small for its BARs: the VM "
	                            "type does not set pciPassthru.use64bitMMIO "
	                            "and pciPassthru.64bitMMIOSizeGB."));
	f->f.fix = gw_xstrdup(_("This is the Tanzu route: fix the VM type, not a "
	                        "VM. Size the window for the GPU model (gpuwiz "
	                        "mmio --gpu SPEC) and enter it in the AI Services "
	                        "tile's Infrastructure Config, custom VM type "
	                        "(use 64bit MMIO: TRUE, size for 64bit MMIO; "
	                        "gpuwiz snippet --format tile --gpu SPEC writes "
	                        "the values), or in the BOSH VM extension's "
	                        "vmx_options (gpuwiz snippet --format bosh --gpu "
	                        "SPEC). Save, then Apply Changes in Ops Manager "
	                        "with the BOSH Director and the tile selected: "
	                        "BOSH creates the VM again. Do not power a VM on "
	                        "by hand."));
	f->f.fix_ui = gw_xstrdup(_("This is the Tanzu route: the VM type of the "
	                           "tile or of BOSH, not a VM's .vmx. Choose the "
	                           "GPU model on the GPU step: the review shows "
	                           "the tile's values, the BOSH VM extension and "
	                           "the Ops Manager JSON with the MMIO window the "
	                           "rule gives for it. Write, then save the "
	                           "tile's Infrastructure Config and Apply "
	                           "Changes in Ops Manager (the BOSH Director and "
	                           "the tile selected): BOSH creates the VM "
	                           "again."));
}

static void
build_poweron(gw_diag_finding *f, const gw_diag_hit *h,
              const gw_diag_facts *x)
{
	(void)h;
	(void)x;
	f->f.message = gw_xstrdup(_("The VM did not power on because a passthrough "
	                            "device could not be set up; this message alone "
	                            "does not say why."));
	f->f.fix = gw_xstrdup(_("Look in the VM's vmware.log for the lines just "
	                        "before it and run gpuwiz diagnose on the log. "
	                        "Usual causes, most common first: the 64-bit MMIO "
	                        "window is too small (pciPassthru.use64bitMMIO = "
	                        "\"TRUE\", pciPassthru.64bitMMIOSizeGB as gpuwiz "
	                        "mmio --gpu SPEC computes it); memory not fully "
	                        "reserved (sched.mem.min = sched.mem.minSize = "
	                        "memsize, sched.mem.pin = \"TRUE\"); the device is "
	                        "not enabled for passthrough or cannot be reset "
	                        "(esxcli hardware pci pcipassthru list, "
	                        "/etc/vmware/passthru.map); a stale "
	                        "pciPassthruN.systemId or a hexadecimal "
	                        "pciPassthruN.id after the VM was moved; nested "
	                        "virtualization (vhv.enable = \"TRUE\") on the "
	                        "VM."));
	f->f.fix_ui = gw_xstrdup(_("Paste the lines just before it from the "
	                           "VM's vmware.log here, or give the "
	                           "vmware.log's path: the doctor names the "
	                           "cause. Usual causes, most common first: the "
	                           "64-bit MMIO window is too small (the MMIO "
	                           "size step); memory not fully reserved "
	                           "(\"Reserve all guest memory\" on the options "
	                           "step); the device is not enabled for "
	                           "passthrough or cannot be reset; a stale "
	                           "pciPassthruN.systemId or a hexadecimal "
	                           "pciPassthruN.id after the VM was moved; "
	                           "nested virtualization on the VM."));
}

/* In priority order: the order of the findings.  The builders named
 * gw_diag_build_* are in diagnose_texts.c. */
const gw_diag_rule gw_diag_rules[] = {
	{ GW_DIAG_MMIO_PAGES, SRC_MMIO_PAGES, NULL,
	  { "total number of pages needed (#) exceeds limit (#)", NULL },
	  GW_DIAG_R_POWERON_CAUSE | GW_DIAG_R_KEEP_MAX, build_mmio_pages },
	{ GW_DIAG_MMIO_FIRMWARE, SRC_MMIO_FW, NULL,
	  { "firmware could not allocate # kb of pci mmio", NULL },
	  GW_DIAG_R_POWERON_CAUSE | GW_DIAG_R_KEEP_MAX, build_mmio_firmware },
	{ GW_DIAG_MEM_RESERVATION, SRC_MEM, "sched.mem.min",
	  { "memsize (#)", NULL },
	  GW_DIAG_R_POWERON_CAUSE, build_memory },
	{ GW_DIAG_REGISTER_FAILED, SRC_REGISTER, NULL,
	  { "failed to register the device 'pcipassthru#",
	    "failed to register the device", NULL },
	  GW_DIAG_R_POWERON_CAUSE, build_register },
	{ GW_DIAG_PCI_HOLE, GW_DIAG_SRC_PCI_HOLE, NULL,
	  { "mmiooutsidepcihole", "outside of the pci hole", NULL },
	  GW_DIAG_R_POWERON_CAUSE, gw_diag_build_pci_hole },
	{ GW_DIAG_NOT_PASSTHROUGH, SRC_HOTPLUG, NULL,
	  { "is not a passthrough device", NULL },
	  GW_DIAG_R_POWERON_CAUSE, build_not_passthru },
	{ GW_DIAG_HEX_BDF, GW_DIAG_SRC_HEX_BDF, NULL,
	  { "no device hints found", NULL },
	  GW_DIAG_R_POWERON_CAUSE, gw_diag_build_hex_bdf },
	{ GW_DIAG_SYSTEMID, SRC_SYSTEMID, NULL,
	  { "systemid' does not match the current system", NULL },
	  GW_DIAG_R_POWERON_CAUSE, build_systemid },
	{ GW_DIAG_VGPU_PLUGIN, GW_DIAG_SRC_PLUGIN, NULL,
	  /* the vSphere Client's task error, in English and Chinese
	   * (typographic quotes fold to '), and the plugin's own lines */
	  { "could not initialize plugin*libnvidia-vgx",
	    "\xe6\x97\xa0\xe6\xb3\x95\xe5\x88\x9d\xe5\xa7\x8b\xe5\x8c\x96 "
	    "vgpu*libnvidia-vgx",            /* 无法初始化 vGPU... */
	    "vmiop_log: error:*initialization",
	    "error: vmiop_log:*initialization", NULL },
	  GW_DIAG_R_POWERON_CAUSE, gw_diag_build_plugin },
	{ GW_DIAG_INTR_VECTORS, SRC_INTR, NULL,
	  { "failed to register interrupt", "out of interrupt vectors", NULL },
	  GW_DIAG_R_POWERON_CAUSE, build_intr },
	{ GW_DIAG_VGPU_GRAPHICS, GW_DIAG_SRC_GRAPHICS, NULL,
	  { "graphics resource available in the parent resource pool is "
	    "insufficient", NULL },
	  GW_DIAG_R_POWERON_CAUSE, gw_diag_build_graphics },
	{ GW_DIAG_NCCL_UVM, GW_DIAG_SRC_NCCL, NULL,
	  { "cuda failure 'operation not supported",
	    "cuda failure # 'operation not supported", NULL },
	  GW_DIAG_R_NEEDS_NCCL, gw_diag_build_nccl },
	{ GW_DIAG_FREE_ESXI, SRC_FREE_ESXI, NULL,
	  { "current license or esxi version prohibits execution", NULL },
	  0, build_free_esxi },
	{ GW_DIAG_LICENSE_RESTRICTED, GW_DIAG_SRC_LICENSE, NULL,
	  { "license status : unlicensed (restricted)", NULL },
	  0, gw_diag_build_license },
	{ GW_DIAG_GUEST_BAR, SRC_GUEST_BAR, NULL,
	  { "nvrm: bar# is 0m @ 0x0", "memory at <unassigned>", NULL },
	  0, build_guest_bar },
	{ GW_DIAG_BOSH_POWERON, SRC_BOSH_CPI, "devicepoweron",
	  { "drm.executevmpoweronlro", "/vsphere_cpi/", NULL },
	  GW_DIAG_R_POWERON_CAUSE, build_bosh_poweron },
	/* wrong advice in pasted text (diagnose_guide.c) */
	{ GW_DIAG_WRONG_MMIO_KERNEL, GW_DIAG_SRC_WRONG_MMIO_KERNEL, NULL,
	  { "pcipassthru64bitmmiosizemb", NULL },
	  0, gw_diag_build_mmio_kernel },
	{ GW_DIAG_WRONG_IOMMU_OPTION, GW_DIAG_SRC_WRONG_IOMMU, NULL,
	  { "iommu_enabled", "settings kernel list*iommu",
	    "settings kernel set*iommu", NULL },
	  GW_DIAG_R_NEEDS_ESXI, gw_diag_build_iommu_option },
	{ GW_DIAG_WRONG_LINUX_IOMMU, GW_DIAG_SRC_WRONG_LINUX_IOMMU, NULL,
	  { "intel_iommu=", "amd_iommu=", "iommu=pt", NULL },
	  GW_DIAG_R_NEEDS_ESXI, gw_diag_build_linux_iommu },
	{ GW_DIAG_WRONG_PASSTHRU_ASPM, GW_DIAG_SRC_WRONG_PASSTHRU, NULL,
	  { "pcipassthru set*-e false", "pcipassthru set*--enable false",
	    "pcipassthru set*--enable=false", NULL },
	  0, gw_diag_build_passthru_off },
	{ GW_DIAG_WRONG_MMIO_SIZE, GW_DIAG_SRC_WRONG_MMIO, NULL,
	  { "64bitmmiosizegb = '#", NULL },
	  0, gw_diag_build_mmio_small },
	{ GW_DIAG_WRONG_MMIO_MODEL, GW_DIAG_SRC_WRONG_MMIO, "mmio",
	  { "llama*# gb", "gptq*# gb", "mmio*# gb*llama", "mmio*# gb*gptq",
	    NULL },
	  0, gw_diag_build_mmio_model },
	{ GW_DIAG_POWERON, SRC_POWERON, NULL,
	  { "module 'devicepoweron' power on failed",
	    /* the Chinese vSphere Client: 模块“DevicePowerOn”打开电源失败 */
	    "\xe6\xa8\xa1\xe5\x9d\x97 'devicepoweron' "
	    "\xe6\x89\x93\xe5\xbc\x80\xe7\x94\xb5\xe6\xba\x90"
	    "\xe5\xa4\xb1\xe8\xb4\xa5", NULL },
	  GW_DIAG_R_GENERIC, build_poweron },
};
const size_t gw_diag_nrules = sizeof gw_diag_rules /
                              sizeof gw_diag_rules[0];
