/* SPDX-License-Identifier: GPL-3.0-or-later */
/* step_vm_esxi.c: step 4 on a host that lists its VMs (an ESXi host over
 * SSH or through the vSphere API: GW_CAN_VMS): the server's VMs instead of
 * a local path.
 *
 *   VMs on root@esx01 (Enter goes on with the one marked (*)):
 *     ( ) No VM: write snippets only
 *     (*) itachi_lab           vmx-13  [datastore1] itachi_lab/...
 *     ( ) itachi_backupTest    vmx-13  [datastore1] ...
 *   itachi_lab: Vmid 11, powered off
 *     <the opened VM: hardware version, firmware, memory and reservation,
 *      passthrough devices, and the plan's advice (step_vm.c)>
 *
 * A menu: the (*) is on the highlighted row, moving the cursor chooses.
 * Moving reads nothing from the host (a slow API server stays quick to
 * walk); Enter opens the marked VM when it is not the one open (power
 * state, its .vmx read from the datastore) and goes on with it, "No VM"
 * goes on without one.  Space opens the marked VM and stays, to show what
 * it holds before going on.  u (on the open VM) queues the upgrade of its
 * hardware version to the host's
 * newest (vim-cmd vmsvc/upgrade when the write runs: powered off only,
 * never down; the plan is made for it at once), u again takes it back; r
 * reads the host's VM list again.  A powered-on VM can be opened and
 * planned, but the write step refuses to change it.
 */
#include "step_vm.h"
#include "wizard_changes.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Is row (0 = no VM, i+1 = VM i) the one open? */
static int
row_open(const gw_wizard *w, int row)
{
	long open = gw_wizard_vm_open(w);

	return row == 0 ? open < 0 : (long)row - 1 == open;
}

void
ui_vm_esxi_enter(ui_ctx *u, ui_vm_list *s)
{
	const gw_wizard *w = u->w;
	long open = gw_wizard_vm_open(w);
	size_t n = gw_wizard_vms(w, NULL);

	s->vl.n = (int)n + 1;
	/* the focus, and so the (*), starts on the VM open (no VM until
	 * one is opened) */
	s->vl.cur = open >= 0 ? (int)open + 1 : 0;
	s->vl.top = 0;
}

/* The rows of the VM list from line y. */
static void
draw_rows(ui_ctx *u, ui_vm_list *s, ui_rect r, int y)
{
	const gw_wizard *w = u->w;
	const gw_vm *vms;
	int i, nrows = (int)gw_wizard_vms(w, &vms) + 1;

	for (i = 0; i < s->h_rows && s->vl.top + i < nrows; i++) {
		int row = s->vl.top + i, foc = row == s->vl.cur;
		attr_t a = foc ? ui_attr(UI_C_SEL) : A_NORMAL;
		char buf[512];

		if (foc)
			dw_fill(r.y + y + i, r.x, r.w - 1, a);
		if (row == 0) {
			/* TRANSLATORS: the first choice of the ESXi VM list;
			 * at most 60 cells. */
			snprintf(buf, sizeof buf, "%s %s", foc ? "(*)" : "( )",
			         _("No VM: write snippets only"));
		} else {
			const gw_vm *vm = &vms[row - 1];

			const char *ver = vm->version ? vm->version : "";
			int nw = dw_cells(vm->name), vw = dw_cells(ver);

			/* the Vmid is on the open VM's line: the row keeps
			 * its cells for the .vmx path; columns padded in
			 * cells, not bytes */
			snprintf(buf, sizeof buf, "%s %s%*s %s%*s %s",
			         foc ? "(*)" : "( )", vm->name,
			         nw < 20 ? 20 - nw : 0, "", ver,
			         vw < 7 ? 7 - vw : 0, "", vm->file);
		}
		dw_put(r.y + y + i, r.x + 1, buf, r.w - 2, a);
	}
	ui_list_marks(&s->vl, r.y + s->y_rows, r.x + r.w - 1, s->h_rows);
}

/* The open VM: its line (with the upgrade on offer), a warning when it is
 * not powered off, the devices to attach, then its facts. */
