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
#include "draw.h"
#include "field.h"
#include "screen.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { F_NONE, F_PATH, F_ESXI, F_MEM, F_BDF, F_SYSID, F_LIST };
#define NSMALL 4

static ui_field path;
static ui_field small[NSMALL];   /* F_ESXI .. F_SYSID */
static int focus;
static int y_small[NSMALL];
static char **cands;
static size_t ncands;
static ui_list cl;
static int y_list, h_list;

static void
free_cands(void)
{
	gw_strv_free(cands);
	cands = NULL;
	ncands = 0;
}

static void
refresh_cands(void)
{
	char *t = ui_field_get(&path);

	free_cands();
	cands = gw_path_complete(t);
	for (ncands = 0; cands && cands[ncands]; ncands++)
		;
	cl.n = (int)ncands;
	cl.cur = 0;
	cl.top = 0;
	free(t);
}

static int
field_is_open_file(const gw_wizard *w)
{
	return w->vmx != NULL && w->af.vmx_path != NULL &&
	       ui_field_equals(&path, w->af.vmx_path);
}

/* The wizard's value of a small field, as text (malloc'ed). */
static char *
small_value(const gw_wizard *w, int f)
{
	const gw_answers *a = &w->af.a;
	gw_buf b;
	size_t i;

	switch (f) {
	case F_ESXI:
		return gw_xstrdup(a->esxi_version ? a->esxi_version : "");
	case F_MEM:
		return a->memory_mb > 0 ? gw_xasprintf("%ld", a->memory_mb) :
		       gw_xstrdup("");
	case F_BDF:
		gw_buf_init(&b);
		for (i = 0; i < a->nbdfs; i++)
			gw_buf_printf(&b, "%s%s", i ? ", " : "", a->bdfs[i]);
		return gw_buf_steal(&b);
	case F_SYSID:
		return gw_xstrdup(a->system_id ? a->system_id : "");
	default:
		return gw_xstrdup("");
	}
}

/* Hand a small field to the wizard when it changed.  0 when it stands. */
static int
apply_one(ui_ctx *u, int f)
{
	gw_wizard *w = u->w;
	ui_field *fl = &small[f - F_ESXI];
	char *cur = small_value(w, f), *t = ui_field_get(fl), *v;
	unsigned long long mb = 0;
	gw_err e;
	int rc = 0, same;

	v = gw_trim(t);
	same = strcmp(v, cur) == 0;
	free(cur);
	e.msg[0] = '\0';
	if (same) {
		free(t);
		return 0;
	}
	switch (f) {
	case F_ESXI:
		rc = gw_wizard_set_esxi(w, v, &e);
		break;
	case F_MEM:
		if (*v && (gw_parse_uint(v, 64ULL * 1024 * 1024, &mb) != 0)) {
			/* TRANSLATORS: %s is what was typed in the memory
			 * field. */
			gw_err_set(&e, _("Memory: '%s' is not a size in MB"), v);
			rc = -1;
		} else {
			rc = gw_wizard_set_memory(w, (long)mb, &e);
		}
		break;
	case F_BDF: {
		char *p = v, *tok;

		gw_wizard_clear_bdfs(w);
		while (rc == 0 && (tok = strsep(&p, ", ")) != NULL)
			if (*tok)
				rc = gw_wizard_add_bdf(w, tok, &e);
		break;
	}
	case F_SYSID:
		rc = gw_wizard_set_system_id(w, v, &e);
		break;
	}
	if (rc != 0) {
		ui_msg(u, UI_MSG_ERROR, "%s", e.msg);
		focus = f;
	} else if (f == F_BDF) {
		/* show the addresses as the wizard keeps them */
		char *now = small_value(w, F_BDF);

		ui_field_set(fl, now);
		free(now);
	}
	free(t);
	return rc;
}

static int
apply_small(ui_ctx *u)
{
	int f;

	for (f = F_ESXI; f <= F_SYSID; f++)
		if (apply_one(u, f) != 0)
			return -1;
	return 0;
}

static int vm_esxi;   /* the last step entered was on an ESXi host */

