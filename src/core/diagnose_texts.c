/* SPDX-License-Identifier: GPL-3.0-or-later */
/* diagnose_texts.c: the builders of gpuwiz diagnose whose texts depend
 * most on the input (diagnose_int.h): the pciPassthruN.id rule (hex or
 * already decimal), the 32-bit PCI hole, the vGPU resource pool, the vGPU
 * plugin and NCCL on vGPU (doc/design.md, section 15.10).  The other builders are in
 * diagnose_rules.c.
 */
#include "diagnose_int.h"
#include "verify.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* "No device hints found" with the id already in ESXi's decimal form:
 * the id is right, so the device itself is missing (doc/design.md,
 * section 15.10). */
static void
id_not_found(gw_diag_finding *f, const char *dec)
{
	f->f.id = GW_DIAG_ID_NOT_FOUND;
	f->f.source = "field reports (No device hints found with a decimal "
	              "pciPassthruN.id); esxcli hardware pci pcipassthru list";
	/* TRANSLATORS: %s: the decimal host address ("00000:066:00.0"). */
	f->f.message = gw_xasprintf(_("ESXi finds no device at %s (\"No device "
	                              "hints found\"), although the id is "
	                              "already in ESXi's decimal form: the "
	                              "device is not enabled for passthrough, "
	                              "or not active yet because the host was "
	                              "not rebooted after enabling it; or the "
	                              "pciPassthruN.systemId is stale; or the "
	                              "device moved to another slot or the VM "
	                              "to another host."), dec);
	f->f.fix = gw_xstrdup(_("On the host, check that the device is listed "
	                        "and enabled (esxcli hardware pci pcipassthru "
	                        "list; reboot the host if it was enabled since "
	                        "the last boot) and that its address matches "
	                        "the id (esxcli hardware pci list). If the VM "
	                        "was moved or the GPU changed slot, power the VM "
	                        "off, remove the PCI device from the VM and add "
	                        "it again, which writes the id, systemId and "
	                        "deviceId anew."));
}

void
gw_diag_build_hex_bdf(gw_diag_finding *f, const gw_diag_hit *h,
                      const gw_diag_facts *x)
{
	char hex[16], dec[24];
	int k = x->id_kind;

	(void)h;
	snprintf(hex, sizeof hex, "%s", x->id_hex);
	snprintf(dec, sizeof dec, "%s", x->id_dec);
	if (k == 2) {
		id_not_found(f, dec);
		return;
	}
	if (k == 0) {
		snprintf(hex, sizeof hex, "0000:42:00.0");
		snprintf(dec, sizeof dec, "00000:066:00.0");
	}
	f->f.message = gw_xstrdup(_("A pciPassthruN.id in the .vmx holds the host's "
	                            "PCI address in hexadecimal; ESXi reads it as "
	                            "decimal and finds no such device (\"No device "
	                            "hints found\")."));
	/* TRANSLATORS: the first %s is the format "%05d:%03d:%02d.%d", then a
	 * hexadecimal address and its decimal form ("0000:42:00.0",
	 * "00000:066:00.0"). */
	f->f.fix = gw_xasprintf(_("Power the VM off and write pciPassthruN.id in "
	                          "ESXi's decimal form %s (domain:bus:slot."
	                          "function): %s becomes %s. gpuwiz vmx FILE "
	                          "--write does it (an id in the hexadecimal "
	                          "form 0000:42:00.0 is rewritten); or remove the "
	                          "PCI device from the VM and add it again."),
	                        "%05d:%03d:%02d.%d", hex, dec);
	/* TRANSLATORS: %s: the hexadecimal host address ("0000:42:00.0"),
	 * then its decimal form ("00000:066:00.0"). */
	f->f.fix_ui = gw_xasprintf(_("The review shows pciPassthruN.id rewritten "
	                             "in ESXi's decimal form (%s becomes %s) once "
	                             "the VM's .vmx is open; write it with the VM "
	                             "powered off. Or remove the PCI device and "
	                             "add it again in the vSphere Client or the "
	                             "ESXi Host Client (Edit Settings)."),
	                           hex, dec);
}

