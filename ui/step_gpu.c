/* SPDX-License-Identifier: GPL-3.0-or-later */
/* step_gpu.c: step 3, GPU selection.
 *
 *   Search: [l40      ]   Vendor: <NVIDIA>   Class: <Any>
 *      ID              Model                      PCI id     VRAM  vGPU
 *    * l40s            AD102GL [L40S]             10de:26b9  48 GB  vGPU
 *   Selected for this VM: ...
 *    > 2 x l40s   AD102GL [L40S]   passthrough
 *
 * The table is searched as you type (gw_wizard_search); Space adds the
 * highlighted GPU (passthrough, one); in the selection, +/- change the
 * count, Space cycles passthrough and the vGPU profiles the wizard offers,
 * Delete removes.  GPUs already in the .vmx are listed, not editable.
 * The table's last row, "Add a GPU by its memory size", adds a GPU the
 * table does not know by its VRAM and, when known, its BAR1 (the only row
 * when the search finds nothing; Enter in the search then adds it too).
 * Configuring this Linux host, a "Detected on this host" list (address,
 * name, VRAM, driver, IOMMU group) comes above the search: Space adds the
 * highlighted GPU in passthrough with its address
 * (gw_wizard_add_detected).  Offline, F5 reads that list from a saved
 * `lspci -nnvv` or `esxcli hardware pci list` output of the host
 * (gw_wizard_read_capture) and shows it the same way.
 */
#include "step_gpu.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *
gpu_vendor_name(unsigned v)
{
	static char buf[16];
	const char *n;

	if (v == 0)
		/* TRANSLATORS: the vendor filter's "no filter" value; at most
		 * 12 cells, like "All classes". */
		return _("All vendors");
	if ((n = gw_vendor_name(v)) != NULL)
		return n;
	snprintf(buf, sizeof buf, "0x%04x", v);
	return buf;
}

static void
refresh_results(ui_ctx *u)
{
	gpu_st *st = gpu_state(u);
	char *q = ui_field_get(&st->search);
	size_t max = gw_wizard_table(u->w)->n;

	free(st->results);
	st->results = gw_xcalloc(max + 1, sizeof *st->results);
	st->nresults = gw_wizard_search(u->w, gw_trim(q),
	                                st->vendors[st->vendor_idx], st->cls,
	                                st->results, max);
	free(q);
	st->rl.n = (int)st->nresults + 1;
}

/* The search or a filter changed: the table from its top. */
static void
research(ui_ctx *u)
{
	gpu_st *st = gpu_state(u);

	refresh_results(u);
	st->rl.cur = 0;
	st->rl.top = 0;
}

/* A group of the .vmx's devices with some beside the GPUs asked for:
 * those counted towards a GPU asked for are in its row (the count asked
 * for is what the VM ends with, the plan's claim), not listed again. */
static int
existing_beside(const gw_plan_gpu *g)
{
	return g->existing && g->count - g->counted > 0;
}

size_t
gpu_n_existing(const gw_wizard *w)
{
	const gw_plan *p = gw_wizard_plan(w);
	size_t i, n = 0;

	if (p == NULL)
		return 0;
	for (i = 0; i < p->ngpus; i++)
		n += existing_beside(&p->gpus[i]);
	return n;
}

const gw_plan_gpu *
gpu_existing_at(const gw_wizard *w, size_t k)
{
	const gw_plan *p = gw_wizard_plan(w);
	size_t i;

	for (i = 0; p != NULL && i < p->ngpus; i++)
		if (existing_beside(&p->gpus[i]) && k-- == 0)
			return &p->gpus[i];
	return NULL;
}

int
gpu_detect_mode(const gw_wizard *w)
{
	return gw_wizard_can(w, GW_CAN_PROBE) || gw_wizard_capture(w) != NULL;
}

static size_t
nwanted(const gw_wizard *w)
{
	return gw_wizard_answers(w)->a.ngpus;
}

static void *
gpu_open(void)
{
	return gw_xcalloc(1, sizeof(gpu_st));
}

