/* step_host.c: step 2, the host check.  Offline it is the checklist the
 * operator confirms in the host's BIOS/UEFI setup (the wizard's items:
 * VT-d/AMD-Vi, above-4G decoding, SR-IOV), one row each with PASS once
 * confirmed or WARN while not, and where to find it (the fix).
 * Configuring this Linux host, it shows gpuwiz check's rows instead
 * (PASS/WARN/FAIL; the highlighted row's message and fix below them): r
 * runs the checks again, o goes on past a FAIL after a confirmation.
 * On an ESXi host (GW_MODE_ESXI_SSH, or through the API: GW_MODE_VSPHERE)
 * the rows are the host's (version,
 * system id, each GPU's passthrough state), and e on a GPU's row enables
 * its passthrough after a confirmation. */
#include "draw.h"
#include "screen.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static ui_list list;

static int nrows_of(const gw_wizard *w);
static int linux_mode;  /* for the help, which has no context */
static int esxi_mode;
static int api_mode;    /* GW_MODE_VSPHERE, for the help */

/* The host's rows are probes (this Linux host, an ESXi host), not the
 * offline checklist. */
static int
probe_mode(const gw_wizard *w)
{
	return w->mode == GW_MODE_LINUX || gw_wizard_host_mode(w);
}

static void
host_enter(ui_ctx *u)
{
	linux_mode = u->w->mode == GW_MODE_LINUX;
	esxi_mode = gw_wizard_host_mode(u->w);
	api_mode = u->w->mode == GW_MODE_VSPHERE;
	list.n = nrows_of(u->w);
	if (list.cur >= list.n)
		list.cur = 0;
	ui_list_fix(&list, list.n > 0 ? list.n : 1);
}

static int row_of[GW_NHOST];

static int lrow_y0;   /* GW_MODE_LINUX: the first row's line */

static int
nrows_of(const gw_wizard *w)
{
	return probe_mode(w) ? (int)w->nchecks : GW_NHOST;
}

static void
linux_draw(ui_ctx *u, ui_rect r)
{
	gw_wizard *w = u->w;
	int y = 0, i, h, lab_w = 6, n = (int)w->nchecks;
	char *s;

	/* TRANSLATORS: heading of the live host checks; %s is the root
	 * checked ("/" or GPUWIZ_SYSROOT).  At most 78 cells. */
	if (w->mode == GW_MODE_VSPHERE)
		/* TRANSLATORS: heading of the API server's checks; %s is its
		 * URL.  At most 78 cells. */
		s = gw_xasprintf(_("Checks through the vSphere API (%s):"),
		                 (w->host ? gw_host_label(w->host) : ""));
	else if (w->mode == GW_MODE_ESXI_SSH)
		/* TRANSLATORS: heading of the ESXi host's checks; %s is the
		 * host (root@esx01).  At most 78 cells. */
		s = gw_xasprintf(_("Checks of the ESXi host %s:"),
		                 (w->host ? gw_host_label(w->host) : ""));
	else
		s = gw_xasprintf(_("Checks of this Linux host (%s):"),
		                 w->sysroot ? w->sysroot : gw_wizard_sysroot());
	dw_put(r.y, r.x, s, r.w, ui_attr(UI_C_HEAD));
	free(s);
	y = 1;
	if (w->checks_error) {
		dw_wrap_put(r.y + y, r.x, r.w, r.h - y, w->checks_error,
		            ui_attr(UI_C_FAIL));
		return;
	}
	/* the rows, then the highlighted one's message and fix (5 lines) */
	h = r.h - y - 6;
	if (h < 3)
		h = 3;
	if (h > n)
		h = n;
	list.n = n;
	ui_list_fix(&list, h);
	lrow_y0 = y;
	for (i = 0; i < h && list.top + i < n; i++) {
		const gw_linux_check *c = &w->checks[list.top + i];
		int foc = list.top + i == list.cur;
		attr_t a = foc ? ui_attr(UI_C_SEL) : A_NORMAL;
		int lc = c->status == GW_LINUX_PASS ? UI_C_PASS :
		         c->status == GW_LINUX_WARN ? UI_C_WARN : UI_C_FAIL;

		if (foc)
			dw_fill(r.y + y, r.x, r.w - lab_w, a);
		dw_put(r.y + y, r.x + 1, c->title, r.w - lab_w - 2, a);
		/* PASS/WARN/FAIL: gpuwiz check's words, not translated */
		dw_put(r.y + y, r.x + r.w - lab_w + 1,
		       gw_linux_status_word(c->status), 5, ui_attr(lc));
		y++;
	}
	ui_list_marks(&list, r.y + lrow_y0, r.x + r.w - lab_w, h);
	y++;
	if (list.cur >= 0 && list.cur < n) {
		const gw_linux_check *c = &w->checks[list.cur];

		y += dw_wrap_put(r.y + y, r.x + 1, r.w - 2, r.h - y, c->message,
		                 ui_attr(c->status == GW_LINUX_PASS ? UI_C_DIM :
		                         UI_C_NORMAL));
		if (c->fix && y < r.h) {
			s = gw_xasprintf(_("fix: %s"), c->fix);
			y += dw_wrap_put(r.y + y, r.x + 1, r.w - 2, r.h - y, s,
			                 ui_attr(UI_C_DIM));
			free(s);
		}
	}
	if (w->host_override && gw_wizard_host_fail(w) && y < r.h)
		dw_put(r.y + r.h - 1, r.x + 1,
		       /* TRANSLATORS: after o confirmed going on past FAIL
		        * rows; at most 76 cells. */
		       _("Going on despite the FAIL rows (o again takes it back)."),
		       r.w - 2, ui_attr(UI_C_WARN));
}

