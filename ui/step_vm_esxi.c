/* step_vm_esxi.c: step 4 on an ESXi host (GW_MODE_ESXI_SSH) or through
 * the vSphere API (GW_MODE_VSPHERE): the server's VMs instead of a local
 * path.
 *
 *   VMs on root@esx01 (Enter opens the highlighted one):
 *     ( ) No VM: write snippets only
 *     (*) 11  itachi_lab          vmx-13  [datastore1] itachi_lab/...
 *         12  itachi_backupTest   vmx-13  [datastore1] ...
 *   itachi_lab: Vmid 11, powered off
 *     <the opened VM: hardware version, firmware, memory and reservation,
 *      passthrough devices, and the plan's advice (step_vm.c)>
 *
 * Enter on a VM not yet open opens it (power state, its .vmx read from the
 * datastore) and stays, to show it; Enter on the open one goes on.  u
 * upgrades the open VM's hardware version to the host's newest after a
 * confirmation (vim-cmd vmsvc/upgrade: powered off only, never down); r
 * reads the host's VM list again.  A powered-on VM can be opened and
 * planned, but the write step refuses to change it.
 */
#include "draw.h"
#include "screen.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static ui_list vl;     /* row 0 = no VM, row i+1 = esxi_vms.vms[i] */
static int y_rows, h_rows;
static int vm_api;   /* the step was entered through the API (for the help) */

void
ui_vm_esxi_enter(ui_ctx *u)
{
	gw_wizard *w = u->w;

	vm_api = w->mode == GW_MODE_VSPHERE;
	vl.n = (int)w->sess.vms.list.n + 1;
	vl.cur = w->sess.vm >= 0 ? (int)w->sess.vm + 1 :
	         w->sess.vms.list.n > 0 ? 1 : 0;
	vl.top = 0;
}

void
ui_vm_esxi_draw(ui_ctx *u, ui_rect r)
{
	gw_wizard *w = u->w;
	char *s;
	int i, y = 0, nrows = (int)w->sess.vms.list.n + 1;

	/* TRANSLATORS: heading of the VM step on an ESXi host; %s is the
	 * host (root@esx01).  At most 78 cells. */
	s = gw_xasprintf(_("VMs on %s (Enter opens the highlighted one):"),
	                 (w->host ? gw_host_label(w->host) : ""));
	dw_put(r.y, r.x, s, r.w, ui_attr(UI_C_HEAD));
	free(s);
	y = 1;
	if (w->sess.vms_error) {
		y += dw_wrap_put(r.y + y, r.x + 2, r.w - 2, 2, w->sess.vms_error,
		                 ui_attr(UI_C_MSG_ERR));
	}
	vl.n = nrows;
	h_rows = nrows < 5 ? nrows : 5;
	if (r.h - y < 8 && h_rows > 3)
		h_rows = 3;
	y_rows = y;
	ui_list_fix(&vl, h_rows);
	for (i = 0; i < h_rows && vl.top + i < nrows; i++) {
		int row = vl.top + i, foc = row == vl.cur;
		int open = row == 0 ? w->sess.vm < 0 : (long)row - 1 == w->sess.vm;
		attr_t a = foc ? ui_attr(UI_C_SEL) : A_NORMAL;
		char buf[512];

		if (foc)
			dw_fill(r.y + y + i, r.x, r.w - 1, a);
		if (row == 0) {
			/* TRANSLATORS: the first choice of the ESXi VM list;
			 * at most 60 cells. */
			snprintf(buf, sizeof buf, "%s %s", open ? "(*)" : "( )",
			         _("No VM: write snippets only"));
		} else {
			const gw_esxi_vm *vm = &w->sess.vms.list.vms[row - 1];

			snprintf(buf, sizeof buf, "%s %-5lu %-20s %-7s %s",
			         open ? "(*)" : "( )", vm->vmid, vm->name,
			         vm->version ? vm->version : "", vm->file);
		}
		dw_put(r.y + y + i, r.x + 1, buf, r.w - 2, a);
	}
	ui_list_marks(&vl, r.y + y_rows, r.x + r.w - 1, h_rows);
	y += h_rows + 1;
	if (w->sess.vm < 0 || w->vmx == NULL) {
		if (y < r.h)
			dw_wrap_put(r.y + y, r.x + 2, r.w - 2, r.h - y,
			            /* TRANSLATORS: explains the ESXi VM step;
			             * wrapped. */
			            _("Open a VM to patch its .vmx on the datastore (a backup is kept beside it; the VM must be powered off), or choose no VM to write the snippets only."),
			            ui_attr(UI_C_DIM));
		return;
	} else {
		const gw_esxi_vm *vm = &w->sess.vms.list.vms[w->sess.vm];
		int up = gw_wizard_esxi_upgrade_target(w);
		char *t;

		if (w->mode == GW_MODE_VSPHERE)
			/* TRANSLATORS: the open VM through the API: its name
			 * and power state. */
			s = gw_xasprintf(_("%s: %s"), vm->name,
			                 gw_esxi_power_name(w->sess.power));
		else
			/* TRANSLATORS: the open VM: its name, id and power
			 * state. */
			s = gw_xasprintf(_("%s: Vmid %lu, %s"), vm->name, vm->vmid,
			                 gw_esxi_power_name(w->sess.power));
		if (up > 0) {
			/* TRANSLATORS: after the open VM's line; u is the
			 * key, %d the hardware version. */
			t = gw_xasprintf(_("%s (u: upgrade to vmx-%d)"), s, up);
			free(s);
			s = t;
		}
		dw_put(r.y + y, r.x, s, r.w,
		       ui_attr(w->sess.power == GW_ESXI_POWER_OFF ? UI_C_HEAD :
		               UI_C_WARN));
		free(s);
		y++;
		if (w->sess.power != GW_ESXI_POWER_OFF && y < r.h) {
			dw_put(r.y + y, r.x + 2,
			       /* TRANSLATORS: a VM that is not powered off;
			        * at most 76 cells. */
			       _("Not powered off: gpuwiz will not change it. Shut it down first."),
			       r.w - 2, ui_attr(UI_C_WARN));
			y++;
		}
		if (w->mode == GW_MODE_VSPHERE && w->sess.picked && y < r.h) {
			/* TRANSLATORS: through the API, the host devices the
			 * write step attaches; %s lists PCI addresses. */
			char *t2 = gw_xasprintf(_("Devices to attach (free, passthrough enabled on its host): %s"),
			                        w->sess.picked);

			dw_put(r.y + y, r.x + 2, t2, r.w - 2, ui_attr(UI_C_INFO));
			free(t2);
			y++;
		}
		ui_vm_draw_facts(u, r, y);
	}
}

