/* SPDX-License-Identifier: GPL-3.0-or-later */
/* wizard_mode.c: the welcome step's modes (routes) as data.  One
 * descriptor per mode says what it is called, what it is for (its note
 * and its paragraph of the welcome help), why it is not available yet
 * and the box that connects it (wizard_connect.c),
 * what host it reads and how, how it probes, and the words the screens
 * show for it (the check rows' heading, the open VM's line, the steps'
 * help).  The rest of the wizard asks these descriptors, and the host
 * layer (host_can) where a host's abilities decide, instead of branching
 * on the mode (doc/design.md, section 9). */
#include "wizard_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- what the descriptors point at ------------------------------------- */

/* The check rows' headings. */
static char *
checks_linux(const gw_wizard *w)
{
	/* TRANSLATORS: heading of the live host checks; %s is the root
	 * checked ("/" or GPUWIZ_SYSROOT).  At most 78 cells. */
	return gw_xasprintf(_("Checks of this Linux host (%s):"),
	                    w->sysroot ? w->sysroot : gw_wizard_sysroot());
}

static char *
checks_esxi(const gw_wizard *w)
{
	/* TRANSLATORS: heading of the ESXi host's checks; %s is the
	 * host (root@esx01).  At most 78 cells. */
	return gw_xasprintf(_("Checks of the ESXi host %s:"),
	                    gw_wizard_host_label(w));
}

static char *
checks_api(const gw_wizard *w)
{
	/* TRANSLATORS: heading of the API server's checks; %s is its
	 * URL.  At most 78 cells. */
	return gw_xasprintf(_("Checks through the vSphere API (%s):"),
	                    gw_wizard_host_label(w));
}

/* The question before enabling passthrough of the device at bdf. */
/* The open VM's line. */
static char *
vm_line_vmid(const gw_vm *vm, gw_power p)
{
	/* TRANSLATORS: the open VM: its name, id and power state. */
	return gw_xasprintf(_("%s: Vmid %lu, %s"), vm->name, vm->vmid,
	                    gw_power_name(p));
}

static char *
vm_line_api(const gw_vm *vm, gw_power p)
{
	/* TRANSLATORS: the open VM through the API: its name and
	 * power state. */
	return gw_xasprintf(_("%s: %s"), vm->name, gw_power_name(p));
}

/* ---- the boxes of the routes that connect (wizard_connect.c) ---------- */

static int
connect_ssh(gw_wizard *w, const char *const *v, const char *pin, char *fp,
            gw_err *e)
{
	(void)pin;
	fp[0] = '\0';
	return gw_wizard_connect_ssh(w, v[WZ_SSH_TARGET], v[WZ_SSH_PORT],
	                             v[WZ_SSH_IDENTITY], e);
}

static int
connect_api(gw_wizard *w, const char *const *v, const char *pin, char *fp,
            gw_err *e)
{
	return gw_wizard_connect_api(w, v[WZ_API_URL], v[WZ_API_USER],
	                             v[WZ_API_PASSWORD], pin, fp, e);
}

static void
address_ssh(const wz_address *a, gw_wizard_address *out)
{
	out->target = a->v[WZ_SSH_TARGET];
	out->port = a->v[WZ_SSH_PORT];
	out->identity = a->v[WZ_SSH_IDENTITY];
}

static void
address_api(const wz_address *a, gw_wizard_address *out)
{
	out->url = a->v[WZ_API_URL];
	out->user = a->v[WZ_API_USER];
	out->thumbprint = a->thumbprint;
}

const struct wz_connect wz_connect_ssh = {
	{
		/* TRANSLATORS: title of the SSH connection box; at most 40
		 * cells. */
		N_("An ESXi host over SSH"),
		/* TRANSLATORS: above the SSH connection box's fields;
		 * wrapped, at most 3 lines of 60 cells. */
		N_("gpuwiz logs in with your ssh keys (no password prompt on these screens) and "
		   "checks the host's key against known_hosts, then reads the host with esxcli "
		   "and vim-cmd."),
		3,
		{
			/* TRANSLATORS: the SSH connection box's fields;
			 * at most 16 cells each. */
			{ N_("User@host"),
			  /* TRANSLATORS: shown in grey in the empty
			   * fields of the connection boxes; at most 40
			   * cells each. */
			  N_("e.g. root@esx01"), 0, 0 },
			{ N_("Port"), N_("empty: 22"), 0, 1 },
			{ N_("Identity file"), N_("empty: ssh's own keys"), 0, 0 },
		},
	},
	connect_ssh,
	address_ssh,
};

