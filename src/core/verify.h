/* SPDX-License-Identifier: GPL-3.0-or-later */
/* verify.h: the guest-side check (doc/design.md, sections 15.9, 15.1 and
 * 15.2) from a saved `nvidia-smi -q`:
 *
 *   gpuwiz verify --nvidia-smi-q FILE [--json]
 *
 * Three layers, each usable alone:
 *  1. gw_nvsmi_parse(): the text of `nvidia-smi -q` -> gw_nvsmi (pure).
 *  2. gw_verify_run() (or its steps, gw_verify_begin, gw_verify_gpu,
 *     gw_verify_end): gw_nvsmi + the GPU table -> PASS/INFO/WARN/FAIL
 *     rows, each with a message and (where there is something to do) a fix
 *     (pure, cannot fail).
 *  3. gw_verify_command() (src/cli/cmd_guest.h): read the file, run 2 as
 *     the report is printed (text or JSON to stdout), return the exit
 *     status.
 *
 * The nvidia-smi -q format, as the samples in tests/fixtures/nvidia-smi/
 * show it (R470 to R570 drivers):
 *
 *   ==============NVSMI LOG==============
 *   Timestamp                                 : Thu Nov 28 04:03:23 2024
 *   Driver Version                            : 550.90.12
 *   CUDA Version                              : 12.4        ("Not Found" on
 *                                                            a vGPU host)
 *   Attached GPUs                             : 1    ("Attached vGPUs" in
 *                                                     some vGPU guests)
 *   GPU 00000000:03:00.0                      (one section per GPU)
 *       Product Name                          : NVIDIA H200
 *       Addressing Mode                       : None   (None, HMM, ATS; no
 *                                                       line on R470)
 *       GPU Virtualization Mode
 *           Virtualization Mode               : Pass-Through
 *           Host VGPU Mode                    : N/A
 *       vGPU Software Licensed Product        (vGPU guests only)
 *           Product Name                      : NVIDIA RTX Virtual Workstation
 *           License Status                    : Unlicensed (Unrestricted)
 *       PCI
 *           Device Id                         : 0x233510DE  (device, vendor)
 *           Bus Id                            : 00000000:03:00.0
 *           Sub System Id                     : 0x18BE10DE
 *       FB Memory Usage
 *           Total                             : 143771 MiB
 *       BAR1 Memory Usage
 *           Total                             : 262144 MiB  ("N/A" on GH200)
 *
 * R610 and later drivers mark the first two deprecated and add their
 * successors (as public parsers of nvidia-smi -q quote them):
 *
 *   Driver Version   : 610.57.04 [Deprecated; will be removed in CUDA 14.0.
 *                                 Use KMD Version instead]
 *   CUDA Version     : 13.3 [Deprecated; ... Use CUDA UMD Version instead]
 *   KMD Version      : 610.57.04
 *   CUDA UMD Version : 13.3
 *
 * On a vGPU host, `nvidia-smi vgpu -q` appended to the file repeats each
 * GPU header with the count of its running vGPUs:
 *
 *   GPU 00000000:13:00.0
 *       Active vGPUs                          : 0
 *
 * such a repeated section (its first field "Active vGPUs") adds the count
 * to the GPU; any other repeated header is refused.
 *
 * Nesting is by indentation (relative, so any consistent indent works;
 * at the top level only a GPU header opens a section, so a shell prompt
 * line above a capture pasted with an indent does not hide it);
 * a key ends at the first ':' followed by a blank or the end of the line
 * (so "GPU 00000000:03:00.0" and "user@host:~$ nvidia-smi -q" are not
 * key/value lines).  Lines the parser does not know are ignored: shell
 * prompts, the "# source:" line of a fixture, fields of newer drivers.
 * CRLF line ends and a UTF-8 byte order mark are accepted.
 */
#ifndef GW_VERIFY_H
#define GW_VERIFY_H

#include "gw.h"
#include "gputable.h"
#include "finding.h"

/* Llama 3 era vLLM guest requirements (doc/design.md, section 15.9). */
#define GW_VERIFY_MIN_DRIVER "535.129.03"
#define GW_VERIFY_MIN_CUDA   "12.1"

/* Largest capture read (an 8-GPU `nvidia-smi -q` is about 100 KB). */
#define GW_NVSMI_MAX_BYTES (16u << 20)

/* Most GPU sections in one capture (a machine has a few dozen at most). */
#define GW_NVSMI_MAX_GPUS 1024

