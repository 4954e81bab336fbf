/* linux.h: probes of a Linux host (KVM/Proxmox hosts, or any Linux where
 * the GPU sits) through a root prefix, so tests can hand them a fake /sys
 * and /proc (design.md section 2). */
#ifndef GW_LINUX_H
#define GW_LINUX_H

#include "gw.h"
#include "gputable.h"

/* gpuwiz check [--sysroot DIR] [--json]: prints the rows and returns the
 * exit status: 0 nothing failed, 1 something failed, 2 input error (e set,
 * nothing printed).  sysroot NULL or "" = "/". */
int gw_linux_check_command(const char *sysroot, int json, gw_err *e);

/* gpuwiz gpus [--sysroot DIR] [--json]: display-class devices through
 * libpci's sysfs back end; returns 0, or 2 on an input error. */
int gw_linux_gpus_command(const gw_table *t, const char *sysroot, int json,
                          gw_err *e);

/* ---- structured results (used by the commands above and the wizard) --- */

typedef enum { GW_LINUX_PASS, GW_LINUX_WARN, GW_LINUX_FAIL } gw_linux_status;

/* One row of gpuwiz check: id is a static string ("cpu-virt",
 * "iommu-firmware", "iommu-kernel", "kernel-cmdline", "iommu-units",
 * "interrupt-remap", "gpu-present", "gpu-driver", in that order;
 * gpu-present only when no display device is found, one gpu-driver per
 * GPU that is not an onboard/BMC display);
 * title, message and fix are translated and malloc'ed (fix is NULL on
 * PASS). */
typedef struct gw_linux_check {
	const char *id;
	gw_linux_status status;
	char *title;      /* "Checking for ..." */
	char *message;
	char *fix;
} gw_linux_check;

/* Run the host checks through sysroot (NULL or "" = "/").  Fills *rows
 * (malloc'ed, *n entries; free with gw_linux_checks_free).  Returns 0, or -1
 * with e set when sysroot is not a directory (*rows NULL, *n 0). */
int gw_linux_checks(const char *sysroot, gw_linux_check **rows, size_t *n,
                    gw_err *e);
void gw_linux_checks_free(gw_linux_check *rows, size_t n);
/* "PASS", "WARN", "FAIL" (not translated: the command's output words). */
const char *gw_linux_status_word(gw_linux_status st);
/* Print rows as gpuwiz check does: "TITLE : STATUS" lines with the
 * message and "  fix: ..." under each row that did not pass, or with json
 * {"checks": [{id, status, title, message, fix}]}.  For rows that come
 * from elsewhere too (the wizard's ESXi probe). */
void gw_linux_print_checks(const gw_linux_check *rows, size_t n, int json);

typedef struct gw_linux_bar {
	int index;        /* BAR number 0..5 */
	uint64_t size;    /* bytes */
	int is64, pref, io;
} gw_linux_bar;

/* A display-class PCI device as gpuwiz gpus lists it. */
typedef struct gw_linux_gpu {
	char *bdf;                 /* "0000:41:00.0" */
	unsigned dom, bus, dev, fn;
	unsigned vendor, device, subvendor, subdevice;
	const gw_gpu *row;         /* the table's row, NULL when unknown */
	char *name;                /* the table's name, else pci.ids; or NULL */
	int vram_gb;               /* from the table; -1 unknown */
	gw_linux_bar bars[6];
	int nbars;
	char *group;               /* IOMMU group; NULL when none */
	char **mates;              /* other devices in the group */
	size_t nmates;
	char **foreign;            /* mates that are not this card nor a bridge */
	size_t nforeign;
	char *driver;              /* bound driver; NULL when none */
	int onboard;               /* a BMC/emulated display (ASPEED, QEMU...) */
} gw_linux_gpu;

/* The display-class devices through libpci's sysfs back end under
 * sysroot, sorted by address.  t may be NULL (no names from the table).
 * Returns 0 (*n may be 0), or -1 with e set: sysroot not a directory, no
 * SYSROOT/sys/bus/pci/devices, or libpci failed. */
int gw_linux_gpus(const gw_table *t, const char *sysroot, gw_linux_gpu **out,
                  size_t *n, gw_err *e);
void gw_linux_gpus_free(gw_linux_gpu *g, size_t n);
/* The BAR need of g's 64-bit BARs in GB (rounded up; gw_mmio_bars), the
 * size gpuwiz gpus uses when the VRAM is unknown; 0 when g has no 64-bit
 * BAR or the need cannot be computed. */
uint64_t gw_linux_gpu_bar_gb(const gw_linux_gpu *g);

/* Helpers shared with verify.c (gpuwiz verify on a live guest). */

/* The root prefix of sysroot without a trailing '/' ("" for "/" or NULL),
 * or NULL with e set when sysroot is missing or not a directory. */
char *gw_linux_root(const char *sysroot, gw_err *e);
/* Sorted entry names of a directory (no . and ..); -1 when unreadable. */
int gw_linux_list_dir(const char *path, char ***out, size_t *n);
void gw_linux_free_list(char **l, size_t n);
/* A small hex value file ("0x10de\n"); -1 when unreadable. */
long gw_linux_read_hex(const char *path);
/* Basename of a symlink's target, NULL when path is not a link. */
char *gw_linux_link_base(const char *path);

#endif
