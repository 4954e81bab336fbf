/* SPDX-License-Identifier: GPL-3.0-or-later */
/* diagnose_int.h: what the pieces of gpuwiz diagnose share (diagnose.c:
 * the scan; diagnose_match.c: folding, patterns, quoting; diagnose_rules.c:
 * the rules and their texts); not for other modules. */
#ifndef GW_DIAGNOSE_INT_H
#define GW_DIAGNOSE_INT_H

#include "diagnose.h"   /* gw.h first: config.h turns on memmem */

#define GW_DIAG_MAXCAP 2

/* The numbers a pattern captured ('#'). */
typedef struct gw_diag_caps {
	uint64_t v[GW_DIAG_MAXCAP];
	int ok[GW_DIAG_MAXCAP];  /* 1 when v[] holds the number; 0 when too
	                          * large */
	int n;
} gw_diag_caps;

/* What the scan found for one rule. */
typedef struct gw_diag_hit {
	int found;
	unsigned long lineno, matches;
	char *line;                  /* a copy of the line, owned */
	size_t line_len;
	size_t match_off;            /* the match, from the folded line's
	                              * start */
	gw_diag_caps c;
	const gw_diag_ctx *ctx;      /* what is known of the VM (never NULL
	                              * when a builder runs) */
} gw_diag_hit;

enum {
	GW_DIAG_R_POWERON_CAUSE = 1, /* explains a DevicePowerOn failure */
	GW_DIAG_R_KEEP_MAX = 2,      /* keep the line with the largest first
	                              * number */
	GW_DIAG_R_NEEDS_NCCL = 4,    /* the input must mention NCCL somewhere */
	GW_DIAG_R_GENERIC = 8,       /* dropped when an R_POWERON_CAUSE rule
	                              * matched */
	GW_DIAG_R_NEEDS_ESXI = 16    /* the line must be ESXi's
	                              * (gw_diag_esxi_line) */
};

/* What some builders ask of the whole input, gathered by the scan
 * (diagnose_facts.c) so that the input need not be kept. */
typedef struct gw_diag_facts {
	int id_kind;             /* gw_diag_line_id_bdf's answer for the first
	                          * line with a pciPassthruN.id and an
	                          * address, else for the first line with an
	                          * address: 1 hex, 2 decimal, 0 none */
	char id_hex[16], id_dec[24];
	int any_kind;            /* the first line with an address (the scan's
	                          * own: id_kind takes it at the end) */
	char any_hex[16], any_dec[24];
	int vgpu;                /* "vgpu" or "vmiop" (any case), or a vGPU
	                          * profile name (gw_diag_find_profile) */
	int vllm;                /* "enginecore failed to start" (any case) */
	int aspm;                /* "aspm" (any case) */
	uint64_t vram_gb;        /* the memory of the first GPU named with
	                          * one ("RTX 4090 24 GB"), or 0 */
} gw_diag_facts;

/* Fills the finding's cause and fix (and numbers) from the hit and what
 * is known of the whole input.  A builder that leaves f->f.message NULL
 * declines: the rule gives no finding (a value found fine). */
typedef void (*gw_diag_build_fn)(gw_diag_finding *f, const gw_diag_hit *h,
                                 const gw_diag_facts *x);

typedef struct gw_diag_rule {
	const char *id;
	const char *source;           /* not translated */
	const char *also;             /* the folded line must contain this */
	const char *pats[6];          /* alternatives, NULL-terminated */
	int flags;
	gw_diag_build_fn build;
} gw_diag_rule;

/* The rules in priority order: the order of the findings
 * (diagnose_rules.c). */
extern const gw_diag_rule gw_diag_rules[];
extern const size_t gw_diag_nrules;

/* ---- diagnose_texts.c: the builders with the longest texts ------------- */

#define GW_DIAG_SRC_HEX_BDF  "field reports (decimal pciPassthruN.id)"
#define GW_DIAG_SRC_GRAPHICS "NVIDIA Virtual GPU Software User Guide (host graphics type Shared Direct; vGPU types on one GPU; nvidia-smi vgpu)"
#define GW_DIAG_SRC_NCCL     "NCCL 2.27 on vGPU (NVIDIA NCCL issue 2101); NVIDIA AI Enterprise documentation"
#define GW_DIAG_SRC_NCCL_ASK "NCCL 2.27 on vGPU (NVIDIA NCCL issue 2101); NVIDIA AI Enterprise documentation (Unified Virtual Memory); NCCL_DEBUG (NCCL documentation)"
#define GW_DIAG_SRC_PLUGIN   "NVIDIA AI Enterprise User Guide (SR-IOV in the BIOS for A100 and later); NVIDIA Virtual GPU Software User Guide (Shared Direct, ECC); NVIDIA vGPU release notes (vGPU manager and guest driver compatibility); field reports (A30, A16, RTX A5000: SR-IOV off in the BIOS)"
#define GW_DIAG_SRC_PCI_HOLE "field reports (msg.pciPassthru.mmioOutsidePCIHole, pciHole.start); no VMware document found that states the value"
#define GW_DIAG_SRC_LICENSE  "NVML API Reference Guide (vGPU license state UNLICENSED_RESTRICTED); NVIDIA License System User Guide"

