/* SPDX-License-Identifier: GPL-3.0-or-later */
/* step_options.c: step 6, the options (UVM on every vGPU with what it
 * costs, P2P, the memory reservation, code-43 hiding, force) and the
 * outputs (which snippet formats, into which directory, under which VM
 * extension name). */
#include "draw.h"
#include "field.h"
#include "screen.h"
#include "textlist.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* the formats' check boxes are O_FMT0 ... O_LASTFMT, in the registry's
 * order (gw_wizard_format_at), then the two fields; O_MAX bounds the rows */
enum { O_UVM, O_P2P, O_RES, O_CODE43, O_FORCE, O_DYN, O_FMT0,
       O_MAX = O_FMT0 + GW_WIZARD_MAX_FORMATS + 2 };
#define O_LASTFMT (O_FMT0 + (int)gw_wizard_nformats() - 1)
#define O_DIR (O_LASTFMT + 1)
#define O_NAME (O_DIR + 1)
#define O_N (O_NAME + 1)

typedef struct options_st {
	ui_field dir, name;
	int focus;
	int row_y[O_MAX], col_x[O_MAX], col_w[O_MAX];   /* where, for the mouse */
	ui_textlist fl;   /* the findings below (PgUp/PgDn) */
} options_st;

static options_st *
ost(ui_ctx *u)
{
	return u->state[GW_STEP_OPTIONS];
}

static void *
options_open(void)
{
	return gw_xcalloc(1, sizeof(options_st));
}

static void
options_close(void *state)
{
	options_st *st = state;

	ui_field_free(&st->name);
	ui_field_free(&st->dir);
	ui_tl_clear(&st->fl);
	free(st);
}

static void
options_enter(ui_ctx *u)
{
	const gw_answers_file *af = gw_wizard_answers(u->w);
	options_st *st = ost(u);

	ui_field_set(&st->dir, af->out_dir ? af->out_dir : "");
	ui_field_set(&st->name, af->a.name ? af->a.name : "");
	st->focus = O_UVM;
	/* a VM with vGPUs: UVM is proposed on until the operator decides */
	gw_wizard_propose_uvm(u->w);
	/* only the VM's own devices: no snippet that describes GPUs to add */
	gw_wizard_fit_formats(u->w);
}

static int
has_vgpu(const gw_wizard *w)
{
	const gw_plan *p = gw_wizard_plan(w);
	const gw_answers *a = &gw_wizard_answers(w)->a;
	size_t i;

	if (p)
		return gw_wizard_vm_vgpus(w) > 0;
	for (i = 0; i < a->ngpus; i++)
		if (a->gpus[i].profile)
			return 1;
	return 0;
}

static int
option_row(ui_ctx *u, ui_rect r, int y, int item, int on, const char *title,
           const char *why, int show_why)
{
	options_st *st = ost(u);
	attr_t a = st->focus == item ? ui_attr(UI_C_SEL) : A_NORMAL;
	char buf[256];
	int rows = 1;

	st->row_y[item] = y;
	if (st->focus == item)
		dw_fill(r.y + y, r.x, r.w, a);
	snprintf(buf, sizeof buf, "[%s] %s", on ? "x" : " ", title);
	dw_put(r.y + y, r.x + 1, buf, r.w - 1, a);
	if (show_why)
		rows += dw_wrap_put(r.y + y + 1, r.x + 5, r.w - 5, 3, why,
		                    ui_attr(UI_C_DIM));
	return rows;
}

