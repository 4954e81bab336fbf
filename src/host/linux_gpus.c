/* SPDX-License-Identifier: GPL-3.0-or-later */
/* linux_gpus.c: gpuwiz gpus's data (linux.h): display-class devices
 * through libpci's sysfs back end pointed at SYSROOT/sys/bus/pci, their
 * IOMMU group-mates, and the MMIO size for all of them in one VM
 * (mmio.h); and whether there is a GPU at all (the wizard's first
 * screen): /proc/bus/pci/devices and the class of a GPU maker's
 * functions, else each device's class file.  libpci's error handler would
 * exit(), so ours longjmps back and the failure becomes an input error.
 * libpci is opened on the first scan, not linked: it and the libraries it
 * loads (libudev, zlib) would cost every start of the program a third of
 * a millisecond (doc/benchmarks.md), and only a scan uses it.
 */
#include "linux_int.h"

#include <dirent.h>
#include <dlfcn.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pci/pci.h>

/* ---- gpuwiz gpus ------------------------------------------------------ */

typedef gw_gpu_bar gpu_bar;
typedef gw_gpu_dev gpu_info;

typedef struct gpu_list {
	gpu_info *g;
	size_t n;
} gpu_list;

void
gw_gpu_devs_free(gw_gpu_dev *gs, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		gpu_info *g = &gs[i];

		free(g->bdf);
		free(g->name);
		free(g->group);
		gw_strs_free(g->mates, g->nmates);
		gw_strs_free(g->foreign, g->nforeign);
		free(g->driver);
		free(g->configured_owner);
		free(g->current_owner);
	}
	free(gs);
}

static void
gpu_list_free(gpu_list *l)
{
	gw_gpu_devs_free(l->g, l->n);
	l->g = NULL;
	l->n = 0;
}

/* ---- libpci, opened on first use ---------------------------------------- */

/* The library's soname since pciutils 3.0; its ABI keeps the functions
 * and grows struct pci_access and struct pci_dev (which it allocates) at
 * their ends only.  Each function is the library's default version, the
 * one the link editor would bind. */
#define LIBPCI_SONAME "libpci.so.3"

static struct {
	int tried;
	void *h;
	struct pci_access *(*alloc)(void);
	void (*cleanup)(struct pci_access *);
	int (*set_param)(struct pci_access *, char *, char *);
	void (*init)(struct pci_access *);
	void (*scan_bus)(struct pci_access *);
	int (*fill_info)(struct pci_dev *, int);
	char *(*lookup_name)(struct pci_access *, char *, int, int, ...);
} lp;

/* 0 when libpci is open (kept open to the end of the program); else -1
 * with e set. */
static int
libpci_open(gw_err *e)
{
	/* each function and the member it goes to */
	static const struct {
		const char *name;
		void *member;
	} fn[] = {
		{ "pci_alloc", &lp.alloc }, { "pci_cleanup", &lp.cleanup },
		{ "pci_set_param", &lp.set_param }, { "pci_init", &lp.init },
		{ "pci_scan_bus", &lp.scan_bus }, { "pci_fill_info", &lp.fill_info },
		{ "pci_lookup_name", &lp.lookup_name },
	};
	static char why[256];

	if (!lp.tried) {
		void *h, *f = NULL;
		size_t i;

		lp.tried = 1;
		if ((h = dlopen(LIBPCI_SONAME, RTLD_NOW | RTLD_LOCAL)) == NULL) {
			snprintf(why, sizeof why, "%s", dlerror());
		} else {
			/* ISO C has no cast from void * to a function pointer;
			 * POSIX (dlsym) makes the copy valid */
			for (i = 0; i < sizeof fn / sizeof *fn &&
			     (f = dlsym(h, fn[i].name)) != NULL; i++)
				memcpy(fn[i].member, &f, sizeof f);
			if (f == NULL) {
				/* lp.h stays NULL: no member is called */
				snprintf(why, sizeof why, "%s", dlerror());
				dlclose(h);
			} else {
				lp.h = h;
			}
		}
	}
	if (lp.h == NULL) {
		/* TRANSLATORS: %s the library's file name, then why. */
		gw_err_set(e, _("cannot open the PCI library %s: %s"), LIBPCI_SONAME, why);
		return -1;
	}
	return 0;
}

