/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hosttypes.h: what every back end of host.h returns, whatever reaches
 * the host: a GPU device (gw_gpu_dev: through libpci on Linux, from
 * esxcli on the ESXi shell, from the inventory through the API), a VM
 * (gw_vm: a row of vim-cmd vmsvc/getallvms, or an API VM with Vmid =
 * position + 1) and its power state (gw_power).  A check row is a
 * gw_finding (finding.h) of topic GW_TOPIC_HOST.  A host's GPUs as gpuwiz
 * gpus shows them are a gw_gpu_list (gw_host_gpus, and the ESXi parser of
 * a saved listing), printed by src/report/gpus_print.h.  The parsers and
 * probes that fill them are declared in linux.h and esxi.h. */
#ifndef GW_HOSTTYPES_H
#define GW_HOSTTYPES_H

#include "gw.h"
#include "gputable.h"
#include "mmio.h"

#include <stdint.h>

/* ---- a GPU device ---------------------------------------------------- */

typedef struct gw_gpu_bar {
	int index;        /* BAR number 0..5 */
	uint64_t size;    /* bytes */
	int is64, pref, io;
} gw_gpu_bar;

/* A display-class PCI device as gpuwiz gpus lists it.  What a back end
 * cannot see stays unknown: no BARs, IOMMU group or driver through esxcli
 * or the API (driver: the ESXi module, or the host's name through the
 * API), no passthrough state on Linux (-1). */
typedef struct gw_gpu_dev {
	char *bdf;                 /* "0000:41:00.0" */
	unsigned dom, bus, dev, fn;
	unsigned vendor, device, subvendor, subdevice;
	int subsys_known;          /* subvendor / subdevice were read */
	const gw_gpu *row;         /* the table's row, NULL when unknown */
	int ambiguous;             /* several table rows share the PCI id and
	                            * the subsystem picks none */
	char *name;                /* the table's name, else pci.ids; or NULL */
	int ids_unread;            /* the source gave no PCI id (lspci
	                            * without -nn): row, vendor and device
	                            * come from the name, or stay 0 */
	int vram_gb;               /* from the table; -1 unknown */
	gw_gpu_bar bars[6];
	int nbars;
	char *group;               /* IOMMU group; NULL when none */
	char **mates;              /* other devices in the group */
	size_t nmates;
	char **foreign;            /* mates that are not this card nor a bridge */
	size_t nforeign;
	char *driver;              /* bound driver; NULL when none */
	int onboard;               /* a BMC/emulated display (ASPEED, QEMU...) */
	int passthru_capable;      /* the host can pass it through: 1, 0, -1 */
	int passthru_enabled;      /* configured for passthrough: 1, 0, -1 */
	int passthru_active;       /* owned by passthrough now: 1, 0, -1 */
	char *configured_owner;    /* esxcli's owners ("VM Passthru"), or NULL */
	char *current_owner;
} gw_gpu_dev;
/* All zero, the passthrough state unknown (-1). */
void gw_gpu_dev_init(gw_gpu_dev *g);
/* Free n devices and the array. */
void gw_gpu_devs_free(gw_gpu_dev *g, size_t n);
/* Drop g (an onboard display a list leaves out): its strings freed, g
 * zeroed (host.c). */
void gw_host_gpu_drop(gw_gpu_dev *g);
/* The BAR need of g's 64-bit BARs in GB (rounded up; gw_mmio_bars), the
 * size gpuwiz gpus uses when the VRAM is unknown; 0 when g has no 64-bit
 * BAR or the need cannot be computed. */
uint64_t gw_gpu_dev_bar_gb(const gw_gpu_dev *g);

/* ---- the GPUs of a host, as gpuwiz gpus shows them ------------------- */

typedef struct gw_gpu_list {
	char *source;              /* what was read, as the output names it:
	                            * "/sys/bus/pci" under the root, a saved
	                            * listing's file name, "esxcli hardware pci
	                            * list", the vSphere server */
	gw_gpu_dev *gpus;          /* every display-class device, by address
	                            * (on-board displays too) */
	size_t n;
	int iommu_known;           /* the back end reads IOMMU groups (Linux) */
	uint64_t total_vram_gb;    /* the VRAM the table knows of the GPUs */
	gw_mmio_need mmio;         /* the rule on it and the 64-bit BARs */
	int mmio_known;            /* mmio computed (gw_gpu_list_sum) */
	char **notes;              /* translated lines, in device order */
	size_t nnotes;
} gw_gpu_list;
/* The MMIO size for all the GPUs that are not on-board displays in one
 * VM (the larger of the rule on their VRAM and their 64-bit BARs' need;
 * unknown when one has neither) and the notes: an on-board display not
 * counted, a VRAM the table lacks, passthrough not capable / not enabled /
 * waiting for a reboot, an IOMMU group shared with a device not part of
 * the card or none at all (iommu_known). */
void gw_gpu_list_sum(gw_gpu_list *l);
void gw_gpu_list_free(gw_gpu_list *l);

/* ---- a bundled sample host (samplehost.h) ------------------------------ */

typedef struct gw_sample_info {
	char *name;      /* the folder name: "intel-2x-l40s" */
	char *title;     /* [host] title, English (untranslated) */
	char *kind;      /* "linux" or "esxi" */
} gw_sample_info;

/* ---- the handle of host.h --------------------------------------------- */

/* A host, opaque (host.h opens and reads it); the front ends pass it
 * around. */
typedef struct gw_host gw_host;
/* Long tasks report here (same shape as gw_vs_progress_fn). */
typedef void (*gw_host_progress_fn)(void *ctx, const char *what, int pct);

/* ---- a VM ------------------------------------------------------------- */

typedef struct gw_vm {
	unsigned long vmid;
	char *name;               /* "Test Test [Test] [Test]" */
	char *file;               /* "[wtgc-vmbd-01:datastore1] p/p.vmx" */
	char *datastore;          /* "wtgc-vmbd-01:datastore1" */
	char *path;               /* "p/p.vmx" */
	char *guest_os;           /* "ubuntu64Guest" */
	char *version;            /* "vmx-13" */
	int hw_version;           /* 13 */
	char *annotation;         /* "" when empty */
	unsigned line;
	int packed;               /* GW_VM_PACKED: name's allocation holds
	                           * file, datastore, path, guest_os and
	                           * version too; GW_VM_PACKED_NOTE: and the
	                           * annotation (0 for separate strings) */
} gw_vm;
#define GW_VM_PACKED      1
#define GW_VM_PACKED_NOTE 2

typedef struct gw_vm_list {
	gw_vm *vms;
	size_t n;
	unsigned long *skipped;   /* Vmids of "Skipping invalid VM" lines */
	size_t nskipped;
} gw_vm_list;
void gw_vm_list_free(gw_vm_list *l);

/* ---- its power state --------------------------------------------------- */

typedef enum {
	GW_POWER_UNKNOWN = 0,
	GW_POWER_ON,          /* "Powered on" */
	GW_POWER_OFF,         /* "Powered off" */
	GW_POWER_SUSPENDED    /* "Suspended" */
} gw_power;
/* "on", "off", "suspended", "unknown": stable ids for JSON. */
const char *gw_power_id(gw_power p);
/* "powered on" ...: its human name (translated; at most 14 cells). */
const char *gw_power_name(gw_power p);

#endif
