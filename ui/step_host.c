/* SPDX-License-Identifier: GPL-3.0-or-later */
/* step_host.c: step 2, the host check.  Offline it is the checklist the
 * operator confirms in the host's BIOS/UEFI setup (the wizard's items:
 * VT-d/AMD-Vi, above-4G decoding, SR-IOV), one row each with its
 * severity as Enter acts on it (gw_wizard_host_item_sev: PASS once
 * confirmed, FAIL while Enter waits for it, WARN/INFO for SR-IOV), and
 * where to find it (the fix).
 * Configuring this Linux host, it shows gpuwiz check's rows instead
 * (PASS/WARN/FAIL; the highlighted row's message and fix below them): r
 * runs the checks again, o goes on past a FAIL after a confirmation.
 * On an ESXi host (over SSH, or through the API) the rows are the host's
 * (version, system id, each GPU's passthrough state), and e on a GPU's row
 * queues enabling its passthrough (GW_CAN_ENABLE): the review lists it and
 * the write step runs it after its one question; e again takes it back. */
#include "step_host.h"
#include "wizard_changes.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void *
host_open(void)
{
	return gw_xcalloc(1, sizeof(host_st));
}

static int
nrows_of(const gw_wizard *w)
{
	return probe_mode(w) ? (int)gw_wizard_checks(w, NULL) : GW_NHOST;
}

static void
host_enter(ui_ctx *u)
{
	host_st *st = hst(u);
	ui_list *list = &st->list;

	list->n = nrows_of(u->w);
	if (list->cur >= list->n)
		list->cur = 0;
	/* the first time, on the first row shown: the most severe */
	if (!st->seen && probe_mode(u->w) && list->n > 0)
		list->cur = host_shown_row(u->w, 0);
	st->seen = 1;
	ui_list_fix(list, list->n > 0 ? list->n : 1);
}

/* One item of the offline checklist at line y; returns the lines used. */
static int
checklist_item(ui_ctx *u, ui_rect r, int y, int i, int full)
{
	const gw_wizard *w = u->w;
	int foc = hst(u)->list.cur == i, ok = gw_wizard_host_ok(w, i);
	/* the severity is what Enter does with the item: FAIL blocks here,
	 * WARN at the review (SR-IOV for a vGPU that needs it), INFO never */
	gw_sev sev = gw_wizard_host_item_sev(w, i);
	int optional = sev == GW_SEV_INFO;
	attr_t a = foc ? ui_attr(UI_C_SEL) : A_NORMAL;
	int lab_w = 6, y0 = y;
	char box[8];
	/* TRANSLATORS: a confirmed checklist item, at most 5 cells like
	 * FAIL/WARN/INFO. */
	const char *lab = sev == GW_SEV_PASS ? _("PASS") :
	                  /* TRANSLATORS: at most 5 cells. */
	                  sev == GW_SEV_INFO ? _("INFO") :
	                  /* TRANSLATORS: at most 5 cells. */
	                  sev == GW_SEV_WARN ? _("WARN") :
	                  /* TRANSLATORS: at most 5 cells. */
	                  _("FAIL");
	int lc = sev == GW_SEV_PASS ? UI_C_PASS : sev == GW_SEV_INFO ?
	         UI_C_INFO : sev == GW_SEV_WARN ? UI_C_WARN : UI_C_FAIL;

	hst(u)->row_of[i] = y;
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
			/* TRANSLATORS: before where to find a BIOS item not
			 * confirmed yet, like "fix: %s". */
			s = gw_xasprintf(_("fix: %s"), help);
		y += dw_wrap_put(r.y + y, r.x + 5, r.w - 6, r.h - y, s,
		                 ui_attr(UI_C_DIM));
		free(s);
	}
	if (full)
		y++;
	return y - y0;
}

static void
host_draw(ui_ctx *u, ui_rect r)
{
	int i, y = 0, full;
	int help_rows = 0;

	if (probe_mode(u->w)) {
		host_rows_draw(u, r);
		return;
	}
	r = ui_rect_cap(r);   /* the status beside the title at 200x50 */
	hst(u)->list.n = GW_NHOST;
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
	for (i = 0; i < GW_NHOST && y < r.h; i++)
		y += checklist_item(u, r, y, i, full);
}

/* Which detected GPU the highlighted row is about: the rows with id
 * "gpu-passthru" come one per detected GPU, in order.  -1 when it is not
 * such a row. */
