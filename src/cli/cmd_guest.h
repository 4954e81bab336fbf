/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cmd_guest.h: the commands that read what a guest shows or logged
 * (gpuwiz verify): they read the input, hand it to the core (verify.h,
 * verify_live.h), print the report of src/report (verify_report.h) and
 * return the exit status.  Declared apart from cli_int.h for the unit
 * tests; gpuwiz diagnose is cmd_diagnose (cli_int.h). */
#ifndef GW_CMD_GUEST_H
#define GW_CMD_GUEST_H

#include "gw.h"
#include "gputable.h"

/* Exit statuses of gw_verify_command and gw_verify_live_command. */
#define GW_VERIFY_OK      0  /* nothing failed (WARN and INFO allowed) */
#define GW_VERIFY_FAILED  1  /* at least one FAIL row */
#define GW_VERIFY_INPUT   2  /* input error: e set, nothing printed */

/* `gpuwiz verify --nvidia-smi-q FILE [--json]`: read nvsmi_path (missing,
 * unreadable, a directory, over GW_NVSMI_MAX_BYTES, or refused by
 * gw_nvsmi_parse: GW_VERIFY_INPUT with e set and nothing on stdout), run
 * the checks against t (may be NULL) as the report is printed
 * (gw_verify_print: text escaped, or JSON) to stdout.
 * Returns GW_VERIFY_OK, GW_VERIFY_FAILED or GW_VERIFY_INPUT. */
int gw_verify_command(const gw_table *t, const char *nvsmi_path, int json,
                      gw_err *e);

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
 * With nvsmi_path the capture's checks (gw_verify_run) are added after;
 * the report is gw_verify_live_print's, printed as it is made (with a
 * bundle, made whole first: the bundle holds it).
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