/* A device's 32-bit BARs do not fit the VM's PCI hole below 4 GB
 * (doc/design.md, section 15.10).  The log line's exact format is not
 * in a public document gpuwiz could check: only the device address is
 * read from it. */
void
gw_diag_build_pci_hole(gw_diag_finding *f, const gw_diag_hit *h,
                       const gw_diag_facts *x)
{
	char hex[16];
	/* TRANSLATORS: %s: the host address ("0000:3b:00.0"); the result
	 * goes into "the 32-bit BARs (MMIO) of %s". */
	char *what = gw_diag_line_hex_bdf(h, hex, sizeof hex)
	             ? gw_xasprintf(_("the device %s"), hex)
	             : gw_xstrdup(_("a passthrough device"));

	(void)x;
	/* TRANSLATORS: %s: "the device 0000:3b:00.0" or "a passthrough
	 * device". */
	f->f.message = gw_xasprintf(_("The 32-bit BARs (MMIO) of %s do not fit "
	                              "in the VM's PCI hole, the address range "
	                              "below 4 GB that the VM keeps for devices "
	                              "(\"outside of the PCI Hole\")."), what);
	f->f.fix = gw_xstrdup(_("Power the VM off and make the PCI hole larger "
	                        "by starting it lower: pciHole.start = \"2048\" "
	                        "(in MB: the hole then spans 2 GB to 4 GB), and "
	                        "keep pciPassthru.use64bitMMIO = \"TRUE\" so "
	                        "that the large 64-bit BARs go above 4 GB. The "
	                        "value 2048 comes from field reports; no VMware "
	                        "document found states it."));
	f->f.fix_ui = gw_xstrdup(_("gpuwiz does not write pciHole.start: with "
	                           "the VM powered off, add pciHole.start = "
	                           "\"2048\" (in MB: the hole then spans 2 GB to "
	                           "4 GB) to the VM's .vmx by hand (vSphere "
	                           "Client or ESXi Host Client: Edit Settings > "
	                           "VM Options > Advanced > Configuration "
	                           "Parameters), and keep the "
	                           "64-bit MMIO window on (the MMIO size step). "
	                           "The value comes from field reports; no "
	                           "VMware document found states it."));
	free(what);
}

/* "The amount of graphics resource available in the parent resource pool
 * is insufficient": every cause NVIDIA's vGPU user guide names
 * (doc/design.md, section 15.10). */
void
gw_diag_build_graphics(gw_diag_finding *f, const gw_diag_hit *h,
                       const gw_diag_facts *x)
{
	(void)h;
	(void)x;
	f->f.message = gw_xstrdup(_("The host has no free vGPU of the VM's "
	                            "profile. The causes: the host's graphics "
	                            "type is not \"Shared Direct\"; the GPUs "
	                            "already hold as many vGPUs as the profile "
	                            "allows; another vGPU profile already runs "
	                            "on the GPU (a time-sliced GPU runs one "
	                            "profile at a time on most GPUs); or the "
	                            "NVIDIA vGPU manager is not installed or not "
	                            "loaded."));
	f->f.fix = gw_xstrdup(_("On the host: esxcli graphics host get must show "
	                        "Shared Direct; otherwise set it (vSphere Client: "
	                        "the host, Configure, Hardware, Graphics, Host "
	                        "Graphics, Edit; or esxcli graphics host set "
	                        "--default-type SharedPassthru), then restart "
	                        "Xorg (/etc/init.d/xorg restart) or reboot the "
	                        "host. nvidia-smi must answer on the host (the "
	                        "vGPU manager is loaded; esxcli software vib "
	                        "list shows the NVIDIA VIB). nvidia-smi vgpu "
	                        "lists the vGPUs already running on each GPU: "
	                        "power off or move a VM, or give this VM the "
	                        "profile already on a GPU with room. Then power "
	                        "the VM on again."));
}