static void
gpu_enter(ui_ctx *u)
{
	gpu_st *st = gpu_state(u);
	const gw_table *t = gw_wizard_table(u->w);
	size_t i;

	if (st->search.buf == NULL)
		ui_field_set(&st->search, "");
	st->nvendors = 1;
	st->vendors[0] = 0;
	for (i = 0; i < t->n; i++) {
		int j, seen = 0;

		for (j = 0; j < st->nvendors; j++)
			seen |= st->vendors[j] == t->gpus[i].vendor_id;
		if (!seen && st->nvendors < (int)(sizeof st->vendors /
		                                  sizeof st->vendors[0]))
			st->vendors[st->nvendors++] = t->gpus[i].vendor_id;
	}
	if (st->vendor_idx >= st->nvendors)
		st->vendor_idx = 0;
	refresh_results(u);
	st->sl.n = (int)(nwanted(u->w) + gpu_n_existing(u->w));
	st->dl.n = (int)gw_wizard_detected(u->w, NULL);
	/* pre-filled: start on the selection; else on the detected GPUs of
	 * this host, else on the table (Space adds its highlighted row; a
	 * letter typed starts a search) */
	st->focus = nwanted(u->w) > 0 ? F_SELECTED :
	            gpu_detect_mode(u->w) && gw_wizard_detected(u->w, NULL) > 0 ?
	            F_DETECTED : F_RESULTS;
}

static void
next_focus(ui_ctx *u, int dir)
{
	gpu_st *st = gpu_state(u);

	st->focus = (st->focus + F_N + dir) % F_N;
	if (st->focus == F_DETECTED &&
	    (!gpu_detect_mode(u->w) || gw_wizard_detected(u->w, NULL) == 0))
		st->focus = (st->focus + F_N + dir) % F_N;
}

/* ---- keys, one handler per focus --------------------------------------- */

/* What a key does to a GPU of the selection. */
enum { SEL_NONE, SEL_CYCLE, SEL_MORE, SEL_LESS, SEL_REMOVE };

static int
selection_action(ui_key k)
{
	if (ui_key_space(k) || ui_key_is(k, L'p'))
		return SEL_CYCLE;
	if (ui_key_is(k, L'+') || ui_key_fn(k, KEY_RIGHT))
		return SEL_MORE;
	if (ui_key_is(k, L'-') || ui_key_fn(k, KEY_LEFT))
		return SEL_LESS;
	if (ui_key_fn(k, KEY_DC) || ui_key_is(k, L'x'))
		return SEL_REMOVE;
	return SEL_NONE;
}

static int
selected_key(ui_ctx *u, ui_key k)
{
	gpu_st *st = gpu_state(u);
	int idx = st->sl.cur, act;

	if (ui_key_fn(k, KEY_UP) && st->sl.cur == 0) {
		st->focus = F_RESULTS;
		return UI_HANDLED;
	}
	if (ui_list_key(&st->sl, k, st->h_sel > 0 ? st->h_sel : 1))
		return UI_HANDLED;
	if ((act = selection_action(k)) == SEL_NONE)
		return UI_IGNORED;
	if (st->sl.n == 0)
		return UI_HANDLED;
	if (idx < 0 || idx >= (int)nwanted(u->w)) {
		ui_msg(u, UI_MSG_INFO, "%s",
		       /* TRANSLATORS: a key on a GPU from the .vmx. */
		       _("This GPU is already in the .vmx; gpuwiz counts it but does not change it."));
		return UI_HANDLED;
	}
	if (act == SEL_CYCLE)
		gpu_cycle_profile(u, (size_t)idx);
	else if (act == SEL_MORE || act == SEL_LESS)
		gpu_change_count(u, (size_t)idx, act == SEL_MORE ? 1 : -1);
	else {
		gw_wizard_remove_gpu(u->w, (size_t)idx);
		st->sl.n = (int)(nwanted(u->w) + gpu_n_existing(u->w));
		ui_list_fix(&st->sl, st->h_sel);
	}
	return UI_HANDLED;
}

static int
detected_key(ui_ctx *u, ui_key k)
{
	gpu_st *st = gpu_state(u);

	if (ui_key_fn(k, KEY_DOWN) && st->dl.cur >= st->dl.n - 1) {
		st->focus = F_SEARCH;
		return UI_HANDLED;
	}
	if (ui_list_key(&st->dl, k, st->h_det > 0 ? st->h_det : 1))
		return UI_HANDLED;
	if (ui_key_space(k) || ui_key_is(k, L'+')) {
		gpu_add_detected(u);
		return UI_HANDLED;
	}
	return UI_IGNORED;
}

static int
search_key(ui_ctx *u, ui_key k)
{
	gpu_st *st = gpu_state(u);
	int r;

	if (ui_key_fn(k, KEY_UP) && gpu_detect_mode(u->w) &&
	    gw_wizard_detected(u->w, NULL) > 0) {
		st->focus = F_DETECTED;
		return UI_HANDLED;
	}
	if (ui_key_fn(k, KEY_DOWN) || ui_key_fn(k, KEY_NPAGE)) {
		st->focus = F_RESULTS;
		return UI_HANDLED;
	}
	if (ui_key_enter(k) && gpu_enter_adds(st)) {
		/* nothing found: the one item offered is the add by size */
		st->focus = F_RESULTS;
		st->rl.cur = 0;
		gpu_add_by_size(u);
		return UI_HANDLED;
	}
	r = ui_field_key(&st->search, k);
	if (r == UI_FIELD_CHANGED)
		research(u);
	return r ? UI_HANDLED : UI_IGNORED;
}