static void
options_draw(ui_ctx *u, ui_rect r)
{
	const gw_wizard *w = u->w;
	options_st *st = ost(u);
	const gw_answers_file *af = gw_wizard_answers(w);
	const gw_answers *a = &af->a;
	const gw_plan *p = gw_wizard_plan(w);
	/* what the options change: unified memory, P2P, the reservation */
	const unsigned opt_findings = GW_TOPIC_BIT(GW_TOPIC_VGPU) |
	                              GW_TOPIC_BIT(GW_TOPIC_P2P) |
	                              GW_TOPIC_BIT(GW_TOPIC_MEMORY);
	int y = 0, i, x, full, wrapped = 0;
	/* TRANSLATORS: the options and what each does.  Titles at most 60
	 * cells; the explanations are wrapped (2 lines at 80 columns). */
	const char *t_uvm = _("Unified memory (UVM) on every vGPU");
	const char *w_uvm = !has_vgpu(w) ?
		/* TRANSLATORS: UVM without any vGPU; wrapped. */
		_("Only for vGPUs: this VM has none, so it changes nothing.") :
		gw_wizard_uvm_proposed(w) ?
		/* TRANSLATORS: UVM turned on by the wizard for a VM with
		 * vGPUs, why and what it costs; wrapped, at most 3 lines of
		 * 74 cells. */
		_("Proposed for this VM's vGPUs: NCCL 2.27 and later fail without it "
		  "('operation not supported'). Consequences: no vMotion for this VM; "
		  "on A100 with several vGPUs, no NVLink P2P.") :
		/* TRANSLATORS: what UVM does and costs; wrapped, at most 3
		 * lines of 74 cells. */
		_("pciPassthruN.cfg.enable_uvm = 1: NCCL 2.27 and later fail without it "
		  "on vGPU. Consequences: no vMotion for this VM; on A100 with several "
		  "vGPUs, no NVLink P2P.");
	/* TRANSLATORS: option title, at most 60 cells. */
	const char *t_p2p = _("Peer-to-peer between the GPUs (P2P)");
	/* TRANSLATORS: option explanation, wrapped. */
	const char *w_p2p = _("pciPassthru.allowP2P and RelaxACSforP2P: for several GPUs under one PCIe root complex.");
	/* TRANSLATORS: option title, at most 60 cells. */
	const char *t_res = _("Reserve all guest memory");
	/* TRANSLATORS: option explanation, wrapped. */
	const char *w_res = _("sched.mem.min = memsize, pinned: a passthrough VM does not power on without it.");

	/* TRANSLATORS: two more options; titles at most 60 cells, the
	 * explanations are wrapped. */
	const char *t_c43 = _("Hide the hypervisor (GeForce code 43)");
	/* TRANSLATORS: option explanation, wrapped. */
	const char *w_c43 = _("hypervisor.cpuid.v0 = FALSE: only for GeForce drivers older than R465.");
	/* TRANSLATORS: option title, at most 60 cells. */
	const char *t_frc = _("Force: write even with failures or a running VM");
	/* TRANSLATORS: option explanation, wrapped. */
	const char *w_frc = _("Skips the checks that protect the VM: the lock file, a read-only .vmx and FAIL findings.");
	/* TRANSLATORS: option title, at most 60 cells. */
	const char *t_dyn = _("Dynamic DirectPath I/O (vCenter places the VM)");
	const char *w_dyn = gw_wizard_takes_dynamic(w) ?
		/* TRANSLATORS: option explanation, wrapped, at most 3
		 * lines of 74 cells. */
		_("pciPassthruN.allowedDevices by PCI ids: DRS places the VM on any "
		  "host with a free GPU of those ids. Needs vCenter 7+ and hardware "
		  "version 17; still no vMotion, memory still reserved.") :
		/* TRANSLATORS: Dynamic DirectPath I/O on a route without
		 * vCenter; wrapped. */
		_("Only through the vSphere API to a vCenter: this route has no "
		  "vCenter to place the VM, so the GPUs are fixed passthrough.");
	char why[1024];

	r = ui_rect_cap(r);   /* readable columns at 200x50 */
	st->fl.page = 0;      /* drawn below only when there is room */
	/* explanations for every option when they fit, else the focused */
	full = 5 + dw_wrap_rows(w_uvm, r.w - 5) + dw_wrap_rows(w_p2p, r.w - 5) +
	       dw_wrap_rows(w_res, r.w - 5) + dw_wrap_rows(w_c43, r.w - 5) +
	       dw_wrap_rows(w_frc, r.w - 5) + dw_wrap_rows(w_dyn, r.w - 5) +
	       1 + 6 + 3 <= r.h;
	y += option_row(u, r, y, O_UVM, a->uvm, t_uvm, w_uvm,
	                full || st->focus == O_UVM);
	y += option_row(u, r, y, O_P2P, a->p2p, t_p2p, w_p2p,
	                full || st->focus == O_P2P);
	y += option_row(u, r, y, O_RES, a->reserve, t_res, w_res,
	                full || st->focus == O_RES);
	y += option_row(u, r, y, O_CODE43, a->code43, t_c43, w_c43,
	                full || st->focus == O_CODE43);
	y += option_row(u, r, y, O_FORCE, af->force, t_frc, w_frc,
	                full || st->focus == O_FORCE);
	y += option_row(u, r, y, O_DYN, a->dynamic, t_dyn, w_dyn,
	                full || st->focus == O_DYN);
	y++;
	/* TRANSLATORS: heading of the output choices; at most 40 cells. */
	dw_put(r.y + y++, r.x, _("Outputs:"), r.w, ui_attr(UI_C_HEAD));
	x = 1;
	for (i = 0; i < (int)gw_wizard_nformats(); i++) {
		const gw_wizard_format *f = gw_wizard_format_at((size_t)i);
		int item = O_FMT0 + i, on = (af->formats & f->bit) != 0;
		int can = gw_wizard_format_check(w, f->bit, NULL, 0) == 0;
		attr_t at = st->focus == item ? ui_attr(UI_C_SEL) :
		            can ? A_NORMAL : ui_attr(UI_C_DIM);
		char buf[128];
		int used;

		snprintf(buf, sizeof buf, "[%s] %s", on ? "x" : " ", _(f->label));
		if (x > 1 && x + gw_text_cells(buf) > r.w) {   /* next row */
			y++;
			x = 1;
			wrapped = 1;
		}
		st->row_y[item] = y;
		st->col_x[item] = x;
		used = dw_put(r.y + y, r.x + x, buf, r.w - x, at);
		st->col_w[item] = used;
		x += used + 3;
	}
	y++;
	{
		/* TRANSLATORS: label of the output directory field; at
		 * most 20 cells. */
		const char *l_dir = _("Output directory:");
		/* TRANSLATORS: label of the BOSH/Ops Manager name field; at
		 * most 20 cells. */
		const char *l_name = _("VM extension name:");
		int lw = gw_text_cells(l_dir) > gw_text_cells(l_name) ?
		         gw_text_cells(l_dir) : gw_text_cells(l_name);

		lw += 2;
		dw_put(r.y + y, r.x + 1, l_dir, lw, A_NORMAL);
		st->row_y[O_DIR] = y;
		ui_field_draw(u, &st->dir, r.y + y, r.x + 1 + lw, r.w - 1 - lw,
		              st->focus == O_DIR);
		y++;
		dw_put(r.y + y, r.x + 1, l_name, lw, A_NORMAL);
		st->row_y[O_NAME] = y;
		ui_field_draw(u, &st->name, r.y + y, r.x + 1 + lw, 30,
		              st->focus == O_NAME);
		if (ui_field_empty(&st->name) && p && p->name &&
		    st->focus != O_NAME)
			dw_printf(r.y + y, r.x + 1 + lw + 31, r.w - lw - 32,
			          ui_attr(UI_C_DIM),
			          /* TRANSLATORS: the derived extension name
			           * beside an empty name field; at most 40
			           * cells. */
			          _("(empty: %s)"), p->name);
		/* the blank row before the findings, unless the outputs
		 * took a second row: the findings keep their rows */
		y += wrapped ? 1 : 2;
	}
	/* a format the plan cannot give: say why; else the findings */
	if (st->focus >= O_FMT0 && st->focus <= O_LASTFMT &&
	    gw_wizard_format_check(w, gw_wizard_format_at((size_t)(st->focus - O_FMT0))->bit, why,
	                           sizeof why) != 0) {
		/* TRANSLATORS: %s is the reason a snippet cannot be made. */
		char *m = gw_xasprintf(_("Cannot be made from this plan: %s"), why);

		dw_wrap_put(r.y + y, r.x + 1, r.w - 1, r.h - y, m,
		            ui_attr(UI_C_WARN));
		free(m);
	} else if (y < r.h) {
		/* FAIL and WARN first; PgDn scrolls the rest into view */
		ui_findings_list(u, &st->fl, (ui_rect){ r.y + y, r.x, r.h - y,
		                                         r.w }, opt_findings);
	}
}