static int
open_row(ui_ctx *u, int row)
{
	gw_wizard *w = u->w;
	gw_err e;

	e.msg[0] = '\0';
	if (row > 0)
		/* TRANSLATORS: progress while reading a VM from the host. */
		ui_progress(u, _("Reading the VM from the host..."), -1);
	u->repaint = UI_REPAINT_FULL;
	if (gw_wizard_esxi_open_vm(w, row - 1, &e) != 0) {
		ui_msg(u, UI_MSG_ERROR, "%s", e.msg);
		return -1;
	}
	if (row > 0)
		/* TRANSLATORS: %s is the VM's name. */
		ui_msg(u, UI_MSG_OK, _("Opened %s: check what it holds, then Enter."),
		       w->sess.vms.list.vms[row - 1].name);
	return 0;
}

static int
upgrade(ui_ctx *u)
{
	gw_wizard *w = u->w;
	int to = gw_wizard_esxi_upgrade_target(w);
	char *q;
	gw_err e;

	if (to == 0) {
		ui_msg(u, UI_MSG_INFO, "%s",
		       _("Nothing to upgrade: the VM already has the newest hardware version this host runs."));
		return UI_HANDLED;
	}
	/* TRANSLATORS: asked on u; the VM's name, its hardware version now
	 * and the new one; y/n are keys. */
	q = gw_xasprintf(_("Upgrade %s from vmx-%d to vmx-%d? It cannot be undone: take a snapshot or backup first. y/n"),
	                 w->sess.vms.list.vms[w->sess.vm].name, w->plan.hw_current, to);
	if (ui_confirm(u, q) != 1) {
		free(q);
		return UI_HANDLED;
	}
	free(q);
	/* TRANSLATORS: progress of vim-cmd vmsvc/upgrade. */
	ui_progress(u, _("Upgrading the VM's hardware version..."), -1);
	u->repaint = UI_REPAINT_FULL;
	e.msg[0] = '\0';
	if (gw_wizard_esxi_upgrade(w, &e) != 0)
		ui_msg(u, UI_MSG_ERROR, "%s", e.msg);
	else
		/* TRANSLATORS: after u; %d is the new hardware version. */
		ui_msg(u, UI_MSG_OK, _("Upgraded to vmx-%d."), to);
	return UI_HANDLED;
}

