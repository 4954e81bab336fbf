/* SPDX-License-Identifier: GPL-3.0-or-later */
/* fakehost.h: fake Linux hosts for the unit tests (test_linux.c,
 * test_wizard.c).  A host is built under a tu_tmpdir() from a small
 * description: the real sysfs layout per PCI device
 * (sys/devices/pci0000:00/BDF with config, resource, vendor, device,
 * class, subsystem_*, irq; the sys/bus/pci/devices/BDF link; iommu_group
 * and driver links; the sys/kernel/iommu_groups/N/devices links),
 * /proc/cpuinfo, /proc/cmdline, /proc/interrupts, the Intel IOMMU units'
 * ecap and the ACPI DMAR/IVRS table
 * (tests/fixtures/README.md, "Fake Linux hosts").  Include after
 * testutil.h.
 */
#ifndef GW_TEST_FAKEHOST_H
#define GW_TEST_FAKEHOST_H

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- building a fake host -------------------------------------------- */

static inline void
mkdirs(const char *root, const char *rel)
{
	char *p = gw_xasprintf("%s/%s", root, rel), *s;

	for (s = p + strlen(root) + 1; *s; s++)
		if (*s == '/') {
			*s = '\0';
			mkdir(p, 0755);
			*s = '/';
		}
	mkdir(p, 0755);
	free(p);
}

static inline void
put_file(const char *root, const char *rel, const void *data, size_t len)
{
	char *p = gw_xasprintf("%s/%s", root, rel);
	char *dir = gw_xstrdup(rel), *sl = strrchr(dir, '/');
	FILE *f;

	if (sl) {
		*sl = '\0';
		mkdirs(root, dir);
	}
	free(dir);
	f = fopen(p, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(data, 1, len, f), len);
	fclose(f);
	free(p);
}

static inline void
put_text(const char *root, const char *rel, const char *text)
{
	put_file(root, rel, text, strlen(text));
}

static inline void
put_link(const char *root, const char *rel, const char *target)
{
	char *p = gw_xasprintf("%s/%s", root, rel);
	char *dir = gw_xstrdup(rel), *sl = strrchr(dir, '/');

	if (sl) {
		*sl = '\0';
		mkdirs(root, dir);
	}
	free(dir);
	assert_int_equal(symlink(target, p), 0);
	free(p);
}

enum { B_NONE, B_MEM32, B_MEM64P, B_IO };

typedef struct fbar {
	int kind;
	uint64_t size;
} fbar;

typedef struct fdev {
	const char *bdf;
	unsigned vendor, device, cls, subv, subd;
	fbar bars[6];        /* a 64-bit BAR takes the next slot too */
	const char *group;   /* NULL: no iommu_group link */
	const char *driver;  /* NULL: none bound */
} fdev;