/* ---- diagnose_guide.c: wrong advice in pasted text --------------------- */

#define GW_DIAG_SRC_WRONG_MMIO_KERNEL "Broadcom KB 323402 (pciPassthru.use64bitMMIO, pciPassthru.64bitMMIOSizeGB: per-VM .vmx keys, in GB); esxcli system settings kernel list (the VMkernel's settings: none for MMIO)"
#define GW_DIAG_SRC_WRONG_IOMMU "VMware vSphere documentation (DirectPath I/O: Intel VT-d or AMD IOMMU enabled in the BIOS); ESXi esxcli reference (system settings kernel: no IOMMU setting; hardware pci list: Passthru Capable; hardware pci pcipassthru set, list)"
#define GW_DIAG_SRC_WRONG_LINUX_IOMMU "Linux kernel documentation (admin-guide/kernel-parameters: intel_iommu, amd_iommu, iommu); ESXi boot.cfg (kernelopt holds VMkernel options); ESXi esxcli reference (hardware pci list, pcipassthru)"
#define GW_DIAG_SRC_WRONG_PASSTHRU "ESXi esxcli reference (hardware pci pcipassthru set --enable false gives the device back to the VMkernel)"
#define GW_DIAG_SRC_WRONG_MMIO "Broadcom KB 323402 (the MMIO rule from the GPUs' memory); NVIDIA GPU BAR1 sizes (nvidia-smi -q, Resizable BAR)"

void gw_diag_build_mmio_kernel(gw_diag_finding *f, const gw_diag_hit *h,
                               const gw_diag_facts *x);
void gw_diag_build_iommu_option(gw_diag_finding *f, const gw_diag_hit *h,
                                const gw_diag_facts *x);
void gw_diag_build_linux_iommu(gw_diag_finding *f, const gw_diag_hit *h,
                               const gw_diag_facts *x);
void gw_diag_build_passthru_off(gw_diag_finding *f, const gw_diag_hit *h,
                                const gw_diag_facts *x);
void gw_diag_build_mmio_small(gw_diag_finding *f, const gw_diag_hit *h,
                              const gw_diag_facts *x);
void gw_diag_build_mmio_model(gw_diag_finding *f, const gw_diag_hit *h,
                              const gw_diag_facts *x);

void gw_diag_build_license(gw_diag_finding *f, const gw_diag_hit *h,
                           const gw_diag_facts *x);
void gw_diag_build_hex_bdf(gw_diag_finding *f, const gw_diag_hit *h,
                           const gw_diag_facts *x);
void gw_diag_build_graphics(gw_diag_finding *f, const gw_diag_hit *h,
                            const gw_diag_facts *x);
void gw_diag_build_nccl(gw_diag_finding *f, const gw_diag_hit *h,
                        const gw_diag_facts *x);
void gw_diag_build_plugin(gw_diag_finding *f, const gw_diag_hit *h,
                          const gw_diag_facts *x);
void gw_diag_build_pci_hole(gw_diag_finding *f, const gw_diag_hit *h,
                            const gw_diag_facts *x);

/* ---- diagnose_match.c --------------------------------------------------- */

/* Fold s[0..n) into b (replacing its contents). */
void gw_diag_fold_line(const char *s, size_t n, gw_buf *b);
/* Offset in the original line of folded byte number off. */
size_t gw_diag_orig_offset(const char *s, size_t n, size_t off);
/* Find pattern p in the folded s[0..n): the offset of the match, or -1. */
long gw_diag_pat_find(const char *s, size_t n, const char *p,
                      gw_diag_caps *c);
/* The first vGPU profile named in text[0..len) ("nvidia_l40s-24c",
 * "grid_a100-3-20c": grid_ or nvidia_, a board, '-', a size starting with
 * a digit) into buf, lower case; 1 when found. */
int gw_diag_find_profile(const char *text, size_t len, char *buf, size_t n);
/* Is the line s[0..n) ESXi's, where a Linux kernel parameter is wrong?
 * 1 when the line names ESXi's boot or settings files or esxcli
 * (boot.cfg, kernelopt, /bootbank, esxcli, esx.conf); else 0 when it
 * names a Linux boot loader or command line (grub, vmlinuz, cmdline,
 * "command line", linux, proxmox, kvm); else text_esxi, which says
 * whether the whole input names ESXi's files or esxcli. */
