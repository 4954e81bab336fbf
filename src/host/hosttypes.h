/* hosttypes.h: what every back end of host.h returns, whatever reaches
 * the host: a GPU device (gw_gpu_dev: through libpci on Linux, from
 * esxcli on the ESXi shell, from the inventory through the API), a VM
 * (gw_vm: a row of vim-cmd vmsvc/getallvms, or an API VM with Vmid =
 * position + 1) and its power state (gw_power).  A check row is a
 * gw_finding (finding.h) of topic GW_TOPIC_HOST.  The parsers and probes
 * that fill them are declared in linux.h and esxi.h. */
#ifndef GW_HOSTTYPES_H
#define GW_HOSTTYPES_H

#include "gw.h"
#include "gputable.h"

#include <stdint.h>

/* ---- a GPU device ---------------------------------------------------- */

typedef struct gw_gpu_bar {
	int index;        /* BAR number 0..5 */
	uint64_t size;    /* bytes */
	int is64, pref, io;
} gw_gpu_bar;

/* A display-class PCI device as gpuwiz gpus lists it. */
typedef struct gw_gpu_dev {
	char *bdf;                 /* "0000:41:00.0" */
	unsigned dom, bus, dev, fn;
	unsigned vendor, device, subvendor, subdevice;
	const gw_gpu *row;         /* the table's row, NULL when unknown */
	char *name;                /* the table's name, else pci.ids; or NULL */
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
} gw_gpu_dev;
/* Free n devices and the array. */
void gw_gpu_devs_free(gw_gpu_dev *g, size_t n);
/* The BAR need of g's 64-bit BARs in GB (rounded up; gw_mmio_bars), the
 * size gpuwiz gpus uses when the VRAM is unknown; 0 when g has no 64-bit
 * BAR or the need cannot be computed. */
uint64_t gw_gpu_dev_bar_gb(const gw_gpu_dev *g);

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
} gw_vm;

typedef struct gw_vm_list {
	gw_vm *vms;
	size_t n;
	unsigned long *skipped;   /* Vmids of "Skipping invalid VM" lines */
	size_t nskipped;
} gw_vm_list;
void gw_vm_list_free(gw_vm_list *l);
const gw_vm *gw_vm_find(const gw_vm_list *l,
                                  unsigned long vmid);

/* ---- its power state --------------------------------------------------- */

typedef enum {
	GW_POWER_UNKNOWN = 0,
	GW_POWER_ON,          /* "Powered on" */
	GW_POWER_OFF,         /* "Powered off" */
	GW_POWER_SUSPENDED    /* "Suspended" */
} gw_power;
/* "on", "off", "suspended", "unknown": stable ids for JSON. */
const char *gw_power_id(gw_power p);

#endif