static int
filter_key(ui_ctx *u, ui_key k)
{
	gpu_st *st = gpu_state(u);

	if (ui_key_space(k) || ui_key_fn(k, KEY_RIGHT) ||
	    ui_key_fn(k, KEY_LEFT)) {
		int d = ui_key_fn(k, KEY_LEFT) ? -1 : 1;

		if (st->focus == F_VENDOR)
			st->vendor_idx = (st->vendor_idx + st->nvendors + d) %
			                 st->nvendors;
		else
			st->cls = (gw_gpu_class)((st->cls + GW_NCLASSES + d) %
			                         GW_NCLASSES);
		research(u);
		return UI_HANDLED;
	}
	if (ui_key_fn(k, KEY_DOWN)) {
		st->focus = F_RESULTS;
		return UI_HANDLED;
	}
	return UI_IGNORED;
}

/* A letter or digit typed in the table starts a search (q still
 * quits). */
static int
starts_search(ui_key k)
{
	return k.fn == 0 && k.ch != L'q' && k.ch != L'Q' &&
	       ((k.ch >= L'a' && k.ch <= L'z') ||
	        (k.ch >= L'A' && k.ch <= L'Z') ||
	        (k.ch >= L'0' && k.ch <= L'9'));
}

static int
results_key(ui_ctx *u, ui_key k)
{
	gpu_st *st = gpu_state(u);

	if (ui_key_fn(k, KEY_UP) && st->rl.cur <= 0) {
		st->focus = F_SEARCH;
		return UI_HANDLED;
	}
	if (ui_key_fn(k, KEY_DOWN) && st->rl.cur >= st->rl.n - 1) {
		st->focus = F_SELECTED;
		return UI_HANDLED;
	}
	if (ui_list_key(&st->rl, k, st->h_results))
		return UI_HANDLED;
	if (gpu_by_size_row(st, st->rl.cur) &&
	    (ui_key_space(k) || ui_key_is(k, L'+') || ui_key_enter(k))) {
		gpu_add_by_size(u);
		return UI_HANDLED;
	}
	if (ui_key_space(k) || ui_key_is(k, L'+')) {
		gpu_add_highlighted(u);
		return UI_HANDLED;
	}
	if (ui_key_is(k, L'/')) {
		st->focus = F_SEARCH;
		return UI_HANDLED;
	}
	if (starts_search(k)) {
		st->focus = F_SEARCH;
		ui_field_key(&st->search, k);
		research(u);
		return UI_HANDLED;
	}
	return UI_IGNORED;
}

static int (*const focus_key[F_N])(ui_ctx *, ui_key) = {
	[F_DETECTED] = detected_key,
	[F_SEARCH] = search_key,
	[F_VENDOR] = filter_key,
	[F_CLASS] = filter_key,
	[F_RESULTS] = results_key,
	[F_SELECTED] = selected_key,
};

static int
gpu_key(ui_ctx *u, ui_key k)
{
	if (ui_key_tab(k)) {
		next_focus(u, 1);
		return UI_HANDLED;
	}
	if (ui_key_btab(k)) {
		next_focus(u, -1);
		return UI_HANDLED;
	}
	if (ui_key_fn(k, KEY_F(5)) && !gw_wizard_can(u->w, GW_CAN_PROBE)) {
		gpu_read_capture(u);
		return UI_HANDLED;
	}
	return focus_key[gpu_state(u)->focus](u, k);
}

/* ---- mouse --------------------------------------------------------------- */

/* A click on list l's row i: a second click on the highlighted row of the
 * focused list adds it (add may be NULL). */
static void
click_row(ui_ctx *u, ui_list *l, int i, int f, void (*add)(ui_ctx *))
{
	gpu_st *st = gpu_state(u);

	if (i < l->n) {
		if (add && st->focus == f && l->cur == i)
			add(u);
		l->cur = i;
		st->focus = f;
	}
}

