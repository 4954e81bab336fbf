/* SPDX-License-Identifier: GPL-3.0-or-later */
/* plan.h: the heart of gpuwiz.  A pure function from the operator's answers
 * (+ facts read from a .vmx) to the settings to write and the findings to
 * show.  The CLI, the emitters and the screens all render the same plan.
 * No I/O happens here.
 */
#ifndef GW_PLAN_H
#define GW_PLAN_H

#include "gw.h"
#include "finding.h"
#include "gputable.h"
#include "vmx.h"

/* ---- answers ---------------------------------------------------------- */

typedef struct gw_gpu_want {
	const gw_gpu *gpu;   /* table row; NULL for a bare --vram GB */
	int vram_gb;         /* VRAM per GPU used for sizing (from gpu, or --vram) */
	int count;           /* 1..GW_MMIO_MAX_COUNT */
	char *profile;       /* vGPU profile ("grid_l40s-48c") or NULL = passthrough */
	char *spec;          /* what the operator typed, for messages */
	uint64_t bar1_bytes; /* BAR1 given with a size ("16/16G"); 0: not
	                      * given (a table GPU's is the table's) */
} gw_gpu_want;

/* What the host has of one GPU model (by PCI id): the wizard's detected
 * GPUs, free for passthrough where the host says so. */
typedef struct gw_gpu_avail {
	unsigned vendor_id, device_id;
	int count;           /* free for passthrough (not known to be off) */
	int detected;        /* all of them */
} gw_gpu_avail;

/* What an output does to the VM itself, so that the plan need not ask
 * for it or advise it (formats.def's DOES column): the BOSH vSphere CPI
 * forces memory_reservation_locked_to_max and upgrade_hw_version on for a
 * VM with a PCI device or a vGPU (doc/design.md section 15.8). */
#define GW_OUT_LOCKS_MEM    1u   /* locks the memory reservation to the
                                  * VM's size */
#define GW_OUT_UPGRADES_HW  2u   /* upgrades the hardware version to the
                                  * newest its host runs */