static void
host_draw(ui_ctx *u, ui_rect r)
{
	gw_wizard *w = u->w;
	int i, y = 0, lab_w = 6, full;
	int help_rows = 0;

	linux_mode = w->mode == GW_MODE_LINUX;
	esxi_mode = gw_wizard_host_mode(w);
	api_mode = w->mode == GW_MODE_VSPHERE;
	if (probe_mode(w)) {
		linux_draw(u, r);
		return;
	}
	list.n = GW_NHOST;
	if (w->mode != GW_MODE_OFFLINE) {
		dw_wrap_put(r.y, r.x, r.w, r.h,
		            /* TRANSLATORS: shown instead of live host checks;
		             * wrapped. */
		            _("Live host checks come with the host discovery part of gpuwiz; this build "
		              "has none. Confirm the items below yourself."),
		            ui_attr(UI_C_WARN));
		y += 3;
	}
	y += dw_wrap_put(r.y + y, r.x, r.w, 2,
	                 /* TRANSLATORS: heading of the offline host
	                  * checklist; at most 2 lines of 78 cells. */
	                 _("Confirm each item in the host's BIOS/UEFI setup (Space toggles):"),
	                 ui_attr(UI_C_HEAD));
	y++;
	/* with room, every item shows where to find it; else the focused */
	for (i = 0; i < GW_NHOST; i++)
		help_rows += gw_host_item_help(i) ?
		             dw_wrap_rows(gw_host_item_help(i), r.w - 6) : 0;
	full = y + GW_NHOST * 2 + help_rows <= r.h;
	for (i = 0; i < GW_NHOST && y < r.h; i++) {
		int foc = list.cur == i, ok = w->host_ok[i];
		/* SR-IOV matters only for vGPUs on Ampere and later */
		int optional = i == GW_HOST_SRIOV && !gw_wizard_sriov_needed(w);
		attr_t a = foc ? ui_attr(UI_C_SEL) : A_NORMAL;
		char box[8];
		/* TRANSLATORS: a confirmed checklist item, at most 5 cells
		 * like FAIL/WARN/INFO. */
		const char *lab = ok ? _("PASS") : optional ?
		                  /* TRANSLATORS: at most 5 cells. */
		                  _("INFO") :
		                  /* TRANSLATORS: at most 5 cells. */
		                  _("WARN");
		int lc = ok ? UI_C_PASS : optional ? UI_C_INFO : UI_C_WARN;

		row_of[i] = y;
		snprintf(box, sizeof box, "[%s]", ok ? "x" : " ");
		if (foc)
			dw_fill(r.y + y, r.x, r.w - lab_w, a);
		dw_put(r.y + y, r.x + 1, box, 3, a);
		dw_put(r.y + y, r.x + 5, gw_host_item_title(i), r.w - lab_w - 6, a);
		dw_put(r.y + y, r.x + r.w - lab_w + 1, lab, 5, ui_attr(lc));
		y++;
		if (full || foc) {
			const char *help = gw_host_item_help(i);
			char *s;

			if (help == NULL)
				help = "";

			if (ok || optional)
				s = gw_xstrdup(help);
			else
				/* TRANSLATORS: before where to find a BIOS item
				 * not confirmed yet, like "fix: %s". */
				s = gw_xasprintf(_("fix: %s"), help);
			y += dw_wrap_put(r.y + y, r.x + 5, r.w - 6, r.h - y, s,
			                 ui_attr(UI_C_DIM));
			free(s);
		}
		if (full)
			y++;
	}
}

