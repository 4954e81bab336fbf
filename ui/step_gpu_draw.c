/* SPDX-License-Identifier: GPL-3.0-or-later */
/* step_gpu_draw.c: drawing step 3 (step_gpu.c has the layout): the GPUs
 * detected on the host, the search line, the table and the selection. */
#include "step_gpu.h"
#include "wizard_changes.h"
#include "mmio.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int
is_wanted(const gw_wizard *w, const gw_gpu *g)
{
	const gw_answers *a = &gw_wizard_answers(w)->a;
	size_t i;

	for (i = 0; i < a->ngpus; i++)
		if (a->gpus[i].gpu == g)
			return 1;
	return 0;
}

static void
draw_choice(int y, int x, int w, const char *label, const char *value,
            int focused)
{
	int used = dw_put(y, x, label, w, A_NORMAL) + 1;
	char buf[128];

	snprintf(buf, sizeof buf, "<%s>", value);
	dw_put(y, x + used, buf, w - used,
	       ui_attr(focused ? UI_C_FIELD_FOCUS : UI_C_FIELD));
}

/* The last column of a detected GPU: its passthrough on a host that
 * enables it, else its IOMMU group. */
static void
detected_state(const gw_wizard *w, size_t idx, const gw_gpu_dev *d,
               char *buf, size_t size)
{
	if (gw_wizard_can(w, GW_CAN_ENABLE))
		snprintf(buf, size, "%s",
		         gw_wizard_enable_queued(w, idx) == 1 ?
		         /* TRANSLATORS: a GPU on an ESXi host whose
		          * passthrough the write enables (queued with e on the
		          * host step); at most 16 cells. */
		         _("enable queued") :
		         gw_wizard_detected_passthru(w, idx) == 1 ?
		         /* TRANSLATORS: a GPU on an ESXi host with
		          * passthrough on / off; at most 16 cells. */
		         _("passthrough on") : _("passthrough off"));
	else
		/* TRANSLATORS: a detected GPU's IOMMU group (%s: its number);
		 * at most 16 cells. */
		snprintf(buf, size, _("IOMMU group %s"), d->group ? d->group : "-");
}

/* The driver column: "pciPassthru" (ESXi) and "vfio-pci" whole. */
#define DRIVER_W 11

/* A detected GPU's name, the model first: lspci's "AD106 [GeForce RTX
 * 4060 Ti 16GB]" becomes "GeForce RTX 4060 Ti 16GB (AD106)", so that a
 * cut (which ends in the sign) takes the chip's code, not the model. */
static void
detected_name(const gw_gpu_dev *d, char *buf, size_t size)
{
	const char *o = d->name ? strchr(d->name, '[') : NULL;
	size_t n = d->name ? strlen(d->name) : 0;

	if (d->name == NULL)
		snprintf(buf, size, "%04x:%04x", d->vendor, d->device);
	else if (o != NULL && o > d->name && n > 0 && d->name[n - 1] == ']')
		snprintf(buf, size, "%.*s (%.*s)", (int)(d->name + n - 1 - o - 1),
		         o + 1, (int)(o - d->name - (o[-1] == ' ')), d->name);
	else
		snprintf(buf, size, "%s", d->name);
}

/* One row of the detected GPUs at line yy. */
static void
detected_row(ui_ctx *u, ui_rect r, int yy, int idx, int name_w)
{
	const gw_wizard *w = u->w;
	gpu_st *st = gpu_state(u);
	const gw_gpu_dev *d;
	int sel = idx == st->dl.cur, x = r.x + 2;
	attr_t a = sel ? ui_attr(st->focus == F_DETECTED ? UI_C_SEL :
	                         UI_C_SEL_IDLE) : A_NORMAL;
	char buf[256];

	gw_wizard_detected(w, &d);
	d += idx;
	if (sel)
		dw_fill(yy, r.x, r.w - 1, a);
	if (gw_wizard_detected_added(w, (size_t)idx))
		dw_put(yy, r.x, ui_glyph_done(u), 1, a);
	dw_put(yy, x, d->bdf, 12, a);
	x += 13;
	detected_name(d, buf, sizeof buf);
	dw_put(yy, x, buf, name_w - 1, a);
	x += name_w;
	if (d->vram_gb >= 0)
		snprintf(buf, sizeof buf, _("%d GB"), d->vram_gb);
	else
		snprintf(buf, sizeof buf, "?");
	dw_put_right(yy, x, buf, 6, a);
	x += 7;
	dw_put(yy, x, d->driver ? d->driver : "-", DRIVER_W, a);
	x += DRIVER_W + 1;
	detected_state(w, (size_t)idx, d, buf, sizeof buf);
	dw_put(yy, x, buf, 16, a);
}

