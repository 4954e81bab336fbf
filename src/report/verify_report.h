/* verify_report.h: the commands of gpuwiz verify, which print the
 * reports of the checks (verify.h, verify_live.h) as text or JSON. */
#ifndef GW_VERIFY_REPORT_H
#define GW_VERIFY_REPORT_H

#include "verify.h"

/* ---- 3. the command ----------------------------------------------------- */

/* Exit statuses of gw_verify_command. */
#define GW_VERIFY_OK      0  /* nothing failed (WARN and INFO allowed) */
#define GW_VERIFY_FAILED  1  /* at least one FAIL row */
#define GW_VERIFY_INPUT   2  /* input error: e set, nothing printed */

/* `gpuwiz verify --nvidia-smi-q FILE [--json]`: read nvsmi_path (missing,
 * unreadable, a directory, over GW_NVSMI_MAX_BYTES, or refused by
 * gw_nvsmi_parse: GW_VERIFY_INPUT with e set and nothing on stdout), run
 * the checks against t (may be NULL) and print to stdout:
 *  - text: the capture's facts, then one row per check in the style of
 *    virt-host-validate,
 *      "Checking the driver version                   : PASS"
 *    (the title padded to 56 terminal cells, so CJK titles line up)
 *    followed by the message and, when there is one, a "fix:" line; then
 *    "Result: N PASS, N INFO, N WARN, N FAIL";
 *  - JSON (json != 0), one object:
 *      {"file", "driver_version", "cuda_version", "attached_gpus",
 *       "host", "nvidia_smi_error", "gpus": [{"bus_id", "product_name",
 *       "pci_id" ("10de:2335"), "subsys_id", "table_id", "virtualization_mode", "host_vgpu_mode",
 *       "addressing_mode", "fb_total_mib", "bar1_total_mib",
 *       "licensed_product", "license_status"}],
 *       "checks": [{"id", "status", "gpu" (bus id or null), "message",
 *       "fix"}], "mmio_size_gb", "torchrun",
 *       "summary": {"pass", "info", "warn", "fail"}}
 *    with null for what is absent or unknown.
 * Returns GW_VERIFY_OK, GW_VERIFY_FAILED or GW_VERIFY_INPUT. */
int gw_verify_command(const gw_table *t, const char *nvsmi_path, int json,
                      gw_err *e);

/* ---- 4. the live guest -------------------------------------------------- */

/* `gpuwiz verify [--sysroot DIR] [--nvidia-smi-q FILE] [--bundle OUT]
 * [--json]` on the running guest (or a copy of its / under DIR):
 *  - "gpus": NVIDIA display devices (vendor 0x10de, class 0x03xx) under
 *    SYSROOT/sys/bus/pci/devices; none: FAIL with the fix;
 *  - "driver": SYSROOT/proc/driver/nvidia/version ("NVRM version: ...");
 *    FAIL when absent (driver not loaded) or below GW_VERIFY_MIN_DRIVER;
 *  - per GPU, "bar1": from its resource file; a BAR1 with start 0 (or
 *    start and end 0, or size 0) is unassigned: FAIL "the VM's 64-bit MMIO
 *    window is too small" with pciPassthru.64bitMMIOSizeGB (the mmio.h
 *    rule on the table VRAM of all the NVIDIA GPUs found; a GPU the table
 *    does not know: gpuwiz mmio --vram GB); "bars": another BAR that the
 *    config space shows but that has no address: FAIL (only when one is).
 * With nvsmi_path the capture's checks (gw_verify_run) are added after.
 * JSON: {"sysroot", "driver_version", "gpus": [{"bdf", "pci_id",
 * "subsys_id", "table_id", "driver", "bars": [{"index", "start", "size"}]}],
 * "checks": [...], "mmio_size_gb", "nvidia_smi_q": (gw_verify_command's
 * object or null), "summary": (both sets of rows)}.
 * bundle (may be NULL): also write a gzip'ed tar there (gpuwiz-support/:
 * README.txt, verify.txt, verify.json, nvidia-smi-q.txt, proc-driver-
 * nvidia-version.txt, proc-cmdline.txt, lspci.txt; never environment,
 * license tokens, keys or passwords), atomically through a temp file in
 * the same directory; an existing file is refused (GW_VERIFY_INPUT).
 * Returns GW_VERIFY_OK, GW_VERIFY_FAILED or GW_VERIFY_INPUT (e set,
 * nothing printed). */
int gw_verify_live_command(const gw_table *t, const char *sysroot,
                           const char *nvsmi_path, const char *bundle,
                           int json, gw_err *e);

#endif