static void
draw_open(ui_ctx *u, ui_rect r, int y)
{
	const gw_wizard *w = u->w;
	int up = gw_wizard_esxi_upgrade_target(w);
	int queued = gw_wizard_upgrade_queued(w);
	int off = gw_wizard_vm_power(w) == GW_POWER_OFF;
	const char *picked = gw_wizard_vm_picked(w);
	char *s = gw_wizard_vm_title(w), *t;

	if (up > 0) {
		/* TRANSLATORS: after the open VM's line; u is the key, %d the
		 * hardware version. */
		t = gw_xasprintf(_("%s (u: upgrade to vmx-%d)"), s, up);
		free(s);
		s = t;
	} else if (queued > 0) {
		/* TRANSLATORS: after the open VM's line while its upgrade is
		 * queued; %d the hardware version, u the key. */
		t = gw_xasprintf(_("%s (vmx-%d queued: u takes it back)"), s,
		                 queued);
		free(s);
		s = t;
	}
	dw_put(r.y + y, r.x, s, r.w, ui_attr(off ? UI_C_HEAD : UI_C_WARN));
	free(s);
	y++;
	if (!off && y < r.h) {
		dw_put(r.y + y, r.x + 2,
		       /* TRANSLATORS: a VM that is not powered off; at most 76
		        * cells. */
		       _("Not powered off: gpuwiz will not change it. Shut it down first."),
		       r.w - 2, ui_attr(UI_C_WARN));
		y++;
	}
	if (picked && y < r.h) {
		/* TRANSLATORS: through the API, the host devices the write
		 * step attaches; %s lists PCI addresses. */
		t = gw_xasprintf(_("Devices to attach (free, passthrough enabled on its host): %s"),
		                 picked);
		dw_put(r.y + y, r.x + 2, t, r.w - 2, ui_attr(UI_C_INFO));
		free(t);
		y++;
	}
	ui_vm_draw_facts(u, r, y);
}

void
ui_vm_esxi_draw(ui_ctx *u, ui_vm_list *s, ui_rect r)
{
	const gw_wizard *w = u->w;
	const char *err = gw_wizard_error(w, GW_ERR_VMS);
	char *t;
	int y = 0, nrows = (int)gw_wizard_vms(w, NULL) + 1;

	/* TRANSLATORS: heading of the VM step on an ESXi host; %s is the
	 * host (root@esx01).  At most 78 cells. */
	t = gw_xasprintf(_("VMs on %s (Enter goes on with the one marked):"),
	                 gw_wizard_host_label(w));
	dw_put(r.y, r.x, t, r.w, ui_attr(UI_C_HEAD));
	free(t);
	y = 1;
	if (err)
		y += dw_wrap_put(r.y + y, r.x + 2, r.w - 2, 2, err,
		                 ui_attr(UI_C_MSG_ERR));
	s->vl.n = nrows;
	s->h_rows = nrows < 5 ? nrows : 5;
	if (r.h - y < 8 && s->h_rows > 3)
		s->h_rows = 3;
	s->y_rows = y;
	ui_list_fix(&s->vl, s->h_rows);
	draw_rows(u, s, r, y);
	y += s->h_rows + 1;
	if (s->vl.cur > 0 && row_open(w, s->vl.cur) && gw_wizard_vmx(w)) {
		draw_open(u, r, y);
		return;
	}
	if (y < r.h)
		dw_wrap_put(r.y + y, r.x + 2, r.w - 2, r.h - y,
		            s->vl.cur == 0 ?
		            /* TRANSLATORS: under the ESXi VM list with "No
		             * VM" marked; wrapped. */
		            _("Enter goes on without a VM: gpuwiz writes the snippets only.") :
		            /* TRANSLATORS: under the ESXi VM list with a VM
		             * marked that is not open yet; wrapped. */
		            _("Enter opens the marked VM (its .vmx from the datastore) and goes on with it; Space opens it here first, to see what it holds. The write step patches it with a backup beside it, powered off only."),
		            ui_attr(UI_C_DIM));
}

/* Open row (0: no VM); quiet when the step goes on at once. */
static int
open_row(ui_ctx *u, int row, int quiet)
{
	gw_wizard *w = u->w;
	const gw_vm *vms;
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
	if (row > 0 && !quiet) {
		gw_wizard_vms(w, &vms);
		/* TRANSLATORS: %s is the VM's name. */
		ui_msg(u, UI_MSG_OK, _("Opened %s: check what it holds, then Enter."),
		       vms[row - 1].name);
	}
	return 0;
}

/* u: queue the upgrade to the host's newest hardware version, or take
 * it back; it runs when the write step's question is answered yes. */
static int
upgrade(ui_ctx *u)
{
	gw_wizard *w = u->w;
	int to = gw_wizard_esxi_upgrade_target(w), r;
	gw_err e;

	if (to == 0 && gw_wizard_upgrade_queued(w) == 0) {
		ui_msg(u, UI_MSG_INFO, "%s",
		       _("Nothing to upgrade: the VM already has the newest hardware version this host runs."));
		return UI_HANDLED;
	}
	e.msg[0] = '\0';
	r = gw_wizard_esxi_upgrade(w, &e);
	if (r < 0)
		ui_msg(u, UI_MSG_ERROR, "%s", e.msg);
	else if (r == 1)
		/* TRANSLATORS: after u; %d is the new hardware version. */
		ui_msg(u, UI_MSG_OK, _("Queued: the upgrade to vmx-%d runs when you write (the review lists it); the plan is made for vmx-%d."),
		       to, to);
	else
		/* TRANSLATORS: after u on a queued upgrade. */
		ui_msg(u, UI_MSG_INFO, "%s", _("Taken back: the VM keeps its hardware version."));
	return UI_HANDLED;
}

