/* SPDX-License-Identifier: GPL-3.0-or-later */
/* verify_report.h: the reports of gpuwiz verify (verify.h, verify_live.h)
 * as text or JSON, rendered from what the command read (src/cli/cmd_verify.c
 * reads the capture and the guest, writes the bundle and prints). */
#ifndef GW_VERIFY_REPORT_H
#define GW_VERIFY_REPORT_H

#include "verify.h"
#include "verify_live.h"

#include <stdio.h>

/* How a report is printed: text escaped for a terminal (0), text as it
 * is (GW_VERIFY_RAW: the support bundle's copy) or JSON (GW_VERIFY_JSON). */
enum {
	GW_VERIFY_RAW  = 1 << 0,
	GW_VERIFY_JSON = 1 << 1
};

/* The capture's report (gpuwiz verify --nvidia-smi-q FILE; path names it),
 * its checks run here (gw_verify_begin, gw_verify_gpu, gw_verify_end with
 * table t) and printed to out as they are made, one GPU's rows held at a
 * time:
 *  - text: the capture's facts, then one row per check in the style of
 *    virt-host-validate,
 *      "Checking the driver version                   : PASS"
 *    (the title padded to 56 terminal cells, so CJK titles line up)
 *    followed by the message and, when there is one, a "fix:" line; then
 *    "Result: N PASS, N INFO, N WARN, N FAIL";
 *  - JSON, one object, indented by two and a final newline, as
 *    json_dumps prints it:
 *      {"file", "driver_version", "cuda_version", "attached_gpus",
 *       "host", "nvidia_smi_error", "gpus": [{"bus_id", "product_name",
 *       "pci_id" ("10de:2335"), "subsys_id", "table_id", "virtualization_mode", "host_vgpu_mode",
 *       "addressing_mode", "fb_total_mib", "bar1_total_mib",
 *       "licensed_product", "license_status"}],
 *       "checks": [{"id", "status", "gpu" (bus id or null), "message",
 *       "fix"}], "mmio_size_gb", "torchrun",
 *       "summary": {"pass", "info", "warn", "fail"}}
 *    with null for what is absent or unknown.
 * The count of FAIL rows. */
size_t gw_verify_print(FILE *out, const gw_nvsmi *q, const gw_table *t,
                       const char *path, unsigned how);

/* The live guest's report (gpuwiz verify [--sysroot DIR]; v: its rows),
 * printed to out as above: the system, the driver, each NVIDIA GPU, then
 * the rows; with a capture q, a blank line and the capture's report.
 * JSON: {"sysroot", "driver_version", "gpus": [{"bdf", "pci_id",
 * "subsys_id", "table_id", "driver", "bars": [{"index", "start",
 * "size"}]}], "checks": [...], "mmio_size_gb", "nvidia_smi_q": (the
 * capture's object, or null), "summary": (v's rows and the capture's)}.
 * The count of the capture's FAIL rows. */
size_t gw_verify_live_print(FILE *out, const gw_live_sys *l,
                            const gw_verify *v, const gw_nvsmi *q,
                            const gw_table *t, const char *path,
                            unsigned how);

#endif