static int
gpu_mouse(ui_ctx *u, ui_rect r, int y, int x)
{
	gpu_st *st = gpu_state(u);

	(void)r;
	if (st->off > 0 && y < st->off) {
		if (y >= 1)
			click_row(u, &st->dl, st->dl.top + (y - 1), F_DETECTED,
			          gpu_add_detected);
		return UI_HANDLED;
	}
	y -= st->off;
	if (y == 0)
		st->focus = x >= st->x_class ? F_CLASS :
		            x >= st->x_vendor ? F_VENDOR : F_SEARCH;
	else if (y >= st->y_results && y < st->y_results + st->h_results) {
		click_row(u, &st->rl, st->rl.top + (y - st->y_results),
		          F_RESULTS, gpu_by_size_row(st, st->rl.top +
		                                     (y - st->y_results)) ?
		          gpu_add_by_size : gpu_add_highlighted);
		st->focus = F_RESULTS;
	} else if (y >= st->y_sel && y < st->y_sel + st->h_sel) {
		click_row(u, &st->sl, st->sl.top + (y - st->y_sel), F_SELECTED,
		          NULL);
		st->focus = F_SELECTED;
	}
	return UI_HANDLED;
}

static size_t
gpu_keys(ui_ctx *u, ui_keyhelp *out, size_t max)
{
	size_t n = 0;
	ui_key tab = { 0, L'\t' }, sp = { 0, L' ' }, plus = { 0, L'+' };
	ui_key del = { KEY_DC, 0 }, down = { KEY_DOWN, 0 }, none = { 0, 0 };
	int focus = gpu_state(u)->focus;
	static const char *const part[F_N] = {
		/* TRANSLATORS: the GPU step's key line starts with the part
		 * that has the keys, in brackets: the GPUs found on the
		 * host, the search field, the two filters, the table, the
		 * selection.  At most 10 cells each. */
		[F_DETECTED] = N_("Found"), [F_SEARCH] = N_("Search"),
		[F_VENDOR] = N_("Vendor"), [F_CLASS] = N_("Class"),
		[F_RESULTS] = N_("Table"), [F_SELECTED] = N_("Selected"),
	};
	static char where[64];

	/* which part has the keys: Space adds in the table and the list
	 * found, types a space in the search field */
	snprintf(where, sizeof where, "[%s]", _(part[focus]));
	ui_keys_add(out, &n, max, "", where, none);
	if (focus != F_SELECTED)
		/* TRANSLATORS: key help label (Tab: next field); at most 8
		 * cells. */
		ui_keys_add(out, &n, max, "Tab", _("Field"), tab);
	switch (focus) {
	case F_DETECTED:
		ui_keys_add(out, &n, max, "Space", _("Add"), sp);
		break;
	case F_SEARCH:
		/* TRANSLATORS: key help label (Down: to the table of GPUs),
		 * at most 8 cells. */
		ui_keys_add(out, &n, max, "Down", _("Table"), down);
		break;
	case F_VENDOR:
	case F_CLASS:
		/* TRANSLATORS: key help label, at most 8 cells. */
		ui_keys_add(out, &n, max, "Space", _("Change"), sp);
		break;
	case F_RESULTS:
		/* TRANSLATORS: key help label, at most 8 cells. */
		ui_keys_add(out, &n, max, "Space", _("Add"), sp);
		break;
	case F_SELECTED:
		/* TRANSLATORS: key help label, at most 8 cells. */
		ui_keys_add(out, &n, max, "+/-", _("Count"), plus);
		ui_keys_add(out, &n, max, "Space", _("vGPU"), sp);
		/* TRANSLATORS: key help label, at most 8 cells. */
		ui_keys_add(out, &n, max, "Del", _("Remove"), del);
		break;
	}
	if (!gw_wizard_can(u->w, GW_CAN_PROBE) && focus != F_SELECTED) {
		ui_key f5 = { KEY_F(5), 0 };

		/* TRANSLATORS: key help label (F5: read the host's GPUs from
		 * a saved lspci or esxcli output); lspci is the command's
		 * name.  At most 5 cells: the line is nearly full at 80. */
		ui_keys_add(out, &n, max, "F5", _("lspci"), f5);
	}
	n = ui_keys_common(out, n, max, focus == F_SEARCH);
	if (gpu_enter_adds(gpu_state(u))) {
		size_t i;

		/* Enter opens "Add a GPU by its memory size" here */
		for (i = 0; i < n; i++)
			if (strcmp(out[i].key, "Enter") == 0)
				out[i].label = _("Add");
	}
	return n;
}

static void
gpu_close(void *state)
{
	gpu_st *st = state;

	ui_field_free(&st->search);
	free(st->results);
	free(st);
}

const ui_screen ui_step_gpu = {
	GW_STEP_GPU, gpu_open, gpu_close, gpu_enter, gpu_draw, gpu_key,
	gpu_mouse, NULL, NULL, gpu_keys
};