const struct wz_connect wz_connect_api = {
	{
		/* TRANSLATORS: title of the API connection box; at most 40
		 * cells. */
		N_("vCenter or ESXi through the API"),
		/* TRANSLATORS: above the API connection box's fields;
		 * wrapped, at most 3 lines of 60 cells. */
		N_("gpuwiz logs in to the vSphere API over https; the password is used for the "
		   "login only, never shown or saved."),
		3,
		{
			/* TRANSLATORS: the API connection box's fields; at
			 * most 16 cells each. */
			{ N_("URL"), N_("e.g. https://vc01/sdk"), 0, 0 },
			{ N_("User"), N_("e.g. administrator@vsphere.local"), 0, 0 },
			{ N_("Password"), NULL, 1, 0 },
		},
	},
	connect_api,
	address_api,
};

/* ---- the table --------------------------------------------------------- */

static const wz_mode_desc modes[GW_NMODES] = {
	[GW_MODE_OFFLINE] = {
		/* TRANSLATORS: what the operator is doing (welcome step
		 * choices): at most 40 cells each. */
		.name = N_("Plan offline (snippets, a local .vmx)"),
		/* TRANSLATORS: this mode's paragraph of the welcome step's
		 * help, wrapped to about 70 cells. */
		.about = N_("Offline, nothing is read from a host: pick the GPUs from the bundled "
		            "table. \"Patch a VM's .vmx\" opens the VM's .vmx and patches it with a "
		            "backup, or writes the lines to paste into it; \"A Tanzu/BOSH VM type\" "
		            "writes the tile's VM type fields, the BOSH VM extension and the Ops "
		            "Manager JSON instead (the outputs can be changed on the options step)."),
		.reach = WZ_REACH_NONE,
		.kind = GW_HOST_LINUX,
		.checks_title = checks_linux,
		.vm_line = vm_line_vmid,
	},
	[GW_MODE_LINUX] = {
		/* TRANSLATORS: welcome step choice, at most 40 cells. */
		.name = N_("Configure this Linux host"),
		/* TRANSLATORS: under "Configure this Linux host": what it
		 * is for; at most 72 cells. */
		.note = N_("Check this machine's firmware, IOMMU and BARs; plan a VMware VM"),
		/* TRANSLATORS: under the focused "Configure this Linux
		 * host"; wrapped, at most 150 cells. */
		.note_long = N_("Checks this machine's firmware, IOMMU and real BAR sizes, before or instead of ESXi, and plans a VMware VM from them; it does not set up KVM."),
		/* TRANSLATORS: this mode's paragraph of the welcome step's
		 * help, wrapped to about 70 cells. */
		.about = N_("Configure this Linux host: gpuwiz checks this host (CPU virtualization, "
		            "IOMMU, kernel command line, GPU drivers) and lists its GPUs to pick "
		            "from; the environment variable GPUWIZ_SYSROOT points it at another root "
		            "(a copy of /proc and /sys)."),
		.reach = WZ_REACH_ROOT,
		.kind = GW_HOST_LINUX,
		.probe = gw_wizard_probe_host,
		.checks_title = checks_linux,
		.vm_line = vm_line_vmid,
		/* TRANSLATORS: help of step 2 when configuring this Linux
		 * host, wrapped to about 70 cells.  r and o are keys. */
		.host_help = N_("gpuwiz checked this Linux host the way gpuwiz check does: hardware "
		         "virtualization, the IOMMU in the firmware (ACPI DMAR/IVRS) and in the kernel, "
		         "the kernel command line, the IOMMU units and the driver of each GPU. Each row "
		         "shows PASS, WARN or FAIL; Up/Down highlight a row and show its message and fix "
		         "below the rows.\n"
		         "r runs the checks again (after you changed the host). Enter goes on when no "
		         "row FAILs; a FAIL blocks it. To go on anyway, press o and confirm with y (o "
		         "again takes it back).\n"
		         "GPUWIZ_SYSROOT, when set, names the root whose /proc and /sys are checked "
		         "instead of /."),
	},
	[GW_MODE_ESXI_SSH] = {
		/* TRANSLATORS: welcome step choice, at most 40 cells. */
		.name = N_("An ESXi host over SSH"),
		/* TRANSLATORS: under the focused choice while no ESXi
		 * host is connected; wrapped, at most 150 cells. */
		.missing = N_("Not connected yet: Enter asks for the ESXi host (user@host; port and identity file optional) and connects over SSH with your ssh keys."),
		/* TRANSLATORS: this mode's paragraph of the welcome step's
		 * help, wrapped to about 70 cells. */
		.about = N_("An ESXi host over SSH: Enter asks for the host (user@host; the port and "
		            "an identity file are optional) and connects with your ssh keys, the "
		            "host's key checked against known_hosts. Or start gpuwiz with --ssh "
		            "root@HOST (ssh may then ask for the password or key passphrase once, "
		            "before the screens start), or run it on the ESXi shell. gpuwiz reads the "
		            "host with esxcli and vim-cmd, enables passthrough, and patches the VM's "
		            ".vmx on the datastore."),
		.conn = &wz_connect_ssh,
		.reach = WZ_REACH_ATTACHED,
		.kind = GW_HOST_ESXI,
		.no_host = N_("no ESXi host to check"),
		.probe = gw_wizard_probe_esxi,
		.checks_title = checks_esxi,
		.vm_line = vm_line_vmid,
		/* TRANSLATORS: help of step 2 on an ESXi host, wrapped to
		 * about 70 cells.  r, e and o are keys. */
		.host_help = N_("gpuwiz read the ESXi host through its shell (esxcli and vim-cmd, over SSH or "
		         "on the host itself): its version (the newest VM hardware version it runs), "
		         "its system id (for the pciPassthruN device blocks) and each GPU's passthrough "
		         "state from esxcli hardware pci list. \"Passthru Capable: false\" means the "
		         "IOMMU (VT-d/AMD-Vi) is off in the BIOS. Above 4G decoding cannot be seen from "
		         "ESXi: check it in the BIOS.\ne on a GPU's row queues enabling its passthrough "
		         "(esxcli hardware pci pcipassthru set -d ADDRESS -e true -a): the review lists "
		         "it and the write step runs it after your one yes, before the .vmx is written; "
		         "e again takes it back. gpuwiz refuses a storage controller that holds a "
		         "datastore or the boot device, and says when the host needs a reboot.\nr reads "
		         "the host again. Enter goes on when no row FAILs; o goes on anyway after a "
		         "confirmation."),
		/* TRANSLATORS: help of step 4 on an ESXi host, wrapped to
		 * about 70 cells.  u and r are keys. */
		.vm_help = N_("The list shows the host's VMs (vim-cmd vmsvc/getallvms). Up/Down choose: the "
		         "(*) follows the cursor, and nothing is read from the host while you move. "
		         "Enter goes on with the VM marked (*): gpuwiz first asks the host for its power "
		         "state and reads its .vmx from the datastore, unless it is open already; "
		         "\"No VM\" goes on with the snippets only. Space opens the marked VM without "
		         "going on and shows its hardware version, firmware, memory and reservation "
		         "and the passthrough devices already in it, with its advice.\nThe write step "
		         "saves the changed .vmx on the datastore (temporary file, then a move; the old "
		         "file is kept as a backup beside it) and runs vim-cmd vmsvc/reload. A VM that "
		         "is not powered off is never changed.\nu (on the open VM) queues the upgrade "
		         "of its hardware version to the newest this host runs (vim-cmd vmsvc/upgrade; the "
		         "plan is made for that version): the write step runs it after your one yes, "
		         "only with the VM powered off, never down; u again takes it back. The upgrade "
		         "cannot be undone: the write step first copies the .vmx to a backup beside it "
		         "(a VM with a DirectPath device cannot have snapshots).\nr reads the host's "
		         "VM list again."),
	},
	[GW_MODE_VSPHERE] = {
		/* TRANSLATORS: welcome step choice, at most 40 cells. */
		.name = N_("vCenter or ESXi through the API"),
		/* TRANSLATORS: under the focused choice while no API
		 * server is connected; wrapped, at most 150 cells. */
		.missing = N_("Not connected yet: Enter asks for the URL, user and password and connects; an untrusted certificate is shown for you to accept or refuse."),
		/* TRANSLATORS: this mode's paragraph of the welcome step's
		 * help, wrapped to about 70 cells. */
		.about = N_("vCenter or ESXi through the API: Enter asks for the URL "
		            "(https://HOST/sdk), the user and the password (not shown, used for the "
		            "login only, never saved) and connects. A certificate the system does not "
		            "trust is shown by its SHA-256 fingerprint: compare it with the server's "
		            "before you trust it; the connection is then pinned to it, as --thumbprint "
		            "pins it. Or start gpuwiz with --url https://HOST/sdk --user USER. gpuwiz "
		            "reads the inventory, enables passthrough and reconfigures the VM with "
		            "ReconfigVM_Task."),
		.conn = &wz_connect_api,
		.reach = WZ_REACH_ATTACHED,
		.kind = GW_HOST_VSPHERE,
		.no_host = N_("no vSphere connection"),
		.no_host_vms = 1,
		.probe = gw_wizard_probe_esxi,
		.checks_title = checks_api,
		.vm_line = vm_line_api,
		/* TRANSLATORS: help of step 2 through the vSphere API,
		 * wrapped to about 70 cells.  r, e and o are keys. */
		.host_help = N_("gpuwiz read the server through the vSphere API: its hosts with their versions "
		         "(the newest VM hardware version each runs) and each GPU's passthrough state "
		         "(hardware.pciDevice, config.pciPassthruInfo). \"Passthru Capable: false\" "
		         "means the IOMMU (VT-d/AMD-Vi) is off in the BIOS. Above 4G decoding cannot be "
		         "seen from ESXi: check it in the BIOS.\ne on a GPU's row queues enabling its "
		         "passthrough (UpdatePassthruConfig): the write step runs it after your one "
		         "yes; e again takes it back. A free ESXi licence refuses API writes: then "
		         "start gpuwiz with --ssh root@HOST instead.\nr reads the server again. Enter "
		         "goes on when no row FAILs; o goes on anyway after a confirmation."),
		/* TRANSLATORS: help of step 4 through the vSphere API,
		 * wrapped to about 70 cells.  u and r are keys. */
		.vm_help = N_("The list shows the server's VMs. Up/Down choose: the (*) follows the "
		         "cursor, and nothing is read from the server while you move. Enter goes on "
		         "with the VM marked (*), read from the server first unless it is open already; "
		         "\"No VM\" goes on with the snippets only. Space opens the marked VM without "
		         "going on and shows its hardware version, firmware, memory and reservation and "
		         "the passthrough devices already in it, with its advice, and the free, "
		         "passthrough-enabled devices of its host that the write step attaches.\nThe write step "
		         "sends one ReconfigVM_Task (extraConfig, memoryReservationLockedToMax, a "
		         "VirtualPCIPassthrough device per GPU) and shows its progress; what the VM "
		         "already has is not added again. A VM that is not powered off is never "
		         "changed.\nu (on the open VM) queues the upgrade of its hardware version to the "
		         "newest its host runs (UpgradeVM_Task; the plan is made for that version): the "
		         "write step runs it after your one yes, only powered off, never down; u again "
		         "takes it back. The upgrade cannot be undone.\nr reads the server again."),
	},
};

