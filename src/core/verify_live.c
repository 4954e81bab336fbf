/* verify_live.c: gpuwiz verify on the running guest (verify_live.h):
 * the NVIDIA devices under SYSROOT/sys/bus/pci/devices, the driver's
 * /proc/driver/nvidia/version, and the checks on them.
 */
#include "verify_live.h"
#include "verify_int.h"
#include "linux.h"
#include "mmio.h"

#include <ctype.h>
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

/* "NVRM version: NVIDIA UNIX x86_64 Kernel Module  550.90.07  Fri ..." ->
 * the first dotted version on the NVRM line. */
static char *
nvrm_version(const char *text)
{
	const char *p = strstr(text, "NVRM version:");
	char tok[64];

	if (p == NULL)
		return NULL;
	p += strlen("NVRM version:");
	while (*p && *p != '\n') {
		size_t n = 0;
		int cmp;

		while (*p == ' ' || *p == '\t')
			p++;
		while (p[n] && !isspace((unsigned char)p[n]))
			n++;
		if (n > 0 && n < sizeof tok) {
			memcpy(tok, p, n);
			tok[n] = '\0';
			if (strchr(tok, '.') &&
			    gw_version_cmp(tok, "0", &cmp) == 0)
				return gw_xstrdup(tok);
		}
		p += n;
	}
	return NULL;
}

static void
live_scan_dev(live_sys *l, const char *dir, const char *name)
{
	char *p = gw_xasprintf("%s/%s/class", dir, name), *res, *cfg;
	long cls = gw_linux_read_hex(p), v;
	live_gpu *g;
	size_t len;
	gw_err e;

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
#define HEX(field, file) do { \
		p = gw_xasprintf("%s/%s/" file, dir, name); \
		v = gw_linux_read_hex(p); \
		g->field = v < 0 ? 0 : (unsigned)v; \
		free(p); } while (0)
	HEX(device, "device");
	HEX(subv, "subsystem_vendor");
	HEX(subd, "subsystem_device");
#undef HEX
	p = gw_xasprintf("%s/%s/driver", dir, name);
	g->driver = gw_linux_link_base(p);
	free(p);
	p = gw_xasprintf("%s/%s/resource", dir, name);
	if (gw_read_file(p, 65536, &res, &len, &e) == 0) {
		char *line = res, *nl;

		for (; g->nres < 6 && *line; line = nl ? nl + 1 : line + strlen(line)) {
			live_bar *b = &g->bars[g->nres];

			nl = strchr(line, '\n');
			if (sscanf(line, "%llx %llx %llx", &b->start, &b->end,
			           &b->flags) != 3)
				break;
			g->nres++;
			if (nl == NULL)
				break;
		}
		free(res);
	}
	free(p);
	p = gw_xasprintf("%s/%s/config", dir, name);
	if (gw_read_file(p, 65536, &cfg, &len, &e) == 0) {
		if (len >= 0x28) {
			int k;

			for (k = 0; k < 6; k++) {
				const unsigned char *c =
					(const unsigned char *)cfg + 0x10 + 4 * k;
				g->cfg_bar[k] = (unsigned)c[0] | (unsigned)c[1] << 8 |
				                (unsigned)c[2] << 16 |
				                (unsigned)c[3] << 24;
			}
			g->cfg_ok = 1;
		}
		free(cfg);
	}
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
		gw_linux_free_list(names, n);
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
		l->driver_version = nvrm_version(l->version_text);
	l->cmdline = live_read(l->root, "proc/cmdline", 65536);
	return 0;
}

int
gw_live_upper_half(const live_gpu *g, int k)
{
	unsigned r;

	if (k == 0 || !g->cfg_ok)
		return 0;
	r = g->cfg_bar[k - 1];
	return !(r & 1) && ((r >> 1) & 3) == 2 && !gw_live_upper_half(g, k - 1);
}

/* ---- the checks --------------------------------------------------------- */

/* A row about the whole guest (no capture GPU index). */
static void
live_row(gw_verify *v, const char *id, gw_check_status st, char *title,
         char *message, char *fix)
{
	gw_verify_add_check(v, id, st, -1, title, message, fix);
}

/* The MMIO rule on the table VRAM of all the GPUs found, when every one
 * is known. */
static void
live_mmio(const live_sys *l, gw_verify *v)
{
	size_t i;
	uint64_t total = 0;
	int all_known = l->ngpus > 0;
	gw_err le;

	for (i = 0; i < l->ngpus; i++) {
		if (l->gpus[i].row != NULL && l->gpus[i].row->vram_gb > 0)
			total += (uint64_t)l->gpus[i].row->vram_gb;
		else
			all_known = 0;
	}
	if (all_known) {
		v->total_vram_gb = total;
		if (gw_mmio_rule(total, &v->mmio_gb, &le) != 0)
			v->total_vram_gb = v->mmio_gb = 0;
	}
}

