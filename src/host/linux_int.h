/* SPDX-License-Identifier: GPL-3.0-or-later */
/* linux_int.h: what the pieces of the Linux probes share (linux.c,
 * linux_checks.c, linux_irq.c, linux_gpus.c, linux_guest.c), and their
 * parsers of /proc and /sys text (tests/fuzz/fuzz_linux.c feeds them);
 * not for other modules. */
#ifndef GW_LINUX_INT_H
#define GW_LINUX_INT_H

#include "linux.h"
#include "verify_live.h"

#include <stdio.h>

/* Largest /proc file read (cpuinfo of a big machine, cmdline). */
#define GW_LINUX_MAX_BYTES (4u << 20)

int gw_linux_is_dir(const char *path);
int gw_linux_exists(const char *path);
/* Does the kernel command line (or a flags line) hold this exact word? */
int gw_linux_has_word(const char *cmdline, const char *w);

/* ---- parsers of what /proc and /sys hold (the readers call them) ---- */

/* Is flag a word of a "flags" line of /proc/cpuinfo (linux_checks.c)? */
int gw_linux_cpu_has_flag(const char *cpuinfo, const char *flag);
/* A sysfs hex value ("0x10de\n", trimmed in place), -1 when it is not
 * one (linux.c: gw_linux_read_hex). */
long gw_linux_parse_hex(char *text);
/* /proc/interrupts from f (left open): 0 and *kinds the remapped chips
 * seen ("IR-PCI-MSI, IR-IO-APIC", NULL when none), -1 on a read error
 * (linux_irq.c). */
int gw_linux_scan_interrupts(FILE *f, char **kinds);
/* /proc/bus/pci/devices from f (left open; drivers/pci/proc.c,
 * show_device: a line per function, "BBDF\tVVVVDDDD\t..." with the bus
 * and devfn, then the vendor and device, in hex, and no PCI domain), at
 * most its first max lines (0: all): the bus << 8 | devfn of each
 * function whose vendor makes only GPUs and their companions
 * (gw_is_gpu_maker), in file order, into *keys (*nkeys, malloc'ed), *dup
 * set when one of them is listed twice among the lines read (the same
 * bus and devfn in two domains).  0 when the file was read to its end, 1
 * when it has more than max lines, or -1 (nothing in *keys) on a read
 * error, a line that does not start so, or no line at all (linux_gpus.c).
 */
int gw_linux_scan_pci_devices(FILE *f, size_t max, unsigned **keys,
                              size_t *nkeys, int *dup);
/* An Intel IOMMU unit's ecap ("%llx", trimmed in place): 1 when bit 3
 * (interrupt remapping) is set, 0 when clear, -1 when not a hex value
 * (linux_irq.c). */
int gw_linux_ecap_ir(char *text);
/* /proc/driver/nvidia/version: the first dotted version on its NVRM
 * line, malloc'ed, or NULL (linux_guest.c). */
char *gw_live_nvrm_version(const char *text);
/* A device's sysfs resource file: up to six "start end flags" lines into
 * g->bars, counted in g->nres (linux_guest.c). */
void gw_live_parse_resource(gw_live_gpu *g, const char *res);
/* len bytes of a device's config space: its six BAR registers into
 * g->cfg_bar, g->cfg_ok set when there are 0x28 bytes (linux_guest.c). */
void gw_live_parse_config(gw_live_gpu *g, const char *cfg, size_t len);

/* The rows of gpuwiz check as they are built. */
typedef struct gw_linux_rows {
	gw_finding *r;
	size_t n;
} gw_linux_rows;

/* Append a row; takes ownership of title, message and fix. */
void gw_linux_add_row(gw_linux_rows *rows, const char *id, gw_sev st,
                      char *title, char *message, char *fix);

/* The interrupt-remap row (linux_irq.c): cmdline may be NULL (unread),
 * amd the CPU or firmware is AMD's, iommu_on the kernel shows IOMMU
 * groups or units, units the entries of /sys/class/iommu. */
void gw_linux_check_irq_remap(gw_linux_rows *rows, const char *root,
                              const char *cmdline, int amd, int iommu_on,
                              char **units, size_t nunits);

#endif
