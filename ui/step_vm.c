/* SPDX-License-Identifier: GPL-3.0-or-later */
/* step_vm.c: step 4, the VM.
 *
 *   ( ) No .vmx file: write snippets only
 *   (*) .vmx file: [vm/gpu-vm.vmx                    ]
 *   ESXi version: [8.0U2   ]   Memory in MB: [        ]
 *   Host PCI addresses: [0000:42:00.0          ]
 *   Host system id:     [                      ]
 *       <completions of the path: directories and .vmx files>   or
 *       <the opened VM: hardware version, firmware, memory and
 *        reservation, passthrough devices, and the plan's advice>
 *
 * Enter in the path field opens the file when it is not the one already
 * open (and stays, to show it); on the open file (or an empty field: no
 * .vmx) it goes on.  Tab completes (gw_path_complete/gw_common_prefix)
 * and, when the matches do not agree further, moves into their list.  The
 * other fields are the [vm] answers (each set through the wizard when the
 * focus leaves it or on Enter).
 */
#include "field.h"
#include "step_vm.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void
free_cands(vm_st *st)
{
	gw_strv_free(st->cands);
	st->cands = NULL;
	st->ncands = 0;
}

static void
refresh_cands(vm_st *st)
{
	char *t = ui_field_get(&st->path);

	free_cands(st);
	st->cands = gw_path_complete(t);
	for (st->ncands = 0; st->cands && st->cands[st->ncands]; st->ncands++)
		;
	st->cl.n = (int)st->ncands;
	st->cl.cur = 0;
	st->cl.top = 0;
	free(t);
}

static int
field_is_open_file(ui_ctx *u)
{
	const char *p = gw_wizard_answers(u->w)->vmx_path;

	return gw_wizard_vmx(u->w) != NULL && p != NULL &&
	       ui_field_equals(&vst(u)->path, p);
}

/* The row chosen when the step opens (the focus starts on it): the .vmx
 * when one is given, or when the step cannot pass without one (no GPU
 * chosen: the VM's own devices are the plan's); else "No .vmx file". */
static int
vm_chosen_row(const gw_wizard *w)
{
	const gw_answers_file *af = gw_wizard_answers(w);

	return (af->vmx_path != NULL && *af->vmx_path) || af->a.ngpus == 0 ?
	       F_PATH : F_NONE;
}

static void *
vm_open(void)
{
	return gw_xcalloc(1, sizeof(vm_st));
}

static void
vm_enter(ui_ctx *u)
{
	gw_wizard *w = u->w;
	vm_st *st = vst(u);
	const char *p = gw_wizard_answers(w)->vmx_path;
	int i;

	if (gw_wizard_can(w, GW_CAN_VMS)) {
		ui_vm_esxi_enter(u, &st->host);
		return;
	}
	ui_field_set(&st->path, p ? p : "");
	for (i = 0; i < NSMALL; i++) {
		char *v = vm_small_value(w, F_ESXI + i);

		ui_field_set(&st->small[i], v);
		free(v);
	}
	st->small[F_MEM - F_ESXI].digits_only = 1;
	st->small[F_MEM - F_ESXI].max = 9;
	st->focus = vm_chosen_row(w);
	refresh_cands(st);
}

/* The part of a completion to show: what follows the typed directory. */
static const char *
cand_display(vm_st *st, const char *c)
{
	char *t = ui_field_get(&st->path);
	const char *slash = strrchr(t, '/');
	size_t dl = slash ? (size_t)(slash - t + 1) : 0;
	const char *r = c;

	if (dl > 0 && strncmp(c, t, dl) == 0)
		r = c + dl;
	free(t);
	return r;
}