/* r: read the host again (its VM list). */
static int
reread(ui_ctx *u, ui_vm_list *s)
{
	gw_wizard *w = u->w;

	/* TRANSLATORS: progress while reading the host again. */
	ui_progress(u, _("Reading the host again..."), -1);
	u->repaint = UI_REPAINT_FULL;
	gw_wizard_reprobe(w);
	if (gw_wizard_vm_open(w) < 0 && gw_wizard_vmx(w) != NULL)
		gw_wizard_esxi_open_vm(w, -1, NULL);
	ui_vm_esxi_enter(u, s);
	return UI_HANDLED;
}

int
ui_vm_esxi_key(ui_ctx *u, ui_vm_list *s, ui_key k)
{
	ui_list *vl = &s->vl;
	int open;

	vl->n = (int)gw_wizard_vms(u->w, NULL) + 1;
	if (ui_list_key(vl, k, s->h_rows > 0 ? s->h_rows : 1))
		return UI_HANDLED;
	if (ui_key_tab(k)) {
		vl->cur = (vl->cur + 1) % vl->n;
		return UI_HANDLED;
	}
	if (ui_key_btab(k)) {
		vl->cur = (vl->cur + vl->n - 1) % vl->n;
		return UI_HANDLED;
	}
	open = row_open(u->w, vl->cur);
	if ((ui_key_is(k, L'u') || ui_key_is(k, L'U')) && vl->cur > 0) {
		if (open)
			return upgrade(u);
		ui_msg(u, UI_MSG_INFO, "%s",
		       /* TRANSLATORS: u on a VM not open yet. */
		       _("Open the VM first (Space), then u upgrades it."));
		return UI_HANDLED;
	}
	if (ui_key_is(k, L'r') || ui_key_is(k, L'R'))
		return reread(u, s);
	if (ui_key_space(k)) {
		if (!open)
			open_row(u, vl->cur, 0);
		return UI_HANDLED;
	}
	if (ui_key_enter(k)) {
		if (!open && open_row(u, vl->cur, 1) != 0)
			return UI_HANDLED;
		return UI_NEXT;
	}
	return UI_IGNORED;
}

int
ui_vm_esxi_mouse(ui_ctx *u, ui_vm_list *s, ui_rect r, int y, int x)
{
	int row;

	(void)r;
	(void)x;
	if (y < s->y_rows || y >= s->y_rows + s->h_rows)
		return UI_HANDLED;
	row = s->vl.top + (y - s->y_rows);
	if (row < (int)gw_wizard_vms(u->w, NULL) + 1) {
		int again = s->vl.cur == row;

		s->vl.cur = row;
		if (again && !row_open(u->w, row))
			open_row(u, row, 0);
	}
	return UI_HANDLED;
}

size_t
ui_vm_esxi_keys(ui_ctx *u, ui_vm_list *s, ui_keyhelp *out, size_t max)
{
	size_t n = 0;
	ui_key sp = { 0, L' ' }, down = { KEY_DOWN, 0 }, uk = { 0, L'u' },
	       rk = { 0, L'r' };
	int open = s->vl.cur > 0 && row_open(u->w, s->vl.cur);

	ui_keys_add(out, &n, max, "Up/Dn", _("Move"), down);
	if (s->vl.cur > 0 && !open)
		ui_keys_add(out, &n, max, "Space", _("Open"), sp);
	if (open && gw_wizard_esxi_upgrade_target(u->w) > 0)
		/* TRANSLATORS: key help label (u: upgrade the hardware
		 * version); at most 8 cells. */
		ui_keys_add(out, &n, max, "u", _("Upgrade"), uk);
	else if (open && gw_wizard_upgrade_queued(u->w) > 0)
		/* TRANSLATORS: key help label (u: take the queued upgrade
		 * back); at most 8 cells. */
		ui_keys_add(out, &n, max, "u", _("Unqueue"), uk);
	/* TRANSLATORS: key help label (r: read the host again); at most 8
	 * cells. */
	ui_keys_add(out, &n, max, "r", _("Reread"), rk);
	return ui_keys_common(out, n, max, 0);
}