static int
known(gw_mode m)
{
	return (unsigned)m < GW_NMODES;
}

const wz_mode_desc *
wz_mode(gw_mode m)
{
	return &modes[known(m) ? m : GW_MODE_OFFLINE];
}

/* ---- the modes ---------------------------------------------------------- */

const char *
gw_mode_name(gw_mode m)
{
	return known(m) ? _(modes[m].name) : "";
}

/* A mode of this build at all: 1, else 0 and *why says so. */
static int
mode_known(gw_mode m, const char **why)
{
	const char *w = known(m) ? NULL : _("Unknown choice: plan offline.");

	if (why)
		*why = w;
	return w == NULL;
}

/* The vSphere route in a build without the vSphere module: 1 and *why
 * the host layer's one line (gw_vs_available). */
int
wz_mode_not_built(gw_mode m, const char **why)
{
	static gw_err novs;

	if (!known(m) || modes[m].kind != GW_HOST_VSPHERE ||
	    modes[m].reach != WZ_REACH_ATTACHED || gw_vs_available(&novs) == 0)
		return 0;
	if (why)
		*why = novs.msg;
	return 1;
}

int
gw_wizard_mode_available(const gw_wizard *w, gw_mode m, const char **why)
{
	if (!mode_known(m, why) || wz_mode_not_built(m, why))
		return 0;
	/* a mode that reads an attached host waits for one of its kind */
	if (modes[m].missing == NULL ||
	    (w != NULL && wz_host_for(w, m) != NULL))
		return 1;
	if (why)
		*why = _(modes[m].missing);
	return 0;
}

