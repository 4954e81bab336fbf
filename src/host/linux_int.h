/* linux_int.h: what the pieces of the Linux probes share (linux.c,
 * linux_checks.c, linux_irq.c, linux_gpus.c); not for other modules. */
#ifndef GW_LINUX_INT_H
#define GW_LINUX_INT_H

#include "linux.h"

/* Largest /proc file read (cpuinfo of a big machine, cmdline). */
#define GW_LINUX_MAX_BYTES (4u << 20)

int gw_linux_is_dir(const char *path);
int gw_linux_exists(const char *path);
/* Does the kernel command line (or a flags line) hold this exact word? */
int gw_linux_has_word(const char *cmdline, const char *w);

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
