/* SPDX-License-Identifier: GPL-3.0-or-later */
/* verify.c: the checks of gpuwiz verify on a saved `nvidia-smi -q`
 * (verify.h, layer 2): capture + table -> PASS/INFO/WARN/FAIL rows.  The
 * parser is verify_nvsmi.c, the live guest verify_live.c, the output
 * src/report/verify_report.c.
 */
#include "verify_int.h"
#include "apply.h"   /* GW_NCCL_CHECK_FILE */
#include "mmio.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- 2. the checks ------------------------------------------------------ */

void
gw_verify_add_check(gw_verify *v, const char *id, gw_sev st, int gpu,
                    char *title, char *message, char *fix)
{
	gw_finding *c = gw_findings_add(&v->checks, &v->nchecks, st, id,
	                                GW_TOPIC_GUEST, NULL, title, message,
	                                fix);

	c->gpu = gpu;
	switch (st) {
	case GW_SEV_PASS: v->npass++; break;
	case GW_SEV_INFO: v->ninfo++; break;
	case GW_SEV_WARN: v->nwarn++; break;
	default: v->nfail++; break;
	}
}

void
gw_verify_free(gw_verify *v)
{
	if (v == NULL)
		return;
	gw_findings_free(&v->checks, &v->nchecks);
	free(v->rows);
	free(v->torchrun);
	memset(v, 0, sizeof *v);
}

/* The table row for a GPU: by PCI id (and subsystem); for a vGPU guest
 * whose PCI id is shared (25b6 = A2/A16), by the profile in its product
 * name ("NVIDIA A16-4Q" -> nvidia_a16-4q). */
static const gw_gpu *
find_row(const gw_table *t, const gw_nvsmi_gpu *g)
{
	const gw_gpu *r;
	int amb = 0;

	if (t == NULL || g->device_id == 0)
		return NULL;
	r = gw_table_find_pci(t, g->vendor_id, g->device_id, g->subsys_vendor,
	                      g->subsys_device, &amb);
	if (r != NULL)
		return r;
	if (g->virt_mode == GW_VIRT_VGPU && g->product_name != NULL) {
		const char *s = g->product_name, *pfx = "nvidia_";
		char *prof, *c;
		gw_err le;

		if (gw_verify_starts_ci(s, "NVIDIA ")) {
			s += 7;
		} else if (gw_verify_starts_ci(s, "GRID ")) {
			s += 5;
			pfx = "grid_";
		}
		prof = gw_xasprintf("%s%s", pfx, s);
		for (c = prof; *c; c++)
			*c = *c == ' ' ? '_' : (char)tolower((unsigned char)*c);
		r = gw_table_lookup(t, prof, &le);
		free(prof);
		if (r != NULL && r->vendor_id == g->vendor_id &&
		    r->device_id == g->device_id)
			return r;
	}
	return NULL;
}