int
gw_wizard_host_mode(const gw_wizard *w)
{
	return wz_mode(w->mode)->reach == WZ_REACH_ATTACHED;
}

/* ---- the hosts behind the modes ----------------------------------------- */

gw_host *
wz_host_for(const gw_wizard *w, gw_mode m)
{
	const wz_mode_desc *d = wz_mode(m);
	gw_host *h;

	if (d->reach == WZ_REACH_NONE)
		return NULL;
	h = d->reach == WZ_REACH_ROOT ? w->local : w->host;
	return h && gw_host_kind_of(h) == d->kind ? h : NULL;
}

gw_mode
wz_mode_of(const gw_host *h)
{
	int m;

	for (m = 0; m < GW_NMODES; m++)
		if (modes[m].reach != WZ_REACH_NONE &&
		    modes[m].kind == gw_host_kind_of(h))
			return (gw_mode)m;
	return GW_MODE_LINUX;
}

/* ---- the words of the host ------------------------------------------- */

char *
gw_wizard_checks_title(const gw_wizard *w)
{
	return wz_mode(w->mode)->checks_title(w);
}

char *
gw_wizard_vm_title(const gw_wizard *w)
{
	if (w->sess.vm < 0 || (size_t)w->sess.vm >= w->sess.vms.list.n)
		return NULL;
	return wz_mode(w->mode)->vm_line(&w->sess.vms.list.vms[w->sess.vm],
	                                 w->sess.power);
}

const char *
gw_wizard_mode_note(gw_mode m, int long_form)
{
	const char *s;

	if (!known(m))
		return NULL;
	s = long_form ? modes[m].note_long : modes[m].note;
	return s ? _(s) : NULL;
}

/* The welcome step's help: the step's, then each mode's paragraph (made
 * anew each time: the language may change between two calls). */
static const char *
welcome_help(void)
{
	static char buf[8192];
	size_t n;
	int m;

	n = (size_t)snprintf(buf, sizeof buf, "%s", gw_step_help(GW_STEP_WELCOME));
	for (m = 0; m < GW_NMODES && n < sizeof buf; m++)
		n += (size_t)snprintf(buf + n, sizeof buf - n, "\n%s",
		                      _(modes[m].about));
	return buf;
}

const char *
gw_wizard_step_help(const gw_wizard *w, gw_step s)
{
	const wz_mode_desc *d;
	const char *h;

	if (s == GW_STEP_WELCOME)
		return welcome_help();   /* every mode's, whichever is chosen */
	d = wz_mode(w->mode);
	h = s == GW_STEP_HOST ? d->host_help : s == GW_STEP_VM ? d->vm_help :
	    NULL;
	return h ? _(h) : gw_step_help(s);
}