static void
toggle(ui_ctx *u, int item)
{
	gw_wizard *w = u->w;
	const gw_answers_file *af = gw_wizard_answers(w);

	switch (item) {
	case O_UVM:
		gw_wizard_set_uvm(w, !af->a.uvm);
		break;
	case O_P2P:
		gw_wizard_set_p2p(w, !af->a.p2p);
		break;
	case O_RES:
		gw_wizard_set_reserve(w, !af->a.reserve);
		break;
	case O_CODE43:
		gw_wizard_set_code43(w, !af->a.code43);
		break;
	case O_FORCE:
		gw_wizard_set_force(w, !af->force);
		break;
	case O_DYN: {
		gw_err e;

		memset(&e, 0, sizeof e);
		if (gw_wizard_set_dynamic(w, !af->a.dynamic, &e) != 0)
			ui_msg(u, UI_MSG_ERROR, "%s", gw_err_text(&e, 1));
		break;
	}
	default:
		if (item >= O_FMT0 && item <= O_LASTFMT)
			gw_wizard_set_formats(w, af->formats ^
			                         gw_wizard_format_at((size_t)(item - O_FMT0))->bit);
		break;
	}
}

/* Take the directory and the name typed.  0 when they stand. */
static int
apply_fields(ui_ctx *u)
{
	gw_wizard *w = u->w;
	options_st *st = ost(u);
	const gw_answers_file *af = gw_wizard_answers(w);
	char *t;
	gw_err e;
	int rc = 0;

	e.msg[0] = '\0';
	t = ui_field_get(&st->dir);
	if (!ui_field_equals(&st->dir, af->out_dir)) {
		if (gw_wizard_set_outdir(w, gw_trim(t), &e) != 0) {
			ui_msg(u, UI_MSG_ERROR, "%s", e.msg);
			st->focus = O_DIR;
			rc = -1;
		} else {
			/* as the wizard keeps it ("~/" expanded) */
			ui_field_set(&st->dir, af->out_dir);
		}
	}
	free(t);
	if (rc != 0)
		return rc;
	t = ui_field_get(&st->name);
	if (!ui_field_equals(&st->name, af->a.name) &&
	    gw_wizard_set_name(w, gw_trim(t), &e) != 0) {
		ui_msg(u, UI_MSG_ERROR, "%s", e.msg);
		st->focus = O_NAME;
		rc = -1;
	}
	free(t);
	return rc;
}