static void
vm_enter(ui_ctx *u)
{
	gw_wizard *w = u->w;

	int i;

	vm_esxi = gw_wizard_host_mode(w);
	if (vm_esxi) {
		ui_vm_esxi_enter(u);
		return;
	}

	ui_field_set(&path, w->af.vmx_path ? w->af.vmx_path : "");
	for (i = 0; i < NSMALL; i++) {
		char *v = small_value(w, F_ESXI + i);

		ui_field_set(&small[i], v);
		free(v);
	}
	small[F_MEM - F_ESXI].digits_only = 1;
	small[F_MEM - F_ESXI].max = 9;
	focus = F_PATH;
	refresh_cands();
}

/* The part of a completion to show: what follows the typed directory. */
static const char *
cand_display(const char *c)
{
	char *t = ui_field_get(&path);
	const char *slash = strrchr(t, '/');
	size_t dl = slash ? (size_t)(slash - t + 1) : 0;
	const char *r = c;

	if (dl > 0 && strncmp(c, t, dl) == 0)
		r = c + dl;
	free(t);
	return r;
}

void
ui_vm_draw_facts(ui_ctx *u, ui_rect r, int y)
{
	gw_wizard *w = u->w;
	const gw_vmx *v = w->vmx;
	const char *val, *val2;
	char buf[512];
	int lw = 0, i, ndev = 0;
	/* TRANSLATORS: label of a VM fact; at most 18 cells. */
	const char *l_hw = _("Hardware version:");
	/* TRANSLATORS: label of a VM fact; at most 18 cells. */
	const char *l_fw = _("Firmware:");
	/* TRANSLATORS: label of a VM fact; at most 18 cells. */
	const char *l_mem = _("Memory:");
	/* TRANSLATORS: label of a VM fact; at most 18 cells. */
	const char *l_res = _("Reservation:");
	/* TRANSLATORS: label of the passthrough devices in the .vmx; at
	 * most 18 cells. */
	const char *l_dev = _("Passthrough:");
	const char *labs[5];
	static const char *const advice[] = { "hw-", "firmware-", "memory-",
	                                      "nested-", "device-", "devices-",
	                                      "code43", NULL };

	labs[0] = l_hw; labs[1] = l_fw; labs[2] = l_mem; labs[3] = l_res;
	labs[4] = l_dev;
	for (i = 0; i < 5; i++)
		if (gw_text_cells(labs[i]) > lw)
			lw = gw_text_cells(labs[i]);
	lw += 1;

	/* hardware version: the file's, and the target the plan names */
	dw_put(r.y + y, r.x + 2, l_hw, lw, A_BOLD);
	val = gw_vmx_get(v, "virtualHW.version");
	if (w->have_plan && w->plan.hw_target > 0)
		/* TRANSLATORS: hardware version now and the one the host's
		 * ESXi supports, e.g. "19 (ESXi supports 21)". */
		snprintf(buf, sizeof buf, _("%s (the host's ESXi supports %d)"),
		         val ? val : "?", w->plan.hw_target);
	else
		snprintf(buf, sizeof buf, "%s", val ? val : "?");
	dw_put(r.y + y++, r.x + 2 + lw, buf, r.w - 2 - lw, A_NORMAL);

	dw_put(r.y + y, r.x + 2, l_fw, lw, A_BOLD);
	val = gw_vmx_get(v, "firmware");
	/* TRANSLATORS: a .vmx key that is not in the file. */
	dw_put(r.y + y++, r.x + 2 + lw, val ? val : _("(not set)"),
	       r.w - 2 - lw, A_NORMAL);

	dw_put(r.y + y, r.x + 2, l_mem, lw, A_BOLD);
	val = gw_vmx_get(v, "memsize");
	if (val)
		/* TRANSLATORS: the VM's memory in MB. */
		snprintf(buf, sizeof buf, _("%s MB"), val);
	else
		snprintf(buf, sizeof buf, "%s", _("(not set)"));
	dw_put(r.y + y++, r.x + 2 + lw, buf, r.w - 2 - lw, A_NORMAL);

	dw_put(r.y + y, r.x + 2, l_res, lw, A_BOLD);
	val = gw_vmx_get(v, "sched.mem.min");
	val2 = gw_vmx_get(v, "sched.mem.pin");
	snprintf(buf, sizeof buf, "sched.mem.min = %s, sched.mem.pin = %s",
	         val ? val : "-", val2 ? val2 : "-");
	dw_put(r.y + y++, r.x + 2 + lw, buf, r.w - 2 - lw, A_NORMAL);

	/* passthrough devices already in the file */
	dw_put(r.y + y, r.x + 2, l_dev, lw, A_BOLD);
	{
		gw_buf b;

		gw_buf_init(&b);
		for (i = 0; i < 128; i++) {
			char key[64];
			const char *ven, *dev, *vg;

			snprintf(key, sizeof key, "pciPassthru%d.present", i);
			if (!gw_vmx_get_bool(v, key, 0))
				continue;
			snprintf(key, sizeof key, "pciPassthru%d.vgpu", i);
			vg = gw_vmx_get(v, key);
			snprintf(key, sizeof key, "pciPassthru%d.vendorId", i);
			ven = gw_vmx_get(v, key);
			snprintf(key, sizeof key, "pciPassthru%d.deviceId", i);
			dev = gw_vmx_get(v, key);
			if (ndev++ > 0)
				gw_buf_puts(&b, "; ");
			if (vg)
				gw_buf_printf(&b, "pciPassthru%d vGPU %s", i, vg);
			else
				gw_buf_printf(&b, "pciPassthru%d %s:%s", i,
				              ven ? ven : "?", dev ? dev : "?");
		}
		if (ndev == 0)
			/* TRANSLATORS: no pciPassthruN device in the .vmx. */
			gw_buf_puts(&b, _("none"));
		y += dw_wrap_put(r.y + y, r.x + 2 + lw, r.w - 2 - lw, 2,
		                 b.data ? b.data : "", A_NORMAL);
		gw_buf_free(&b);
	}
	if (y < r.h - 1) {
		int used;

		/* TRANSLATORS: heading of the plan's findings about the VM. */
		dw_put(r.y + y + 1, r.x, _("Advice:"), r.w, ui_attr(UI_C_HEAD));
		if (!w->have_plan) {
			dw_wrap_put(r.y + y + 2, r.x + 2, r.w - 2, r.h - y - 2,
			            w->plan_error, ui_attr(UI_C_MSG_ERR));
			return;
		}
		used = ui_draw_findings(u, (ui_rect){ r.y, r.x + 2, r.h, r.w - 2 },
		                        y + 2, advice, r.h - y - 2);
		if (used == 0)
			/* TRANSLATORS: no finding about the VM. */
			dw_put(r.y + y + 2, r.x + 2, _("Nothing to change besides the GPU settings."),
			       r.w - 2, ui_attr(UI_C_DIM));
	}
}

