/* SPDX-License-Identifier: GPL-3.0-or-later */
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

/* The first 64 bytes of the config space but the BARs: ids, command,
 * revision, class, header type, bus numbers and closed windows (bridge)
 * or subsystem ids, interrupt line and pin. */
static void
dev_config(const sdev *d, size_t idx, unsigned char cfg[256])
{
	memset(cfg, 0, 256);
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
}

/* Where BAR b starts: its address, else the next free one of its kind. */
static uint64_t
bar_place(const sbar *b, alloc *al)
{
	uint64_t start;

	if (b->has_addr)
		return b->addr;
	if (b->kind == BK_IO) {
		start = align_up(al->io, b->size < 16 ? 16 : b->size);
		al->io = start + (b->size < 16 ? 16 : b->size);
	} else if (b->kind == BK_MEM32 || b->kind == BK_MEM32P) {
		start = align_up(al->mem32, b->size < 4096 ? 4096 : b->size);
		al->mem32 = start + b->size;
	} else {
		start = align_up(al->mem64, b->size < 4096 ? 4096 : b->size);
		al->mem64 = start + b->size;
	}
	return start;
}

/* n bytes of v, little-endian, at cfg + off. */
static void
put_le(unsigned char *cfg, size_t off, uint64_t v, int n)
{
	for (int k = 0; k < n; k++)
		cfg[off + (size_t)k] = (v >> (8 * k)) & 0xff;
}

static const char no_resource[] =
	"0x0000000000000000 0x0000000000000000 0x0000000000000000\n";

/* The BAR registers into cfg and the lines of the resource file into
 * res (nres lines). */
static void
dev_bars(const sdev *d, alloc *al, unsigned char cfg[256], gw_buf *res)
{
	int i, nres = d->bridge ? 17 : 13;

	for (i = 0; i < 6; i++) {
		const sbar *b = &d->bars[i];
		uint64_t start, flags;
		unsigned low;

		bar_flags(b->kind, &flags, &low);
		if (b->kind == BK_NONE || b->kind == BK_UPPER) {
			gw_buf_puts(res, no_resource);
			continue;
		}
		start = bar_place(b, al);
		put_le(cfg, 0x10 + 4 * (size_t)i, start | low, 4);
		if ((b->kind == BK_MEM64 || b->kind == BK_MEM64P) && i < 5)
			put_le(cfg, 0x14 + 4 * (size_t)i, (start | low) >> 32, 4);
		gw_buf_printf(res, "0x%016llx 0x%016llx 0x%016llx\n",
		              (unsigned long long)start,
		              (unsigned long long)(start + b->size - 1),
		              (unsigned long long)flags);
	}
	for (i = 6; i < nres; i++)   /* ROM, IOV and bridge windows */
		gw_buf_puts(res, no_resource);
}

/* The device's own sysfs files. */
static void
dev_files(mk *m, const char *dir, const sdev *d, size_t idx,
          const unsigned char cfg[256], const char *res)
{
	char *rel;

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
	PUT("resource", "%s", res);
#undef PUT
	rel = gw_xasprintf("%s/config", dir);
	smp_mk_file(m, rel, cfg, 256, 0644);
	free(rel);
}

/* smp_mk_link, rel and target freed. */
static void
link_own(mk *m, char *rel, char *target)
{
	smp_mk_link(m, rel, target);
	free(rel);
	free(target);
}

/* The bus link, the IOMMU group and the driver. */
static void
dev_links(mk *m, const shost *h, const sdev *d, const char *dir)
{
	char *rel, *p;

	link_own(m, gw_xasprintf("sys/bus/pci/devices/%s", d->bdf),
	         gw_xasprintf("../../../devices/pci%04x:00/%s", d->dom, d->bdf));
	if (d->group) {
		link_own(m, gw_xasprintf("%s/iommu_group", dir),
		         gw_xasprintf("../../../kernel/iommu_groups/%s", d->group));
		link_own(m, gw_xasprintf("sys/kernel/iommu_groups/%s/devices/%s",
		                         d->group, d->bdf),
		         gw_xasprintf("../../../../devices/pci%04x:00/%s", d->dom,
		                      d->bdf));
		rel = gw_xasprintf("sys/kernel/iommu_groups/%s/type", d->group);
		smp_mk_text(m, rel, strstr(h->cmdline, "iommu=pt") ? "identity\n"
		                                                   : "DMA-FQ\n");
		free(rel);
	}
	if (d->driver) {
		link_own(m, gw_xasprintf("sys/bus/pci/drivers/%s/%s", d->driver,
		                         d->bdf),
		         gw_xasprintf("../../../../devices/pci%04x:00/%s", d->dom,
		                      d->bdf));
		link_own(m, gw_xasprintf("%s/driver", dir),
		         gw_xasprintf("../../../bus/pci/drivers/%s", d->driver));
		/* the module of the driver: '-' written '_' */
		rel = gw_xasprintf("sys/module/%s", d->driver);
		for (p = rel + strlen("sys/module/"); *p; p++)
			if (*p == '-')
				*p = '_';
		smp_mk_dirs(m, rel);
		free(rel);
	}
}

static void
write_dev(mk *m, const shost *h, const sdev *d, size_t idx, alloc *al)
{
	unsigned char cfg[256];
	char *dir = gw_xasprintf("sys/devices/pci%04x:00/%s", d->dom, d->bdf);
	gw_buf res;

	dev_config(d, idx, cfg);
	gw_buf_init(&res);
	dev_bars(d, al, cfg, &res);
	dev_files(m, dir, d, idx, cfg, res.data);
	gw_buf_free(&res);
	dev_links(m, h, d, dir);
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