int gw_diag_esxi_line(const char *s, size_t n, int text_esxi);
/* A set of words found all at once: each word carries a bit, and
 * gw_diag_words_in returns the bits of the words a text holds.  A table of
 * the words' first two bytes (per pair the words that start with it)
 * makes it one pass over the text whatever the number of words. */
#define GW_DIAG_MAXWORDS 96
typedef struct gw_diag_words {
	unsigned char head[65536];               /* pair a << 8 | b: 1 + the
	                                          * last word that starts
	                                          * with "ab", 0 none */
	struct {
		const char *w;
		size_t m;
		uint64_t bit;
		unsigned char next;              /* 1 + the word before
		                                  * with the same pair, 0 */
	} word[GW_DIAG_MAXWORDS];
	size_t n, nshort;                        /* words, those of one
	                                          * byte */
	uint64_t always;                         /* the empty words' bits */
} gw_diag_words;
void gw_diag_words_init(gw_diag_words *ws);
/* Add the m bytes at w (kept by pointer, not copied) with bit; -1 when
 * the set is full. */
int gw_diag_words_add(gw_diag_words *ws, const char *w, size_t m,
                      uint64_t bit);
/* The bits of the words that occur in s[0..n) (byte for byte). */
uint64_t gw_diag_words_in(const gw_diag_words *ws, const char *s, size_t n);
/* The words that make a line or a text ESXi's (gw_diag_esxi_line), for a
 * gw_diag_words set: NULL-terminated. */
extern const char *const gw_diag_esxi_words[];
/* Case-insensitive ASCII search of needle (lower case) in s[0..n). */
int gw_diag_ci_contains(const char *s, size_t n, const char *needle);
/* The first m bytes w in the n bytes at s (as memmem), or NULL. */
const char *gw_diag_find(const char *s, size_t n, const char *w, size_t m);
/* The line s[0..n), match at byte at: trimmed, printable UTF-8, at most
 * GW_DIAG_LINE_MAX bytes. */
char *gw_diag_quote_line(const char *s, size_t n, size_t at);
/* ---- diagnose_names.c --------------------------------------------------- */

/* The device named in the hit's "Device 6:0.0 is not a passthrough
 * device", or NULL. */
char *gw_diag_not_passthru_device(const gw_diag_hit *h);
/* Does the line s[0..n) hold a pciPassthruN.id (any case)? */
int gw_diag_id_line(const char *s, size_t n);
/* The first host address in the line s[0..n): 1 when it is hexadecimal
 * ("0000:42:00.0" into hex, "00000:066:00.0" into dec), else 2 when it
 * is ESXi's decimal form (into dec: "00000:066:00.0"), 0 when there is
 * none. */
int gw_diag_line_id_bdf(const char *s, size_t n, char *hex, size_t hn,
                        char *dec, size_t dn);
/* The first hexadecimal host address on the hit's line; 1 when found. */
int gw_diag_line_hex_bdf(const gw_diag_hit *h, char *hex, size_t hn);

/* ---- diagnose_guide.c ---------------------------------------------------- */

/* The memory in GB of a GPU the folded line names ("rtx3060（12gb）",
 * "rtx 4090 24 gb"), or 0. */
uint64_t gw_diag_line_vram(const char *fold, size_t n);

/* ---- diagnose_facts.c ---------------------------------------------------- */

/* The words that tell which lines may hold a fact (gw_diag_facts): each
 * NULL-terminated list gives one bit, set in a line's words when the line
 * may hold the fact (a fact is checked on the lines that hold its words
 * only).  GW_DIAG_FACT_ID needs both of its words, the others one. */
enum {
	GW_DIAG_FACT_ID,         /* pciPassthruN.id */
	GW_DIAG_FACT_VGPU,       /* vgpu, vmiop, a profile name */
	GW_DIAG_FACT_VLLM,
	GW_DIAG_FACT_ASPM,
	GW_DIAG_FACT_VRAM,
	GW_DIAG_NFACTS
};
extern const char *const *const gw_diag_fact_words[GW_DIAG_NFACTS];
/* The facts of one line: seg[0..n) a line of the scan (split at CR and
 * LF), fold its folded text, may[k] whether it holds the words of fact k
 * (all 1 when unknown). */
void gw_diag_facts_line(gw_diag_facts *x, const char *seg, size_t n,
                        const char *fold, size_t fn, const int *may);
/* At the end of an input line (split at LF only: the address rules read
 * such lines): s[0..n), id_may whether it holds the words of
 * GW_DIAG_FACT_ID. */
void gw_diag_facts_lf_line(gw_diag_facts *x, const char *s, size_t n,
                           int id_may);
/* When the input ends: id_kind from what was found. */
void gw_diag_facts_end(gw_diag_facts *x);

#endif
