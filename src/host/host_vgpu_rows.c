/* SPDX-License-Identifier: GPL-3.0-or-later */
/* host_vgpu_rows.c: the vGPU readiness rows that the ESXi shell
 * (host_esxi_vgpu.c: esxcli and the host's nvidia-smi) and the vSphere
 * API (host_vsphere.c: config.graphicsConfig, config.graphicsInfo and
 * config.sharedPassthruGpuTypes of each HostSystem) both show, in the
 * same words (doc/design.md, section 15.6).  Passthrough (DirectPath I/O)
 * needs none of them: the rows say so, and only a host set up for vGPU
 * gets a WARN beyond the graphics type. */
#include "host_int.h"
#include "esxi_vgpu.h"

#include <stdlib.h>
#include <string.h>

#define SRC_GRAPHICS "NVIDIA Virtual GPU Software User Guide, Changing the " \
	"Default Graphics Type in VMware vSphere; VMware vSphere Resource " \
	"Management, Configuring Host Graphics"
#define SRC_DEVICE "VMware vSphere Resource Management, Configuring " \
	"Graphics Devices; NVIDIA Virtual GPU Software User Guide, Changing " \
	"the Default Graphics Type in VMware vSphere"
#define SRC_MANAGER "NVIDIA Virtual GPU Software User Guide, Installing " \
	"and Configuring the NVIDIA Virtual GPU Manager for VMware vSphere"

/* The row just added gets its source and the wizard's words. */
void
gw_host_row_extras(gw_host_probe *p, const char *source, char *fix_ui)
{
	gw_finding *f = &p->checks[p->nchecks - 1];

	f->source = source;
	free(f->fix_ui);
	f->fix_ui = fix_ui;
}

static char *
graphics_title(const char *host)
{
	if (host == NULL)
		return gw_xstrdup(_("Checking the host graphics type (for vGPU)"));
	/* TRANSLATORS: %s is the ESXi host's name. */
	return gw_xasprintf(_("Checking the graphics type of host %s (for vGPU)"),
	                    host);
}

int
gw_host_graphics_row(gw_host_probe *p, const char *host, const char *type,
                     const char *why, int api)
{
	int sd = gw_esxi_graphics_shared_direct(type);

	if (type == NULL) {
		gw_host_row(p, "esxi-graphics-type", GW_SEV_INFO,
		            graphics_title(host),
		            gw_xasprintf(_("cannot read it: %s"), why ? why : "?"),
		            NULL);
		gw_host_row_extras(p, SRC_GRAPHICS, NULL);
		return 0;
	}
	if (sd) {
		gw_host_row(p, "esxi-graphics-type", GW_SEV_PASS,
		            graphics_title(host),
		            /* TRANSLATORS: "Shared Direct" is the vSphere
		             * Client's label. */
		            gw_xstrdup(_("Shared Direct (SharedPassthru): what NVIDIA vGPU needs")),
		            NULL);
		gw_host_row_extras(p, SRC_GRAPHICS, NULL);
		return 1;
	}
	gw_host_row(p, "esxi-graphics-type", GW_SEV_WARN, graphics_title(host),
	            /* TRANSLATORS: %s is esxcli's word ("Shared") or the
	             * API's ("shared"). */
	            gw_xasprintf(_("Default Graphics Type: %s; NVIDIA vGPU needs Shared Direct (SharedPassthru), or vGPU VMs fail to power on (\"graphics resource ... insufficient\"). Passthrough does not depend on it."),
	                         type),
	            api ? gw_xstrdup(_("For vGPU: with the VMs powered off, in the vSphere Client open the host's Configure > Hardware > Graphics > Host Graphics > Edit and choose Shared Direct (on the host's shell: esxcli graphics host set --default-type SharedPassthru), then restart Xorg (/etc/init.d/xorg restart) or reboot the host."))
	                : gw_xstrdup(_("For vGPU: with the VMs powered off, run esxcli graphics host set --default-type SharedPassthru, then /etc/init.d/xorg restart (or reboot the host).")));
	gw_host_row_extras(p, SRC_GRAPHICS,
	                   gw_xstrdup(_("For vGPU: power the VMs off; in the vSphere Client open the host's Configure > Hardware > Graphics > Host Graphics > Edit, choose Shared Direct, then restart Xorg on the host (or reboot it).")));
	return 0;
}