#define GW_OUT_DYNAMIC      4u   /* adds its passthrough GPUs by vendor
                                  * and device id: Dynamic DirectPath I/O
                                  * (the CPI's pci_passthroughs) */

typedef struct gw_answers {
	gw_gpu_want *gpus;
	size_t ngpus;
	char **bdfs;         /* host BDFs to attach ("0000:42:00.0"), in order */
	size_t nbdfs;
	char *system_id;     /* esxcli system uuid get */
	int uvm;             /* enable_uvm on every vGPU */
	int p2p;             /* allowP2P + RelaxACSforP2P */
	int code43;          /* hypervisor.cpuid.v0 = FALSE (explicit only) */
	int dynamic;         /* Dynamic DirectPath I/O: the passthrough GPUs
	                      * are written by PCI ids (allowedDevices), not
	                      * by host address; vCenter 7+ and hardware
	                      * version 17 (doc/design.md, section 15.4) */
	int reserve;         /* full memory reservation (default 1) */
	uint64_t mmio_gb;    /* operator's size; 0 = recommended */
	int allow_below_rule;/* operator confirmed a size below the rule */
	long memory_mb;      /* 0 = take memsize from the .vmx */
	unsigned outputs_do; /* GW_OUT_* bits: what every output asked for
	                      * does to the VM itself (gw_formats_do), no
	                      * .vmx being patched: GW_OUT_LOCKS_MEM, an
	                      * unknown memory size is then INFO;
	                      * GW_OUT_UPGRADES_HW, no manual hardware
	                      * upgrade is advised */
	char *esxi_version;  /* "8.0U2", NULL = unknown */
	char *name;          /* VM extension name; NULL = derived */
	gw_gpu_avail *avail; /* the host's GPUs, when a host is known (not
	                      * in the answers file); NULL: no host, no
	                      * check.  More passthrough GPUs of a model
	                      * asked for than the host has (none listed:
	                      * 0) is a WARN "gpu-count-host" */
	size_t navail;
} gw_answers;

void gw_answers_init(gw_answers *a);       /* zero + reserve = 1 */
void gw_answers_free(gw_answers *a);
/* A deep copy of src into dst (dst need not be initialised). */
void gw_answers_copy(gw_answers *dst, const gw_answers *src);
/* Add GPUs from a SPEC ("l40s", "l40s=2", "10de:20b5=4", "grid_l40s-48c=2",
 * a name match).  A vGPU profile spec sets profile (as typed, lower case;
 * the plan's gw_plan_gpu.profile and .vmx lines use ESXi's spelling,
 * gw_gpu_vgpu_profile: "grid_h100xm-80c" -> "nvidia_h100xm-80c") and
 * vram_gb is the PHYSICAL GPU's framebuffer (NVIDIA sizes vGPU MMIO by the
 * physical GPU).  field names the option for errors ("--gpu", "[gpu]
 * devices").  Fails for a GPU whose VRAM the table does not know (the
 * error asks for --vram GB: sizes are never guessed). */
int gw_answers_add_gpu(gw_answers *a, const gw_table *t, const char *spec,
                       const char *field, gw_err *e);
/* Add one GPU of a given size: "GB[/BAR1][=COUNT]" ("--vram 48", "48=2",
 * "16/16G"; gw_parse_gb syntax for the size, so "48GB" works too; BAR1,
 * when known, in gw_parse_bar_size syntax: "256M", "16G"). */
int gw_answers_add_vram(gw_answers *a, const char *spec, const char *field,
                        gw_err *e);
/* The spec gw_answers_add_vram reads for a GPU given by size:
 * "16=2", "16/16G=2" (malloc'ed). */
char *gw_vram_spec(int vram_gb, uint64_t bar1_bytes, int count);
/* A BAR's size in words: "128 GiB", "32 MiB", "127 GiB + 992 MiB"
 * (translated, malloc'ed): the plan's MMIO reasons and the MMIO step's
 * picture. */
char *gw_bar_size_text(uint64_t bytes);
int gw_answers_add_bdf(gw_answers *a, const char *bdf, const char *field,
                       gw_err *e);        /* validates the BDF; stored as
                                           * "%04x:%02x:%02x.%x"; a BDF
                                           * given twice is an error */
int gw_answers_set_system_id(gw_answers *a, const char *uuid,
                             const char *field, gw_err *e); /* validates */
/* Count one more GPU of PCI id vendor:device on the host (a->avail),
 * free for passthrough or not (its host says passthrough is off). */
void gw_answers_add_avail(gw_answers *a, unsigned vendor, unsigned device,
                          int free_pt);
/* No host known: no check. */
void gw_answers_clear_avail(gw_answers *a);
/* Is a device of a VM one GPU of want w: a vGPU of its profile (as typed,
 * or as ESXi names it on w's GPU: "grid_l40s-48c" is "nvidia_l40s-48c"),
 * or a DirectPath device (vgpu NULL) of its PCI ids?  The one rule by
 * which the devices already in a VM count towards the GPUs asked for
 * (the plan's .vmx, the vSphere pick). */
int gw_want_is_device(const gw_gpu_want *w, const char *vgpu,
                      unsigned vendor, unsigned device);
/* The first GPU the answers add as vGPUs whose vGPUs run on SR-IOV
 * virtual functions (the table's sriov: NVIDIA Ampere and later), or NULL.
 * SR-IOV must then be on in the host's BIOS/UEFI: the plan says so (INFO
 * "gpu-sriov") and the wizard asks for its host check item. */
const gw_gpu_want *gw_answers_sriov_vgpu(const gw_answers *a);

/* ---- helpers ---------------------------------------------------------- */

/* "0000:42:00.0", "42:00.0" -> parts.  Hex fields, bus <= 0xff, dev <= 0x1f,
 * fn <= 7, domain <= 0xffff. */
int gw_bdf_parse(const char *s, unsigned *dom, unsigned *bus, unsigned *dev,
                 unsigned *fn);
/* ESXi's decimal form "%05u:%03u:%02u.%u" into out (>= 20 bytes). */
void gw_bdf_vmx_id(unsigned dom, unsigned bus, unsigned dev, unsigned fn,
                   char *out, size_t outlen);
/* 8-4-4-4-12 hex. */
int gw_system_id_valid(const char *s);
/* ESXi version "8.0", "8.0U2", "8.0 Update 2", "7.0.3" -> hardware version
 * from Broadcom KB 1003746 (doc/design.md, section 15.5; 0 = unknown).  "8.0.2" means 8.0U2; a patch
 * letter ("7.0U3c"), an "ESXi " prefix and a trailing "build-N" are
 * accepted.  Updates past the table give the newest known version of that
 * release (7.0U3 -> 19, 8.0U3 -> 21): the host supports at least that. */
int gw_esxi_to_hw(const char *esxi_version);
/* Max passthrough devices for a VM of hardware version hw (0 = unknown):
 * 16 for hw 13-19, 32 for 20, 128 for 21+ (KB 309986).  ESXi 8.0U1 allows
 * 64 with hw 20: that is the host release, not the hardware version, so
 * this function says 32 and gw_plan_build applies 64 when esxi_version is
 * 8.0U1. */
int gw_hw_max_passthru(int hw);
/* The oldest hardware version that takes a passthrough device at all:
 * 7 (ESX 4.0, the first release with VMDirectPath I/O; vSphere API
 * Hardware.Version, KB 1003746).  Below it the plan is a FAIL naming the
 * upgrade (hw-no-passthrough). */
#define GW_HW_MIN_PASSTHRU 7
/* The oldest hardware version that takes a Dynamic DirectPath I/O device
 * (allowedDevices): 17, vSphere 7.0 (vSphere API 7.0,
 * VirtualPCIPassthroughDynamicBackingInfo; doc/design.md, section 15.4). */
#define GW_HW_MIN_DYNAMIC 17

/* ---- the plan --------------------------------------------------------- */

typedef enum {
	GW_SET_MMIO,     /* pciPassthru.use64bitMMIO / 64bitMMIOSizeGB */
	GW_SET_MEM,      /* sched.mem.min / minSize / pin */
	GW_SET_DEVICE,   /* pciPassthruN.* block */
	GW_SET_UVM,      /* pciPassthruN.cfg.enable_uvm */
	GW_SET_P2P,      /* pciPassthru.allowP2P / RelaxACSforP2P */
	GW_SET_CODE43,   /* hypervisor.cpuid.v0 */
	GW_SET_NESTED,   /* vhv.enable */
	GW_SET_HOTADD    /* mem.hotadd / vcpu.hotadd */
} gw_set_kind;

typedef struct gw_setting {
	gw_set_kind kind;
	char *key;          /* as written: "pciPassthru.64bitMMIOSizeGB" */
	char *value;        /* unquoted */
	char *old_value;    /* current value in the .vmx, NULL when new */
	int keep;           /* 1: existing value kept, nothing is written */
	char *reason;       /* translated, one sentence */
	const char *source; /* "Broadcom KB 323402", not translated */
} gw_setting;

/* One GPU (group) the plan counts: requested or already in the .vmx. */
typedef struct gw_plan_gpu {
	const gw_gpu *gpu;  /* NULL when unknown to the table / bare --vram */
	char *label;        /* short id, profile, or "10de:xxxx" */
	int vram_gb;        /* per GPU, -1 unknown */
	int count;
	char *profile;      /* vGPU profile or NULL; for GPUs being added as
	                     * ESXi names it (gw_gpu_vgpu_profile), for ones
	                     * in the .vmx as written there (lower case) */
	int existing;       /* 1 = already attached in the .vmx */
	int counted;        /* existing: how many of them count towards the
	                     * GPUs asked for (the VM ends with those as
	                     * part of the count asked for; count - counted
	                     * are beside them) */
	unsigned vendor_id, device_id; /* 0 when unknown */
	uint64_t bar1_bytes;/* BAR1 given with the size (gw_gpu_want), 0 */
} gw_plan_gpu;

/* One 64-bit BAR of a DirectPath GPU in the VM's window, where the BAR
 * need places it (gw_mmio_need_layout: largest first, naturally aligned); the
 * MMIO step draws them. */
typedef struct gw_plan_bar {
	size_t gpu;         /* its group in gw_plan.gpus */
	int copy;           /* which GPU of the group, from 0 */
	int bar;            /* 1 (BAR1) or 3 (BAR3) */
	uint64_t size;      /* bytes */
	uint64_t offset;    /* from the window's start, bytes */
} gw_plan_bar;

typedef struct gw_plan {
	gw_plan_gpu *gpus;
	size_t ngpus;
	uint64_t total_vram_gb;
	uint64_t rule_gb;        /* rule result, 0 when no GPU */
	uint64_t bar_gb;         /* BAR-based need, 0 when BARs unknown */
	uint64_t existing_gb;    /* 64bitMMIOSizeGB already in the .vmx, 0 none */
	uint64_t mmio_gb;        /* final value written (or kept) */
	uint64_t vgpu_table_gb;  /* NVIDIA's MMIO table for the vGPUs (a VM
	                          * with 32 GB or more of memory, or memory
	                          * unknown), 0 when it does not apply */
	uint64_t rec_gb;         /* recommended: max(rule_gb, bar_gb,
	                          * vgpu_table_gb) */
	gw_plan_bar *bars;       /* the BARs of bar_gb, by offset */
	size_t nbars;
	uint64_t bar_end;        /* where they end, bytes (0: none) */
	char **steps;            /* translated explanation lines, in order */
	size_t nsteps;
	gw_setting *settings;
	size_t nsettings;
	gw_finding *findings;    /* finding.h; never GW_SEV_PASS, title NULL,
	                          * gpu -1; each with its topic */
	size_t nfindings;
	long memory_mb;          /* 0 unknown */
	int hw_current;          /* virtualHW.version, 0 unknown */
	int hw_target;           /* from esxi_version, 0 unknown */
	char *name;              /* VM extension name: answers name, or
	                          * "gpu-<first id>"; [A-Za-z0-9_-] only, at
	                          * most 80 characters (a given name with
	                          * anything else fails the plan) */
	/* counts for emitters */
	int n_passthru;          /* physical GPUs added by this plan */
	int n_vgpu;              /* vGPUs added by this plan */
} gw_plan;

/* The devices already in v count towards a's GPUs (a's counts are what
 * the VM ends with): more of a model or vGPU profile in v than a asks for
 * is refused, naming the blocks (-1 and e), as gw_plan_build refuses it;
 * else *counted (NULL: not wanted) is how many of v's devices count
 * towards a's GPUs, as the plan counts them (gw_plan_gpu.counted).  For a
 * route that picks devices before the plan (the vSphere API's pick: the
 * refusal comes before a free device is looked for). */
int gw_plan_check_present(const gw_answers *a, const gw_vmx *v, int *counted,
                          gw_err *e);

/* Build the plan.  vmx may be NULL (snippets only).  GPUs already attached
 * in the .vmx (present pciPassthruN with vendorId/deviceId, or .vgpu) are
 * counted with the ones asked for; with no GPU asked, the plan sizes those.
 * bar_gb covers DirectPath GPUs whose BAR1 the table knows (plus the 32
 * MiB BAR3 of NVIDIA GPUs); vGPUs are sized by the rule only.
 * Fails (e set) only on inputs that make a plan impossible: no GPU, a
 * size below the rule without allow_below_rule, more BDFs than
 * passthrough GPUs, a BDF without a system id, a key to change that is
 * malformed in the file, too many devices for 128, an invalid name, ...
 * Everything else is a finding.  On failure *p is left empty (freeing it
 * is harmless). */
int gw_plan_build(const gw_answers *a, const gw_table *t, const gw_vmx *vmx,
                  gw_plan *p, gw_err *e);
void gw_plan_free(gw_plan *p);

/* Apply every setting with keep == 0 to the document. */
int gw_plan_apply_vmx(const gw_plan *p, gw_vmx *vmx, gw_err *e);

/* The framebuffer in GB of the vGPU type that owns the whole GPU of g:
 * the largest C-series size of its board in the vGPU table, else the
 * board's framebuffer; -1 when neither is known. */
int gw_vgpu_whole_size(const gw_plan_gpu *g);

/* Does vGPU profile hold a whole framebuffer: a 1:1 time-sliced profile
 * (its size at least gpu_vram_gb, the VRAM of its GPU in GB) or a
 * MIG-backed one ("grid_a100-3-20c": its whole GPU instance)?  1 yes, 0
 * a fractional profile ("nvidia_l40s-24c" on a 48 GB L40S), -1 when the
 * name has no size or the VRAM is unknown (gpu_vram_gb <= 0) for a
 * time-sliced one.  Unified memory needs a whole one (NVIDIA AI
 * Enterprise, Unified Virtual Memory; plan_vgpu_checks.c). */
int gw_vgpu_profile_whole(const char *profile, int gpu_vram_gb);

/* Does the plan have an ERROR finding? */
int gw_plan_has_errors(const gw_plan *p);

#endif