/* ---- 1. the parser ------------------------------------------------------ */

/* "Virtualization Mode" (NVIDIA nvidia-smi documentation; doc/design.md, section 15.9). */
typedef enum {
	GW_VIRT_UNKNOWN = 0,   /* no line, or a value not listed here */
	GW_VIRT_NONE,          /* "None": no hypervisor seen (bare metal, or a
	                        * VM with hypervisor.cpuid.v0 = FALSE) */
	GW_VIRT_PASSTHROUGH,   /* "Pass-Through": DirectPath I/O guest */
	GW_VIRT_VGPU,          /* "VGPU": a vGPU (mediated) guest */
	GW_VIRT_HOST_VGPU      /* "Host VGPU": the hypervisor running the vGPU
	                        * manager, not a guest */
} gw_virt_mode;

/* Memory totals are MiB (>= 0) or one of these. */
#define GW_NVSMI_ABSENT (-1LL)  /* no such line */
#define GW_NVSMI_NA     (-2LL)  /* "N/A" */
#define GW_NVSMI_BAD    (-3LL)  /* anything else; the text is kept */

/* One "GPU 0000xxxx:xx:xx.x" section.  Strings are as written (trimmed),
 * NULL when the line is absent.  When a field repeats inside one section,
 * the first one counts. */
typedef struct gw_nvsmi_gpu {
	char *bus_id;            /* from the section header: "00000000:03:00.0" */
	int line;                /* 1-based line of the header */
	char *product_name;      /* "NVIDIA H200", "NVIDIA RTXA6000-24Q" */
	char *virt_mode_text;    /* GPU Virtualization Mode > Virtualization Mode */
	gw_virt_mode virt_mode;  /* decoded from virt_mode_text */
	char *host_vgpu_mode;    /* GPU Virtualization Mode > Host VGPU Mode:
	                          * "SR-IOV", "N/A" */
	char *addressing_mode;   /* "None", "HMM", "ATS", "N/A"; NULL: no line
	                          * (older drivers) */
	unsigned vendor_id;      /* PCI > Device Id 0x233510DE -> 0x10de */
	unsigned device_id;      /*                             -> 0x2335 */
	unsigned subsys_vendor;  /* PCI > Sub System Id 0x18BE10DE -> 0x10de */
	unsigned subsys_device;  /*                                -> 0x18be
	                          * (all four 0 when absent, N/A or malformed) */
	long long fb_total_mib;  /* FB Memory Usage > Total, or GW_NVSMI_* */
	char *fb_total_text;     /* "143771 MiB" */
	long long bar1_total_mib;/* BAR1 Memory Usage > Total, or GW_NVSMI_* */
	char *bar1_total_text;   /* "262144 MiB", "N/A" */
	char *licensed_product;  /* vGPU Software Licensed Product > Product Name */
	char *license_status;    /* ... > License Status: "Licensed (Expiry: ...)",
	                          * "Unlicensed (Unrestricted)" */
	int active_vgpus;        /* "Active vGPUs" (nvidia-smi vgpu -q on a
	                          * vGPU host, 0..65536); -1 absent */
} gw_nvsmi_gpu;

typedef struct gw_nvsmi {
	char *driver_version;    /* "550.90.12": the version of "KMD Version",
	                          * else of "Driver Version" (a note after it,
	                          * "610.57.04 [Deprecated; ...]", cut off); the
	                          * line's text when neither holds a version;
	                          * NULL absent */
	char *cuda_version;      /* "12.4", "Not Found": the same from "CUDA UMD
	                          * Version", else "CUDA Version"; NULL absent */
	int attached_gpus;       /* "Attached GPUs", else "Attached vGPUs"
	                          * (0..65536); -1 absent or unreadable */
	int attached_vgpus;      /* 1: the count came from "Attached vGPUs" */
	int banner;              /* 1: the "==...NVSMI LOG...==" line was seen */
	char *error_text;        /* nvidia-smi's own failure line instead of a
	                          * log ("No devices were found", "NVIDIA-SMI has
	                          * failed because it couldn't communicate with
	                          * the NVIDIA driver...", "Unable to determine
	                          * the device handle for GPU ..."); NULL none */
	gw_nvsmi_gpu *gpus;      /* in file order */
	size_t ngpus;
} gw_nvsmi;