/* The completions: directories and .vmx files, from row y. */
static void
draw_cands(ui_ctx *u, ui_rect r, int y)
{
	vm_st *st = vst(u);
	int i;

	if (st->ncands == 0) {
		/* TRANSLATORS: no completion for the path typed. */
		dw_put(r.y + y, r.x + 2, _("No .vmx file or directory matches."),
		       r.w - 2, ui_attr(UI_C_DIM));
		return;
	}
	/* TRANSLATORS: heading of the completion list; at most 60 cells. */
	dw_put(r.y + y, r.x, _("Files (Tab completes, then picks from the list):"), r.w,
	       ui_attr(UI_C_HEAD));
	st->y_list = y + 1;
	st->h_list = r.h - st->y_list;
	st->cl.n = (int)st->ncands;
	ui_list_fix(&st->cl, st->h_list);
	for (i = 0; i < st->h_list && st->cl.top + i < st->cl.n; i++) {
		int sel = st->cl.top + i == st->cl.cur;
		attr_t a = sel ? ui_attr(st->focus == F_LIST ? UI_C_SEL :
		                         UI_C_SEL_IDLE) : A_NORMAL;

		if (sel && st->focus == F_LIST)
			dw_fill(r.y + st->y_list + i, r.x + 2, r.w - 3, a);
		dw_put(r.y + st->y_list + i, r.x + 3,
		       cand_display(st, st->cands[st->cl.top + i]), r.w - 4, a);
	}
	ui_list_marks(&st->cl, r.y + st->y_list, r.x + r.w - 1, st->h_list);
}

static void
vm_draw(ui_ctx *u, ui_rect r)
{
	const gw_wizard *w = u->w;
	vm_st *st = vst(u);
	/* TRANSLATORS: the two choices of the VM step; at most 40 cells
	 * the first, 16 the second (the path field follows it). */
	const char *l_none = _("No .vmx file: write snippets only");
	/* TRANSLATORS: at most 16 cells (the path field follows). */
	const char *l_file = _(".vmx file:");
	const char *err = gw_wizard_error(w, GW_ERR_VMX);
	/* the (*) is what Enter does, and follows the focus: on "No .vmx
	 * file" Enter goes on without one, in the path (or its list) it
	 * opens the path; from the fields below it opens what the path
	 * says, none when it is empty */
	int none = st->focus == F_NONE ||
	           (st->focus != F_PATH && st->focus != F_LIST &&
	            ui_field_empty(&st->path));
	int fx, y;
	char buf[256];

	r = ui_rect_cap(r);   /* readable columns at 200x50 */

	/* the advice is drawn below only with an open VM */
	st->adv.page = 0;
	if (gw_wizard_can(w, GW_CAN_VMS)) {
		ui_vm_esxi_draw(u, &st->host, r);
		return;
	}
	if (st->focus == F_NONE)
		dw_fill(r.y, r.x, r.w, ui_attr(UI_C_SEL));
	snprintf(buf, sizeof buf, "%s %s", none ? "(*)" : "( )", l_none);
	dw_put(r.y, r.x + 1, buf, r.w - 1,
	       st->focus == F_NONE ? ui_attr(UI_C_SEL) : A_NORMAL);
	snprintf(buf, sizeof buf, "%s %s", none ? "( )" : "(*)", l_file);
	fx = 1 + dw_put(r.y + 1, r.x + 1, buf, r.w / 2, A_NORMAL) + 1;
	ui_field_draw(u, &st->path, r.y + 1, r.x + fx, r.w - fx,
	              st->focus == F_PATH);
	vm_draw_small(u, r);
	y = 6;

	if (st->focus == F_NONE) {
		dw_wrap_put(r.y + y, r.x + 2, r.w - 2, r.h - y,
		            /* TRANSLATORS: explains the "no .vmx" choice;
		             * wrapped. */
		            _("gpuwiz writes the snippets only: .vmx lines to paste, the BOSH VM extension, the Ops Manager JSON and the tile's values."),
		            ui_attr(UI_C_DIM));
		return;
	}
	if (err && !field_is_open_file(u)) {
		y += dw_wrap_put(r.y + y, r.x + 2, r.w - 2, 3, err,
		                 ui_attr(UI_C_MSG_ERR));
		y++;
	}
	if (field_is_open_file(u)) {
		ui_vm_draw_facts(u, r, y);
		return;
	}
	draw_cands(u, r, y);
}

