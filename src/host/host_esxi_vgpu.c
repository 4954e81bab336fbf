/* SPDX-License-Identifier: GPL-3.0-or-later */
/* host_esxi_vgpu.c: the ESXi back end's vGPU readiness rows (doc/design.md,
 * section 15.6): the host graphics type, the NVIDIA vGPU manager VIB and,
 * where that is installed, each NVIDIA GPU's graphics type (esxcli
 * graphics device list) and its ECC and MIG mode (the host's nvidia-smi).
 * The rows' words are host_vgpu_rows.c's, shared with the API. */
#include "host_int.h"
#include "esxi_vgpu.h"

#include <stdlib.h>
#include <string.h>

#define SRC_ECC "NVIDIA Virtual GPU Software User Guide, Disabling and " \
	"Enabling ECC Memory; NVIDIA Virtual GPU Software R430 Release Notes " \
	"(release 9.0: ECC memory support)"
#define SRC_MIG "NVIDIA Virtual GPU Software User Guide, Configuring a " \
	"GPU for MIG-Backed vGPUs"

/* Run argv and parse nothing: its output, or NULL and e. */
static char *
run(gw_host *h, const char *const argv[], gw_err *e)
{
	char *o = NULL;

	e->msg[0] = '\0';
	if (gw_runner_run_ok(h->runner, argv, &o, e) != 0) {
		free(o);
		return NULL;
	}
	return o;
}

/* The graphics type row; 1 when the host is set to Shared Direct. */
static int
graphics_row(gw_host *h, gw_host_probe *p)
{
	static const char *const argv[] = {
		"esxcli", "graphics", "host", "get", NULL
	};
	gw_esxi_graphics g;
	gw_err e;
	char *o;
	int sd;

	if ((o = run(h, argv, &e)) == NULL ||
	    gw_esxi_parse_graphics_host(o, GW_ESXI_CMD_GRAPHICS, &g, &e) != 0) {
		free(o);
		return gw_host_graphics_row(p, NULL, NULL, e.msg, 0);
	}
	free(o);
	sd = gw_host_graphics_row(p, NULL, g.default_type, NULL, 0);
	gw_esxi_graphics_free(&g);
	return sd;
}

/* The vGPU manager row; its VIB's driver branch (525 of "525.105.14-..."),
 * 0 when it is not installed, -1 when it is but the branch is unknown. */
static long
manager_row(gw_host *h, gw_host_probe *p, int shared_direct)
{
	static const char *const argv[] = {
		"esxcli", "software", "vib", "list", NULL
	};
	gw_esxi_vib v;
	gw_err e;
	char *o, *end;
	long branch;

	if ((o = run(h, argv, &e)) == NULL ||
	    gw_esxi_parse_vib_list(o, GW_ESXI_CMD_VIBS, &v, &e) != 0) {
		free(o);
		gw_host_manager_row(p, NULL, -1,
		                    gw_xasprintf(_("cannot read the VIB list: %s"),
		                                 e.msg), shared_direct);
		return 0;
	}
	free(o);
	if (v.name == NULL) {
		gw_host_manager_row(p, NULL, 0,
		                    gw_xstrdup(_("no NVIDIA vGPU manager VIB installed: needed for vGPU, not for passthrough")),
		                    shared_direct);
		return 0;
	}
	gw_host_manager_row(p, NULL, 1,
	                    /* TRANSLATORS: VIB name, then its version. */
	                    gw_xasprintf(_("installed: %s %s"), v.name, v.version),
	                    shared_direct);
	branch = strtol(v.version, &end, 10);
	if (end == v.version || *end != '.' || branch <= 0)
		branch = -1;
	gw_esxi_vib_free(&v);
	return branch;
}

/* Each NVIDIA graphics device's type, from esxcli graphics device list;
 * nothing when it cannot be read (older ESXi, or no such namespace). */
static void
device_rows(gw_host *h, gw_host_probe *p, int sd)
{
	static const char *const argv[] = {
		"esxcli", "graphics", "device", "list", NULL
	};
	gw_esxi_gdevs d;
	gw_err e;
	char *o;
	size_t i;

	if ((o = run(h, argv, &e)) == NULL)
		return;
	if (gw_esxi_parse_graphics_devices(o, GW_ESXI_CMD_GDEVICES, &d,
	                                   &e) == 0) {
		for (i = 0; i < d.n; i++)
			if (d.v[i].vendor && gw_str_icontains(d.v[i].vendor,
			                                      "NVIDIA"))
				gw_host_gpu_graphics_row(p, d.v[i].id,
				                         d.v[i].device,
				                         d.v[i].type, d.v[i].vms,
				                         sd);
		gw_esxi_gdevs_free(&d);
	}
	free(o);
}