/* The "Detected on this host" block; returns the lines it took. */
static int
detected_draw(ui_ctx *u, ui_rect r)
{
	const gw_wizard *w = u->w;
	gpu_st *st = gpu_state(u);
	const char *err = gw_wizard_error(w, GW_ERR_DETECT);
	int n = (int)gw_wizard_detected(w, NULL), i;
	const char *cap = gw_wizard_capture(w);
	char *head = NULL;

	if (cap) {
		const char *base = strrchr(cap, '/');

		/* TRANSLATORS: heading of the GPUs read from a saved lspci or
		 * esxcli output; %s is its file name.  At most 60 cells. */
		head = gw_xasprintf(_("GPUs in %s (Space adds):"),
		                    base ? base + 1 : cap);
	}
	dw_put(r.y, r.x, head ? head :
	       /* TRANSLATORS: heading of the GPUs found on this Linux host;
	        * at most 60 cells. */
	       _("Detected on this host (Space adds):"), r.w,
	       ui_attr(UI_C_HEAD));
	free(head);
	if (err || n == 0) {
		dw_put(r.y + 1, r.x + 2, err ? err :
		       /* TRANSLATORS: no GPU found on this host; at most 76
		        * cells. */
		       _("No GPU found: pick one from the table below."),
		       r.w - 2, ui_attr(err ? UI_C_WARN : UI_C_DIM));
		st->h_det = 1;
		return 2;
	}
	st->h_det = n < 3 ? n : 3;
	st->dl.n = n;
	ui_list_fix(&st->dl, st->h_det);
	for (i = 0; i < st->h_det && st->dl.top + i < n; i++)
		detected_row(u, r, r.y + 1 + i, st->dl.top + i,
		             r.w - 2 - 13 - 7 - (DRIVER_W + 1) - 17 - 2);
	ui_list_marks(&st->dl, r.y + 1, r.x + r.w - 1, st->h_det);
	return 1 + st->h_det;
}

/* Line 1: the search field and the vendor and class filters. */
static void
draw_filters(ui_ctx *u, ui_rect r)
{
	gpu_st *st = gpu_state(u);
	/* TRANSLATORS: label of the GPU search field; at most 10 cells. */
	const char *l_search = _("Search:");
	/* TRANSLATORS: label of the vendor filter; at most 10 cells. */
	const char *l_vendor = _("Vendor:");
	/* TRANSLATORS: label of the class filter; at most 10 cells. */
	const char *l_class = _("Class:");
	int vw = 0, cw = 0, i, fx, fw;

	for (i = 0; i < st->nvendors; i++)
		if (gw_text_cells(gpu_vendor_name(st->vendors[i])) > vw)
			vw = gw_text_cells(gpu_vendor_name(st->vendors[i]));
	for (i = 0; i < GW_NCLASSES; i++)
		if (gw_text_cells(gw_gpu_class_name((gw_gpu_class)i)) > cw)
			cw = gw_text_cells(gw_gpu_class_name((gw_gpu_class)i));
	st->x_class = r.w - (gw_text_cells(l_class) + 1 + cw + 2);
	st->x_vendor = st->x_class - 2 - (gw_text_cells(l_vendor) + 1 + vw + 2);
	fx = gw_text_cells(l_search) + 1;
	fw = st->x_vendor - 2 - fx;
	dw_put(r.y, r.x, l_search, fx, A_NORMAL);
	ui_field_draw(u, &st->search, r.y, r.x + fx, fw, st->focus == F_SEARCH);
	draw_choice(r.y, r.x + st->x_vendor, r.w - st->x_vendor, l_vendor,
	            gpu_vendor_name(st->vendors[st->vendor_idx]),
	            st->focus == F_VENDOR);
	draw_choice(r.y, r.x + st->x_class, r.w - st->x_class, l_class,
	            gw_gpu_class_name(st->cls), st->focus == F_CLASS);
}