static int
row_gpu(const gw_wizard *w, int row)
{
	const gw_finding *c;
	size_t n = gw_wizard_checks(w, &c);
	int i, idx = -1;

	if (row < 0 || row >= (int)n || strcmp(c[row].id, "gpu-passthru") != 0)
		return -1;
	for (i = 0; i <= row; i++)
		idx += strcmp(c[i].id, "gpu-passthru") == 0;
	return idx;
}

/* e on an ESXi GPU's row: queue enabling its passthrough, or take that
 * back; it runs when the write step's question is answered yes. */
static int
esxi_enable(ui_ctx *u)
{
	gw_wizard *w = u->w;
	ui_list *list = &hst(u)->list;
	const gw_finding *checks;
	const gw_gpu_dev *det;
	int idx = row_gpu(w, list->cur), r;
	gw_err e;

	gw_wizard_checks(w, &checks);
	if (idx < 0) {
		ui_msg(u, UI_MSG_INFO, "%s",
		       /* TRANSLATORS: e on a row that is not a GPU's. */
		       _("Highlight a GPU's passthrough row first, then press e."));
		return UI_HANDLED;
	}
	if (idx >= (int)gw_wizard_detected(w, &det))
		return UI_HANDLED;
	if (checks[list->cur].sev == GW_SEV_PASS &&
	    !gw_wizard_enable_queued(w, (size_t)idx)) {
		ui_msg(u, UI_MSG_INFO, "%s",
		       /* TRANSLATORS: e on a GPU already passed through. */
		       _("Passthrough is already enabled and active for this GPU."));
		return UI_HANDLED;
	}
	e.msg[0] = '\0';
	r = gw_wizard_esxi_enable(w, (size_t)idx, NULL, &e);
	if (r < 0)
		ui_msg(u, UI_MSG_ERROR, "%s", e.msg);
	else if (r == 1)
		/* TRANSLATORS: after e; %s is the GPU's PCI address. */
		ui_msg(u, UI_MSG_OK, _("Queued: passthrough of %s will be enabled when you write (the review lists it)."),
		       det[idx].bdf);
	else
		/* TRANSLATORS: after e on a queued GPU; %s is its address. */
		ui_msg(u, UI_MSG_INFO, _("Taken back: passthrough of %s stays as it is."),
		       det[idx].bdf);
	list->n = (int)gw_wizard_checks(w, NULL);
	if (list->cur >= list->n)
		list->cur = 0;
	return UI_HANDLED;
}

/* r: run the checks again. */
static int
recheck(ui_ctx *u)
{
	ui_list *list = &hst(u)->list;
	int fails = gw_wizard_reprobe(u->w);

	list->n = (int)gw_wizard_checks(u->w, NULL);
	/* back to the first row shown: the most severe one now */
	list->cur = list->n > 0 ? host_shown_row(u->w, 0) : 0;
	hst(u)->view.top = 0;
	if (fails)
		/* TRANSLATORS: after r; %d is the number of FAIL rows. */
		ui_msg(u, UI_MSG_ERROR, _("Checked again: %d FAIL."), fails);
	else
		ui_msg(u, UI_MSG_OK, "%s",
		       /* TRANSLATORS: after r, nothing failed. */
		       _("Checked again: nothing FAILs."));
	return UI_HANDLED;
}

