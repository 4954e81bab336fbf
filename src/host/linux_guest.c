/* SPDX-License-Identifier: GPL-3.0-or-later */
/* linux_guest.c: what a running Linux guest shows of its NVIDIA GPUs
 * and driver, for gpuwiz verify (verify_live.h): the display devices
 * under SYSROOT/sys/bus/pci/devices with their BARs, and
 * /proc/driver/nvidia/version.  The checks on it are verify_live.c.
 */
#include "linux_int.h"
#include "verify_live.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef gw_live_bar live_bar;
typedef gw_live_gpu live_gpu;
typedef gw_live_sys live_sys;

void
gw_live_free(live_sys *l)
{
	size_t i;

	for (i = 0; i < l->ngpus; i++) {
		free(l->gpus[i].bdf);
		free(l->gpus[i].driver);
	}
	free(l->gpus);
	free(l->root);
	free(l->version_text);
	free(l->driver_version);
	free(l->cmdline);
}

static char *
live_read(const char *root, const char *rel, size_t max)
{
	char *p = gw_xasprintf("%s/%s", root, rel), *data = NULL;
	size_t len;
	gw_err e;

	if (gw_read_file(p, max, &data, &len, &e) != 0)
		data = NULL;
	free(p);
	return data;
}

/* The BARs in the device's sysfs resource file. */
static void
read_resource(live_gpu *g, const char *path)
{
	char *res;
	size_t len;
	gw_err e;

	if (gw_read_file(path, 65536, &res, &len, &e) != 0)
		return;
	gw_live_parse_resource(g, res);
	free(res);
}

/* The six BAR registers of the device's config space. */
static void
read_config(live_gpu *g, const char *path)
{
	char *cfg;
	size_t len;
	gw_err e;

	if (gw_read_file(path, 65536, &cfg, &len, &e) != 0)
		return;
	gw_live_parse_config(g, cfg, len);
	free(cfg);
}

/* A small hex file of the device; 0 when unreadable. */
static unsigned
dev_hex(const char *dir, const char *name, const char *file)
{
	char *p = gw_xasprintf("%s/%s/%s", dir, name, file);
	long v = gw_linux_read_hex(p);

	free(p);
	return v < 0 ? 0 : (unsigned)v;
}

static void
live_scan_dev(live_sys *l, const char *dir, const char *name)
{
	char *p = gw_xasprintf("%s/%s/class", dir, name);
	long cls = gw_linux_read_hex(p), v;
	live_gpu *g;

	free(p);
	p = gw_xasprintf("%s/%s/vendor", dir, name);
	v = gw_linux_read_hex(p);
	free(p);
	if (cls < 0 || ((cls >> 16) & 0xff) != 0x03 || v != 0x10de)
		return;
	l->gpus = gw_xrealloc(l->gpus, (l->ngpus + 1) * sizeof *l->gpus);
	g = &l->gpus[l->ngpus++];
	memset(g, 0, sizeof *g);
	g->bdf = gw_xstrdup(name);
	g->vendor = (unsigned)v;
	g->cls = (unsigned)cls;
	g->device = dev_hex(dir, name, "device");
	g->subv = dev_hex(dir, name, "subsystem_vendor");
	g->subd = dev_hex(dir, name, "subsystem_device");
	p = gw_xasprintf("%s/%s/driver", dir, name);
	g->driver = gw_linux_link_base(p);
	free(p);
	p = gw_xasprintf("%s/%s/resource", dir, name);
	read_resource(g, p);
	free(p);
	p = gw_xasprintf("%s/%s/config", dir, name);
	read_config(g, p);
	free(p);
}

int
gw_live_scan(live_sys *l, const gw_table *t, const char *sysroot, gw_err *e)
{
	char *dir, **names;
	size_t n, i;

	memset(l, 0, sizeof *l);
	l->root = gw_linux_root(sysroot, e);
	if (l->root == NULL)
		return -1;
	l->sysroot = sysroot;
	dir = gw_xasprintf("%s/sys/bus/pci/devices", l->root);
	if (gw_linux_list_dir(dir, &names, &n) == 0) {
		for (i = 0; i < n; i++)
			live_scan_dev(l, dir, names[i]);
		gw_strs_free(names, n);
	}
	free(dir);
	for (i = 0; i < l->ngpus; i++) {
		live_gpu *g = &l->gpus[i];

		g->row = t ? gw_table_find_pci(t, g->vendor, g->device, g->subv,
		                               g->subd, NULL) : NULL;
	}
	l->version_text = live_read(l->root, "proc/driver/nvidia/version",
	                            65536);
	if (l->version_text)
		l->driver_version = gw_live_nvrm_version(l->version_text);
	l->cmdline = live_read(l->root, "proc/cmdline", 65536);
	return 0;
}