/* The row after the GPUs found: add one by its memory size. */
static void
by_size_row(ui_ctx *u, ui_rect r, int yy, int sel)
{
	gpu_st *st = gpu_state(u);
	attr_t a = sel ? ui_attr(st->focus == F_RESULTS ? UI_C_SEL :
	                         UI_C_SEL_IDLE) : A_BOLD;

	if (sel)
		dw_fill(yy, r.x, r.w - 1, a);
	dw_put(yy, r.x, "+", 1, a);
	dw_put(yy, r.x + 2,
	       /* TRANSLATORS: the GPU table's last row, for a GPU it does
	        * not list; at most 76 cells. */
	       _("Add a GPU by its memory size (VRAM, and BAR1 if known)"),
	       r.w - 3, a);
}

/* One row of the table at line yy. */
static void
table_row(ui_ctx *u, ui_rect r, int yy, int idx, int name_w)
{
	gpu_st *st = gpu_state(u);
	const gw_gpu *g;
	int sel = idx == st->rl.cur;
	attr_t a = sel ? ui_attr(st->focus == F_RESULTS ? UI_C_SEL :
	                         UI_C_SEL_IDLE) : A_NORMAL;
	char buf[256];

	if (gpu_by_size_row(st, idx)) {
		by_size_row(u, r, yy, sel);
		return;
	}
	g = st->results[idx];
	if (sel)
		dw_fill(yy, r.x, r.w - 1, a);
	if (is_wanted(u->w, g))
		dw_put(yy, r.x, ui_glyph_done(u), 1, a);
	dw_put(yy, r.x + 2, g->id, 18, a);
	dw_put(yy, r.x + 21, g->name, name_w - 1, a);
	snprintf(buf, sizeof buf, "%04x:%04x", g->vendor_id, g->device_id);
	dw_put(yy, r.x + 21 + name_w, buf, 9, a);
	if (g->vram_gb >= 0)
		/* TRANSLATORS: a size in GB in the GPU table; at most 6 cells
		 * for 4 digits. */
		snprintf(buf, sizeof buf, _("%d GB"), g->vram_gb);
	else
		snprintf(buf, sizeof buf, "?");
	dw_put_right(yy, r.x + 21 + name_w + 10, buf, 6, a);
	if (g->vgpu_prefix)
		dw_put(yy, r.x + 21 + name_w + 17, "vGPU", 4, a);
}

/* The GPU table: its headings and the rows of the search. */
static void
draw_table(ui_ctx *u, ui_rect r)
{
	gpu_st *st = gpu_state(u);
	int name_w = r.w - 2 - 19 - 10 - 7 - 4 - 2, i;

	st->rl.n = (int)st->nresults + 1;
	ui_list_fix(&st->rl, st->h_results);
	if (st->nresults == 0) {
		/* no headings over no rows: what the search found */
		dw_put(r.y + 1, r.x + 2,
		       /* TRANSLATORS: the GPU table shows nothing; at most
		        * 76 cells. */
		       _("No GPU in the table matches the search and filters."),
		       r.w - 2, ui_attr(UI_C_WARN));
	} else {
		/* TRANSLATORS: column headings of the GPU table: ID at most 18
		 * cells, Model at most 30, PCI id at most 9, VRAM at most 6,
		 * vGPU at most 4. */
		dw_put(r.y + 1, r.x + 2, _("ID"), 18, ui_attr(UI_C_DIM));
		/* TRANSLATORS: column heading, at most 30 cells. */
		dw_put(r.y + 1, r.x + 21, _("Model"), name_w - 1,
		       ui_attr(UI_C_DIM));
		/* TRANSLATORS: column heading (10de:26b9), at most 9 cells. */
		dw_put(r.y + 1, r.x + 21 + name_w, _("PCI id"), 9,
		       ui_attr(UI_C_DIM));
		dw_put_right(r.y + 1, r.x + 21 + name_w + 10,
		             /* TRANSLATORS: column heading, at most 6 cells. */
		             _("VRAM"), 6, ui_attr(UI_C_DIM));
		/* TRANSLATORS: column heading, at most 4 cells; also the key
		 * help label of Space in the selection (cycles the vGPU
		 * profiles). */
		dw_put(r.y + 1, r.x + 21 + name_w + 17, _("vGPU"), 4,
		       ui_attr(UI_C_DIM));
	}
	for (i = 0; i < st->h_results && st->rl.top + i < st->rl.n; i++)
		table_row(u, r, r.y + st->y_results + i, st->rl.top + i,
		          name_w);
	ui_list_marks(&st->rl, r.y + st->y_results, r.x + r.w - 1,
	              st->h_results);
}

