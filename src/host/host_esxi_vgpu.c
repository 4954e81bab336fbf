/* host_esxi_vgpu.c: the ESXi back end's vGPU readiness rows (doc/design.md,
 * section 15.6): the host graphics type, the NVIDIA vGPU manager VIB and,
 * where that is installed, each GPU's ECC and MIG mode.  Passthrough
 * (DirectPath I/O) needs none of them: the rows say so, and only a host
 * set up for vGPU without its manager gets a WARN beyond the graphics
 * type. */
#include "host_int.h"
#include "esxi_vgpu.h"

#include <stdlib.h>
#include <string.h>

#define SRC_GRAPHICS "NVIDIA Virtual GPU Software User Guide, Changing the " \
	"Default Graphics Type in VMware vSphere; VMware vSphere Resource " \
	"Management, Configuring Host Graphics"
#define SRC_MANAGER "NVIDIA Virtual GPU Software User Guide, Installing " \
	"and Configuring the NVIDIA Virtual GPU Manager for VMware vSphere"
#define SRC_ECC "NVIDIA Virtual GPU Software User Guide, Disabling and " \
	"Enabling ECC Memory"
#define SRC_MIG "NVIDIA Virtual GPU Software User Guide, Configuring a " \
	"GPU for MIG-Backed vGPUs"

/* The row just added gets its source and the wizard's words. */
static void
row_extras(gw_host_probe *p, const char *source, char *fix_ui)
{
	gw_finding *f = &p->checks[p->nchecks - 1];

	f->source = source;
	free(f->fix_ui);
	f->fix_ui = fix_ui;
}

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
		gw_host_row(p, "esxi-graphics-type", GW_SEV_INFO,
		            gw_xstrdup(_("Checking the host graphics type (for vGPU)")),
		            gw_xasprintf(_("cannot read it: %s"), e.msg), NULL);
		row_extras(p, SRC_GRAPHICS, NULL);
		return 0;
	}
	free(o);
	sd = gw_esxi_graphics_shared_direct(g.default_type);
	if (sd)
		gw_host_row(p, "esxi-graphics-type", GW_SEV_PASS,
		            gw_xstrdup(_("Checking the host graphics type (for vGPU)")),
		            /* TRANSLATORS: "Shared Direct" is the vSphere
		             * Client's label (中文界面：共享直通). */
		            gw_xstrdup(_("Shared Direct (SharedPassthru): what NVIDIA vGPU needs")),
		            NULL);
	else
		gw_host_row(p, "esxi-graphics-type", GW_SEV_WARN,
		            gw_xstrdup(_("Checking the host graphics type (for vGPU)")),
		            /* TRANSLATORS: %s is esxcli's word: "Shared". */
		            gw_xasprintf(_("Default Graphics Type: %s; NVIDIA vGPU needs Shared Direct (SharedPassthru), or vGPU VMs fail to power on (\"graphics resource ... insufficient\"). Passthrough does not depend on it."),
		                         g.default_type),
		            gw_xstrdup(_("For vGPU: with the VMs powered off, run esxcli graphics host set --default-type SharedPassthru, then /etc/init.d/xorg restart (or reboot the host).")));
	if (!sd)
		row_extras(p, SRC_GRAPHICS,
		           gw_xstrdup(_("For vGPU: power the VMs off; in the vSphere Client open the host's Configure > Hardware > Graphics > Host Graphics > Edit, choose Shared Direct, then restart Xorg on the host (or reboot it).")));
	else
		row_extras(p, SRC_GRAPHICS, NULL);
	gw_esxi_graphics_free(&g);
	return sd;
}

