/* samplehost_sysfs.c: a linux sample's /sys tree: the IOMMU units and,
 * per device, its sysfs files, config space, resources and links. */
#include "samplehost_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static void
write_iommu(mk *m, const shost *h)
{
	/* dmar0 and dmar1 of the real dmesg the default cap/ecap come from. */
	static const unsigned long addrs[] = { 0xfbffc000UL, 0xc7ffc000UL };
	unsigned i;

	smp_mk_dirs(m, "sys/class/iommu");
	smp_mk_dirs(m, "sys/kernel/iommu_groups");
	for (i = 0; i < h->units; i++) {
		char *rel, *dev, *target;
		const char *name = h->amd ? "ivhd" : "dmar";

		dev = gw_xasprintf("sys/devices/virtual/iommu/%s%u", name, i);
		smp_mk_dirs(m, dev);
		if (h->amd) {
			rel = gw_xasprintf("%s/amd-iommu", dev);
			smp_mk_dirs(m, rel);
			free(rel);
		} else {
			rel = gw_xasprintf("%s/intel-iommu/cap", dev);
			smp_mk_printf(m, rel, "%llx\n", (unsigned long long)h->cap);
			free(rel);
			rel = gw_xasprintf("%s/intel-iommu/ecap", dev);
			smp_mk_printf(m, rel, "%llx\n", (unsigned long long)h->ecap);
			free(rel);
			rel = gw_xasprintf("%s/intel-iommu/version", dev);
			smp_mk_text(m, rel, "1:0\n");
			free(rel);
			rel = gw_xasprintf("%s/intel-iommu/address", dev);
			smp_mk_printf(m, rel, "%lx\n",
			          i < 2 ? addrs[i] : 0xc7ffc000UL - i * 0x1000000UL);
			free(rel);
		}
		rel = gw_xasprintf("sys/class/iommu/%s%u", name, i);
		target = gw_xasprintf("../../devices/virtual/iommu/%s%u", name,
		                      i);
		smp_mk_link(m, rel, target);
		free(target);
		free(rel);
		free(dev);
	}
}

/* Kernel resource flags and the low bits of the BAR register. */
static void
bar_flags(int kind, uint64_t *flags, unsigned *low)
{
	switch (kind) {
	case BK_MEM32:  *flags = 0x40200;  *low = 0x0; break;
	case BK_MEM32P: *flags = 0x42208;  *low = 0x8; break;
	case BK_MEM64:  *flags = 0x140204; *low = 0x4; break;
	case BK_MEM64P: *flags = 0x14220c; *low = 0xc; break;
	case BK_IO:     *flags = 0x40101;  *low = 0x1; break;
	default:        *flags = 0;        *low = 0;   break;
	}
}

static uint64_t
align_up(uint64_t v, uint64_t a)
{
	return (v + a - 1) & ~(a - 1);
}

/* Next free addresses for BARs given without one. */
typedef struct alloc {
	uint64_t mem32, mem64, io;
} alloc;

static void
write_dev(mk *m, const shost *h, const sdev *d, size_t idx, alloc *al)
{
	unsigned char cfg[256];
	char *dir = gw_xasprintf("sys/devices/pci%04x:00/%s", d->dom, d->bdf);
	char *rel, *t;
	gw_buf res;
	int i, nres = d->bridge ? 17 : 13;

	memset(cfg, 0, sizeof cfg);
	cfg[0x00] = d->vendor & 0xff;
	cfg[0x01] = d->vendor >> 8;
	cfg[0x02] = d->device & 0xff;
	cfg[0x03] = d->device >> 8;
	cfg[0x04] = 0x07;            /* I/O, memory, bus master */
	cfg[0x08] = d->rev & 0xff;
	cfg[0x09] = d->cls & 0xff;
	cfg[0x0a] = (d->cls >> 8) & 0xff;
	cfg[0x0b] = (d->cls >> 16) & 0xff;
	cfg[0x0e] = (d->bridge ? 0x01 : 0x00) | (d->multi ? 0x80 : 0x00);
	if (!d->bridge) {
		cfg[0x2c] = d->subv & 0xff;
		cfg[0x2d] = d->subv >> 8;
		cfg[0x2e] = d->subd & 0xff;
		cfg[0x2f] = d->subd >> 8;
	} else {
		cfg[0x18] = d->bus & 0xff;
		cfg[0x19] = d->secondary & 0xff;
		cfg[0x1a] = d->subordinate & 0xff;
		cfg[0x1c] = 0xf0;        /* I/O, memory and prefetchable     */
		cfg[0x20] = 0xf0;        /* windows closed: base above limit */
		cfg[0x24] = 0xf0;
	}
	cfg[0x3c] = (unsigned char)(16 + idx % 8);
	cfg[0x3d] = 1;               /* INTA; no capability list */

	gw_buf_init(&res);
	for (i = 0; i < 6; i++) {
		const sbar *b = &d->bars[i];
		uint64_t start = 0, flags, reg;
		unsigned low;

		bar_flags(b->kind, &flags, &low);
		if (b->kind == BK_NONE || b->kind == BK_UPPER) {
			gw_buf_puts(&res, "0x0000000000000000 0x0000000000000000 "
			                  "0x0000000000000000\n");
			continue;
		}
		if (b->has_addr) {
			start = b->addr;
		} else if (b->kind == BK_IO) {
			start = align_up(al->io, b->size < 16 ? 16 : b->size);
			al->io = start + (b->size < 16 ? 16 : b->size);
		} else if (b->kind == BK_MEM32 || b->kind == BK_MEM32P) {
			start = align_up(al->mem32, b->size < 4096 ? 4096
			                                           : b->size);
			al->mem32 = start + b->size;
		} else {
			start = align_up(al->mem64, b->size < 4096 ? 4096
			                                           : b->size);
			al->mem64 = start + b->size;
		}
		reg = start | low;
		cfg[0x10 + 4 * i] = reg & 0xff;
		cfg[0x11 + 4 * i] = (reg >> 8) & 0xff;
		cfg[0x12 + 4 * i] = (reg >> 16) & 0xff;
		cfg[0x13 + 4 * i] = (reg >> 24) & 0xff;
		if ((b->kind == BK_MEM64 || b->kind == BK_MEM64P) && i < 5) {
			cfg[0x14 + 4 * i] = (reg >> 32) & 0xff;
			cfg[0x15 + 4 * i] = (reg >> 40) & 0xff;
			cfg[0x16 + 4 * i] = (reg >> 48) & 0xff;
			cfg[0x17 + 4 * i] = (reg >> 56) & 0xff;
		}
		gw_buf_printf(&res, "0x%016llx 0x%016llx 0x%016llx\n",
		              (unsigned long long)start,
		              (unsigned long long)(start + b->size - 1),
		              (unsigned long long)flags);
	}
	for (i = 6; i < nres; i++)   /* ROM, IOV and bridge windows */
		gw_buf_puts(&res, "0x0000000000000000 0x0000000000000000 "
		                  "0x0000000000000000\n");

#define PUT(name, ...) do { \
		rel = gw_xasprintf("%s/%s", dir, name); \
		smp_mk_printf(m, rel, __VA_ARGS__); \
		free(rel); } while (0)
	PUT("vendor", "0x%04x\n", d->vendor);
	PUT("device", "0x%04x\n", d->device);
	PUT("class", "0x%06x\n", d->cls);
	PUT("subsystem_vendor", "0x%04x\n", d->bridge ? 0 : d->subv);
	PUT("subsystem_device", "0x%04x\n", d->bridge ? 0 : d->subd);
	PUT("revision", "0x%02x\n", d->rev);
	PUT("irq", "%u\n", (unsigned)(16 + idx % 8));
	PUT("numa_node", "%s\n", "-1");
	PUT("enable", "%d\n",
	    d->driver && strcmp(d->driver, "vfio-pci") != 0 ? 1 : 0);
	PUT("resource", "%s", res.data);