/* e on an ESXi GPU's row: enable its passthrough (asks first). */
static int
esxi_enable(ui_ctx *u)
{
	gw_wizard *w = u->w;
	int i, idx = -1, reboot = 0;
	char *q;
	gw_err e;

	if (list.cur < 0 || list.cur >= (int)w->nchecks ||
	    strcmp(w->checks[list.cur].id, "gpu-passthru") != 0) {
		ui_msg(u, UI_MSG_INFO, "%s",
		       /* TRANSLATORS: e on a row that is not a GPU's. */
		       _("Highlight a GPU's passthrough row first, then press e."));
		return UI_HANDLED;
	}
	for (i = 0; i <= list.cur; i++)
		idx += strcmp(w->checks[i].id, "gpu-passthru") == 0;
	if (idx < 0 || idx >= (int)w->ndetected)
		return UI_HANDLED;
	if (w->checks[list.cur].status == GW_LINUX_PASS) {
		ui_msg(u, UI_MSG_INFO, "%s",
		       /* TRANSLATORS: e on a GPU already passed through. */
		       _("Passthrough is already enabled and active for this GPU."));
		return UI_HANDLED;
	}
	/* TRANSLATORS: asked on e; %s is the PCI address; y/n are keys. */
	if (w->mode == GW_MODE_VSPHERE)
		/* TRANSLATORS: asked on e through the API; %s is the PCI
		 * address; y/n are keys. */
		q = gw_xasprintf(_("Enable passthrough for %s on its host (UpdatePassthruConfig)? y/n"),
		                 w->detected[idx].bdf);
	else
		q = gw_xasprintf(_("Enable passthrough for %s on the host (esxcli hardware pci pcipassthru set -a)? y/n"),
		                 w->detected[idx].bdf);
	if (ui_confirm(u, q) != 1) {
		free(q);
		return UI_HANDLED;
	}
	free(q);
	ui_progress(u, _("Enabling passthrough on the host..."), -1);
	e.msg[0] = '\0';
	if (gw_wizard_esxi_enable(w, (size_t)idx, &reboot, &e) != 0)
		ui_msg(u, UI_MSG_ERROR, "%s", e.msg);
	else if (reboot)
		ui_msg(u, UI_MSG_INFO, "%s",
		       /* TRANSLATORS: after e, when the host must reboot. */
		       _("Passthrough enabled; the host needs a reboot before a VM can use the GPU."));
	else
		ui_msg(u, UI_MSG_OK, "%s",
		       /* TRANSLATORS: after e. */
		       _("Passthrough enabled and active."));
	u->repaint = UI_REPAINT_FULL;
	list.n = (int)w->nchecks;
	if (list.cur >= list.n)
		list.cur = 0;
	return UI_HANDLED;
}