static void
check_gpus(gw_verify *v, const gw_nvsmi *q)
{
	char *title = gw_xstrdup(_("Checking that the GPUs are visible"));
	const char *fix_none = _("Check that the VM has the GPU (a PCI device "
	                         "or a vGPU in its settings), that lspci shows "
	                         "an NVIDIA device, and dmesg | grep NVRM.");

	if (q->ngpus == 0 && q->error_text != NULL &&
	    gw_verify_starts_ci(q->error_text, "NVIDIA-SMI has failed")) {
		add_check(v, "gpus", GW_SEV_ERROR, -1, title,
		          gw_xasprintf(_("nvidia-smi reported: %s"), q->error_text),
		          gw_xstrdup(_("Load the NVIDIA driver: check that it is "
		                       "built for the running kernel (lsmod | grep "
		                       "nvidia, dmesg | grep NVRM).  In a VM, "
		                       "\"NVRM: BAR1 is 0M\" or an unassigned BAR "
		                       "in lspci -vv means the 64-bit MMIO window "
		                       "is too small.")));
	} else if (q->ngpus == 0) {
		add_check(v, "gpus", GW_SEV_ERROR, -1, title,
		          q->error_text != NULL ?
		          gw_xasprintf(_("nvidia-smi reported: %s"), q->error_text) :
		          gw_xstrdup(_("the capture has no GPU section")),
		          gw_xstrdup(fix_none));
	} else if (q->error_text != NULL) {
		add_check(v, "gpus", GW_SEV_WARN, -1, title,
		          gw_xasprintf(_("nvidia-smi reported: %s"), q->error_text),
		          gw_xstrdup(fix_none));
	} else if (q->attached_gpus > (int)q->ngpus) {
		add_check(v, "gpus", GW_SEV_WARN, -1, title,
		          q->attached_vgpus ?
		          gw_xasprintf(P_("the capture shows %zu of the %d attached "
		                          "vGPU (nvidia-smi -q -i selects some)",
		                          "the capture shows %zu of the %d attached "
		                          "vGPUs (nvidia-smi -q -i selects some)",
		                          q->attached_gpus),
		                       q->ngpus, q->attached_gpus) :
		          gw_xasprintf(P_("the capture shows %zu of the %d attached "
		                          "GPU (nvidia-smi -q -i selects some)",
		                          "the capture shows %zu of the %d attached "
		                          "GPUs (nvidia-smi -q -i selects some)",
		                          q->attached_gpus),
		                       q->ngpus, q->attached_gpus),
		          gw_xstrdup(_("Run nvidia-smi -q without -i to check "
		                       "every GPU.")));
	} else if (q->attached_vgpus) {
		add_check(v, "gpus", GW_SEV_PASS, -1, title,
		          gw_xasprintf(_("GPUs in the capture: %zu (Attached "
		                         "vGPUs: %d)"),
		                       q->ngpus, q->attached_gpus),
		          NULL);
	} else {
		add_check(v, "gpus", GW_SEV_PASS, -1, title,
		          gw_xasprintf(_("GPUs in the capture: %zu"), q->ngpus),
		          NULL);
	}
}

char *
gw_verify_driver_fix(void)
{
	return gw_xasprintf(_("Install NVIDIA driver %s or newer in the guest "
	                      "(for a vGPU: the guest driver of a vGPU release "
	                      "the host's vGPU manager supports)."),
	                    GW_VERIFY_MIN_DRIVER);
}

static void
check_driver(gw_verify *v, const gw_nvsmi *q)
{
	char *title = gw_xstrdup(_("Checking the driver version"));
	int cmp;

	if (q->driver_version == NULL) {
		add_check(v, "driver", GW_SEV_WARN, -1, title,
		          gw_xstrdup(_("the capture has no Driver Version line")),
		          NULL);
	} else if (gw_version_cmp(q->driver_version, GW_VERIFY_MIN_DRIVER,
	                          &cmp) != 0) {
		add_check(v, "driver", GW_SEV_WARN, -1, title,
		          gw_xasprintf(_("cannot read the Driver Version '%s'"),
		                       q->driver_version), NULL);
	} else if (v->host) {
		if (cmp >= 0)
			add_check(v, "driver", GW_SEV_PASS, -1, title,
			          gw_xasprintf(_("the host's vGPU manager is driver "
			                         "%s; guests need their own driver, "
			                         "%s or newer"),
			                       q->driver_version, GW_VERIFY_MIN_DRIVER),
			          NULL);
		else
			add_check(v, "driver", GW_SEV_WARN, -1, title,
			          gw_xasprintf(_("the host's vGPU manager %s is older "
			                         "than %s: its guests cannot run a %s "
			                         "or newer driver"),
			                       q->driver_version, GW_VERIFY_MIN_DRIVER,
			                       GW_VERIFY_MIN_DRIVER),
			          gw_xasprintf(_("Upgrade the vGPU manager on the host "
			                         "to a release whose guest driver is %s "
			                         "or newer."), GW_VERIFY_MIN_DRIVER));
	} else if (cmp >= 0) {
		add_check(v, "driver", GW_SEV_PASS, -1, title,
		          gw_xasprintf(_("driver %s is %s or newer"),
		                       q->driver_version, GW_VERIFY_MIN_DRIVER),
		          NULL);
	} else {
		add_check(v, "driver", GW_SEV_ERROR, -1, title,
		          gw_xasprintf(_("driver %s is older than %s, the version "
		                         "to use for vLLM with Llama 3"),
		                       q->driver_version, GW_VERIFY_MIN_DRIVER),
		          gw_verify_driver_fix());
	}
}