/* Parse the text of `nvidia-smi -q` (len bytes, need not be NUL-terminated).
 * name names the input in errors (the file name; NULL: "<nvidia-smi -q>").
 * Accepted: a capture with the NVSMI LOG banner or at least one GPU
 * section (zero GPUs is a valid capture: the checks FAIL it), or one of
 * nvidia-smi's failure lines (error_text).
 * Refused with one translated line (e): empty input; binary data; UTF-16
 * text; XML (nvidia-smi -q -x); the plain nvidia-smi table; anything else
 * that is not nvidia-smi -q output; captures from two machines in one
 * file ("name:LINE: Driver Version 'a' differs from 'b' on line N"); the
 * same GPU twice ("name:LINE: GPU x appears twice ..."); more than
 * GW_NVSMI_MAX_GPUS sections.  Several captures
 * of one machine in one file (nvidia-smi -q -i 0; nvidia-smi -q -i 1) are
 * one capture.  On failure *q is left empty (gw_nvsmi_free is harmless). */
int gw_nvsmi_parse_pieces(gw_nvsmi *q, const char *data, size_t len,
                          size_t piece, const char *name, gw_err *e);
static inline int
gw_nvsmi_parse(gw_nvsmi *q, const char *data, size_t len, const char *name,
               gw_err *e)
{
	return gw_nvsmi_parse_pieces(q, data, len, 0, name, e);
}
/* gw_nvsmi_parse_pieces: the same, the data handed to the reader in
 * pieces of piece bytes (0: at once), as gw_nvsmi_parse_file hands it
 * the file's chunks; the answer does not depend on piece. */
void gw_nvsmi_free(gw_nvsmi *q);

/* The same, reading the file at path in chunks as it comes (what is kept
 * does not grow with the file: the GPUs found, the line being read): the
 * errors of gw_read_file (more than GW_NVSMI_MAX_BYTES), then those of
 * gw_nvsmi_parse. */
int gw_nvsmi_parse_file(gw_nvsmi *q, const char *path, gw_err *e);



/* Compare two dotted decimal versions numerically, component by
 * component, a missing component counting as 0: "535.54.03" < "535.129.03",
 * "535.129.3" == "535.129.03", "12.10" > "12.9", "12" == "12.0".  Sets *cmp
 * to <0, 0, >0 and returns 0; returns -1 when either is not a version
 * (empty, "Not Found", "N/A", a sign, a letter, an empty component, more
 * than 8 components, a component over 9 digits). */
int gw_version_cmp(const char *a, const char *b, int *cmp);

/* ---- 2. the checks ------------------------------------------------------ */

/* The rows are gw_finding (finding.h), topic GW_TOPIC_GUEST, sev
 * GW_SEV_PASS, GW_SEV_INFO (reported, not judged: no table row to compare
 * with, not applicable, next step), GW_SEV_WARN or GW_SEV_ERROR (FAIL);
 * title ("Checking the driver version") and message translated, fix
 * translated or NULL when there is nothing to do, source NULL, gpu the
 * index in gw_nvsmi.gpus (-1 for the rows about the whole capture).
 * Stable ids:
 *   "gpus"        the GPUs are visible: FAIL none (or nvidia-smi's error
 *                 line), WARN fewer sections than "Attached GPUs" or
 *                 "Attached vGPUs" (nvidia-smi -q -i N), PASS otherwise
 *                 (with the count of Attached vGPUs where the capture has
 *                 that line)
 *   "driver"      (driver_version: KMD Version's number, else Driver
 *                 Version's) guest: FAIL below GW_VERIFY_MIN_DRIVER; host capture: the
 *                 vGPU manager, WARN below it (its guests cannot run that
 *                 driver); WARN unreadable or absent
 *   "cuda"        guest only: FAIL below GW_VERIFY_MIN_CUDA or "Not Found";
 *                 WARN unreadable or absent
 *   per GPU:
 *   "virt-mode"   PASS Pass-Through / VGPU; FAIL Host VGPU (the capture is
 *                 the hypervisor's, not the guest's); WARN None (bare
 *                 metal?) or unknown
 *   "addressing-mode"  not on a host capture.  vGPU: PASS only HMM or
 *                 ATS (NVML's modes in which system memory is addressable
 *                 from the GPU, compared ignoring case); FAIL None (the
 *                 enable_uvm advice: NCCL 2.27+ fails); WARN N/A, any other
 *                 value or no line (check enable_uvm, read it with a driver
 *                 whose nvidia-smi prints it).  Otherwise PASS None (normal)
 *                 HMM or ATS, INFO any other value, no line or an unknown
 *                 Virtualization Mode
 *   "license"     vGPU guests with a License Status: PASS Licensed..., WARN
 *                 otherwise (Unlicensed ...)
 *   "vgpus"       a Host VGPU GPU: INFO N vGPUs running (Active vGPUs,
 *                 from nvidia-smi vgpu -q in the file), WARN 0 (a VM that
 *                 should run a vGPU on it is not running one), INFO no count
 *                 in the capture (append nvidia-smi vgpu -q)
 *   "bar1"        0, or below the smallest BAR1 the table has seen for the
 *                 GPU: WARN, in a VM "MMIO window likely too small" with
 *                 the pciPassthru.64bitMMIOSizeGB value to set (the rule of
 *                 mmio.h on the VRAM of all GPUs of the capture, from the
 *                 table by PCI id, else the FB total for a passthrough
 *                 GPU), on bare metal / a host the BIOS advice.  N/A: PASS
 *                 with Addressing Mode ATS (GH200), else WARN.  A vGPU's
 *                 small BAR1 is normal (PASS).
 *   "fb"          FB total vs the table's VRAM: PASS within 85%..105% (a
 *                 vGPU: at most the physical VRAM), WARN outside or
 *                 unreadable, INFO when the table has no row/VRAM
 *   "nccl"        a guest with 2+ GPUs: INFO with the torchrun command
 *                 (torchrun --nproc_per_node=N GW_NCCL_CHECK_FILE) as fix
 * Rows come in this order: gpus, driver, cuda, then per GPU (virt-mode,
 * addressing-mode, license, vgpus, bar1, fb), then nccl. */