static void
live_check_gpus(const live_sys *l, gw_verify *v)
{
	char *title = gw_xstrdup(_("Checking that the GPUs are visible"));
	size_t i;

	if (l->ngpus == 0) {
		live_row(v, "gpus", GW_CHECK_FAIL, title,
		         gw_xasprintf(_("no NVIDIA display device under %s"
		                        "/sys/bus/pci/devices"),
		                      *l->root ? l->root : ""),
		         gw_xstrdup(_("Check that the VM has the GPU (a PCI device "
		                      "or a vGPU in its settings), that lspci shows "
		                      "an NVIDIA device, and dmesg | grep NVRM.")));
	} else {
		gw_buf b;

		gw_buf_init(&b);
		for (i = 0; i < l->ngpus; i++)
			gw_buf_printf(&b, "%s%s", i ? ", " : "", l->gpus[i].bdf);
		live_row(v, "gpus", GW_CHECK_PASS, title,
		         gw_xasprintf(_("NVIDIA GPUs on the PCI bus: %zu (%s)"),
		                      l->ngpus, b.data), NULL);
		gw_buf_free(&b);
	}
}

static void
live_check_driver(const live_sys *l, gw_verify *v)
{
	char *title = gw_xstrdup(_("Checking the driver version"));
	int cmp;

	if (l->version_text == NULL) {
		live_row(v, "driver", GW_CHECK_FAIL, title,
		         gw_xstrdup(_("the NVIDIA driver is not loaded (no "
		                      "/proc/driver/nvidia/version)")),
		         gw_verify_driver_fix());
	} else if (l->driver_version == NULL ||
	           gw_version_cmp(l->driver_version, GW_VERIFY_MIN_DRIVER,
	                          &cmp) != 0) {
		live_row(v, "driver", GW_CHECK_WARN, title,
		         gw_xstrdup(_("cannot read the driver version in "
		                      "/proc/driver/nvidia/version")), NULL);
	} else if (cmp >= 0) {
		live_row(v, "driver", GW_CHECK_PASS, title,
		         gw_xasprintf(_("driver %s is %s or newer"),
		                      l->driver_version, GW_VERIFY_MIN_DRIVER),
		         NULL);
	} else {
		live_row(v, "driver", GW_CHECK_FAIL, title,
		         gw_xasprintf(_("driver %s is older than %s, the version "
		                        "to use for vLLM with Llama 3"),
		                      l->driver_version, GW_VERIFY_MIN_DRIVER),
		         gw_verify_driver_fix());
	}
}

/* BAR1 of g: assigned, unassigned (the MMIO window), or unreadable. */
static void
live_check_bar1(gw_verify *v, const live_gpu *g)
{
	const live_bar *b1 = &g->bars[1];
	char *title = gw_xasprintf(_("Checking GPU %s: BAR1"), g->bdf);
	char *fix;

	if (g->nres < 2) {
		live_row(v, "bar1", GW_CHECK_WARN, title,
		         gw_xstrdup(_("cannot read the GPU's resource file "
		                      "in sysfs")), NULL);
	} else if (b1->start == 0 || b1->end < b1->start) {
		if (v->mmio_gb > 0)
			fix = gw_verify_bar1_fix(v, GW_VIRT_PASSTHROUGH);
		else
			fix = gw_xstrdup(_("Power the VM off, set "
			                   "pciPassthru.use64bitMMIO = \"TRUE\" "
			                   "and pciPassthru.64bitMMIOSizeGB to the "
			                   "value gpuwiz mmio --vram GB prints "
			                   "(GB: the memory of the VM's GPUs "
			                   "together), then power it on."));
		live_row(v, "bar1", GW_CHECK_FAIL, title,
		         gw_xstrdup(_("BAR1 unassigned: the VM's 64-bit "
		                      "MMIO window is too small")), fix);
	} else {
		live_row(v, "bar1", GW_CHECK_PASS, title,
		         gw_xasprintf(_("BAR1 assigned: %llu MiB at 0x%llx"),
		                      (b1->end - b1->start + 1) >> 20,
		                      b1->start), NULL);
	}
}

/* Other BARs the config space shows but without an address. */
static void
live_check_bars(gw_verify *v, const live_gpu *g)
{
	gw_buf miss;
	int k;

	gw_buf_init(&miss);
	for (k = 0; k < g->nres && g->cfg_ok; k++) {
		if (k == 1 || gw_live_upper_half(g, k))
			continue;
		if (g->bars[k].start == 0 && g->bars[k].end == 0 &&
		    g->cfg_bar[k] != 0)
			gw_buf_printf(&miss, "%sBAR%d", miss.len ? ", " : "",
			              k);
	}
	if (miss.len > 0)
		live_row(v, "bars", GW_CHECK_FAIL,
		         gw_xasprintf(_("Checking GPU %s: other BARs"),
		                      g->bdf),
		         gw_xasprintf(_("%s unassigned although the config "
		                        "space has them"), miss.data),
		         gw_xstrdup(_("Check dmesg for \"BAR ... no space\" "
		                      "and set the VM's 64-bit MMIO window "
		                      "(gpuwiz mmio computes it).")));
	gw_buf_free(&miss);
}

void
gw_live_checks(const live_sys *l, gw_verify *v)
{
	size_t i;

	memset(v, 0, sizeof *v);
	live_mmio(l, v);
	v->gpu_count = (int)l->ngpus;
	live_check_gpus(l, v);
	live_check_driver(l, v);
	for (i = 0; i < l->ngpus; i++) {
		live_check_bar1(v, &l->gpus[i]);
		live_check_bars(v, &l->gpus[i]);
	}
}