/* One PCI function with a consistent config space and resource file. */
static inline void
add_dev(const char *root, const fdev *d)
{
	unsigned char cfg[64];
	char *dir = gw_xasprintf("sys/devices/pci0000:00/%s", d->bdf);
	char *rel, *t;
	gw_buf res;
	uint64_t addr_mem = 0xf0000000ULL, addr_64 = 0x38000000000ULL;
	unsigned addr_io = 0xe000;
	int i;

	memset(cfg, 0, sizeof cfg);
	cfg[0] = d->vendor & 0xff;
	cfg[1] = d->vendor >> 8;
	cfg[2] = d->device & 0xff;
	cfg[3] = d->device >> 8;
	cfg[4] = 0x07;
	cfg[9] = d->cls & 0xff;
	cfg[10] = (d->cls >> 8) & 0xff;
	cfg[11] = (d->cls >> 16) & 0xff;
	cfg[14] = 0x80;    /* type 0, multi-function */
	cfg[0x2c] = d->subv & 0xff;
	cfg[0x2d] = d->subv >> 8;
	cfg[0x2e] = d->subd & 0xff;
	cfg[0x2f] = d->subd >> 8;
	gw_buf_init(&res);
	for (i = 0; i < 6; i++) {
		const fbar *b = &d->bars[i];
		uint64_t start = 0, flags = 0, reg = 0;

		switch (b->kind) {
		case B_MEM32:
			start = addr_mem;
			addr_mem += b->size;
			flags = 0x40200;
			reg = start;
			break;
		case B_MEM64P:
			addr_64 = (addr_64 + b->size - 1) & ~(b->size - 1);
			start = addr_64;
			addr_64 += b->size;
			flags = 0x14220c;
			reg = start | 0xc;
			break;
		case B_IO:
			start = addr_io;
			addr_io += 0x100;
			flags = 0x40101;
			reg = start | 1;
			break;
		default:
			break;
		}
		cfg[0x10 + 4 * i] = reg & 0xff;
		cfg[0x11 + 4 * i] = (reg >> 8) & 0xff;
		cfg[0x12 + 4 * i] = (reg >> 16) & 0xff;
		cfg[0x13 + 4 * i] = (reg >> 24) & 0xff;
		if (b->kind == B_MEM64P && i < 5) {
			cfg[0x14 + 4 * i] = (reg >> 32) & 0xff;
			cfg[0x15 + 4 * i] = (reg >> 40) & 0xff;
			cfg[0x16 + 4 * i] = (reg >> 48) & 0xff;
			cfg[0x17 + 4 * i] = (reg >> 56) & 0xff;
		}
		if (b->kind == B_NONE)
			gw_buf_puts(&res, "0x0000000000000000 0x0000000000000000 "
			                  "0x0000000000000000\n");
		else
			gw_buf_printf(&res, "0x%016llx 0x%016llx 0x%016llx\n",
			              (unsigned long long)start,
			              (unsigned long long)(start + b->size - 1),
			              (unsigned long long)flags);
	}
	for (i = 6; i < 13; i++)   /* ROM + IOV resources */
		gw_buf_puts(&res, "0x0000000000000000 0x0000000000000000 "
		                  "0x0000000000000000\n");

#define PUT(name, ...) do { \
		rel = gw_xasprintf("%s/%s", dir, name); \
		t = gw_xasprintf(__VA_ARGS__); \
		put_text(root, rel, t); \
		free(t); free(rel); } while (0)
	PUT("vendor", "0x%04x\n", d->vendor);
	PUT("device", "0x%04x\n", d->device);
	PUT("class", "0x%06x\n", d->cls);
	PUT("subsystem_vendor", "0x%04x\n", d->subv);
	PUT("subsystem_device", "0x%04x\n", d->subd);
	PUT("irq", "%s", "16\n");
	PUT("resource", "%s", res.data);
#undef PUT
	gw_buf_free(&res);
	rel = gw_xasprintf("%s/config", dir);
	put_file(root, rel, cfg, sizeof cfg);
	free(rel);

	rel = gw_xasprintf("sys/bus/pci/devices/%s", d->bdf);
	t = gw_xasprintf("../../../devices/pci0000:00/%s", d->bdf);
	put_link(root, rel, t);
	free(rel);
	free(t);
	if (d->group) {
		rel = gw_xasprintf("%s/iommu_group", dir);
		t = gw_xasprintf("../../../kernel/iommu_groups/%s", d->group);
		put_link(root, rel, t);
		free(rel);
		free(t);
		rel = gw_xasprintf("sys/kernel/iommu_groups/%s/devices/%s",
		                   d->group, d->bdf);
		t = gw_xasprintf("../../../../devices/pci0000:00/%s", d->bdf);
		put_link(root, rel, t);
		free(rel);
		free(t);
	}
	if (d->driver) {
		rel = gw_xasprintf("sys/bus/pci/drivers/%s", d->driver);
		mkdirs(root, rel);
		free(rel);
		rel = gw_xasprintf("%s/driver", dir);
		t = gw_xasprintf("../../../bus/pci/drivers/%s", d->driver);
		put_link(root, rel, t);
		free(rel);
		free(t);
	}
	free(dir);
}

typedef enum { CPU_INTEL, CPU_AMD, CPU_NOVIRT } cpu_kind;

typedef struct fhost {
	cpu_kind cpu;
	const char *acpi;     /* "DMAR", "IVRS" or NULL */
	const char *cmdline;
	int iommu_units;      /* entries in /sys/class/iommu */
} fhost;

/* A /proc/interrupts as the kernel prints it for two CPUs.  The chip
 * column of the IO-APIC and MSI interrupts has the IR- prefix when they
 * are remapped; the Intel host has an older kernel (one PCI-MSI domain:
 * "IR-PCI-MSI 1048576-edge") and the DMAR fault interrupt, the AMD one a
 * newer kernel (per-device MSI domains: "IR-PCI-MSIX-0000:02:00.0"). */