/* No vGPU in the text nor in the VM: a question (a cloud or bare-metal
 * VM's NCCL error is not a vGPU one), or, when the VM's .vmx was read and
 * has no vGPU, the vGPU fix ruled out. */
static void
nccl_ask(gw_diag_finding *f, const gw_diag_ctx *ctx)
{
	f->f.id = GW_DIAG_NCCL_ASK;
	f->f.source = GW_DIAG_SRC_NCCL_ASK;
	if (ctx->vm_known) {
		f->f.message = gw_xstrdup(_("NCCL fails in ncclCommInitRank "
		    "with Cuda failure 'operation not supported'. On an "
		    "NVIDIA vGPU that is unified memory not enabled for the "
		    "VM, but this VM's .vmx has no vGPU (its GPUs are "
		    "DirectPath I/O, or it has none), so that fix does not "
		    "apply here."));
		f->f.fix = gw_xstrdup(_("Run the workload again with "
		    "NCCL_DEBUG=INFO and read the lines before the failure "
		    "(the transport NCCL chose: P2P, shared memory, network). "
		    "Check inside the guest that nvidia-smi sees every GPU "
		    "and that the driver is new enough for the CUDA and NCCL "
		    "of the image."));
		return;
	}
	f->f.message = gw_xstrdup(_("NCCL fails in ncclCommInitRank with "
	    "Cuda failure 'operation not supported'. Are the GPUs vGPUs? "
	    "On an NVIDIA vGPU this is the known failure of NCCL 2.27 and "
	    "later when unified memory is not enabled for the VM; on a "
	    "passthrough, cloud or bare-metal GPU it has other causes, and "
	    "nothing here shows a vGPU."));
	f->f.fix = gw_xstrdup(_("Check inside the guest: nvidia-smi -q | "
	    "grep -i \"Virtualization Mode\". VGPU: power the VM off, set "
	    "pciPassthruN.cfg.enable_uvm = \"1\" for every vGPU N of the "
	    "VM (gpuwiz vmx FILE --uvm), then power it on again; gpuwiz "
	    "diagnose FILE --vmx VM.vmx checks the VM's vGPUs first. "
	    "Pass-Through or None: not a vGPU matter; run the workload "
	    "with NCCL_DEBUG=INFO and read the lines before the "
	    "failure."));
	f->f.fix_ui = gw_xstrdup(_("Check inside the guest: nvidia-smi -q | "
	    "grep -i \"Virtualization Mode\". VGPU: Enter asks for the VM's "
	    ".vmx, and when the VM has vGPUs the review shows "
	    "pciPassthruN.cfg.enable_uvm = \"1\" for every vGPU; write, "
	    "then power the VM off and on. Pass-Through or None: not a "
	    "vGPU matter; run the workload with NCCL_DEBUG=INFO and read "
	    "the lines before the failure."));
}

/* The VM's vGPU has a part of its GPU: unified memory needs a vGPU with
 * the whole framebuffer, so enable_uvm alone does not help (NVIDIA AI
 * Enterprise, Unified Virtual Memory; doc/design.md, 15.3). */