/* Open what the field says (empty: no .vmx).  0 when it worked. */
static int
open_field(ui_ctx *u)
{
	gw_wizard *w = u->w;
	char *t = ui_field_get(&vst(u)->path);
	gw_err e;
	int rc;

	e.msg[0] = '\0';
	rc = gw_wizard_open_vmx(w, gw_trim(t), &e);
	if (rc != 0)
		ui_msg(u, UI_MSG_ERROR, "%s", e.msg[0] ? e.msg :
		       gw_wizard_error(w, GW_ERR_VMX) ?
		       gw_wizard_error(w, GW_ERR_VMX) : "");
	else if (*t && gw_wizard_esxi_wanted(w)) {
		/* the upgrade's version is the host's: asked for here */
		vst(u)->focus = F_ESXI;
		/* TRANSLATORS: %s is the .vmx opened; "ESXi version" is
		 * this step's field. */
		ui_msg(u, UI_MSG_INFO, _("Opened %s: its hardware version is below 17; type the host's ESXi version (esxcli system version get) for the upgrade advice."), t);
	} else if (*t)
		/* TRANSLATORS: %s is the .vmx opened. */
		ui_msg(u, UI_MSG_OK, _("Opened %s: check what it holds, then Enter."), t);
	free(t);
	return rc;
}

static void
complete(ui_ctx *u)
{
	vm_st *st = vst(u);
	char *t = ui_field_get(&st->path), *pre;

	refresh_cands(st);
	if (st->ncands == 0) {
		ui_msg(u, UI_MSG_ERROR, "%s", _("No .vmx file or directory matches."));
	} else if (st->ncands == 1) {
		ui_field_set(&st->path, st->cands[0]);
		refresh_cands(st);
	} else {
		pre = gw_common_prefix(st->cands);
		if (pre && strlen(pre) > strlen(t)) {
			ui_field_set(&st->path, pre);
			refresh_cands(st);
		} else {
			st->focus = F_LIST;
		}
		free(pre);
	}
	free(t);
}

/* Take the highlighted completion: a directory is entered, a file
 * opened. */
static void
pick_cand(ui_ctx *u)
{
	vm_st *st = vst(u);
	const char *c;
	size_t len;

	if (st->cl.cur < 0 || st->cl.cur >= (int)st->ncands)
		return;
	c = st->cands[st->cl.cur];
	ui_field_set(&st->path, c);
	len = strlen(c);
	if (len > 0 && c[len - 1] == '/') {
		refresh_cands(st);
		st->focus = st->ncands > 0 ? F_LIST : F_PATH;
	} else {
		st->focus = F_PATH;
		open_field(u);
		refresh_cands(st);
	}
}

/* Enter: the small fields to the wizard, then the path: a path not yet
 * opened is opened (and the step stays, to show it); else go on. */
static int
try_next(ui_ctx *u)
{
	const gw_wizard *w = u->w;
	vm_st *st = vst(u);

	if (vm_apply_small(u) != 0)
		return UI_HANDLED;
	if (field_is_open_file(u))
		return UI_NEXT;
	if (st->focus == F_PATH && ui_field_empty(&st->path)) {
		/* the (*) is on the .vmx: there is nothing to open */
		ui_msg(u, UI_MSG_ERROR, "%s",
		       /* TRANSLATORS: Enter in the empty .vmx path field;
		        * "No .vmx file" is the row above it. */
		       _("Type the .vmx's path (Tab completes), or Up to \"No .vmx file\" to go on without one."));
		return UI_HANDLED;
	}
	if (ui_field_empty(&st->path) && gw_wizard_vmx(w) == NULL &&
	    gw_wizard_answers(w)->vmx_path == NULL)
		return UI_NEXT;
	if (open_field(u) != 0)
		return UI_HANDLED;
	/* an empty field: no .vmx, go on */
	return ui_field_empty(&st->path) ? UI_NEXT : UI_HANDLED;
}

/* Move the focus to f, handing the small field left to the wizard. */
static int
move_focus(ui_ctx *u, int f)
{
	vm_st *st = vst(u);

	if (st->focus >= F_ESXI && st->focus <= F_SYSID &&
	    vm_apply_one(u, st->focus) != 0)
		return UI_HANDLED;
	st->focus = f;
	return UI_HANDLED;
}

