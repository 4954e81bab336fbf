/* SPDX-License-Identifier: GPL-3.0-or-later */
/* plan_int.h: what the pieces of the plan (plan*.c) share.  Not for use
 * outside src/core/plan*.c.
 *
 * gw_plan_build (plan.c) runs the phases in order, each in its own file;
 * they add steps, findings and settings through plan_util.c:
 *   plan_util.c     the building blocks: pl_step, pl_finding, pl_fix_ui,
 *                   pl_setting
 *   plan_parse.c    PCI addresses, .vmx ids, ESXi versions (+ public helpers)
 *   plan_answers.c  gw_answers_* (building the answers)
 *   plan_scan.c     scan the .vmx: its pciPassthruN blocks, the GPUs
 *                   already attached (plan_existing)
 *   plan_devices.c  pair BDFs with the GPUs being added, count devices,
 *                   write the new device blocks
 *   plan_vgpu.c     vGPU blocks and unified memory (UVM)
 *   plan_vgpu_checks.c  what the VM's vGPUs must agree on (profiles,
 *                   UVM support, the enable_uvm key)
 *   plan_mmio.c     the 64-bit MMIO window (mmio.c does the arithmetic)
 *   plan_vm.c       memory, firmware, hardware version, nested
 *                   virtualization, P2P, Code 43
 *   plan_limits.c   guest memory vs framebuffer, hot-add, what
 *                   DirectPath I/O turns off
 */
#ifndef GW_PLAN_INT_H
#define GW_PLAN_INT_H

#include "plan.h"

#define SRC_MMIO    "Broadcom KB 323402"
#define SRC_VGPU_MMIO "NVIDIA AI Enterprise 6, vGPU (C-Series) appendix, Table 18 MMIO Space Required (docs.nvidia.com/ai-enterprise/release-6/latest/appendix/vgpu.html)"
#define SRC_MEM     "Broadcom KB 309986"
#define SRC_NESTED  "Broadcom KB 437651"
#define SRC_UVM     "NVIDIA AI Enterprise documentation"
#define SRC_P2P     "NVIDIA GPU Operator documentation"
#define SRC_CODE43  "field reports (NVIDIA drivers before R465)"
#define SRC_EFI     "VMware GPU passthrough blog; NVIDIA vGPU prerequisites"
#define SRC_HW      "Broadcom KB 1003746"
#define SRC_LIMITS  "Broadcom KB 309986"
#define SRC_DEVICE  "ESXi .vmx device block (decimal id: field reports; hex 0x ids: govmomi issue 2248)"
#define SRC_VGPU_NAMES "NVIDIA vGPU type names (data/gpus.ini vgpu_prefix)"
#define SRC_VGPU    "VMware API VirtualPCIPassthroughVmiopBackingInfo (.vmx key not documented)"
#define SRC_NCCL    "NCCL 2.27 on vGPU (NVIDIA NCCL issue 2101)"
#define SRC_REBAR   "field reports (Resizable BAR)"
#define SRC_GUESTMEM "field reports (model weights load through guest memory; no NVIDIA figure found)"
#define SRC_HOTADD  "VMware vSphere Networking, DirectPath I/O; Broadcom KB 309986"
#define SRC_HOTADD_CPU "VMware vSphere Resource Management, Virtual NUMA (CPU HotAdd turns it off; KB 2040375)"
#define SRC_SRIOV   "NVIDIA vGPU documentation (SR-IOV on Ampere and later)"
#define SRC_MEMLIMIT "vSphere API ResourceAllocationInfo (a limit must be at least the reservation); Broadcom KB 309986"
#define SRC_HWMIN   "vSphere API Hardware.Version (vmx-07: ESX 4.0, the first with VMDirectPath I/O); Broadcom KB 1003746"
#define SRC_VTPM    "Broadcom KB 368787 (a vTPM makes a VM partly encrypted); .vmx keys: field"
#define SRC_DPIO    "VMware vSphere Networking, DirectPath I/O (features unavailable)"
#define SRC_BOSH_PCI "bosh-vsphere-cpi-release, cloud_properties pci_passthroughs (vSphere 7+: Dynamic DirectPath I/O)"
#define SRC_DDPIO   "vSphere API VirtualPCIPassthroughDynamicBackingInfo (since vSphere API 7.0); .vmx allowedDevices/customLabel: F. Denneman, vSphere ML Accelerator Spectrum Deep Dive, Using Dynamic DirectPath IO (2023)"