/* Is the guest driver GW_VERIFY_MIN_DRIVER or newer? */
static int
driver_new_enough(const gw_nvsmi *q)
{
	int cmp;

	return q->driver_version != NULL &&
	       gw_version_cmp(q->driver_version, GW_VERIFY_MIN_DRIVER,
	                      &cmp) == 0 && cmp >= 0;
}

static void
check_cuda(gw_verify *v, const gw_nvsmi *q)
{
	char *title;
	int cmp;

	if (v->host)    /* the vGPU manager has no CUDA ("Not Found") */
		return;
	title = gw_xstrdup(_("Checking the CUDA version"));
	if (q->cuda_version == NULL) {
		add_check(v, "cuda", GW_SEV_WARN, -1, title,
		          gw_xstrdup(_("the capture has no CUDA Version line")),
		          NULL);
	} else if (gw_strieq(q->cuda_version, "Not Found")) {
		add_check(v, "cuda", GW_SEV_ERROR, -1, title,
		          gw_xstrdup(_("CUDA Version: Not Found: the driver "
		                       "offers no CUDA")),
		          gw_xasprintf(_("Install NVIDIA driver %s or newer in the "
		                         "guest (it brings CUDA %s or newer)."),
		                       GW_VERIFY_MIN_DRIVER, GW_VERIFY_MIN_CUDA));
	} else if (gw_version_cmp(q->cuda_version, GW_VERIFY_MIN_CUDA,
	                          &cmp) != 0) {
		add_check(v, "cuda", GW_SEV_WARN, -1, title,
		          gw_xasprintf(_("cannot read the CUDA Version '%s'"),
		                       q->cuda_version), NULL);
	} else if (cmp >= 0) {
		add_check(v, "cuda", GW_SEV_PASS, -1, title,
		          gw_xasprintf(_("the driver supports CUDA up to %s (%s or "
		                         "newer needed)"),
		                       q->cuda_version, GW_VERIFY_MIN_CUDA), NULL);
	} else if (driver_new_enough(q)) {
		/* the driver branch is right: the CUDA side is what is old
		 * (NVIDIA CUDA Compatibility guide; doc/design.md, 15.9) */
		add_check(v, "cuda", GW_SEV_ERROR, -1, title,
		          gw_xasprintf(_("the driver supports CUDA up to %s; vLLM "
		                         "for Llama 3 needs CUDA %s or newer"),
		                       q->cuda_version, GW_VERIFY_MIN_CUDA),
		          gw_xasprintf(_("Driver %s is recent enough: do not "
		                         "reinstall it. Use a vLLM build or "
		                         "container for the CUDA it supports (%s), "
		                         "or on a data center GPU install NVIDIA's "
		                         "CUDA forward compatibility package "
		                         "(cuda-compat) for the newer CUDA; on a "
		                         "vGPU the guest driver must match the "
		                         "host's vGPU manager release."),
		                       q->driver_version, q->cuda_version));
	} else {
		add_check(v, "cuda", GW_SEV_ERROR, -1, title,
		          gw_xasprintf(_("the driver supports CUDA up to %s; vLLM "
		                         "for Llama 3 needs CUDA %s or newer"),
		                       q->cuda_version, GW_VERIFY_MIN_CUDA),
		          gw_xasprintf(_("Install NVIDIA driver %s or newer in the "
		                         "guest (it brings CUDA %s or newer)."),
		                       GW_VERIFY_MIN_DRIVER, GW_VERIFY_MIN_CUDA));
	}
}