static int
linux_key(ui_ctx *u, ui_key k)
{
	gw_wizard *w = u->w;
	int n = (int)w->nchecks;

	list.n = n;
	if (ui_key_is(k, L'r') || ui_key_is(k, L'R')) {
		int fails = gw_wizard_host_mode(w) ? gw_wizard_probe_esxi(w) :
		            gw_wizard_probe_host(w);

		list.n = (int)w->nchecks;
		if (list.cur >= list.n)
			list.cur = 0;
		if (fails)
			/* TRANSLATORS: after r; %d is the number of FAIL
			 * rows. */
			ui_msg(u, UI_MSG_ERROR, _("Checked again: %d FAIL."), fails);
		else
			ui_msg(u, UI_MSG_OK, "%s",
			       /* TRANSLATORS: after r, nothing failed. */
			       _("Checked again: nothing FAILs."));
		return UI_HANDLED;
	}
	if (ui_key_is(k, L'o') || ui_key_is(k, L'O')) {
		if (w->host_override) {
			gw_wizard_set_host_override(w, 0);
			return UI_HANDLED;
		}
		if (gw_wizard_host_fail(w) == NULL && w->checks_error == NULL) {
			ui_msg(u, UI_MSG_INFO, "%s",
			       /* TRANSLATORS: o when nothing FAILs. */
			       _("Nothing FAILs: Enter goes on."));
			return UI_HANDLED;
		}
		/* TRANSLATORS: asked on o; y/n are the keys. */
		if (ui_confirm(u, _("Go on although a host check FAILs? The VM may not start with the GPU. y/n")) == 1)
			gw_wizard_set_host_override(w, 1);
		return UI_HANDLED;
	}
	if ((ui_key_is(k, L'e') || ui_key_is(k, L'E')) && gw_wizard_host_mode(w))
		return esxi_enable(u);
	if (n == 0)
		return UI_IGNORED;
	if (ui_key_tab(k)) {
		list.cur = (list.cur + 1) % n;
		return UI_HANDLED;
	}
	if (ui_key_btab(k)) {
		list.cur = (list.cur + n - 1) % n;
		return UI_HANDLED;
	}
	if (ui_list_key(&list, k, n))
		return UI_HANDLED;
	return UI_IGNORED;
}

static int
host_key(ui_ctx *u, ui_key k)
{
	if (probe_mode(u->w))
		return linux_key(u, k);
	list.n = GW_NHOST;
	if (ui_key_tab(k)) {
		list.cur = (list.cur + 1) % GW_NHOST;
		return UI_HANDLED;
	}
	if (ui_key_btab(k)) {
		list.cur = (list.cur + GW_NHOST - 1) % GW_NHOST;
		return UI_HANDLED;
	}
	if (ui_list_key(&list, k, GW_NHOST))
		return UI_HANDLED;
	if (ui_key_space(k)) {
		gw_wizard_set_host_ok(u->w, list.cur, !u->w->host_ok[list.cur]);
		return UI_HANDLED;
	}
	return UI_IGNORED;
}

static int
host_mouse(ui_ctx *u, ui_rect r, int y, int x)
{
	int i;

	if (probe_mode(u->w)) {
		i = list.top + (y - lrow_y0);
		if (y >= lrow_y0 && i < (int)u->w->nchecks)
			list.cur = i;
		return UI_HANDLED;
	}
	for (i = 0; i < GW_NHOST; i++)
		if (row_of[i] == y) {
			list.cur = i;
			if (x <= 4)
				gw_wizard_set_host_ok(u->w, i, !u->w->host_ok[i]);
		}
	return UI_HANDLED;
}

static const char *linux_help(void);

static const char *
esxi_help(void)
{
	/* TRANSLATORS: help of step 2 on an ESXi host, wrapped to about 70
	 * cells.  r, e and o are keys. */
	return _("gpuwiz read the ESXi host through its shell (esxcli and vim-cmd, over SSH "
	         "or on the host itself): its version (the newest VM hardware version it "
	         "runs), its system id (for the pciPassthruN device blocks) and each GPU's "
	         "passthrough state from esxcli hardware pci list. \"Passthru Capable: false\" "
	         "means the IOMMU (VT-d/AMD-Vi) is off in the BIOS. Above 4G decoding cannot "
	         "be seen from ESXi: check it in the BIOS.\n"
	         "e on a GPU's row enables its passthrough (esxcli hardware pci pcipassthru set "
	         "-d ADDRESS -e true -a) after you confirm; gpuwiz refuses a storage controller "
	         "that holds a datastore or the boot device, and says when the host needs a "
	         "reboot.\n"
	         "r reads the host again. Enter goes on when no row FAILs; o goes on anyway "
	         "after a confirmation.");
}