static inline void
put_interrupts(const char *root, int remapped, int intel)
{
	const char *ir = remapped ? "IR-" : "";
	char *t;

	t = gw_xasprintf(
	    "            CPU0       CPU1       \n"
	    "   0:         44          0   %sIO-APIC    2-edge      timer\n"
	    "   8:          0          0   %sIO-APIC    8-edge      rtc0\n"
	    "   9:          0          0   %sIO-APIC    9-fasteoi   acpi\n"
	    "%s"
	    " 122:          0     183211   %s%s      nvme0q0\n"
	    " NMI:          0          0   Non-maskable interrupts\n"
	    " LOC:    1234567    1234321   Local timer interrupts\n"
	    " ERR:          0\n",
	    ir, ir, ir,
	    intel ? " 120:          0          0   DMAR-MSI    0-edge      "
	            "dmar0\n" : "",
	    ir, intel ? "PCI-MSI 1048576-edge"
	              : "PCI-MSIX-0000:02:00.0    0-edge");
	put_text(root, "proc/interrupts", t);
	free(t);
}

static inline void
add_host(const char *root, const fhost *h)
{
	const char *vendor = h->cpu == CPU_AMD ? "AuthenticAMD"
	                                       : "GenuineIntel";
	const char *flag = h->cpu == CPU_INTEL ? " vmx"
	                 : h->cpu == CPU_AMD ? " svm" : "";
	char *t, *rel;
	int i;

	t = gw_xasprintf("processor\t: 0\nvendor_id\t: %s\n"
	                 "flags\t\t: fpu vme de pse tsc msr pae%s sse sse2\n\n"
	                 "processor\t: 1\nvendor_id\t: %s\n"
	                 "flags\t\t: fpu vme de pse tsc msr pae%s sse sse2\n",
	                 vendor, flag, vendor, flag);
	put_text(root, "proc/cpuinfo", t);
	free(t);
	t = gw_xasprintf("%s\n", h->cmdline);
	put_text(root, "proc/cmdline", t);
	free(t);
	mkdirs(root, "sys/bus/pci/devices");
	mkdirs(root, "sys/kernel/iommu_groups");
	mkdirs(root, "sys/class/iommu");
	mkdirs(root, "sys/firmware/acpi/tables");
	if (h->acpi) {
		rel = gw_xasprintf("sys/firmware/acpi/tables/%s", h->acpi);
		put_text(root, rel, h->acpi);
		free(rel);
	}
	for (i = 0; i < h->iommu_units; i++) {
		rel = gw_xasprintf("sys/class/iommu/%s%d",
		                   h->cpu == CPU_AMD ? "ivhd" : "dmar", i);
		mkdirs(root, rel);
		free(rel);
	}
	/* as a real host shows it: remapped when it has IOMMU units */
	put_interrupts(root, h->iommu_units > 0, h->cpu != CPU_AMD);
}

/* Change what add_host wrote: no /proc/interrupts at all. */
static inline void
drop_interrupts(const char *root)
{
	char *p = gw_xasprintf("%s/proc/interrupts", root);

	assert_int_equal(unlink(p), 0);
	free(p);
}

/* The ecap file of Intel unit dmarN (add_host writes none), hex without
 * 0x as the kernel prints it: bit 3 (IR, interrupt remapping) is set in
 * f050da and clear in f050d2. */
static inline void
put_ecap(const char *root, int unit, int ir)
{
	char *rel = gw_xasprintf("sys/class/iommu/dmar%d/intel-iommu/ecap",
	                         unit);

	put_text(root, rel, ir ? "f050da\n" : "f050d2\n");
	free(rel);
}

/* Devices shared by several tests. */
#define GPU_BARS_ADA(bar1) { { B_MEM32, 16u << 20 }, { B_MEM64P, bar1 }, \
	{ B_NONE, 0 }, { B_MEM64P, 32u << 20 }, { B_NONE, 0 }, { B_IO, 128 } }
#define GiB (1ULL << 30)

/* rm -r root and free it (root is a tu_tmpdir() or the like). */
static inline void
rm_tree(char *root)
{
	tu_rm_tree(root);
	free(root);
}

#endif