#define NVIDIA_VENDOR 0x10deu
#define NVIDIA_BAR3_BYTES (UINT64_C(32) << 20)

/* ---- plan_parse.c ------------------------------------------------------- */

char *pl_trimmed_dup(const char *s);        /* copy without blanks around */
char *pl_lower_dup(const char *s);
/* 1..maxdigits decimal digits at *pp; advances *pp. */
int pl_parse_dec_field(const char **pp, int maxdigits, unsigned *out);
/* "0x10de" (as ESXi writes it) -> 0x10de.  Anything else fails. */
int pl_parse_pci_id(const char *s, unsigned *out);
/* "4318" (a PCI id in decimal, as the API's JSON and esxcli's -json give
 * it) -> 0x10de; 1..5 digits, at most 65535.  Anything else fails. */
int pl_parse_pci_id_dec(const char *s, unsigned *out);
/* The .vmx id form, decimal: "00000:066:00.0", "0:66:0.0", "066:00.0". */
int pl_parse_vmx_id(const char *s, unsigned *dom, unsigned *bus,
                    unsigned *dev, unsigned *fn);
int pl_esxi_is_80u1(const char *esxi);

/* ---- plan_scan.c: the pciPassthruN blocks of the .vmx ------------------ */

/* One pciPassthruN entry of the .vmx. */
typedef struct vdev {
	unsigned idx;
	int present;
	const char *vgpu;         /* profile, NULL for DirectPath */
	int ids_ok;
	unsigned vendor, device;
	int dec_vendor, dec_device; /* written in decimal ("4318"): ESXi
	                          * wants "0x10de" (govmomi issue 2248) */
	int claimed;              /* an asked-for GPU of the answers is it */
	int dynamic;              /* Dynamic DirectPath I/O: its ids come
	                           * from allowedDevices ("0x10de:0x26b9") */
	int has_addr;
	int hex_id;               /* id written as the hex host address */
	unsigned dom, bus, dev, fn;
	const char *system_id;
	int matched;              /* an answers BDF points at it */
	int counted;              /* counts towards a GPU asked for (one of
	                           * c->dedup): the VM ends with it as one of
	                           * those, not beside them */
} vdev;

typedef struct scan {
	vdev *devs;               /* present or not, sorted by idx */
	size_t ndevs;
	unsigned *used;           /* indices in use (file + this plan) */
	size_t nused;
} scan;

/* One BDF of the answers, paired with a passthrough GPU being added. */
typedef struct newdev {
	size_t want;          /* index into a->gpus */
	const char *bdf;      /* a->bdfs[i] */
	unsigned dom, bus, dev, fn;
	vdev *existing;       /* already attached at that address */
	int same;             /* 1: same PCI ids there (not counted again);
	                       * 0: ids unknown there; -1: other ids */
} newdev;

/* Everything one gw_plan_build call works on. */
typedef struct plan_ctx {
	const gw_answers *a;
	const gw_table *t;
	const gw_vmx *v;          /* NULL: snippets only */
	gw_plan *p;
	scan sc;
	newdev *nds;              /* one per BDF of the answers */
	size_t nnd;
	int *dedup;               /* per a->gpus[i]: devices already in the
	                           * VM that count towards it (at one of
	                           * its BDFs, or of its model or profile:
	                           * pl_claim_present) */
	size_t npt_slots;         /* passthrough GPUs asked for */
	size_t npt_noaddr;        /* of them: neither in the VM nor given a
	                           * host address (pl_claim_present) */
	int ndevices;             /* pciPassthruN devices of the VM */
	int nvgpu_all;            /* vGPUs of the VM, existing + new */
} plan_ctx;