#undef PUT
	gw_buf_free(&res);
	rel = gw_xasprintf("%s/config", dir);
	smp_mk_file(m, rel, cfg, sizeof cfg, 0644);
	free(rel);

	rel = gw_xasprintf("sys/bus/pci/devices/%s", d->bdf);
	t = gw_xasprintf("../../../devices/pci%04x:00/%s", d->dom, d->bdf);
	smp_mk_link(m, rel, t);
	free(rel);
	free(t);
	if (d->group) {
		rel = gw_xasprintf("%s/iommu_group", dir);
		t = gw_xasprintf("../../../kernel/iommu_groups/%s", d->group);
		smp_mk_link(m, rel, t);
		free(rel);
		free(t);
		rel = gw_xasprintf("sys/kernel/iommu_groups/%s/devices/%s",
		                   d->group, d->bdf);
		t = gw_xasprintf("../../../../devices/pci%04x:00/%s", d->dom,
		                 d->bdf);
		smp_mk_link(m, rel, t);
		free(rel);
		free(t);
		rel = gw_xasprintf("sys/kernel/iommu_groups/%s/type", d->group);
		smp_mk_text(m, rel, strstr(h->cmdline, "iommu=pt") ? "identity\n"
		                                               : "DMA-FQ\n");
		free(rel);
	}
	if (d->driver) {
		char *mod = gw_xstrdup(d->driver), *p;

		rel = gw_xasprintf("sys/bus/pci/drivers/%s/%s", d->driver,
		                   d->bdf);
		t = gw_xasprintf("../../../../devices/pci%04x:00/%s", d->dom,
		                 d->bdf);
		smp_mk_link(m, rel, t);
		free(rel);
		free(t);
		rel = gw_xasprintf("%s/driver", dir);
		t = gw_xasprintf("../../../bus/pci/drivers/%s", d->driver);
		smp_mk_link(m, rel, t);
		free(rel);
		free(t);
		for (p = mod; *p; p++)
			if (*p == '-')
				*p = '_';
		rel = gw_xasprintf("sys/module/%s", mod);
		smp_mk_dirs(m, rel);
		free(rel);
		free(mod);
	}
	free(dir);
}

int
smp_materialise_linux(const char *scratch, const shost *h, gw_err *e)
{
	char *root = gw_xasprintf("%s/root", scratch);
	mk m;
	alloc al = { 0x90000000ULL, 0x38000000000ULL, 0x1000ULL };
	size_t i;

	m.root = root;
	m.e = e;
	m.failed = 0;
	if (mkdir(root, 0755) != 0) {
		smp_mk_fail(&m, MK_CREATE, root);
		free(root);
		return -1;
	}
	smp_write_proc(&m, h);
	smp_mk_dirs(&m, "sys/bus/pci/devices");
	smp_mk_dirs(&m, "sys/bus/pci/drivers");
	smp_mk_dirs(&m, "sys/firmware/acpi/tables");
	smp_mk_dirs(&m, "sys/module");
	smp_write_acpi(&m, h);
	write_iommu(&m, h);
	for (i = 0; i < h->ndevs; i++)
		write_dev(&m, h, &h->devs[i], i, &al);
	free(root);
	return m.failed ? -1 : 0;
}