static void
check_virt(gw_verify *v, const gw_nvsmi_gpu *g, int i)
{
	char *title = gw_xasprintf(_("Checking GPU %s: Virtualization Mode"),
	                           g->bus_id);

	switch (g->virt_mode) {
	case GW_VIRT_PASSTHROUGH:
		add_check(v, "virt-mode", GW_SEV_PASS, i, title,
		          gw_xstrdup(_("Pass-Through: the whole GPU is passed "
		                       "through to this VM (DirectPath I/O)")),
		          NULL);
		break;
	case GW_VIRT_VGPU:
		add_check(v, "virt-mode", GW_SEV_PASS, i, title,
		          gw_xasprintf(_("VGPU: a vGPU guest (%s)"),
		                       g->product_name ? g->product_name : "?"),
		          NULL);
		break;
	case GW_VIRT_HOST_VGPU:
		add_check(v, "virt-mode", GW_SEV_ERROR, i, title,
		          gw_xstrdup(_("Host VGPU: this capture comes from the "
		                       "hypervisor host running the vGPU manager, "
		                       "not from a guest")),
		          gw_xstrdup(_("Run nvidia-smi -q inside the VM and verify "
		                       "that output.")));
		break;
	case GW_VIRT_NONE:
		add_check(v, "virt-mode", GW_SEV_WARN, i, title,
		          gw_xstrdup(_("None: the driver sees no hypervisor: bare "
		                       "metal, or a VM that hides it "
		                       "(hypervisor.cpuid.v0 = FALSE)")),
		          gw_xstrdup(_("If this is not the VM's output, run "
		                       "nvidia-smi -q inside the VM.")));
		break;
	default:
		add_check(v, "virt-mode", GW_SEV_WARN, i, title,
		          g->virt_mode_text ?
		          gw_xasprintf(_("unknown Virtualization Mode '%s'"),
		                       g->virt_mode_text) :
		          gw_xstrdup(_("the capture has no Virtualization Mode "
		                       "line")),
		          NULL);
		break;
	}
}

static char *
uvm_fix(void)
{
	return gw_xstrdup(_("Power the VM off, set pciPassthruN.cfg.enable_uvm "
	                    "= \"1\" for every vGPU N of the VM (pciPassthru0, "
	                    "pciPassthru1, ...), then power it on again (a "
	                    "power-cycle, not a reboot of the guest).  This "
	                    "disables vMotion of the VM's vGPUs."));
}

/* What to check when the capture cannot tell whether unified memory
 * reaches a vGPU (no line, N/A, a value NVML does not define). */
static char *
uvm_check_fix(void)
{
	return gw_xstrdup(_("Check that every vGPU of the VM has "
	                    "pciPassthruN.cfg.enable_uvm = \"1\" (set with the "
	                    "VM powered off, then power it on), and read "
	                    "Addressing Mode again with a guest driver whose "
	                    "nvidia-smi -q prints it: HMM or ATS means unified "
	                    "memory reaches the vGPU."));
}

/* HMM and ATS are NVML's addressing modes in which system memory is
 * addressable from the GPU; "None" is "no active mode"
 * (nvmlDeviceAddressingModeType_t; doc/design.md, section 15.9). */
static int
uvm_mode(const char *am)
{
	return am != NULL && (gw_strieq(am, "HMM") || gw_strieq(am, "ATS"));
}

static void
check_addressing(gw_verify *v, const gw_nvsmi_gpu *g, int i)
{
	const char *am = g->addressing_mode;
	char *title;

	if (v->host)
		return;
	title = gw_xasprintf(_("Checking GPU %s: Addressing Mode"), g->bus_id);
	if (g->virt_mode == GW_VIRT_VGPU) {
		if (am == NULL)
			add_check(v, "addressing-mode", GW_SEV_WARN, i, title,
			          gw_xstrdup(_("no Addressing Mode line (older "
			                       "driver): cannot tell whether unified "
			                       "memory reaches this vGPU; NCCL 2.27 "
			                       "and later need it")),
			          uvm_check_fix());
		else if (uvm_mode(am))
			add_check(v, "addressing-mode", GW_SEV_PASS, i, title,
			          gw_xasprintf(_("Addressing Mode %s: unified memory "
			                         "reaches this vGPU (NVML: system "
			                         "memory is addressable from the GPU "
			                         "in HMM and ATS modes)"), am), NULL);
		else if (gw_strieq(am, "None"))
			add_check(v, "addressing-mode", GW_SEV_ERROR, i, title,
			          gw_xstrdup(_("Addressing Mode is None on a vGPU: "
			                       "unified memory is not exposed to the "
			                       "guest, and NCCL 2.27 and later fail in "
			                       "ncclCommInitRank with Cuda failure "
			                       "'operation not supported'")),
			          uvm_fix());
		else
			add_check(v, "addressing-mode", GW_SEV_WARN, i, title,
			          gw_xasprintf(_("Addressing Mode %s: the driver does "
			                         "not say whether unified memory "
			                         "reaches this vGPU (only HMM or ATS "
			                         "means it does); NCCL 2.27 and later "
			                         "need it"), am),
			          uvm_check_fix());
	} else if (g->virt_mode == GW_VIRT_UNKNOWN) {
		add_check(v, "addressing-mode", GW_SEV_INFO, i, title,
		          gw_xasprintf(_("Addressing Mode %s; it matters for vGPUs "
		                         "only, and the Virtualization Mode is "
		                         "unknown"), am ? am : "-"),
		          NULL);
	} else if (am == NULL) {
		add_check(v, "addressing-mode", GW_SEV_INFO, i, title,
		          gw_xstrdup(_("no Addressing Mode line (older driver); "
		                       "it matters for vGPUs only")), NULL);
	} else if (gw_strieq(am, "None")) {
		add_check(v, "addressing-mode", GW_SEV_PASS, i, title,
		          gw_xstrdup(_("Addressing Mode None: normal without a "
		                       "vGPU (enable_uvm is for vGPUs only)")),
		          NULL);
	} else if (uvm_mode(am)) {
		add_check(v, "addressing-mode", GW_SEV_PASS, i, title,
		          gw_xasprintf(_("Addressing Mode %s"), am), NULL);
	} else {
		add_check(v, "addressing-mode", GW_SEV_INFO, i, title,
		          gw_xasprintf(_("Addressing Mode %s; it matters for vGPUs "
		                         "only"), am), NULL);
	}
}