static const char *
api_help(void)
{
	/* TRANSLATORS: help of step 2 through the vSphere API, wrapped to
	 * about 70 cells.  r, e and o are keys. */
	return _("gpuwiz read the server through the vSphere API: its hosts with their "
	         "versions (the newest VM hardware version each runs) and each GPU's "
	         "passthrough state (hardware.pciDevice, config.pciPassthruInfo). \"Passthru "
	         "Capable: false\" means the IOMMU (VT-d/AMD-Vi) is off in the BIOS. Above 4G "
	         "decoding cannot be seen from ESXi: check it in the BIOS.\n"
	         "e on a GPU's row enables its passthrough (UpdatePassthruConfig) after you "
	         "confirm; a free ESXi licence refuses API writes: then start gpuwiz with --ssh "
	         "root@HOST instead.\n"
	         "r reads the server again. Enter goes on when no row FAILs; o goes on anyway "
	         "after a confirmation.");
}

static const char *
host_help(void)
{
	if (api_mode)
		return api_help();
	if (esxi_mode)
		return esxi_help();
	if (linux_mode)
		return linux_help();
	/* TRANSLATORS: help of step 2, wrapped to about 70 cells. */
	return _("Passthrough needs the IOMMU (Intel VT-d or AMD-Vi) and, for GPUs with large "
	         "memory windows, \"Above 4G decoding\" (also called MMIO above 4 GB) turned on "
	         "in the host's BIOS/UEFI setup; vGPU on Ampere and later GPUs also needs SR-IOV. "
	         "ESXi cannot report these settings, so when planning offline you confirm each "
	         "one: Space toggles the highlighted item. A confirmed item shows PASS; one not "
	         "confirmed shows WARN and where to find it. SR-IOV shows INFO while no vGPU "
	         "that needs it is chosen; the review step asks for it when one is.\n"
	         "A device that shows \"Passthru Capable: false\" in esxcli hardware pci list "
	         "usually means the IOMMU is off.");
}

static const char *
linux_help(void)
{
	/* TRANSLATORS: help of step 2 when configuring this Linux host,
	 * wrapped to about 70 cells.  r and o are keys. */
	return _("gpuwiz checked this Linux host the way gpuwiz check does: hardware "
	         "virtualization, the IOMMU in the firmware (ACPI DMAR/IVRS) and in the kernel, "
	         "the kernel command line, the IOMMU units and the driver of each GPU. Each row "
	         "shows PASS, WARN or FAIL; Up/Down highlight a row and show its message and fix "
	         "below the rows.\n"
	         "r runs the checks again (after you changed the host). Enter goes on when no "
	         "row FAILs; a FAIL blocks it. To go on anyway, press o and confirm with y (o "
	         "again takes it back).\n"
	         "GPUWIZ_SYSROOT, when set, names the root whose /proc and /sys are checked "
	         "instead of /.");
}

static size_t
host_keys(ui_ctx *u, ui_keyhelp *out, size_t max)
{
	size_t n = 0;
	ui_key sp = { 0, L' ' }, down = { KEY_DOWN, 0 };

	/* TRANSLATORS: key help label; at most 8 cells. */
	ui_keys_add(out, &n, max, "Up/Dn", _("Move"), down);
	if (probe_mode(u->w)) {
		ui_key r = { 0, L'r' }, o = { 0, L'o' }, ek = { 0, L'e' };

		if (gw_wizard_host_mode(u->w))
			/* TRANSLATORS: key help label (e: enable passthrough
			 * for the highlighted GPU); at most 8 cells. */
			ui_keys_add(out, &n, max, "e", _("Enable"), ek);

		/* TRANSLATORS: key help label (r: run the checks again); at
		 * most 8 cells. */
		ui_keys_add(out, &n, max, "r", _("Recheck"), r);
		/* TRANSLATORS: key help label (o: go on past a FAIL); at
		 * most 8 cells. */
		ui_keys_add(out, &n, max, "o", _("Override"), o);
		return ui_keys_common(out, n, max, 0);
	}
	/* TRANSLATORS: key help label; at most 8 cells. */
	ui_keys_add(out, &n, max, "Space", _("Confirm"), sp);
	return ui_keys_common(out, n, max, 0);
}

const ui_screen ui_step_host = {
	GW_STEP_HOST, host_enter, host_draw, host_key, host_mouse, NULL,
	host_help, host_keys, NULL
};