/* "GPU 00000000:3B:00.0 (NVIDIA L40S)" */
static char *
gpu_title(const char *what, const gw_esxi_gpu_mode *g)
{
	/* TRANSLATORS: first %s is "ECC" or "MIG", then the GPU's bus id
	 * and its name. */
	return gw_xasprintf(_("Checking the %s mode of GPU %s (%s)"), what,
	                    g->bus_id, g->product ? g->product : "?");
}

/* ECC: vGPU supports it since release 9.0 (R430, doc/design.md 15.6);
 * an older manager with ECC on does not start vGPUs. */
static void
ecc_row(gw_host_probe *p, const gw_esxi_gpu_mode *g, long branch)
{
	if (branch > 0 && branch < 430 && gw_strieq(g->ecc, "Enabled")) {
		gw_host_row(p, "esxi-gpu-ecc", GW_SEV_WARN, gpu_title("ECC", g),
		            /* TRANSLATORS: %ld is the driver branch (418). */
		            gw_xasprintf(_("ECC Enabled with a vGPU manager of branch %ld: NVIDIA vGPU supports ECC memory only from release 9.0 (branch 430) on, so vGPUs on this GPU fail to start"),
		                         branch),
		            gw_xstrdup(_("For vGPU: update the vGPU manager to a current release, or turn ECC off on the host: nvidia-smi -e 0, then reboot the host.")));
	} else {
		gw_host_row(p, "esxi-gpu-ecc", GW_SEV_INFO, gpu_title("ECC", g),
		            /* TRANSLATORS: %s is nvidia-smi's word: "Enabled". */
		            gw_xasprintf(_("ECC %s. NVIDIA vGPU supports ECC memory from release 9.0 (branch 430) on; on a GPU without HBM memory, ECC takes some framebuffer from the vGPUs."),
		                         g->ecc),
		            NULL);
	}
	gw_host_row_extras(p, SRC_ECC, NULL);
}

static void
mode_rows(gw_host_probe *p, const gw_esxi_gpu_mode *g, long branch)
{
	if (g->ecc)
		ecc_row(p, g, branch);
	if (g->mig && gw_strieq(g->mig, "N/A")) {
		gw_host_row(p, "esxi-gpu-mig", GW_SEV_INFO, gpu_title("MIG", g),
		            gw_xstrdup(_("MIG N/A: this GPU has no MIG mode, so its vGPU profiles are time-sliced.")),
		            NULL);
		gw_host_row_extras(p, SRC_MIG, NULL);
	} else if (g->mig) {
		gw_host_row(p, "esxi-gpu-mig", GW_SEV_INFO, gpu_title("MIG", g),
		            /* TRANSLATORS: %s is nvidia-smi's word: "Disabled"
		             * or "Enabled". */
		            gw_xasprintf(_("MIG %s. MIG-backed vGPU profiles need MIG mode enabled on the GPU; time-sliced profiles that are not MIG-backed need it disabled."),
		                         g->mig),
		            NULL);
		gw_host_row_extras(p, SRC_MIG, NULL);
	}
}

/* ECC and MIG per GPU, from the host's nvidia-smi (the vGPU manager's);
 * nothing when it cannot run. */
static void
gpu_mode_rows(gw_host *h, gw_host_probe *p, long branch)
{
	static const char *const argv[] = { "nvidia-smi", "-q", NULL };
	gw_esxi_gpu_modes m;
	gw_err e;
	char *o;
	size_t i;

	if ((o = run(h, argv, &e)) == NULL)
		return;
	if (gw_esxi_parse_gpu_modes(o, GW_ESXI_CMD_NVSMI, &m, &e) == 0) {
		for (i = 0; i < m.n; i++)
			mode_rows(p, &m.v[i], branch);
		gw_esxi_gpu_modes_free(&m);
	}
	free(o);
}

void
gw_host_esxi_vgpu_rows(gw_host *h, gw_host_probe *p)
{
	int sd = graphics_row(h, p);
	long branch = manager_row(h, p, sd);

	if (branch != 0) {
		device_rows(h, p, sd);
		gpu_mode_rows(h, p, branch);
	}
}