void pl_scan_vmx(const gw_vmx *v, scan *sc);
void pl_scan_free(scan *sc);
unsigned pl_next_free(scan *sc);    /* lowest free index, now in use */
/* The GPUs already attached in the .vmx -> plan GPUs + findings. */
void pl_existing(plan_ctx *c);
gw_plan_gpu *pl_gpu_push(gw_plan *p);

/* ---- plan_util.c: building blocks (the phases call only these and each
 * other's helpers, never plan.c) ----------------------------------------- */

void pl_step(gw_plan *p, char *line);       /* takes ownership */
/* Takes ownership of msg and fix.  Returns the row (valid until the next
 * finding), so that a fix naming a command-line flag gets its wizard
 * words: pl_fix_ui. */
gw_finding *pl_finding(gw_plan *p, gw_sev sev, const char *id,
                       gw_topic topic, const char *source, char *msg,
                       char *fix);
/* f->fix_ui = text (owned).  The wizard's words for a fix that names a
 * flag: its steps and fields as the screens label them (ui/step_*.c; the
 * same msgids, so both languages match the screens). */
void pl_fix_ui(gw_finding *f, char *text);
/* A setting; the current value comes from the .vmx.  An existing equal
 * value (case-insensitively: TRUE = true) is kept.  Takes ownership of
 * reason. */
gw_setting *pl_setting(gw_plan *p, const gw_vmx *v, gw_set_kind kind,
                       const char *key, const char *value, char *reason,
                       const char *source);

/* ---- the phases --------------------------------------------------------- */

int pl_pair_bdfs(plan_ctx *c, gw_err *e);           /* plan_devices.c */
/* The devices already in the VM count towards the GPUs asked for; more
 * of a model or profile in the VM than asked for fails (e set). */
int pl_claim_present(plan_ctx *c, gw_err *e);       /* plan_devices.c */
void pl_add_wanted(plan_ctx *c);                    /* plan_devices.c */
int pl_count_devices(plan_ctx *c, gw_err *e);       /* plan_devices.c */
void pl_device_blocks(plan_ctx *c);                 /* plan_devices.c */
void pl_host_counts(plan_ctx *c);                   /* plan_devices.c:
                                                     * a->avail */
char *pl_esxi_profile(gw_plan *p, const gw_gpu_want *w); /* plan_vgpu.c */
void pl_vgpu_uvm(plan_ctx *c);                      /* plan_vgpu.c */
/* Mixed profiles, UVM on fractional vGPUs or a Windows guest (called by
 * pl_vgpu_uvm, before its check of the pciPassthruN.cfg.parameter key). */
void pl_vgpu_checks(plan_ctx *c);                   /* plan_vgpu_checks.c */
int pl_mmio(plan_ctx *c, gw_err *e);                /* plan_mmio.c */
void pl_geforce(gw_plan *p);                        /* plan_mmio.c */
void pl_memory(plan_ctx *c);                        /* plan_vm.c */
void pl_encryption(plan_ctx *c);                    /* plan_vm.c: a
                                                     * vTPM's keys */
void pl_options(plan_ctx *c);                       /* plan_vm.c: P2P,
                                                     * Code 43, nested */
void pl_firmware(plan_ctx *c);                      /* plan_vm.c */
void pl_hw(plan_ctx *c);                            /* plan_vm.c */
void pl_dynamic(plan_ctx *c);                       /* plan_devices.c:
                                                     * what Dynamic
                                                     * DirectPath I/O
                                                     * needs and allows */
void pl_limits(plan_ctx *c);                        /* plan_limits.c */

#endif
