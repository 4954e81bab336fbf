/* SPDX-License-Identifier: GPL-3.0-or-later */
/* linux.h: probes of a Linux host (KVM/Proxmox hosts, or any Linux where
 * the GPU sits) through a root prefix, so tests can hand them a fake /sys
 * and /proc (doc/design.md, section 4.3). */
#ifndef GW_LINUX_H
#define GW_LINUX_H

#include "gw.h"
#include "gputable.h"
#include "hosttypes.h"

#include "finding.h"
#include "mmio.h"

/* ---- structured results (the host interface, gpuwiz verify) ----------- */

/* The rows of gpuwiz check are gw_finding (finding.h), topic
 * GW_TOPIC_HOST, with these static ids: "cpu-virt", "iommu-firmware",
 * "iommu-kernel", "kernel-cmdline", "iommu-units", "interrupt-remap",
 * "gpu-present", "gpu-driver", in that order; gpu-present only when no
 * display device is found, one gpu-driver per GPU that is not an
 * onboard/BMC display.  sev is GW_SEV_PASS, GW_SEV_WARN or GW_SEV_ERROR
 * (printed FAIL); title, message and fix are translated and malloc'ed
 * (fix is NULL on PASS); source is NULL. */

/* Run the host checks through sysroot (NULL or "" = "/").  Fills *rows
 * (malloc'ed, *n entries; free with gw_linux_checks_free).  Returns 0, or -1
 * with e set when sysroot is not a directory (*rows NULL, *n 0). */
int gw_linux_checks(const char *sysroot, gw_finding **rows, size_t *n,
                    gw_err *e);
/* Free the rows and the array (gw_findings_free). */
void gw_linux_checks_free(gw_finding *rows, size_t n);


/* The display-class devices through libpci's sysfs back end under
 * sysroot, sorted by address.  t may be NULL (no names from the table).
 * Returns 0 (*n may be 0), or -1 with e set: sysroot not a directory, no
 * SYSROOT/sys/bus/pci/devices, or libpci failed. */
int gw_linux_gpus(const gw_table *t, const char *sysroot, gw_gpu_dev **out,
                  size_t *n, gw_err *e);

/* Has the host under sysroot a GPU to configure: a display-class PCI
 * device (class 0x03xxxx) from a GPU maker (gw_is_gpu_maker: NVIDIA,
 * AMD)?  From SYSROOT/proc/bus/pci/devices (every function's vendor in
 * one file) and the class file of the GPU makers' functions alone; where
 * that file is missing or cannot answer (a GPU maker's function outside
 * PCI domain 0000), one read of each device's class file (its vendor only
 * for a display-class one), stopping at the first GPU.  None of libpci's
 * per-device reads.  At most max functions are looked at (0: all).  1 or
 * 0; -2 when the first max hold no GPU and there are more; -1 with e set
 * (as gw_linux_gpus: sysroot, or no SYSROOT/sys/bus/pci/devices). */
int gw_linux_has_gpu(const char *sysroot, size_t max, gw_err *e);

/* Helpers shared with verify.c (gpuwiz verify on a live guest). */

/* The root prefix of sysroot without a trailing '/' ("" for "/" or NULL),
 * or NULL with e set when sysroot is missing or not a directory. */
char *gw_linux_root(const char *sysroot, gw_err *e);
/* Sorted entry names of a directory (no . and ..); -1 when unreadable. */
int gw_linux_list_dir(const char *path, char ***out, size_t *n);
/* A small hex value file ("0x10de\n"); -1 when unreadable. */
long gw_linux_read_hex(const char *path);
/* Basename of a symlink's target, NULL when path is not a link. */
char *gw_linux_link_base(const char *path);

#endif
