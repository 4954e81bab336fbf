/* gputable.h: the GPU fact table (data/gpus.ini), read with iniparser.
 *
 * data/gpus.ini has one section per (model, PCI id[, subsystem]) row of
 * ../shared/data/gpu_facts.csv, named by the short id:
 *
 *   [l40s]
 *   name        = AD102GL [L40S]          ; exact pci.ids text
 *   vendor_id   = 0x10de
 *   device_id   = 0x26b9
 *   subsys_id   = 0x10de:0x1851            ; only where it decides the model
 *   vram_gb     = 48                       ; "unknown" when not known
 *   bar1_mib    = 65536                    ; "unknown", or "256|65536"
 *   vgpu_prefix = grid_l40s                ; absent when no vGPU profiles
 *   source      = ...                      ; where the facts come from
 *
 * Unknown values stay unknown: vram_gb < 0 and bar1 count 0.
 */
#ifndef GW_GPUTABLE_H
#define GW_GPUTABLE_H

#include "gw.h"

typedef struct gw_gpu {
	char *id;            /* short id, lower case: "l40s", "a100-80g-pcie" */
	char *name;          /* pci.ids name */
	unsigned vendor_id;  /* 0x10de */
	unsigned device_id;  /* 0x26b9 */
	unsigned subsys_vendor; /* 0 when the subsystem does not decide */
	unsigned subsys_device;
	int vram_gb;         /* -1 when unknown */
	unsigned long bar1_mib[4]; /* observed BAR1 sizes, ascending */
	int nbar1;           /* 0 when unknown */
	char *vgpu_prefix;   /* "grid_l40s", NULL when none */
	char *source;        /* source notes */
} gw_gpu;

typedef struct gw_table {
	gw_gpu *gpus;
	size_t n;
	char *path;          /* the file it was read from */
} gw_table;

/* Where the table is looked for when no --table is given:
 * $GPUWIZ_TABLE, then PKGDATADIR/gpus.ini, then the build tree
 * (<dir of /proc/self/exe>/../data/gpus.ini).  Returns a malloc'ed path of
 * the first that exists, or NULL (e names what was tried). */
char *gw_table_default_path(gw_err *e);

/* Load and validate.  A missing file, a syntax error, or a bad field gives
 * an error naming the file and (where known) the line or section/field. */
int gw_table_load(gw_table *t, const char *path, gw_err *e);
void gw_table_free(gw_table *t);

/* Look up one GPU by a spec without a count:
 *  - short id ("l40s"), case-insensitive
 *  - PCI id "10de:26b9" (optionally "10de:25b6:10de:14a9" with subsystem);
 *    a PCI id shared by several rows (25b6 = A2/A16) is ambiguous unless the
 *    subsystem is given
 *  - vGPU profile ("grid_h100xm-80c", "grid_a100-40c"): the longest
 *    vgpu_prefix that matches up to the '-' maps to the physical GPU
 *  - case-insensitive substring of the name ("L40S", "rtx 3090"); exact
 *    bracket-name matches win over substrings.
 * Returns the GPU, or NULL with e set: "unknown GPU 'x'" or
 * "GPU 'x' is ambiguous: a, b, c" (candidates listed by short id). */
const gw_gpu *gw_table_lookup(const gw_table *t, const char *spec, gw_err *e);

/* Exact PCI match; subsystem 0/0 means "not known".  When several rows
 * share vendor:device and the subsystem does not pick one, returns NULL and
 * sets *ambiguous = 1 (if non-NULL). */
const gw_gpu *gw_table_find_pci(const gw_table *t, unsigned vendor,
                                unsigned device, unsigned subsys_vendor,
                                unsigned subsys_device, int *ambiguous);

/* Is spec a vGPU profile name (starts with "grid_", case-insensitive)? */
int gw_is_vgpu_profile(const char *spec);

/* Largest observed BAR1 in MiB, 0 when unknown. */
unsigned long gw_gpu_bar1_max_mib(const gw_gpu *g);

#endif