/* A vGPU host's GPU: how many vGPUs run on it (Active vGPUs of
 * nvidia-smi vgpu -q: NVML's nvmlDeviceGetActiveVgpus; doc/design.md,
 * section 15.9). */
static void
check_vgpus(gw_verify *v, const gw_nvsmi_gpu *g, int i)
{
	char *title;

	if (g->virt_mode != GW_VIRT_HOST_VGPU)
		return;
	title = gw_xasprintf(_("Checking GPU %s: running vGPUs"), g->bus_id);
	if (g->active_vgpus < 0)
		add_check(v, "vgpus", GW_SEV_INFO, i, title,
		          gw_xstrdup(_("the capture does not show how many vGPUs "
		                       "run on this GPU")),
		          gw_xstrdup(_("Append the output of nvidia-smi vgpu -q "
		                       "to the capture (nvidia-smi vgpu -q >> "
		                       "FILE) to see them.")));
	else if (g->active_vgpus == 0)
		add_check(v, "vgpus", GW_SEV_WARN, i, title,
		          gw_xstrdup(_("Active vGPUs: 0: no VM runs a vGPU on this "
		                       "GPU, so a VM that should have one here is "
		                       "powered off or did not start its vGPU")),
		          gw_xstrdup(_("Power on the VM; if its vGPU does not "
		                       "start, run gpuwiz diagnose on its "
		                       "vmware.log.")));
	else
		add_check(v, "vgpus", GW_SEV_INFO, i, title,
		          gw_xasprintf(_("Active vGPUs: %d (the vGPUs of running "
		                         "VMs on this GPU)"), g->active_vgpus),
		          NULL);
}

char *
gw_verify_license_fix(void)
{
	return gw_xstrdup(_("Configure the guest's NVIDIA License "
	                    "System client: put the client "
	                    "configuration token in "
	                    "/etc/nvidia/ClientConfigToken/, set "
	                    "FeatureType in /etc/nvidia/gridd.conf, and "
	                    "restart nvidia-gridd."));
}

/* "Unlicensed (Restricted)" is NVML's state after the grace period,
 * "Unlicensed (Unrestricted)" the grace period (doc/design.md, section
 * 15.9). */
static void
check_license(gw_verify *v, const gw_nvsmi_gpu *g, int i)
{
	const char *st = g->license_status;
	char *title;

	if (g->virt_mode != GW_VIRT_VGPU || st == NULL)
		return;
	title = gw_xasprintf(_("Checking GPU %s: vGPU license"), g->bus_id);
	if (gw_verify_starts_ci(st, "Licensed"))
		add_check(v, "license", GW_SEV_PASS, i, title,
		          gw_xasprintf(_("License Status: %s"), st), NULL);
	else if (gw_verify_starts_ci(st, "Unlicensed (Restricted)"))
		add_check(v, "license", GW_SEV_ERROR, i, title,
		          gw_xasprintf(_("License Status: %s: the licence grace "
		                         "period has ended, so NVIDIA's "
		                         "restrictions on an unlicensed vGPU now "
		                         "apply"), st), gw_verify_license_fix());
	else if (gw_verify_starts_ci(st, "Unlicensed (Unrestricted)"))
		add_check(v, "license", GW_SEV_WARN, i, title,
		          gw_xasprintf(_("License Status: %s: still in the licence "
		                         "grace period; NVIDIA restricts the vGPU "
		                         "once it ends"), st), gw_verify_license_fix());
	else
		add_check(v, "license", GW_SEV_WARN, i, title,
		          gw_xasprintf(_("License Status: %s: NVIDIA restricts an "
		                         "unlicensed vGPU once its grace period "
		                         "ends"), st), gw_verify_license_fix());
}