/* o: go on past the FAIL rows (asks first), or take that back. */
static int
override(ui_ctx *u)
{
	gw_wizard *w = u->w;

	if (gw_wizard_is(w, GW_WIZ_HOST_OVERRIDE)) {
		gw_wizard_set_host_override(w, 0);
		return UI_HANDLED;
	}
	if (gw_wizard_host_fail(w) == NULL &&
	    gw_wizard_error(w, GW_ERR_CHECKS) == NULL) {
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

/* Tab and Shift-Tab cycle through n rows, the list keys move (a page:
 * h rows). */
static int
rows_key(ui_list *list, ui_key k, int n, int h)
{
	if (ui_key_tab(k)) {
		list->cur = (list->cur + 1) % n;
		return UI_HANDLED;
	}
	if (ui_key_btab(k)) {
		list->cur = (list->cur + n - 1) % n;
		return UI_HANDLED;
	}
	if (ui_list_key(list, k, h))
		return UI_HANDLED;
	return UI_IGNORED;
}

/* The probed rows' keys move through them in the order shown. */
static int
shown_key(ui_ctx *u, ui_key k, int n)
{
	host_st *st = hst(u);
	int r;

	st->view.n = n;
	st->view.cur = host_row_shown_at(u->w, st->list.cur);
	r = rows_key(&st->view, k, n, st->rows_h > 0 ? st->rows_h : n);
	if (r == UI_HANDLED)
		st->list.cur = host_shown_row(u->w, st->view.cur);
	return r;
}

/* Probed rows hidden below the last draw. */
static int
rows_below(ui_ctx *u)
{
	host_st *st = hst(u);

	return probe_mode(u->w) && st->rows_h > 0 &&
	       st->view.top + st->rows_h < (int)gw_wizard_checks(u->w, NULL);
}

static int
linux_key(ui_ctx *u, ui_key k)
{
	ui_list *list = &hst(u)->list;
	int n = (int)gw_wizard_checks(u->w, NULL);

	list->n = n;
	if (ui_key_is(k, L'r') || ui_key_is(k, L'R'))
		return recheck(u);
	if (ui_key_is(k, L'o') || ui_key_is(k, L'O'))
		return override(u);
	if ((ui_key_is(k, L'e') || ui_key_is(k, L'E')) &&
	    gw_wizard_can(u->w, GW_CAN_ENABLE))
		return esxi_enable(u);
	if (n == 0)
		return UI_IGNORED;
	return shown_key(u, k, n);
}

static int
host_key(ui_ctx *u, ui_key k)
{
	ui_list *list = &hst(u)->list;
	int r;

	if (probe_mode(u->w))
		return linux_key(u, k);
	list->n = GW_NHOST;
	if ((r = rows_key(list, k, GW_NHOST, GW_NHOST)) != UI_IGNORED)
		return r;
	if (ui_key_space(k)) {
		gw_wizard_set_host_ok(u->w, list->cur,
		                      !gw_wizard_host_ok(u->w, list->cur));
		return UI_HANDLED;
	}
	return UI_IGNORED;
}

static int
host_mouse(ui_ctx *u, ui_rect r, int y, int x)
{
	host_st *st = hst(u);
	int i;

	if (probe_mode(u->w)) {
		i = st->view.top + (y - st->lrow_y0);
		if (y >= st->lrow_y0 && y < st->lrow_y0 + st->rows_h &&
		    i < (int)gw_wizard_checks(u->w, NULL))
			st->list.cur = host_shown_row(u->w, i);
		return UI_HANDLED;
	}
	for (i = 0; i < GW_NHOST; i++)
		if (st->row_of[i] == y) {
			int ok = gw_wizard_host_ok(u->w, i);

			st->list.cur = i;
			if (x <= 4)
				gw_wizard_set_host_ok(u->w, i, !ok);
		}
	return UI_HANDLED;
}

static size_t
host_keys(ui_ctx *u, ui_keyhelp *out, size_t max)
{
	size_t n = 0;
	ui_key sp = { 0, L' ' }, down = { KEY_DOWN, 0 };

	ui_key pg = { KEY_NPAGE, 0 };

	/* rows below the fold: PgDn first, in place of Up/Dn (the line
	 * has room for one of them at 80 columns) */
	if (rows_below(u))
		/* TRANSLATORS: key help label (PgDn: more rows below); at
		 * most 8 cells. */
		ui_keys_add(out, &n, max, "PgDn", _("More"), pg);
	else
		/* TRANSLATORS: key help label; at most 8 cells. */
		ui_keys_add(out, &n, max, "Up/Dn", _("Move"), down);
	if (probe_mode(u->w)) {
		ui_key r = { 0, L'r' }, o = { 0, L'o' }, ek = { 0, L'e' };

		if (gw_wizard_can(u->w, GW_CAN_ENABLE))
			/* TRANSLATORS: key help label (e: enable passthrough
			 * for the highlighted GPU); at most 8 cells. */
			ui_keys_add(out, &n, max, "e", _("Enable"), ek);

		/* TRANSLATORS: key help label (r: run the checks again); at
		 * most 8 cells. */
		ui_keys_add(out, &n, max, "r", _("Recheck"), r);
		/* TRANSLATORS: key help label (o: go on past a FAIL); at
		 * most 8 cells. */
		ui_keys_add(out, &n, max, "o", _("Force"), o);
		return ui_keys_common(out, n, max, 0);
	}
	/* TRANSLATORS: key help label; at most 8 cells. */
	ui_keys_add(out, &n, max, "Space", _("Confirm"), sp);
	return ui_keys_common(out, n, max, 0);
}

static void
host_close(void *state)
{
	free(state);
}

const ui_screen ui_step_host = {
	GW_STEP_HOST, host_open, host_close, host_enter, host_draw, host_key,
	host_mouse, NULL, NULL, host_keys
};
