/* SPDX-License-Identifier: GPL-3.0-or-later */
/* verify_report.h: the reports of gpuwiz verify (verify.h, verify_live.h)
 * as text or JSON, rendered from what the command read (src/cli/cmd_verify.c
 * reads the capture and the guest, writes the bundle and prints). */
#ifndef GW_VERIFY_REPORT_H
#define GW_VERIFY_REPORT_H

#include "verify.h"
#include "verify_live.h"

#include <stdio.h>
#include <jansson.h>

/* The capture's report (gpuwiz verify --nvidia-smi-q FILE; path names it):
 *  - text: the capture's facts, then one row per check in the style of
 *    virt-host-validate,
 *      "Checking the driver version                   : PASS"
 *    (the title padded to 56 terminal cells, so CJK titles line up)
 *    followed by the message and, when there is one, a "fix:" line; then
 *    "Result: N PASS, N INFO, N WARN, N FAIL" (written to f as read: the
 *    caller escapes it for a terminal);
 *  - JSON, one object:
 *      {"file", "driver_version", "cuda_version", "attached_gpus",
 *       "host", "nvidia_smi_error", "gpus": [{"bus_id", "product_name",
 *       "pci_id" ("10de:2335"), "subsys_id", "table_id", "virtualization_mode", "host_vgpu_mode",
 *       "addressing_mode", "fb_total_mib", "bar1_total_mib",
 *       "licensed_product", "license_status"}],
 *       "checks": [{"id", "status", "gpu" (bus id or null), "message",
 *       "fix"}], "mmio_size_gb", "torchrun",
 *       "summary": {"pass", "info", "warn", "fail"}}
 *    with null for what is absent or unknown (a new object). */
void gw_verify_text(FILE *f, const gw_nvsmi *q, const gw_verify *v,
                    const char *path);
json_t *gw_verify_json(const gw_nvsmi *q, const gw_verify *v,
                       const char *path);
/* The capture's checks run (gw_verify_run with table t) and its report
 * printed to out as the rows are made, text (escaped for a terminal) or
 * JSON: the bytes of gw_verify_text and of gw_verify_json's object
 * dumped as gw_verify_json_text does, with only one GPU's rows held at a
 * time.  The count of FAIL rows. */
size_t gw_verify_print(FILE *out, const gw_nvsmi *q, const gw_table *t,
                       const char *path, int json);

/* The live guest's report (gpuwiz verify [--sysroot DIR]): the system,
 * the driver, each NVIDIA GPU, then the rows as above.  JSON:
 * {"sysroot", "driver_version", "gpus": [{"bdf", "pci_id", "subsys_id",
 * "table_id", "driver", "bars": [{"index", "start", "size"}]}], "checks":
 * [...], "mmio_size_gb", "nvidia_smi_q": (nvsmi: gw_verify_json's object,
 * taken over, or null), "summary": (v's rows and qv's, qv may be NULL)}. */
void gw_verify_live_text(FILE *f, const gw_live_sys *l, const gw_verify *v);
json_t *gw_verify_live_json(const gw_live_sys *l, const gw_verify *v,
                            json_t *nvsmi, const gw_verify *qv);
/* The live report printed to out as gw_verify_print prints the
 * capture's: the bytes of gw_verify_live_text (then a blank line and
 * gw_verify_text's, when there is a capture q) escaped, or of
 * gw_verify_live_json's object with the capture's checks run here (t);
 * the capture's rows one GPU at a time.  The count of the capture's FAIL
 * rows. */
size_t gw_verify_live_print(FILE *out, const gw_live_sys *l,
                            const gw_verify *v, const gw_nvsmi *q,
                            const gw_table *t, const char *path, int json);

/* o as printed: indented, keys in order, a final newline (malloc'ed). */
char *gw_verify_json_text(json_t *o);

#endif
