/* SPDX-License-Identifier: GPL-3.0-or-later */
/* finding.h: the one result type of gpuwiz (doc/design.md, section 5.1).
 *
 * Everything that judges something produces gw_finding rows: the plan
 * (advice on a VM's configuration), the host checks (Linux sysroot, ESXi
 * shell, vSphere API: one row per "Checking for ..." line), verify (checks
 * inside the guest) and diagnose (cause and fix of a vmware.log or an error
 * text).  One text printer and one JSON printer render lists of them
 * (src/report/finding_print.h); screens and commands choose which rows to
 * show by TOPIC, never by the id's prefix.
 *
 * Converting another result type onto this one:
 *  - sev: a check row's PASS/WARN/FAIL is GW_SEV_PASS/GW_SEV_WARN/
 *    GW_SEV_ERROR; advice that needs no action is GW_SEV_INFO.
 *  - id: the stable machine name the row has today ("iommu", "mmio-kept");
 *    it is what the JSON output calls "id" and what tests look for.
 *  - topic: what the row is about (below), so that a screen or a command
 *    can say "sizing only" or "host rows only".
 *  - title: the "Checking for ..." line of a check row; NULL for the
 *    plan's, verify's or diagnose's findings that have none.
 *  - message, fix: translated sentences; fix may be NULL (nothing to do,
 *    or a row that passed).
 *  - fix_ui: the same advice in the wizard's words (its steps, fields and
 *    keys as the screens name them: tick "Unified memory", fill "Host PCI
 *    addresses") where fix names a command-line flag; NULL otherwise.
 *    The command line prints fix; the wizard shows fix_ui when set
 *    (gw_wizard_finding_fix, wizard.h).
 *  - source: where the fact comes from ("Broadcom KB 323402"), not
 *    translated; may be NULL.
 *  - gpu: the index of the GPU the row is about in the list its producer
 *    made (gpus of a host, of a guest), or -1 for none.
 */
#ifndef GW_FINDING_H
#define GW_FINDING_H

#include "gw.h"

/* Severity, in increasing order: code may compare severities (sev >=
 * GW_SEV_WARN means "needs attention"); keep the order when adding one.
 * GW_SEV_PASS is for check rows that passed (host and guest checks); the
 * plan never produces it. */
typedef enum {
	GW_SEV_PASS,
	GW_SEV_INFO,
	GW_SEV_WARN,
	GW_SEV_ERROR
} gw_sev;

/* What a finding is about.  Values are small and sequential so that a
 * set of topics fits one unsigned mask (GW_TOPIC_BIT). */
typedef enum {
	GW_TOPIC_SIZING,    /* the 64-bit MMIO size: "mmio-*" */
	GW_TOPIC_GPU,       /* identifying the GPUs and what the GPU table
	                     * knows of them (framebuffer, BAR1, profile
	                     * names): "gpu-*", "vgpu-profile-*", "geforce-*";
	                     * they bear on the sizing too */
	GW_TOPIC_DEVICE,    /* pciPassthruN device blocks, host addresses:
	                     * "device-*", "devices-*" */
	GW_TOPIC_FIRMWARE,  /* EFI or BIOS: "firmware-*" */
	GW_TOPIC_MEMORY,    /* memory reservation: "memory-*" */
	GW_TOPIC_VGPU,      /* vGPU devices and unified memory: "uvm-*",
	                     * "vgpu-vmx-spelling" */
	GW_TOPIC_VERSION,   /* hardware version and what it allows: "hw-*" */
	GW_TOPIC_VM,        /* other VM settings that passthrough or old
	                     * guest drivers need: "nested-virt", "code43" */
	GW_TOPIC_P2P,       /* peer-to-peer between the VM's GPUs: "p2p-*" */
	GW_TOPIC_HOST,      /* host readiness (check rows of a host) */
	GW_TOPIC_GUEST,     /* inside the guest (verify) */
	GW_TOPIC_OUTPUT,    /* the files gpuwiz writes */
	GW_TOPIC_DIAG,      /* a cause found in a log or error text */
	GW_TOPIC_COUNT
} gw_topic;

/* Topic masks.  GW_TOPIC_ALL selects everything.  Each view of the
 * findings selects them by topic (tests/unit/core/test_plan.c test_topics
 * holds the masks to the ids they select):
 *  - "gpuwiz mmio" ("mmio-", "gpu-", "vgpu-profile", "geforce-"):
 *    SIZING | GPU;
 *  - the wizard's MMIO step ("mmio-"): SIZING;
 *  - the wizard's VM step ("hw-", "firmware-", "memory-", "nested-",
 *    "device-", "devices-", "code43"): VERSION | FIRMWARE | MEMORY | VM |
 *    DEVICE;
 *  - the wizard's options step ("uvm-", "p2p-", "memory-not-reserved"):
 *    VGPU | P2P | MEMORY, which shows "vgpu-vmx-spelling",
 *    "memory-mismatch" and "memory-unknown" there too. */
#define GW_TOPIC_BIT(t)  (1u << (unsigned)(t))
#define GW_TOPIC_ALL     (~0u)

typedef struct gw_finding {
	gw_sev sev;
	const char *id;     /* stable: "mmio-kept", "firmware-bios", "iommu" */
	gw_topic topic;
	char *title;        /* translated "Checking for ..." line of a check
	                     * row; NULL for plan findings */
	char *message;      /* translated */
	char *fix;          /* translated, may be NULL */
	char *fix_ui;       /* translated, for the wizard; NULL: fix */
	const char *source; /* not translated, may be NULL */
	int gpu;            /* index of the GPU it is about, -1 none */
} gw_finding;

/* Fill *f (any previous content is overwritten, not freed).  Takes
 * ownership of title, message and fix (each may be NULL); id and source
 * must outlive f (string literals).  gpu is set to -1, fix_ui to NULL. */
void gw_finding_set(gw_finding *f, gw_sev sev, const char *id,
                    gw_topic topic, const char *source, char *title,
                    char *message, char *fix);
/* Free what f owns (title, message, fix, fix_ui) and clear it.  Safe on NULL. */
void gw_finding_free(gw_finding *f);
/* Append a finding to a growable array (*v, *n); takes ownership as
 * gw_finding_set does.  Returns the new row. */
gw_finding *gw_findings_add(gw_finding **v, size_t *n, gw_sev sev,
                            const char *id, gw_topic topic,
                            const char *source, char *title, char *message,
                            char *fix);
/* Free every row and the array; *v NULL, *n 0 afterwards. */
void gw_findings_free(gw_finding **v, size_t *n);

/* Is t in mask? */
int gw_topic_in(gw_topic t, unsigned mask);
/* "pass", "info", "warn", "error": the plan JSON's "severity". */
const char *gw_sev_id(gw_sev s);
/* "PASS", "INFO", "WARN", "FAIL": the check rows' JSON "status" (not
 * translated; their text shows gw_sev_label, like the BIOS list). */
const char *gw_sev_word(gw_sev s);
/* "pass", "info", "warn", "fail": verify's JSON "status" (not
 * translated). */
const char *gw_sev_check_id(gw_sev s);
/* "FAIL", "WARN", "INFO", "PASS", translated (at most 5 cells): the
 * label of the plan's findings, of verify's rows and of the screens. */
const char *gw_sev_label(gw_sev s);

#endif
