/* SPDX-License-Identifier: GPL-3.0-or-later */
/* verify_live.c: the checks of gpuwiz verify on the running guest
 * (verify_live.h), on what src/host/linux_guest.c read of it.
 */
#include "verify_live.h"
#include "verify_int.h"
#include "mmio.h"

#include <stdlib.h>
#include <string.h>

typedef gw_live_bar live_bar;
typedef gw_live_gpu live_gpu;
typedef gw_live_sys live_sys;

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
live_row(gw_verify *v, const char *id, gw_sev st, char *title,
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
		live_row(v, "gpus", GW_SEV_ERROR, title,
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
		live_row(v, "gpus", GW_SEV_PASS, title,
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
		live_row(v, "driver", GW_SEV_ERROR, title,
		         gw_xstrdup(_("the NVIDIA driver is not loaded (no "
		                      "/proc/driver/nvidia/version)")),
		         gw_verify_driver_fix());
	} else if (l->driver_version == NULL ||
	           gw_version_cmp(l->driver_version, GW_VERIFY_MIN_DRIVER,
	                          &cmp) != 0) {
		live_row(v, "driver", GW_SEV_WARN, title,
		         gw_xstrdup(_("cannot read the driver version in "
		                      "/proc/driver/nvidia/version")), NULL);
	} else if (cmp >= 0) {
		live_row(v, "driver", GW_SEV_PASS, title,
		         gw_xasprintf(_("driver %s is %s or newer"),
		                      l->driver_version, GW_VERIFY_MIN_DRIVER),
		         NULL);
	} else {
		live_row(v, "driver", GW_SEV_ERROR, title,
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
		live_row(v, "bar1", GW_SEV_WARN, title,
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
		live_row(v, "bar1", GW_SEV_ERROR, title,
		         gw_xstrdup(_("BAR1 unassigned: the VM's 64-bit "
		                      "MMIO window is too small")), fix);
	} else {
		live_row(v, "bar1", GW_SEV_PASS, title,
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
		live_row(v, "bars", GW_SEV_ERROR,
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