/* The [vm] answers: ESXi version and memory on one row, the host PCI
 * addresses and the system id below. */
static void
draw_small(ui_ctx *u, ui_rect r)
{
	/* TRANSLATORS: label of a VM step field; at most 20 cells. */
	const char *l_esxi = _("ESXi version:");
	/* TRANSLATORS: label of a VM step field; at most 16 cells. */
	const char *l_mem = _("Memory in MB:");
	/* TRANSLATORS: label of a VM step field; at most 20 cells. */
	const char *l_bdf = _("Host PCI addresses:");
	/* TRANSLATORS: label of a VM step field; at most 20 cells. */
	const char *l_sys = _("Host system id:");
	int lw = gw_text_cells(l_esxi), x, mx;

	if (gw_text_cells(l_bdf) > lw)
		lw = gw_text_cells(l_bdf);
	if (gw_text_cells(l_sys) > lw)
		lw = gw_text_cells(l_sys);
	lw += 2;
	y_small[0] = y_small[1] = 2;
	y_small[2] = 3;
	y_small[3] = 4;
	dw_put(r.y + 2, r.x + 1, l_esxi, lw - 1, A_NORMAL);
	ui_field_draw(u, &small[0], r.y + 2, r.x + 1 + lw, 9, focus == F_ESXI);
	mx = 1 + lw + 11;
	x = mx + dw_put(r.y + 2, r.x + mx, l_mem, r.w - mx, A_NORMAL) + 1;
	ui_field_draw(u, &small[1], r.y + 2, r.x + x, 9, focus == F_MEM);
	/* TRANSLATORS: after the memory field (with a .vmx, without one);
	 * at most 20 cells each. */
	dw_put(r.y + 2, r.x + x + 10, u->w->vmx ? _("(empty: the .vmx's)") :
	       /* TRANSLATORS: at most 20 cells. */
	       _("(without a .vmx)"), r.w - x - 10, ui_attr(UI_C_DIM));
	dw_put(r.y + 3, r.x + 1, l_bdf, lw - 1, A_NORMAL);
	ui_field_draw(u, &small[2], r.y + 3, r.x + 1 + lw, r.w - 1 - lw,
	              focus == F_BDF);
	dw_put(r.y + 4, r.x + 1, l_sys, lw - 1, A_NORMAL);
	ui_field_draw(u, &small[3], r.y + 4, r.x + 1 + lw,
	              r.w - 1 - lw < 40 ? r.w - 1 - lw : 40, focus == F_SYSID);
}