/* Keys in the list of completions. */
static int
list_key(ui_ctx *u, ui_key k)
{
	vm_st *st = vst(u);

	if ((ui_key_fn(k, KEY_UP) && st->cl.cur <= 0) || ui_key_btab(k)) {
		st->focus = F_PATH;
		return UI_HANDLED;
	}
	if (ui_list_key(&st->cl, k, st->h_list > 0 ? st->h_list : 1))
		return UI_HANDLED;
	if (ui_key_space(k) || ui_key_enter(k) || ui_key_tab(k)) {
		pick_cand(u);
		return UI_HANDLED;
	}
	return UI_IGNORED;
}

/* Up, Down, Tab and Shift-Tab between the rows: none, path, esxi|memory,
 * bdf, system id.  -1 when k is none of them. */
static int
move_key(ui_ctx *u, ui_key k)
{
	static const int down_of[] = { F_PATH, F_ESXI, F_BDF, F_BDF, F_SYSID,
	                               F_NONE };
	static const int up_of[] = { F_SYSID, F_NONE, F_PATH, F_PATH, F_ESXI,
	                             F_BDF };
	int focus = vst(u)->focus;

	if (ui_key_fn(k, KEY_DOWN))
		return move_focus(u, down_of[focus]);
	if (ui_key_fn(k, KEY_UP))
		return move_focus(u, up_of[focus]);
	if (ui_key_btab(k))
		return move_focus(u, focus == F_NONE ? F_SYSID : focus - 1);
	if (ui_key_tab(k)) {
		if (focus == F_PATH) {
			complete(u);
			return UI_HANDLED;
		}
		return move_focus(u, focus == F_SYSID ? F_NONE : focus + 1);
	}
	return -1;
}

/* Space or Enter on "No .vmx file"; a character that starts a path (not
 * q or ?, the keys of every screen here) goes to the path field, and so
 * chooses the .vmx. */
static int
none_key(ui_ctx *u, ui_key k)
{
	vm_st *st = vst(u);

	if (k.fn == 0 && k.ch > 0x20 && k.ch != 0x7f && k.ch != L'q' &&
	    k.ch != L'Q' && k.ch != L'?') {
		st->focus = F_PATH;
		if (ui_field_key(&st->path, k) == UI_FIELD_CHANGED)
			refresh_cands(st);
		return UI_HANDLED;
	}
	if (!ui_key_space(k) && !ui_key_enter(k))
		return UI_IGNORED;
	ui_field_set(&st->path, "");
	refresh_cands(st);
	if (open_field(u) != 0)
		return UI_HANDLED;
	return ui_key_enter(k) ? try_next(u) : UI_HANDLED;
}

/* Typing in the path or a small field. */
static int
field_key(ui_ctx *u, ui_key k)
{
	vm_st *st = vst(u);
	int r;

	if (st->focus == F_PATH) {
		r = ui_field_key(&st->path, k);
		if (r == UI_FIELD_CHANGED)
			refresh_cands(st);
		return r ? UI_HANDLED : UI_IGNORED;
	}
	r = ui_field_key(&st->small[st->focus - F_ESXI], k);
	/* the memory field takes digits only: the rest stays typed-in
	 * text in a field, not a global key */
	if (r)
		return UI_HANDLED;
	return k.fn == 0 && k.ch >= 0x20 && k.ch != 0x7f ? UI_HANDLED :
	       UI_IGNORED;
}

static int
vm_key(ui_ctx *u, ui_key k)
{
	vm_st *st = vst(u);
	int r;

	if (ui_vm_advice_key(u, k))
		return UI_HANDLED;
	if (gw_wizard_can(u->w, GW_CAN_VMS))
		return ui_vm_esxi_key(u, &st->host, k);
	if (st->focus == F_LIST)
		return list_key(u, k);
	if ((r = move_key(u, k)) >= 0)
		return r;
	if (ui_key_fn(k, KEY_NPAGE) && st->focus == F_PATH && st->ncands > 0 &&
	    !field_is_open_file(u)) {
		st->focus = F_LIST;
		return UI_HANDLED;
	}
	if (st->focus == F_NONE)
		return none_key(u, k);
	if (ui_key_enter(k))
		return try_next(u);
	return field_key(u, k);
}

