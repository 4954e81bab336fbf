/* SPDX-License-Identifier: GPL-3.0-or-later */
/* diagnose.h: name the cause and the fix of known GPU passthrough and vGPU
 * failures from a vmware.log excerpt, a vSphere / Host Client task error or
 * a guest log (doc/design.md, sections 15.10, 15.1-15.4, 15.6 and 15.9).
 *
 * The input is read line by line (LF, CRLF or CR).  Each rule looks for its
 * message anywhere in a line, so timestamps and prefixes such as
 * "2022-04-22T03:04:15.771Z| vmx| | I005: " or "Failed - " do not matter.
 * Matching ignores ASCII case, treats typographic quotes (‘ ’ “ ” and
 * friends) and backquotes as plain quotes, accepts a quote or its absence
 * where the message has one, and any run of blanks where it has a space.
 *
 * One input can match several rules; each rule gives at most one finding,
 * for its first matching line (for the MMIO rules: the line with the largest
 * need).  The generic "Module 'DevicePowerOn' power on failed" finding is
 * left out when a more specific power-on cause was found in the same input,
 * since that one already says why the power-on failed.
 */
#ifndef GW_DIAGNOSE_H
#define GW_DIAGNOSE_H

#include "gw.h"
#include "finding.h"

/* Largest input gpuwiz diagnose (cmd_diagnose) reads (a vmware.log is a
 * few MB). */
#define GW_DIAG_MAX_INPUT   (64u << 20)
/* Longest quoted line in bytes; longer lines are cut around the match. */
#define GW_DIAG_LINE_MAX    320

/* Rule ids (stable: scripts read them from the JSON). */
#define GW_DIAG_MMIO_PAGES      "mmio-pages-exceed-limit"
#define GW_DIAG_MMIO_FIRMWARE   "mmio-firmware-alloc"
#define GW_DIAG_MEM_RESERVATION "memory-reservation"
#define GW_DIAG_REGISTER_FAILED "passthru-register-failed"
#define GW_DIAG_NOT_PASSTHROUGH "not-passthrough-device"
#define GW_DIAG_HEX_BDF         "passthru-id-hex"
/* the passthru-id-hex rule's finding when the id is already decimal */
#define GW_DIAG_ID_NOT_FOUND    "passthru-id-not-found"
#define GW_DIAG_PCI_HOLE        "mmio-outside-pci-hole"
#define GW_DIAG_SYSTEMID        "systemid-mismatch"
#define GW_DIAG_VGPU_GRAPHICS   "vgpu-graphics-type"
#define GW_DIAG_NCCL_UVM        "nccl-vgpu-uvm"
/* the nccl-vgpu-uvm rule's finding when neither the text nor the VM
 * shows a vGPU: a question, not the vGPU fix */
#define GW_DIAG_NCCL_ASK        "nccl-operation-not-supported"
/* the NVIDIA vGPU plugin (libnvidia-vgx.so, vmiop) failed to start */
#define GW_DIAG_VGPU_PLUGIN     "vgpu-plugin-init"
/* the host ran out of interrupt vectors for a passthrough device */
#define GW_DIAG_INTR_VECTORS    "interrupt-vectors"
#define GW_DIAG_FREE_ESXI       "free-esxi-api-write"
#define GW_DIAG_LICENSE_RESTRICTED "vgpu-license-restricted"
#define GW_DIAG_GUEST_BAR       "guest-bar-unassigned"
/* a BOSH director's vSphere CPI log: the VM type's power-on failed */
#define GW_DIAG_BOSH_POWERON    "bosh-cpi-poweron-failed"
/* wrong advice in pasted text (a guide, a shell history, a boot.cfg):
 * the command or setting is wrong for ESXi, why, and what instead */
#define GW_DIAG_WRONG_MMIO_KERNEL "wrong-esxi-mmio-kernel-setting"
#define GW_DIAG_WRONG_IOMMU_OPTION "wrong-esxi-iommu-option"
#define GW_DIAG_WRONG_LINUX_IOMMU "wrong-esxi-linux-iommu-param"
#define GW_DIAG_WRONG_PASSTHRU_ASPM "wrong-passthru-off-for-aspm"
/* the wrong-passthru-off-for-aspm rule's finding when the text does not
 * mention ASPM: what the command does */
#define GW_DIAG_PASSTHRU_OFF    "passthru-set-disabled"
#define GW_DIAG_WRONG_MMIO_SIZE "wrong-mmio-size"
#define GW_DIAG_WRONG_MMIO_MODEL "wrong-mmio-by-model"
#define GW_DIAG_POWERON         "poweron-failed"