/* The text of a wanted GPU in the selection. */
static void
want_text(const gw_gpu_want *g, char *buf, size_t size)
{
	if (g->profile)
		/* TRANSLATORS: a selected vGPU: count, profile, board id.  At
		 * most 76 cells. */
		snprintf(buf, size, _("%d x vGPU %s (on %s)"), g->count,
		         g->profile, g->gpu ? g->gpu->id : "?");
	else if (g->gpu)
		/* TRANSLATORS: a selected GPU in passthrough: count, id,
		 * model, VRAM.  At most 76 cells. */
		snprintf(buf, size, _("%d x %s (%s), passthrough, %d GB"),
		         g->count, g->gpu->id, g->gpu->name, g->vram_gb);
	else if (g->bar1_bytes == 0)
		/* TRANSLATORS: a GPU given by its size only. */
		snprintf(buf, size, _("%d x GPU of %d GB (size only), passthrough"),
		         g->count, g->vram_gb);
	else {
		char bar1[24];

		gw_fmt_bar_size(g->bar1_bytes, bar1, sizeof bar1);
		/* TRANSLATORS: a GPU given by its size and BAR1 size ("16G"). */
		snprintf(buf, size, _("%d x GPU of %d GB (size only, BAR1 %s), passthrough"),
		         g->count, g->vram_gb, bar1);
	}
}

/* One row of the selection at line yy: a wanted GPU (the count the VM
 * ends with, those in the .vmx that count towards it included), or,
 * after them, the .vmx's devices beside those (gpu_existing_at). */
static void
selection_row(ui_ctx *u, ui_rect r, int yy, int idx)
{
	const gw_wizard *w = u->w;
	gpu_st *st = gpu_state(u);
	const gw_answers *an = &gw_wizard_answers(w)->a;
	int sel = idx == st->sl.cur;
	attr_t a = sel ? ui_attr(st->focus == F_SELECTED ? UI_C_SEL :
	                         UI_C_SEL_IDLE) : A_NORMAL;
	const gw_plan_gpu *g;
	char buf[256];

	if (sel)
		dw_fill(yy, r.x, r.w - 1, a);
	if (idx < (int)an->ngpus) {
		want_text(&an->gpus[idx], buf, sizeof buf);
		dw_put(yy, r.x + 2, buf, r.w - 3, a);
		return;
	}
	g = gpu_existing_at(w, (size_t)(idx - (int)an->ngpus));
	if (g == NULL)
		return;
	/* TRANSLATORS: a GPU already attached in the .vmx: count, label.  At
	 * most 76 cells. */
	snprintf(buf, sizeof buf, _("%d x %s, already in the VM"),
	         g->count - g->counted, g->label);
	dw_put(yy, r.x + 2, buf, r.w - 3, sel ? a : ui_attr(UI_C_DIM));
}