static jmp_buf pci_jmp;
static char pci_msg[512];

static void __attribute__((noreturn)) GW_PRINTF(1, 2)
pci_error_cb(char *msg, ...)
{
	va_list ap;

	va_start(ap, msg);
	vsnprintf(pci_msg, sizeof pci_msg, msg, ap);
	va_end(ap);
	longjmp(pci_jmp, 1);
}

static void GW_PRINTF(1, 2)
pci_quiet_cb(char *msg, ...)
{
	(void)msg;
}

/* Group-mates of g and which of them are foreign. */
static void
fill_group(const char *root, gpu_info *g)
{
	char *dir = gw_xasprintf("%s/sys/kernel/iommu_groups/%s/devices", root,
	                         g->group);
	char **names;
	size_t n, i;

	if (gw_linux_list_dir(dir, &names, &n) != 0) {
		free(dir);
		return;
	}
	for (i = 0; i < n; i++) {
		unsigned dom, bus, dev, fn;
		char *p;
		long cls;

		if (strcmp(names[i], g->bdf) == 0)
			continue;
		g->mates = gw_xrealloc(g->mates,
		                       (g->nmates + 1) * sizeof *g->mates);
		g->mates[g->nmates++] = gw_xstrdup(names[i]);
		if (sscanf(names[i], "%x:%x:%x.%x", &dom, &bus, &dev, &fn) == 4 &&
		    dom == g->dom && bus == g->bus && dev == g->dev)
			continue;    /* another function of the same card */
		p = gw_xasprintf("%s/%s/class", dir, names[i]);
		cls = gw_linux_read_hex(p);
		free(p);
		if (cls >= 0 && ((cls >> 8) & 0xffff) == 0x0604)
			continue;    /* a PCI bridge / root port: vfio allows it */
		g->foreign = gw_xrealloc(g->foreign,
		                         (g->nforeign + 1) * sizeof *g->foreign);
		g->foreign[g->nforeign++] = gw_xstrdup(names[i]);
	}
	gw_strs_free(names, n);
	free(dir);
}

static int
cmp_gpu(const void *a, const void *b)
{
	return strcmp(((const gpu_info *)a)->bdf, ((const gpu_info *)b)->bdf);
}

/* Name and table row of g: the table's, else pci.ids's. */
static void
gpu_name(const gw_table *t, struct pci_access *acc, gpu_info *g)
{
	const gw_gpu *row;

	row = t ? gw_table_find_pci(t, g->vendor, g->device, g->subvendor,
	                            g->subdevice, &g->ambiguous)
	        : NULL;
	g->row = row;
	g->onboard = gw_is_onboard_display(g->vendor);
	g->vram_gb = row ? row->vram_gb : -1;
	if (row) {
		g->name = gw_xstrdup(row->name);
	} else {
		char nb[256];
		char *nm = lp.lookup_name(acc, nb, sizeof nb,
		                          PCI_LOOKUP_DEVICE |
		                          PCI_LOOKUP_NO_NUMBERS,
		                          g->vendor, g->device);

		g->name = nm && *nm ? gw_xstrdup(nm) : NULL;
	}
}

/* The BARs of d that have a size. */
static void
gpu_bars(const struct pci_dev *d, gpu_info *g)
{
	int k;

	for (k = 0; k < 6; k++) {
		pciaddr_t fl = d->flags[k], ba = d->base_addr[k];
		gpu_bar *b;

		if (d->size[k] == 0)
			continue;
		b = &g->bars[g->nbars++];
		b->index = k;
		b->size = (uint64_t)d->size[k];
		b->io = (fl & PCI_IORESOURCE_IO) ||
		        (!(fl & PCI_IORESOURCE_MEM) &&
		         (ba & PCI_BASE_ADDRESS_SPACE_IO));
		if (!b->io) {
			b->is64 = (fl & PCI_IORESOURCE_MEM_64) ||
			          (ba & PCI_BASE_ADDRESS_MEM_TYPE_MASK) ==
			              PCI_BASE_ADDRESS_MEM_TYPE_64;
			b->pref = (fl & PCI_IORESOURCE_PREFETCH) ||
			          (ba & PCI_BASE_ADDRESS_MEM_PREFETCH);
		}
	}
}