/* The vGPU manager row; 1 when it is installed. */
static int
manager_row(gw_host *h, gw_host_probe *p, int shared_direct)
{
	static const char *const argv[] = {
		"esxcli", "software", "vib", "list", NULL
	};
	gw_esxi_vib v;
	gw_err e;
	char *o;

	if ((o = run(h, argv, &e)) == NULL ||
	    gw_esxi_parse_vib_list(o, GW_ESXI_CMD_VIBS, &v, &e) != 0) {
		free(o);
		gw_host_row(p, "esxi-vgpu-manager", GW_SEV_INFO,
		            gw_xstrdup(_("Checking for the NVIDIA vGPU manager")),
		            gw_xasprintf(_("cannot read the VIB list: %s"), e.msg),
		            NULL);
		row_extras(p, SRC_MANAGER, NULL);
		return 0;
	}
	free(o);
	if (v.name) {
		gw_host_row(p, "esxi-vgpu-manager", GW_SEV_INFO,
		            gw_xstrdup(_("Checking for the NVIDIA vGPU manager")),
		            /* TRANSLATORS: VIB name, then its version. */
		            gw_xasprintf(_("installed: %s %s"), v.name, v.version),
		            NULL);
		row_extras(p, SRC_MANAGER, NULL);
		gw_esxi_vib_free(&v);
		return 1;
	}
	gw_host_row(p, "esxi-vgpu-manager",
	            shared_direct ? GW_SEV_WARN : GW_SEV_INFO,
	            gw_xstrdup(_("Checking for the NVIDIA vGPU manager")),
	            gw_xstrdup(_("no NVIDIA vGPU manager VIB installed: needed for vGPU, not for passthrough")),
	            gw_xstrdup(_("For vGPU: in maintenance mode, install the NVIDIA vGPU (or AI Enterprise) host driver component with esxcli software component apply -d /vmfs/volumes/DATASTORE/NVD-...zip (the full path), then reboot the host.")));
	row_extras(p, SRC_MANAGER,
	           gw_xstrdup(_("For vGPU: put the host in maintenance mode, install the NVIDIA vGPU (or AI Enterprise) host driver component (vSphere Lifecycle Manager, or esxcli on the host), then reboot it.")));
	return 0;
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

static void
mode_rows(gw_host_probe *p, const gw_esxi_gpu_mode *g)
{
	if (g->ecc) {
		gw_host_row(p, "esxi-gpu-ecc", GW_SEV_INFO, gpu_title("ECC", g),
		            /* TRANSLATORS: %s is nvidia-smi's word: "Enabled". */
		            gw_xasprintf(_("ECC %s. Whether a vGPU needs ECC off depends on the GPU and the vGPU release: check NVIDIA's guide for yours before changing it."),
		                         g->ecc),
		            NULL);
		row_extras(p, SRC_ECC, NULL);
	}
	if (g->mig && gw_strieq(g->mig, "N/A")) {
		gw_host_row(p, "esxi-gpu-mig", GW_SEV_INFO, gpu_title("MIG", g),
		            gw_xstrdup(_("MIG N/A: this GPU has no MIG mode, so its vGPU profiles are time-sliced.")),
		            NULL);
		row_extras(p, SRC_MIG, NULL);
	} else if (g->mig) {
		gw_host_row(p, "esxi-gpu-mig", GW_SEV_INFO, gpu_title("MIG", g),
		            /* TRANSLATORS: %s is nvidia-smi's word: "Disabled"
		             * or "Enabled". */
		            gw_xasprintf(_("MIG %s. MIG-backed vGPU profiles need MIG mode enabled on the GPU; time-sliced profiles that are not MIG-backed need it disabled."),
		                         g->mig),
		            NULL);
		row_extras(p, SRC_MIG, NULL);
	}
}

/* ECC and MIG per GPU, from the host's nvidia-smi (the vGPU manager's);
 * nothing when it cannot run. */
static void
gpu_mode_rows(gw_host *h, gw_host_probe *p)
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
			mode_rows(p, &m.v[i]);
		gw_esxi_gpu_modes_free(&m);
	}
	free(o);
}

void
gw_host_esxi_vgpu_rows(gw_host *h, gw_host_probe *p)
{
	int sd = graphics_row(h, p);

	if (manager_row(h, p, sd))
		gpu_mode_rows(h, p);
}