int
ui_vm_esxi_key(ui_ctx *u, ui_key k)
{
	gw_wizard *w = u->w;
	int open;

	vl.n = (int)w->sess.vms.list.n + 1;
	if (ui_list_key(&vl, k, h_rows > 0 ? h_rows : 1))
		return UI_HANDLED;
	if (ui_key_tab(k)) {
		vl.cur = (vl.cur + 1) % vl.n;
		return UI_HANDLED;
	}
	if (ui_key_btab(k)) {
		vl.cur = (vl.cur + vl.n - 1) % vl.n;
		return UI_HANDLED;
	}
	if (ui_key_is(k, L'u') || ui_key_is(k, L'U'))
		return upgrade(u);
	if (ui_key_is(k, L'r') || ui_key_is(k, L'R')) {
		/* TRANSLATORS: progress while reading the host again. */
		ui_progress(u, _("Reading the host again..."), -1);
		u->repaint = UI_REPAINT_FULL;
		gw_wizard_probe_esxi(w);
		if (w->sess.vm < 0 && w->vmx != NULL)
			gw_wizard_esxi_open_vm(w, -1, NULL);
		ui_vm_esxi_enter(u);
		return UI_HANDLED;
	}
	open = vl.cur == 0 ? w->sess.vm < 0 : (long)vl.cur - 1 == w->sess.vm;
	if (ui_key_space(k)) {
		if (!open)
			open_row(u, vl.cur);
		return UI_HANDLED;
	}
	if (ui_key_enter(k)) {
		if (open)
			return UI_NEXT;
		if (open_row(u, vl.cur) != 0)
			return UI_HANDLED;
		return vl.cur == 0 ? UI_NEXT : UI_HANDLED;
	}
	return UI_IGNORED;
}

int
ui_vm_esxi_mouse(ui_ctx *u, ui_rect r, int y, int x)
{
	int row;

	(void)r;
	(void)x;
	if (y < y_rows || y >= y_rows + h_rows)
		return UI_HANDLED;
	row = vl.top + (y - y_rows);
	if (row < (int)u->w->sess.vms.list.n + 1) {
		int again = vl.cur == row;

		vl.cur = row;
		if (again)
			open_row(u, row);
	}
	return UI_HANDLED;
}

static const char *
vm_api_help(void)
{
	/* TRANSLATORS: help of step 4 through the vSphere API, wrapped to
	 * about 70 cells.  u and r are keys. */
	return _("The list shows the server's VMs. Enter or Space opens the highlighted VM: "
	         "gpuwiz shows its hardware version, firmware, memory and reservation and the "
	         "passthrough devices already in it, with its advice, and the free, "
	         "passthrough-enabled devices of its host that the write step attaches. Enter on "
	         "the open VM goes on; \"No VM\" writes the snippets only.\n"
	         "The write step sends one ReconfigVM_Task (extraConfig, "
	         "memoryReservationLockedToMax, a VirtualPCIPassthrough device per GPU) and shows "
	         "its progress; what the VM already has is not added again. A VM that is not "
	         "powered off is never changed.\n"
	         "u upgrades the open VM's hardware version to the newest its host runs "
	         "(UpgradeVM_Task), after you confirm: only powered off, never down; the upgrade "
	         "cannot be undone.\n"
	         "r reads the server again.");
}

const char *
ui_vm_esxi_help(void)
{
	if (vm_api)
		return vm_api_help();
	/* TRANSLATORS: help of step 4 on an ESXi host, wrapped to about 70
	 * cells.  u and r are keys. */
	return _("The list shows the host's VMs (vim-cmd vmsvc/getallvms). Enter or Space "
	         "opens the highlighted VM: gpuwiz asks the host for its power state and reads "
	         "its .vmx from the datastore, and shows its hardware version, firmware, memory "
	         "and reservation and the passthrough devices already in it, with its advice. "
	         "Enter on the open VM goes on; \"No VM\" writes the snippets only.\n"
	         "The write step saves the changed .vmx on the datastore (temporary file, then "
	         "a move; the old file is kept as a backup beside it) and runs vim-cmd "
	         "vmsvc/reload. A VM that is not powered off is never changed.\n"
	         "u upgrades the open VM's hardware version to the newest this host runs "
	         "(vim-cmd vmsvc/upgrade), after you confirm: only with the VM powered off, "
	         "never down; the upgrade cannot be undone, so take a snapshot or backup "
	         "first.\n"
	         "r reads the host's VM list again.");
}

size_t
ui_vm_esxi_keys(ui_ctx *u, ui_keyhelp *out, size_t max)
{
	size_t n = 0;
	ui_key sp = { 0, L' ' }, down = { KEY_DOWN, 0 }, uk = { 0, L'u' },
	       rk = { 0, L'r' };

	ui_keys_add(out, &n, max, "Up/Dn", _("Move"), down);
	ui_keys_add(out, &n, max, "Space", _("Open"), sp);
	if (gw_wizard_esxi_upgrade_target(u->w) > 0)
		/* TRANSLATORS: key help label (u: upgrade the hardware
		 * version); at most 8 cells. */
		ui_keys_add(out, &n, max, "u", _("Upgrade"), uk);
	/* TRANSLATORS: key help label (r: read the host again); at most 8
	 * cells. */
	ui_keys_add(out, &n, max, "r", _("Reread"), rk);
	return ui_keys_common(out, n, max, 0);
}
