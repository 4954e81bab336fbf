/* step_host.c: step 2, the host check.  Offline it is the checklist the
 * operator confirms in the host's BIOS/UEFI setup (the wizard's items:
 * VT-d/AMD-Vi, above-4G decoding, SR-IOV), one row each with PASS once
 * confirmed or WARN while not, and where to find it (the fix). */
#include "draw.h"
#include "screen.h"

#include <stdio.h>
#include <stdlib.h>

static ui_list list;

static void
host_enter(ui_ctx *u)
{
	list.n = GW_NHOST;
	ui_list_fix(&list, GW_NHOST);
}

static int row_of[GW_NHOST];

static void
host_draw(ui_ctx *u, ui_rect r)
{
	gw_wizard *w = u->w;
	int i, y = 0, lab_w = 6, full;
	int help_rows = 0;

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

static int
host_key(ui_ctx *u, ui_key k)
{
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

	for (i = 0; i < GW_NHOST; i++)
		if (row_of[i] == y) {
			list.cur = i;
			if (x <= 4)
				gw_wizard_set_host_ok(u->w, i, !u->w->host_ok[i]);
		}
	return UI_HANDLED;
}

static const char *
host_help(void)
{
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

static size_t
host_keys(ui_ctx *u, ui_keyhelp *out, size_t max)
{
	size_t n = 0;
	ui_key sp = { 0, L' ' }, down = { KEY_DOWN, 0 };

	/* TRANSLATORS: key help label; at most 8 cells. */
	ui_keys_add(out, &n, max, "Up/Dn", _("Move"), down);
	/* TRANSLATORS: key help label; at most 8 cells. */
	ui_keys_add(out, &n, max, "Space", _("Confirm"), sp);
	return ui_keys_common(out, n, max, 0);
}

const ui_screen ui_step_host = {
	GW_STEP_HOST, host_enter, host_draw, host_key, host_mouse, NULL,
	host_help, host_keys, NULL
};