/* The selection: its heading with the plan's total, and its rows. */
static void
draw_selection(ui_ctx *u, ui_rect r, int nsel)
{
	gpu_st *st = gpu_state(u);
	const gw_plan *p = gw_wizard_plan(u->w);
	/* the texts follow the activity: a Tanzu/BOSH VM type has no VM of
	 * its own yet (BOSH makes its VMs from it) */
	int tanzu = gw_wizard_activity(u->w) == GW_ACT_TANZU;
	char buf[256];
	int i;

	if (p)
		snprintf(buf, sizeof buf, tanzu ?
		         /* TRANSLATORS: heading of the selected GPUs of a
		          * Tanzu/BOSH VM type with the plan's total
		          * framebuffer; at most 60 cells. */
		         _("Selected for the VM type (total %llu GB):") :
		         /* TRANSLATORS: heading of the selected GPUs with the
		          * plan's total framebuffer; at most 60 cells. */
		         _("Selected for this VM (total %llu GB):"),
		         (unsigned long long)p->total_vram_gb);
	else
		snprintf(buf, sizeof buf, "%s", tanzu ?
		         /* TRANSLATORS: heading of the selected GPUs of a
		          * Tanzu/BOSH VM type; at most 60 cells. */
		         _("Selected for the VM type:") :
		         /* TRANSLATORS: heading of the selected GPUs; at most
		          * 60 cells. */
		         _("Selected for this VM:"));
	dw_put(r.y + st->y_sel - 1, r.x, buf, r.w, ui_attr(UI_C_HEAD));
	ui_list_fix(&st->sl, st->h_sel);
	if (nsel == 0)
		dw_put(r.y + st->y_sel, r.x + 2,
		       gpu_enter_adds(st) ?
		       /* TRANSLATORS: the selection is empty and Enter opens
		        * "Add a GPU by its memory size"; at most 76 cells. */
		       _("None yet: Enter adds a GPU by its memory size.") :
		       tanzu ?
		       /* TRANSLATORS: the selection of a Tanzu/BOSH VM type
		        * is empty (there is no VM with GPUs of its own); at
		        * most 76 cells. */
		       _("None yet: Space adds the highlighted GPU to the VM type.") :
		       /* TRANSLATORS: the selection is empty; at most 76
		        * cells. */
		       _("None yet: Space adds the highlighted GPU; Enter goes on with the VM's own."),
		       r.w - 2, ui_attr(UI_C_DIM));
	for (i = 0; i < st->h_sel && st->sl.top + i < nsel; i++)
		selection_row(u, r, r.y + st->y_sel + i, st->sl.top + i);
	ui_list_marks(&st->sl, r.y + st->y_sel, r.x + r.w - 1, st->h_sel);
}

#define GPU_TOPICS GW_TOPIC_BIT(GW_TOPIC_GPU)
#define GPU_WARN_ROWS 5

/* Rows for the plan's findings about the GPUs (more of a model than the
 * host has, a GPU the table does not know), shown only when one of them
 * is a WARN or FAIL: the choice on this step is what fixes it. */
static int
gpu_warn_rows(const ui_ctx *u, int width)
{
	const gw_plan *p = gw_wizard_plan(u->w);
	size_t i;
	int n;

	for (i = 0; p && i < p->nfindings; i++)
		if (gw_topic_in(p->findings[i].topic, GPU_TOPICS) &&
		    p->findings[i].sev >= GW_SEV_WARN)
			break;
	if (p == NULL || i == p->nfindings)
		return 0;
	n = ui_findings_rows(u, width, GPU_TOPICS);
	return n > GPU_WARN_ROWS ? GPU_WARN_ROWS : n;
}

void
gpu_draw(ui_ctx *u, ui_rect r)
{
	const gw_wizard *w = u->w;
	gpu_st *st = gpu_state(u);
	int nsel, nf;

	r = ui_rect_cap(r);   /* readable columns at 200x50 */

	st->off = 0;
	if (gpu_detect_mode(w)) {
		st->off = detected_draw(u, r);
		r.y += st->off;
		r.h -= st->off;
	}
	st->sl.n = (int)(gw_wizard_answers(w)->a.ngpus + gpu_n_existing(w));
	nsel = st->sl.n;
	draw_filters(u, r);
	/* sizes: the selection gets up to 5 rows, the findings about the
	 * GPUs up to 5 below it, the table the rest */
	st->h_sel = nsel < 1 ? 1 : nsel > 5 ? 5 : nsel;
	nf = gpu_warn_rows(u, r.w);
	st->h_results = r.h - 2 - 1 - st->h_sel - nf;
	if (st->h_results < 3)
		st->h_results = 3;
	st->y_results = 2;
	st->y_sel = st->y_results + st->h_results + 1;
	draw_table(u, r);
	draw_selection(u, r, nsel);
	if (nf > 0)
		ui_draw_findings(u, r, st->y_sel + st->h_sel, GPU_TOPICS, nf);
}