static int
options_key(ui_ctx *u, ui_key k)
{
	options_st *st = ost(u);

	if (ui_tl_page_key(&st->fl, k))
		return UI_HANDLED;
	if (ui_key_enter(k))
		return apply_fields(u) == 0 ? UI_NEXT : UI_HANDLED;
	if (ui_key_fn(k, KEY_DOWN) || ui_key_tab(k)) {
		if (st->focus >= O_DIR && apply_fields(u) != 0)
			return UI_HANDLED;
		st->focus = (st->focus + 1) % O_N;
		return UI_HANDLED;
	}
	if (ui_key_fn(k, KEY_UP) || ui_key_btab(k)) {
		if (st->focus >= O_DIR && apply_fields(u) != 0)
			return UI_HANDLED;
		st->focus = (st->focus + O_N - 1) % O_N;
		return UI_HANDLED;
	}
	if (st->focus == O_DIR || st->focus == O_NAME) {
		int r = ui_field_key(st->focus == O_DIR ? &st->dir : &st->name,
		                     k);

		return r ? UI_HANDLED : UI_IGNORED;
	}
	if (st->focus >= O_FMT0 && st->focus <= O_LASTFMT &&
	    (ui_key_fn(k, KEY_LEFT) || ui_key_fn(k, KEY_RIGHT))) {
		int d = ui_key_fn(k, KEY_LEFT) ? -1 : 1;

		if (st->focus + d >= O_FMT0 && st->focus + d <= O_LASTFMT)
			st->focus += d;
		return UI_HANDLED;
	}
	if (ui_key_space(k)) {
		toggle(u, st->focus);
		return UI_HANDLED;
	}
	return UI_IGNORED;
}

static int
options_mouse(ui_ctx *u, ui_rect r, int y, int x)
{
	options_st *st = ost(u);
	int i;

	if (y == st->row_y[O_DIR] || y == st->row_y[O_NAME]) {
		int f = y == st->row_y[O_DIR] ? O_DIR : O_NAME;

		if (st->focus >= O_DIR && st->focus != f &&
		    apply_fields(u) != 0)
			return UI_HANDLED;
		st->focus = f;
		return UI_HANDLED;
	}
	if (st->focus >= O_DIR && apply_fields(u) != 0)
		return UI_HANDLED;
	for (i = O_FMT0; i <= O_LASTFMT; i++)
		if (y == st->row_y[i] && x >= st->col_x[i] &&
		    x < st->col_x[i] + st->col_w[i]) {
			st->focus = i;
			toggle(u, i);
			return UI_HANDLED;
		}
	for (i = O_UVM; i <= O_DYN; i++)
		if (y == st->row_y[i]) {
			st->focus = i;
			toggle(u, i);
		}
	return UI_HANDLED;
}

static size_t
options_keys(ui_ctx *u, ui_keyhelp *out, size_t max)
{
	size_t n = ui_tl_keys(&ost(u)->fl, out, max);
	ui_key sp = { 0, L' ' }, down = { KEY_DOWN, 0 };
	int focus = ost(u)->focus;

	if (n == 0)
		/* TRANSLATORS: key help label; at most 8 cells. */
		ui_keys_add(out, &n, max, "Up/Dn", _("Move"), down);
	if (focus < O_DIR)
		/* TRANSLATORS: key help label; at most 8 cells. */
		ui_keys_add(out, &n, max, "Space", _("Toggle"), sp);
	return ui_keys_common(out, n, max, focus >= O_DIR);
}

const ui_screen ui_step_options = {
	GW_STEP_OPTIONS, options_open, options_close, options_enter,
	options_draw, options_key, options_mouse, NULL, NULL,
	options_keys
};