/* One recognised failure: the finding (finding.h: id one of GW_DIAG_*,
 * static; sev GW_SEV_ERROR; topic GW_TOPIC_DIAG; message the cause and
 * fix what to do, each one translated, malloc'ed paragraph; source where
 * the fact comes from, static, not translated; no title, gpu -1) and what
 * only a diagnosis has: */
typedef struct gw_diag_finding {
	gw_finding f;
	char *line;            /* the matching input line, blanks trimmed,
	                        * made printable UTF-8 (bad bytes and control
	                        * characters become '?'), cut to at most
	                        * GW_DIAG_LINE_MAX bytes around the match with
	                        * "..." marks (malloc'ed) */
	unsigned long lineno;  /* 1-based line number of that line */
	unsigned long matches; /* how many input lines matched this rule */

	/* Numbers read from the message, 0 when the rule has none. */
	uint64_t pages_needed; /* mmio-pages-exceed-limit: N (4 KiB pages) */
	uint64_t pages_limit;  /* mmio-pages-exceed-limit: M */
	uint64_t alloc_kb;     /* mmio-firmware-alloc: N KB */
	uint64_t memsize_mb;   /* memory-reservation: memsize(N), MB */
	/* MMIO rules: the need in bytes (pages x 4096, or KB x 1024), the
	 * same in hundredths of a GiB (rounded: 1605 = 16.05 GiB), and the
	 * recommended pciPassthru.64bitMMIOSizeGB: the smallest power of two
	 * (in GB, which the key means as GiB) strictly above the need. */
	uint64_t need_bytes;
	uint64_t need_gib_x100;
	uint64_t mmio_gb;
} gw_diag_finding;

/* What is known of the VM the text comes from, besides the text (the
 * .vmx given to gpuwiz diagnose --vmx, or the doctor's VM).  All zero:
 * nothing known. */
typedef struct gw_diag_ctx {
	int vm_known;          /* 1: the VM's .vmx was read */
	int vgpus;             /* its vGPUs (pciPassthruN.vgpu) */
	char profile[64];      /* the first vGPU's profile, "" none */
	int profile_whole;     /* gw_vgpu_profile_whole (plan.h) of it:
	                        * 1, 0 fractional, -1 unknown */
	char whole[64];        /* a whole-framebuffer C profile of the same
	                        * GPU ("nvidia_l40s-48c"), "" unknown */
} gw_diag_ctx;

typedef struct gw_diag_result {
	gw_diag_finding *findings;  /* in rule order (most specific first) */
	size_t n;
} gw_diag_result;

/* Recognise the known failures in text[0..len) (any bytes; NUL bytes are
 * just characters here), with what ctx says of the VM (NULL: nothing).
 * Pure: no I/O, no globals besides gettext.
 * Fills *out (call gw_diag_result_free afterwards, also when n == 0).
 * Returns the number of findings, or -1 when text is NULL with len > 0 or
 * out is NULL. */
int gw_diagnose_text_ctx(const char *text, size_t len,
                         const gw_diag_ctx *ctx, gw_diag_result *out);
/* The same in pieces, for an input read in chunks: scan_new, then
 * scan_feed with each chunk in turn (cut anywhere), then scan_end, which
 * frees the scan and returns what gw_diagnose_text_ctx returns for all
 * the bytes fed (out NULL: just freed, -1).  The scan keeps what the
 * findings need (each rule's matching line, counts), not the input. */
typedef struct gw_diag_scan gw_diag_scan;
gw_diag_scan *gw_diag_scan_new(void);
void gw_diag_scan_feed(gw_diag_scan *sc, const char *data, size_t len);
int gw_diag_scan_end(gw_diag_scan *sc, const gw_diag_ctx *ctx,
                     gw_diag_result *out);
/* The same with nothing known of the VM besides the text. */
static inline int
gw_diagnose_text(const char *text, size_t len, gw_diag_result *out)
{
	return gw_diagnose_text_ctx(text, len, NULL, out);
}

void gw_diag_result_free(gw_diag_result *r);

/* The context from what is known of the VM (diagnose_ctx.c): its plan
 * (the GPUs of its .vmx; NULL: a .vmx without GPUs), or its .vmx, whose
 * plan is built here with the table t (NULL: nothing is known, -1).
 * vm_known is 1 in both otherwise. */
struct gw_plan;
struct gw_vmx;
struct gw_table;
void gw_diag_ctx_from_plan(gw_diag_ctx *ctx, const struct gw_plan *p);
int gw_diag_ctx_from_vmx(gw_diag_ctx *ctx, const struct gw_vmx *v,
                         const struct gw_table *t);

/* The report is gw_diag_render (diagnose_report.h, src/report); the
 * command that reads the input is cmd_diagnose (src/cli). */

#endif