static void
nccl_fractional(gw_diag_finding *f, const gw_diag_ctx *ctx)
{
	/* TRANSLATORS: a profile as example ("nvidia_l40s-48c") */
	char *whole = ctx->whole[0]
	              ? gw_xstrdup(ctx->whole)
	              : gw_xstrdup(_("e.g. nvidia_l40s-48c on an L40S"));

	/* TRANSLATORS: %s: the VM's vGPU profile ("nvidia_l40s-24c"). */
	f->f.message = gw_xasprintf(_("NCCL (2.27 and later) fails in "
	    "ncclCommInitRank with Cuda failure 'operation not supported' "
	    "on a vGPU without unified memory, and the VM's vGPU %s has "
	    "only a part of its GPU's framebuffer: unified memory works "
	    "only on a C-series vGPU with the whole framebuffer or a "
	    "MIG-backed one, so enable_uvm alone does not help."),
	    ctx->profile);
	/* TRANSLATORS: %s: a full-framebuffer profile of the same GPU
	 * ("nvidia_l40s-48c"), or "e.g. nvidia_l40s-48c on an L40S". */
	f->f.fix = gw_xasprintf(_("Power the VM off, give it the "
	    "full-framebuffer C-series profile (%s) or a MIG-backed one "
	    "(gpuwiz vmx FILE --vgpu PROFILE --uvm), with "
	    "pciPassthruN.cfg.enable_uvm = \"1\" for every vGPU N, then "
	    "power it on again. Consequence: vMotion is disabled for this "
	    "VM's vGPUs. Verify with the 2-GPU torchrun all-reduce check "
	    "(it prints ok 2.0)."), whole);
	f->f.fix_ui = gw_xasprintf(_("Choose the full-framebuffer C-series "
	    "profile (%s) or a MIG-backed one on the GPU step, with "
	    "\"Unified memory (UVM) on every vGPU\" ticked on the options "
	    "step; write, then power the VM off and on."), whole);
	free(whole);
}

void
gw_diag_build_nccl(gw_diag_finding *f, const gw_diag_hit *h,
                   const gw_diag_facts *x)
{
	const gw_diag_ctx *ctx = h->ctx;
	/* the vLLM engine's context, on another line of the same paste */
	int vllm = x->vllm;

	/* the text shows a vGPU: the word vGPU anywhere (nvidia-smi -q's
	 * "Virtualization Mode : VGPU", a vGPU profile, a user's "on
	 * vGPU"), or a profile name, or the vGPU plugin (vmiop) */
	if (ctx->vgpus <= 0 && (ctx->vm_known || !x->vgpu)) {
		nccl_ask(f, ctx);
		return;
	}
	if (ctx->vgpus > 0 && ctx->profile[0] && ctx->profile_whole == 0) {
		nccl_fractional(f, ctx);
		return;
	}
	f->f.message = gw_xstrdup(vllm
	    ? _("NCCL (2.27 and later) fails in ncclCommInitRank with Cuda "
	        "failure 'operation not supported' on a vGPU, so vLLM's engine "
	        "does not start (EngineCore failed to start): the vGPU does not "
	        "expose unified memory unless it is enabled for the VM.")
	    : _("NCCL (2.27 and later) fails in ncclCommInitRank "
	        "with Cuda failure 'operation not supported' on "
	        "a vGPU: the vGPU does not expose unified memory "
	        "unless it is enabled for the VM."));
	f->f.fix = gw_xstrdup(_("First check that the GPUs are vGPUs (nvidia-smi "
	                        "-q: Virtualization Mode : VGPU, Addressing Mode : "
	                        "None); for passthrough GPUs this fix does not "
	                        "apply. Power the VM off, set "
	                        "pciPassthruN.cfg.enable_uvm = \"1\" for every "
	                        "vGPU N of the VM (pciPassthru0, pciPassthru1, ...; "
	                        "gpuwiz vmx FILE --uvm sets all of them), then "
	                        "power it on again: a guest reboot is not enough. "
	                        "Consequence: vMotion is disabled for this VM's "
	                        "vGPUs, and on A100 multi-vGPU VMs unified memory "
	                        "turns NVLink P2P off. Verify with the 2-GPU "
	                        "torchrun all-reduce check (it prints ok 2.0)."));
	f->f.fix_ui = gw_xstrdup(_("First check that the GPUs are vGPUs "
	                           "(nvidia-smi -q: Virtualization Mode : VGPU); "
	                           "for passthrough GPUs this fix does not apply. "
	                           "The review shows pciPassthruN.cfg.enable_uvm "
	                           "= \"1\" for every vGPU of the VM (\"Unified "
	                           "memory (UVM) on every vGPU\" ticked on the "
	                           "options step); write, then power the VM off "
	                           "and on: a guest reboot is not enough. "
	                           "Consequence: vMotion is disabled for this "
	                           "VM's vGPUs, and on A100 multi-vGPU VMs unified "
	                           "memory turns NVLink P2P off. The write step's "
	                           "next steps give the 2-GPU all-reduce check."));
}