static char *
manager_title(const char *host)
{
	if (host == NULL)
		return gw_xstrdup(_("Checking for the NVIDIA vGPU manager"));
	/* TRANSLATORS: %s is the ESXi host's name. */
	return gw_xasprintf(_("Checking for the NVIDIA vGPU manager on %s"), host);
}

void
gw_host_manager_row(gw_host_probe *p, const char *host, int installed,
                    char *detail, int shared_direct)
{
	if (installed != 0) {      /* installed, or cannot tell */
		gw_host_row(p, "esxi-vgpu-manager", GW_SEV_INFO,
		            manager_title(host), detail, NULL);
		gw_host_row_extras(p, SRC_MANAGER, NULL);
		return;
	}
	gw_host_row(p, "esxi-vgpu-manager",
	            shared_direct ? GW_SEV_WARN : GW_SEV_INFO,
	            manager_title(host), detail,
	            gw_xstrdup(_("For vGPU: in maintenance mode, install the NVIDIA vGPU (or AI Enterprise) host driver component with esxcli software component apply -d /vmfs/volumes/DATASTORE/NVD-...zip (the full path), then reboot the host.")));
	gw_host_row_extras(p, SRC_MANAGER,
	                   gw_xstrdup(_("For vGPU: put the host in maintenance mode, install the NVIDIA vGPU (or AI Enterprise) host driver component (vSphere Lifecycle Manager, or esxcli on the host), then reboot it.")));
}

/* The kinds of graphics type: esxcli's words and the API's. */
enum { GT_SHARED_DIRECT, GT_DIRECT, GT_OTHER };

static int
gtype_kind(const char *type)
{
	if (gw_esxi_graphics_shared_direct(type))
		return GT_SHARED_DIRECT;
	if (type && gw_strieq(type, "direct"))
		return GT_DIRECT;
	return GT_OTHER;
}

void
gw_host_gpu_graphics_row(gw_host_probe *p, const char *bdf, const char *name,
                         const char *type, long vms, int host_sd)
{
	int kind = gtype_kind(type);
	char *title, *fix;

	/* the host's own row already says what a GPU that follows a
	 * default other than Shared Direct lacks */
	if (kind == GT_OTHER && !host_sd)
		return;
	/* TRANSLATORS: a PCI address, then the GPU's name. */
	title = gw_xasprintf(_("Checking the graphics type of GPU %s (%s)"),
	                     bdf, name ? name : "?");
	switch (kind) {
	case GT_SHARED_DIRECT:
		gw_host_row(p, "esxi-gpu-graphics-type", GW_SEV_PASS, title,
		            vms > 0
		            /* TRANSLATORS: %s is the type's word
		             * (SharedPassthru), %ld how many VMs run on it. */
		            ? gw_xasprintf(P_("%s (Shared Direct): vGPU VMs can use this GPU; %ld VM on it now",
		                              "%s (Shared Direct): vGPU VMs can use this GPU; %ld VMs on it now",
		                              vms),
		                           type, vms)
		            : gw_xasprintf(_("%s (Shared Direct): vGPU VMs can use this GPU"),
		                           type),
		            NULL);
		break;
	case GT_DIRECT:
		gw_host_row(p, "esxi-gpu-graphics-type", GW_SEV_INFO, title,
		            gw_xasprintf(_("%s: the GPU is in passthrough (DirectPath I/O), given whole to one VM; vGPU VMs cannot use it while it is"),
		                         type),
		            NULL);
		break;
	default:
		fix = gw_xasprintf(_("For vGPU: in the vSphere Client open the host's Configure > Hardware > Graphics > Graphics Devices, select %s, Edit, choose Shared Direct; then restart Xorg on the host (/etc/init.d/xorg restart) or reboot it."),
		                   bdf);
		gw_host_row(p, "esxi-gpu-graphics-type", GW_SEV_WARN, title,
		            /* TRANSLATORS: %s is the type's word (Shared,
		             * Basic). */
		            gw_xasprintf(_("%s: vGPU VMs cannot use this GPU, which needs Shared Direct (SharedPassthru) for them"),
		                         type ? type : "?"),
		            fix);
		break;
	}
	gw_host_row_extras(p, SRC_DEVICE, NULL);
}