static void
vm_draw(ui_ctx *u, ui_rect r)
{
	gw_wizard *w = u->w;
	/* TRANSLATORS: the two choices of the VM step; at most 40 cells
	 * the first, 16 the second (the path field follows it). */
	const char *l_none = _("No .vmx file: write snippets only");
	/* TRANSLATORS: at most 16 cells (the path field follows). */
	const char *l_file = _(".vmx file:");
	int none = w->vmx == NULL && ui_field_empty(&path);
	int fx, y, i;
	char buf[256];

	if (gw_wizard_host_mode(w)) {
		ui_vm_esxi_draw(u, r);
		return;
	}
	if (focus == F_NONE)
		dw_fill(r.y, r.x, r.w, ui_attr(UI_C_SEL));
	snprintf(buf, sizeof buf, "%s %s", none ? "(*)" : "( )", l_none);
	dw_put(r.y, r.x + 1, buf, r.w - 1,
	       focus == F_NONE ? ui_attr(UI_C_SEL) : A_NORMAL);
	snprintf(buf, sizeof buf, "%s %s", none ? "( )" : "(*)", l_file);
	fx = 1 + dw_put(r.y + 1, r.x + 1, buf, r.w / 2, A_NORMAL) + 1;
	ui_field_draw(u, &path, r.y + 1, r.x + fx, r.w - fx, focus == F_PATH);
	draw_small(u, r);
	y = 6;

	if (w->vmx_error && !field_is_open_file(w)) {
		y += dw_wrap_put(r.y + y, r.x + 2, r.w - 2, 3, w->vmx_error,
		                 ui_attr(UI_C_MSG_ERR));
		y++;
	}
	if (field_is_open_file(w)) {
		ui_vm_draw_facts(u, r, y);
		return;
	}
	if (none && focus == F_NONE) {
		dw_wrap_put(r.y + y, r.x + 2, r.w - 2, r.h - y,
		            /* TRANSLATORS: explains the "no .vmx" choice;
		             * wrapped. */
		            _("gpuwiz writes the snippets only: .vmx lines to paste, the BOSH VM extension, the Ops Manager JSON and the tile's values."),
		            ui_attr(UI_C_DIM));
		return;
	}
	/* the completions: directories and .vmx files */
	if (ncands == 0) {
		/* TRANSLATORS: no completion for the path typed. */
		dw_put(r.y + y, r.x + 2, _("No .vmx file or directory matches."),
		       r.w - 2, ui_attr(UI_C_DIM));
		return;
	}
	/* TRANSLATORS: heading of the completion list; at most 60 cells. */
	dw_put(r.y + y, r.x, _("Files (Tab completes, then picks from the list):"), r.w,
	       ui_attr(UI_C_HEAD));
	y_list = y + 1;
	h_list = r.h - y_list;
	cl.n = (int)ncands;
	ui_list_fix(&cl, h_list);
	for (i = 0; i < h_list && cl.top + i < cl.n; i++) {
		int sel = cl.top + i == cl.cur;
		attr_t a = sel ? ui_attr(focus == F_LIST ? UI_C_SEL :
		                         UI_C_SEL_IDLE) : A_NORMAL;

		if (sel && focus == F_LIST)
			dw_fill(r.y + y_list + i, r.x + 2, r.w - 3, a);
		dw_put(r.y + y_list + i, r.x + 3, cand_display(cands[cl.top + i]),
		       r.w - 4, a);
	}
	ui_list_marks(&cl, r.y + y_list, r.x + r.w - 1, h_list);
}