/* VRAM of the capture's GPUs for the MMIO rule: the table's VRAM (the
 * physical GPU's, for a vGPU too), else the FB total of a passthrough
 * GPU.  0 when any is unknown or the capture lacks some attached GPUs. */
static uint64_t
total_vram(const gw_nvsmi *q, const gw_verify *v)
{
	uint64_t total = 0;
	size_t i;

	if (q->ngpus == 0 || q->attached_gpus > (int)q->ngpus)
		return 0;
	for (i = 0; i < q->ngpus; i++) {
		const gw_nvsmi_gpu *g = &q->gpus[i];

		if (v->rows[i] != NULL && v->rows[i]->vram_gb > 0)
			total += (uint64_t)v->rows[i]->vram_gb;
		else if (g->virt_mode != GW_VIRT_VGPU && g->fb_total_mib > 0)
			total += ((uint64_t)g->fb_total_mib + 1023) / 1024;
		else
			return 0;
	}
	return total;
}

void
gw_verify_begin(const gw_nvsmi *q, const gw_table *t, gw_verify *v)
{
	size_t i;
	gw_err le;

	memset(v, 0, sizeof *v);
	v->ngpus = q->ngpus;
	v->rows = gw_xcalloc(q->ngpus ? q->ngpus : 1, sizeof *v->rows);
	for (i = 0; i < q->ngpus; i++) {
		v->rows[i] = find_row(t, &q->gpus[i]);
		if (q->gpus[i].virt_mode == GW_VIRT_HOST_VGPU)
			v->host = 1;
	}
	v->gpu_count = q->attached_gpus > (int)q->ngpus ? q->attached_gpus
	                                                 : (int)q->ngpus;
	if (!v->host) {
		v->total_vram_gb = total_vram(q, v);
		if (v->total_vram_gb > 0 &&
		    gw_mmio_rule(v->total_vram_gb, &v->mmio_gb, &le) != 0)
			v->total_vram_gb = v->mmio_gb = 0;
	}

	check_gpus(v, q);
	check_driver(v, q);
	check_cuda(v, q);
}

void
gw_verify_gpu(gw_verify *v, const gw_nvsmi *q, size_t i)
{
	check_virt(v, &q->gpus[i], (int)i);
	check_addressing(v, &q->gpus[i], (int)i);
	check_license(v, &q->gpus[i], (int)i);
	check_vgpus(v, &q->gpus[i], (int)i);
	gw_verify_check_bar1(v, &q->gpus[i], (int)i, v->rows[i]);
	gw_verify_check_fb(v, &q->gpus[i], (int)i, v->rows[i]);
}

void
gw_verify_end(gw_verify *v)
{
	if (!v->host && v->gpu_count >= 2) {
		v->torchrun = gw_xasprintf("torchrun --nproc_per_node=%d %s",
		                           v->gpu_count, GW_NCCL_CHECK_FILE);
		add_check(v, "nccl", GW_SEV_INFO, -1,
		          gw_xstrdup(_("Checking NCCL across the GPUs")),
		          gw_xasprintf(P_("%d GPU: test an NCCL all-reduce before "
		                          "starting vLLM; each rank should print "
		                          "\"ok %d.0\"",
		                          "%d GPUs: test an NCCL all-reduce before "
		                          "starting vLLM; each rank should print "
		                          "\"ok %d.0\"", v->gpu_count),
		                       v->gpu_count, v->gpu_count),
		          gw_xasprintf(_("Save the NCCL check as %s (gpuwiz apply "
		                         "writes it beside the snippets) and run: "
		                         "%s"), GW_NCCL_CHECK_FILE, v->torchrun));
	}
}

void
gw_verify_drop_checks(gw_verify *v)
{
	gw_findings_free(&v->checks, &v->nchecks);
}