/* Append the display-class device d to out. */
static void
add_gpu(const gw_table *t, struct pci_access *acc, const char *busdir,
        struct pci_dev *d, gpu_list *out)
{
	gpu_info *g;
	char *p;

	out->g = gw_xrealloc(out->g, (out->n + 1) * sizeof *out->g);
	g = &out->g[out->n++];
	gw_gpu_dev_init(g);
	g->dom = (unsigned)d->domain;
	g->bus = d->bus;
	g->dev = d->dev;
	g->fn = d->func;
	g->bdf = gw_xasprintf("%04x:%02x:%02x.%x", g->dom, g->bus, g->dev,
	                      g->fn);
	g->vendor = d->vendor_id;
	g->device = d->device_id;
	if (d->known_fields & PCI_FILL_SUBSYS) {
		g->subvendor = d->subsys_vendor_id;
		g->subdevice = d->subsys_id;
		g->subsys_known = 1;
	}
	gpu_name(t, acc, g);
	gpu_bars(d, g);
	p = gw_xasprintf("%s/devices/%s/iommu_group", busdir, g->bdf);
	g->group = gw_linux_link_base(p);
	free(p);
	p = gw_xasprintf("%s/devices/%s/driver", busdir, g->bdf);
	g->driver = gw_linux_link_base(p);
	free(p);
}

/* The display-class devices through libpci.  -1 with e set when libpci
 * fails. */
static int
scan_gpus(const gw_table *t, const char *root, const char *busdir,
          gpu_list *out, gw_err *e)
{
	struct pci_access *volatile acc = NULL;
	char *volatile pathbuf = gw_xstrdup(busdir);
	struct pci_dev *d;
	size_t i;

	if (libpci_open(e) != 0) {
		free(pathbuf);
		return -1;
	}
	acc = lp.alloc();
	acc->error = pci_error_cb;
	acc->warning = pci_quiet_cb;
	acc->debug = pci_quiet_cb;
	if (setjmp(pci_jmp) != 0) {
		gw_err_set(e, _("%s: cannot read the PCI devices: %s"), busdir,
		           pci_msg);
		gpu_list_free(out);
		lp.cleanup(acc);
		free(pathbuf);
		return -1;
	}
	acc->method = PCI_ACCESS_SYS_BUS_PCI;
	if (lp.set_param(acc, "sysfs.path", pathbuf) != 0)
		pci_error_cb("no sysfs.path parameter");
	lp.init(acc);
	lp.scan_bus(acc);
	for (d = acc->devices; d; d = d->next) {
		lp.fill_info(d, PCI_FILL_IDENT | PCI_FILL_CLASS |
		                PCI_FILL_BASES | PCI_FILL_SIZES |
		                PCI_FILL_IO_FLAGS | PCI_FILL_SUBSYS);
		if ((d->device_class >> 8) == 0x03)
			add_gpu(t, acc, busdir, d, out);
	}
	lp.cleanup(acc);
	free(pathbuf);
	for (i = 0; i < out->n; i++)
		if (out->g[i].group)
			fill_group(root, &out->g[i]);
	if (out->n > 1)
		qsort(out->g, out->n, sizeof *out->g, cmp_gpu);
	return 0;
}

int
gw_linux_gpus(const gw_table *t, const char *sysroot, gw_gpu_dev **out,
              size_t *n, gw_err *e)
{
	char *root, *busdir, *devdir;
	gpu_list l = { NULL, 0 };
	int rc = 0;

	*out = NULL;
	*n = 0;
	root = gw_linux_root(sysroot, e);
	if (root == NULL)
		return -1;
	busdir = gw_xasprintf("%s/sys/bus/pci", root);
	devdir = gw_xasprintf("%s/devices", busdir);
	if (!gw_linux_is_dir(devdir)) {
		gw_err_set(e, _("%s: no such directory; expected the sysfs PCI "
		                "devices of a Linux host"), devdir);
		rc = -1;
	} else if (scan_gpus(t, root, busdir, &l, e) != 0) {
		rc = -1;
	} else {
		*out = l.g;
		*n = l.n;
	}
	free(devdir);
	free(busdir);
	free(root);
	return rc;
}