/* Open what the field says (empty: no .vmx).  0 when it worked. */
static int
open_field(ui_ctx *u)
{
	gw_wizard *w = u->w;
	char *t = ui_field_get(&path);
	gw_err e;
	int rc;

	e.msg[0] = '\0';
	rc = gw_wizard_open_vmx(w, gw_trim(t), &e);
	if (rc != 0)
		ui_msg(u, UI_MSG_ERROR, "%s", e.msg[0] ? e.msg :
		       w->vmx_error ? w->vmx_error : "");
	else if (*t)
		/* TRANSLATORS: %s is the .vmx opened. */
		ui_msg(u, UI_MSG_OK, _("Opened %s: check what it holds, then Enter."), t);
	free(t);
	return rc;
}

static void
complete(ui_ctx *u)
{
	char *t = ui_field_get(&path), *pre;

	refresh_cands();
	if (ncands == 0) {
		ui_msg(u, UI_MSG_ERROR, "%s", _("No .vmx file or directory matches."));
	} else if (ncands == 1) {
		ui_field_set(&path, cands[0]);
		refresh_cands();
	} else {
		pre = gw_common_prefix(cands);
		if (pre && strlen(pre) > strlen(t)) {
			ui_field_set(&path, pre);
			refresh_cands();
		} else {
			focus = F_LIST;
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
	size_t len;

	if (cl.cur < 0 || cl.cur >= (int)ncands)
		return;
	ui_field_set(&path, cands[cl.cur]);
	len = strlen(cands[cl.cur]);
	if (len > 0 && cands[cl.cur][len - 1] == '/') {
		refresh_cands();
		focus = ncands > 0 ? F_LIST : F_PATH;
	} else {
		focus = F_PATH;
		open_field(u);
		refresh_cands();
	}
}

/* Enter: the small fields to the wizard, then the path: a path not yet
 * opened is opened (and the step stays, to show it); else go on. */
static int
try_next(ui_ctx *u)
{
	gw_wizard *w = u->w;

	if (apply_small(u) != 0)
		return UI_HANDLED;
	if (field_is_open_file(w) ||
	    (ui_field_empty(&path) && w->vmx == NULL && w->af.vmx_path == NULL))
		return UI_NEXT;
	if (open_field(u) != 0)
		return UI_HANDLED;
	/* an empty field: no .vmx, go on */
	return ui_field_empty(&path) ? UI_NEXT : UI_HANDLED;
}

/* Move the focus to f, handing the small field left to the wizard. */
static int
move_focus(ui_ctx *u, int f)
{
	if (focus >= F_ESXI && focus <= F_SYSID && apply_one(u, focus) != 0)
		return UI_HANDLED;
	focus = f;
	return UI_HANDLED;
}

static int
vm_key(ui_ctx *u, ui_key k)
{
	gw_wizard *w = u->w;
	/* rows: none, path, esxi|memory, bdf, system id */
	static const int down_of[] = { F_PATH, F_ESXI, F_BDF, F_BDF, F_SYSID,
	                               F_NONE };
	static const int up_of[] = { F_SYSID, F_NONE, F_PATH, F_PATH, F_ESXI,
	                             F_BDF };
	int r;

	if (gw_wizard_host_mode(w))
		return ui_vm_esxi_key(u, k);
	if (focus == F_LIST) {
		if ((ui_key_fn(k, KEY_UP) && cl.cur <= 0) || ui_key_btab(k)) {
			focus = F_PATH;
			return UI_HANDLED;
		}
		if (ui_list_key(&cl, k, h_list > 0 ? h_list : 1))
			return UI_HANDLED;
		if (ui_key_space(k) || ui_key_enter(k) || ui_key_tab(k)) {
			pick_cand(u);
			return UI_HANDLED;
		}
		return UI_IGNORED;
	}
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
	if (ui_key_fn(k, KEY_NPAGE) && focus == F_PATH && ncands > 0 &&
	    !field_is_open_file(w)) {
		focus = F_LIST;
		return UI_HANDLED;
	}
	if (focus == F_NONE) {
		if (ui_key_space(k) || ui_key_enter(k)) {
			ui_field_set(&path, "");
			refresh_cands();
			if (open_field(u) != 0)
				return UI_HANDLED;
			return ui_key_enter(k) ? try_next(u) : UI_HANDLED;
		}
		return UI_IGNORED;
	}
	if (ui_key_enter(k))
		return try_next(u);
	if (focus == F_PATH) {
		r = ui_field_key(&path, k);
		if (r == UI_FIELD_CHANGED)
			refresh_cands();
		return r ? UI_HANDLED : UI_IGNORED;
	}
	r = ui_field_key(&small[focus - F_ESXI], k);
	/* the memory field takes digits only: the rest stays typed-in
	 * text in a field, not a global key */
	if (r)
		return UI_HANDLED;
	return k.fn == 0 && k.ch >= 0x20 && k.ch != 0x7f ? UI_HANDLED :
	       UI_IGNORED;
}

static int
vm_mouse(ui_ctx *u, ui_rect r, int y, int x)
{
	int i;

	if (gw_wizard_host_mode(u->w))
		return ui_vm_esxi_mouse(u, r, y, x);
	if (y == 0) {
		move_focus(u, F_NONE);
		ui_field_set(&path, "");
		refresh_cands();
		open_field(u);
	} else if (y == 1) {
		move_focus(u, F_PATH);
	} else if (y >= 2 && y <= 4) {
		for (i = NSMALL - 1; i >= 0; i--)
			if (y_small[i] == y) {
				/* esxi and memory share a row: the right half
				 * is memory */
				if (i == 1 && x < r.w / 2)
					continue;
				move_focus(u, F_ESXI + i);
				break;
			}
	} else if (!field_is_open_file(u->w) && y >= y_list &&
	           y < y_list + h_list) {
		i = cl.top + (y - y_list);
		if (i < cl.n) {
			int again = focus == F_LIST && cl.cur == i;

			move_focus(u, F_LIST);
			cl.cur = i;
			if (again)
				pick_cand(u);
		}
	}
	return UI_HANDLED;
}

static const char *
vm_help(void)
{
	if (vm_esxi)
		return ui_vm_esxi_help();
	/* TRANSLATORS: help of step 4, wrapped to about 70 cells. */
	return _("Open the VM's .vmx file to patch it (a backup is kept), or choose no file to "
	         "write the snippets only.\n"
	         "Type the path; the list below shows the directories and .vmx files that match. "
	         "Tab completes as far as the matches agree, or moves into the list (PgDn too); "
	         "in the list Enter or Space opens a directory or a .vmx file. Enter in the field "
	         "opens the file typed and shows it; Enter again goes on. An empty field means "
	         "no .vmx.\n"
	         "The other fields are optional: the host's ESXi version (7.0U3, 8.0U2...: the "
	         "newest hardware version it supports), the memory in MB when there is no .vmx "
	         "(for the reservation), and host PCI addresses (0000:42:00.0, separated by "
	         "commas) with the host's system id (esxcli system uuid get) to add whole "
	         "pciPassthruN device blocks. Up/Down and Tab move between the fields.\n"
	         "For an open file the screen shows its hardware version, firmware, memory and "
	         "reservation and the passthrough devices already in it, with gpuwiz's advice "
	         "for each: a BIOS VM should not be switched to EFI without reinstalling, the "
	         "hardware version is only ever raised, with the VM powered off and a backup "
	         "taken.\n"
	         "In the path field Backspace deletes; Esc goes back a step.");
}

static size_t
vm_keys(ui_ctx *u, ui_keyhelp *out, size_t max)
{
	size_t n = 0;
	ui_key tab = { 0, L'\t' }, sp = { 0, L' ' }, down = { KEY_DOWN, 0 };

	if (gw_wizard_host_mode(u->w))
		return ui_vm_esxi_keys(u, out, max);
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
	return ui_keys_common(out, n, max, focus != F_NONE && focus != F_LIST);
}

static void
vm_fini(void)
{
	int i;

	for (i = 0; i < NSMALL; i++)
		ui_field_free(&small[i]);
	ui_field_free(&path);
	free_cands();
}

const ui_screen ui_step_vm = {
	GW_STEP_VM, vm_enter, vm_draw, vm_key, vm_mouse, NULL, vm_help,
	vm_keys, vm_fini
};