static int
vm_mouse(ui_ctx *u, ui_rect r, int y, int x)
{
	vm_st *st = vst(u);
	int i;

	if (gw_wizard_can(u->w, GW_CAN_VMS))
		return ui_vm_esxi_mouse(u, &st->host, r, y, x);
	if (y == 0) {
		move_focus(u, F_NONE);
		ui_field_set(&st->path, "");
		refresh_cands(st);
		open_field(u);
	} else if (y == 1) {
		move_focus(u, F_PATH);
	} else if (y >= 2 && y <= 4) {
		for (i = NSMALL - 1; i >= 0; i--)
			if (st->y_small[i] == y) {
				/* esxi and memory share a row: the right half
				 * is memory */
				if (i == 1 && x < r.w / 2)
					continue;
				move_focus(u, F_ESXI + i);
				break;
			}
	} else if (!field_is_open_file(u) && y >= st->y_list &&
	           y < st->y_list + st->h_list) {
		i = st->cl.top + (y - st->y_list);
		if (i < st->cl.n) {
			int again = st->focus == F_LIST && st->cl.cur == i;

			move_focus(u, F_LIST);
			st->cl.cur = i;
			if (again)
				pick_cand(u);
		}
	}
	return UI_HANDLED;
}

/* With "PgDn More" first, "Up/Dn Move" gives way: the line has room
 * for the step's own keys (u Upgrade) at 80 columns. */
static size_t
drop_move(ui_keyhelp *out, size_t n, int paged)
{
	size_t i;

	for (i = 0; paged && i < n; i++)
		if (strcmp(out[i].key, "Up/Dn") == 0) {
			memmove(&out[i], &out[i + 1], (n - i - 1) * sizeof *out);
			return n - 1;
		}
	return n;
}

static size_t
vm_keys(ui_ctx *u, ui_keyhelp *out, size_t max)
{
	size_t n = ui_vm_advice_keys(u, out, max);
	ui_key tab = { 0, L'\t' }, sp = { 0, L' ' }, down = { KEY_DOWN, 0 };

	int focus = vst(u)->focus;

	if (gw_wizard_can(u->w, GW_CAN_VMS))
		return drop_move(out, n + ui_vm_esxi_keys(u, &vst(u)->host, out + n,
		                                 max - n),
		                 n > 0);
	switch (focus) {
	case F_NONE:
		/* TRANSLATORS: key help label; at most 8 cells. */
		ui_keys_add(out, &n, max, "Space", _("Pick"), sp);
		ui_keys_add(out, &n, max, "Up/Dn", _("Move"), down);
		break;
	case F_PATH:
		/* TRANSLATORS: key help labels; at most 8 cells each. */
		ui_keys_add(out, &n, max, "Tab", _("Complete"), tab);
		ui_keys_add(out, &n, max, "Up/Dn", _("Move"), down);
		break;
	case F_LIST:
		/* TRANSLATORS: key help label; at most 8 cells. */
		ui_keys_add(out, &n, max, "Space", _("Open"), sp);
		break;
	default:
		/* TRANSLATORS: key help label; at most 8 cells. */
		ui_keys_add(out, &n, max, "Tab", _("Field"), tab);
		ui_keys_add(out, &n, max, "Up/Dn", _("Move"), down);
		break;
	}
	n = drop_move(out, n, ui_tl_more(&vst(u)->adv));
	return ui_keys_common(out, n, max, focus != F_NONE && focus != F_LIST);
}

static void
vm_close(void *state)
{
	vm_st *st = state;
	int i;

	for (i = 0; i < NSMALL; i++)
		ui_field_free(&st->small[i]);
	ui_field_free(&st->path);
	free_cands(st);
	ui_tl_clear(&st->adv);
	free(st);
}

const ui_screen ui_step_vm = {
	GW_STEP_VM, vm_open, vm_close, vm_enter, vm_draw, vm_key, vm_mouse,
	NULL, NULL, vm_keys
};