/* Is the device devdir/name a display (its class file)? */
static int
is_display(const char *devdir, const char *name)
{
	char *p = gw_xasprintf("%s/%s/class", devdir, name);
	long cls = gw_linux_read_hex(p);

	free(p);
	return cls < 0 ? -1 : ((cls >> 16) & 0xff) == 0x03;
}

/* Is it a GPU: a display (its class file) from a GPU maker (its vendor
 * file)?  -1 when the class file cannot be read. */
static int
is_gpu(const char *devdir, const char *name)
{
	int r = is_display(devdir, name);
	char *p;
	long vendor;

	if (r != 1)
		return r;
	p = gw_xasprintf("%s/%s/vendor", devdir, name);
	vendor = gw_linux_read_hex(p);
	free(p);
	return vendor >= 0 && gw_is_gpu_maker((unsigned)vendor);
}

/* The question from ROOT/proc/bus/pci/devices, one file for every
 * function's vendor (as libpci's proc back end scans), and the class file
 * of the GPU makers' functions only: 1 or 0, or -1 when that file cannot
 * answer (missing, unreadable or not the kernel's lines: containers and
 * sysroots without it; a GPU maker's function outside PCI domain 0000,
 * which the file does not name) and the sysfs walk must.  At most its
 * first max lines (0: all): when more follow, only a function that sysfs
 * shows under 0000: as a GPU maker's display answers (the lines read
 * cannot tell which domain a function is in), else -2. */
static int
has_gpu_proc(const char *root, const char *devdir, size_t max)
{
	char *p = gw_xasprintf("%s/proc/bus/pci/devices", root);
	FILE *f = fopen(p, "re");
	unsigned *keys;
	size_t n, i;
	int dup, r, more;

	free(p);
	if (f == NULL)
		return -1;
	/* the scan reads blocks of its own: no copy through stdio's buffer */
	setvbuf(f, NULL, _IONBF, 0);
	more = gw_linux_scan_pci_devices(f, max, &keys, &n, &dup);
	fclose(f);
	if (more < 0 || (!more && dup)) {
		free(keys);
		return -1;
	}
	for (i = 0, r = 0; i < n && r == 0; i++) {
		char name[16];

		snprintf(name, sizeof name, "0000:%02x:%02x.%x",
		         (keys[i] >> 8) & 0xff, (keys[i] >> 3) & 0x1f,
		         keys[i] & 7);
		if (!more)
			r = is_display(devdir, name);
		else if (is_gpu(devdir, name) == 1)
			r = 1;
	}
	free(keys);
	return r == 0 && more ? -2 : r;
}

/* The question from each device's class file (its vendor only for a
 * display): the walk where /proc/bus/pci/devices cannot answer.  At most
 * max devices (0: all), else -2. */
static int
has_gpu_sysfs(const char *devdir, size_t max, gw_err *e)
{
	struct dirent *de;
	DIR *d;
	size_t seen = 0;
	int found = 0;

	if ((d = opendir(devdir)) == NULL) {
		gw_err_set(e, _("%s: no such directory; expected the sysfs PCI "
		                "devices of a Linux host"), devdir);
		return -1;
	}
	while (!found && (de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		if (max > 0 && seen++ == max)
			found = -2;     /* a device past max: cannot tell */
		else
			found = is_gpu(devdir, de->d_name) == 1;
	}
	closedir(d);
	return found;
}

int
gw_linux_has_gpu(const char *sysroot, size_t max, gw_err *e)
{
	char *root, *devdir;
	int r;

	if ((root = gw_linux_root(sysroot, e)) == NULL)
		return -1;
	devdir = gw_xasprintf("%s/sys/bus/pci/devices", root);
	r = gw_linux_is_dir(devdir) ? has_gpu_proc(root, devdir, max) : -1;
	if (r == -1)
		r = has_gpu_sysfs(devdir, max, e);
	free(devdir);
	free(root);
	return r;
}

uint64_t
gw_gpu_dev_bar_gb(const gw_gpu_dev *g)
{
	uint64_t bars[6], gb;
	size_t nb = 0;
	int k;
	gw_err me;

	for (k = 0; k < g->nbars && k < 6; k++)
		if (g->bars[k].is64)
			bars[nb++] = g->bars[k].size;
	if (nb == 0 || gw_mmio_bars(bars, nb, &gb, &me) != 0)
		return 0;
	return gw_mmio_bytes_gb(gb);
}