typedef struct gw_verify {
	gw_finding *checks;      /* the rows, above */
	size_t nchecks;
	const gw_gpu **rows;     /* table row per gw_nvsmi.gpus[i], NULL when
	                          * unknown (or no table); ngpus entries */
	size_t ngpus;
	int host;                /* 1: a Host VGPU capture (the hypervisor) */
	int gpu_count;           /* GPUs of the machine: the larger of
	                          * "Attached GPUs" and the sections */
	uint64_t total_vram_gb;  /* VRAM of the capture's GPUs (table, else FB
	                          * of passthrough GPUs); 0 when any is unknown
	                          * or the capture lacks attached GPUs */
	uint64_t mmio_gb;        /* the rule for total_vram_gb, 0 when unknown */
	char *torchrun;          /* "torchrun --nproc_per_node=N nccl_check.py"
	                          * for a guest with 2+ GPUs, else NULL */
	size_t npass, ninfo, nwarn, nfail;
} gw_verify;

/* The checks in steps, so that a report can be printed as its rows are
 * made (verify_report.h): begin (the table rows, what the whole capture
 * decides: host, the GPU count, the MMIO size; the rows gpus, driver and
 * cuda), then gw_verify_gpu for each GPU in order (its rows), then end
 * (nccl).  t may be NULL (nothing is compared with the table).  Between
 * steps the rows made so far may be dropped (gw_verify_drop_checks): the
 * tallies stay.  Free *v with gw_verify_free. */
void gw_verify_begin(const gw_nvsmi *q, const gw_table *t, gw_verify *v);
void gw_verify_gpu(gw_verify *v, const gw_nvsmi *q, size_t i);
void gw_verify_end(gw_verify *v);
void gw_verify_drop_checks(gw_verify *v);
void gw_verify_free(gw_verify *v);

/* Run the checks, all the steps: every row in v.  Always succeeds. */
static inline void
gw_verify_run(const gw_nvsmi *q, const gw_table *t, gw_verify *v)
{
	size_t i;

	gw_verify_begin(q, t, v);
	for (i = 0; i < q->ngpus; i++)
		gw_verify_gpu(v, q, i);
	gw_verify_end(v);
}

/* The status words are gw_sev_check_id ("pass", "info", "warn", "fail":
 * JSON) and gw_sev_label ("PASS" ... translated: text), finding.h. */

/* ---- 3. and 4. the commands ------------------------------------------- */

/* The reports are in verify_report.h (src/report); the commands that read
 * the capture and the guest, gw_verify_command and gw_verify_live_command,
 * in src/cli (cmd_guest.h); the live guest's probe and checks in
 * verify_live.h. */

/* The fix for an unlicensed vGPU guest (configure the NVIDIA License
 * System client), translated, malloc'ed; diagnose's licence rule says the
 * same. */
char *gw_verify_license_fix(void);

#endif