/* The NVIDIA vGPU plugin (libnvidia-vgx.so; its log lines are vmiop_log)
 * could not start for the VM's vGPU: the causes in the order field
 * reports meet them (doc/design.md, 15.10), each with the host command
 * that checks it. */
void
gw_diag_build_plugin(gw_diag_finding *f, const gw_diag_hit *h,
                     const gw_diag_facts *x)
{
	char prof[64];
	/* TRANSLATORS: %s: the vGPU profile from the message
	 * ("nvidia_a16-1b"); the result goes into "could not start for %s". */
	char *what = gw_diag_find_profile(h->line, h->line_len, prof,
	                                  sizeof prof)
	             ? gw_xasprintf(_("the vGPU %s"), prof)
	             : gw_xstrdup(_("the VM's vGPU"));

	(void)x;
	/* TRANSLATORS: %s: "the vGPU nvidia_a16-1b" or "the VM's vGPU". */
	f->f.message = gw_xasprintf(_("The NVIDIA vGPU plugin "
	    "(libnvidia-vgx.so, the vGPU manager's part in the VM's process) "
	    "could not start for %s, so the VM does not power on. The "
	    "causes, most common first: SR-IOV is off in the host's BIOS "
	    "(Ampere and later GPUs such as the A16, A30, A40, A100, L4, "
	    "L40S and H100 run vGPUs on SR-IOV virtual functions); the "
	    "host's graphics type is not \"Shared Direct\"; the NVIDIA vGPU "
	    "manager (its VIB) is missing, not loaded, or of a release the "
	    "guest driver does not match; ECC memory is on where the "
	    "profile needs it off."), what);
	f->f.fix = gw_xstrdup(_("Check on the host, in this order: (1) "
	    "nvidia-smi -q must show Host VGPU Mode : SR-IOV for an Ampere "
	    "or later GPU; if not, enable SR-IOV in the server's BIOS "
	    "(\"SR-IOV Global Enable\", with VT-d/IOMMU) and reboot the "
	    "host. (2) esxcli graphics host get must show Default Graphics "
	    "Type: SharedPassthru (Shared Direct); if not, esxcli graphics "
	    "host set --default-type SharedPassthru and reboot the host. (3) "
	    "esxcli software vib list | grep -i nvidia must list the NVIDIA "
	    "vGPU manager and nvidia-smi must answer; the guest driver must "
	    "be of a release NVIDIA's release notes pair with that manager: "
	    "install or update the VIB in maintenance mode. (4) nvidia-smi "
	    "-q -d ECC: if ECC is Enabled and the profile does not support "
	    "it (Q- and B-series profiles of older GPUs; C-series profiles "
	    "of recent GPUs support ECC), nvidia-smi -e 0 and reboot the "
	    "host. Then power the VM on again."));
	free(what);
}

/* nvidia-smi -q pasted from a vGPU guest: "License Status : Unlicensed
 * (Restricted)" is the state after the grace period ("Unlicensed
 * (Unrestricted)" is the grace period, not a failure; doc/design.md,
 * section 15.9). */
void
gw_diag_build_license(gw_diag_finding *f, const gw_diag_hit *h,
                      const gw_diag_facts *x)
{
	(void)h;
	(void)x;
	f->f.message = gw_xstrdup(_("The vGPU's licence grace period has ended "
	                            "(License Status : Unlicensed (Restricted)): "
	                            "NVIDIA's restrictions on an unlicensed vGPU "
	                            "now apply."));
	f->f.fix = gw_verify_license_fix();
}
