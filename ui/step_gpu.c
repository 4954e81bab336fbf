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
 * Configuring this Linux host, a "Detected on this host" list (address,
 * name, VRAM, driver, IOMMU group) comes above the search: Space adds the
 * highlighted GPU in passthrough with its address
 * (gw_wizard_add_detected).
 */
#include "draw.h"
#include "field.h"
#include "screen.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { F_DETECTED, F_SEARCH, F_VENDOR, F_CLASS, F_RESULTS, F_SELECTED, F_N };

static ui_field search;
static int focus;
static unsigned vendors[16];
static int nvendors;        /* vendors[0] = 0: any */
static int vendor_idx;
static gw_gpu_class cls;
static const gw_gpu **results;
static size_t nresults;
static ui_list rl, sl, dl;
static int off;             /* lines the detected list takes on top */
static int h_det;           /* its rows */
/* where things were drawn, for the mouse */
static int y_results, h_results, y_sel, h_sel, x_vendor, x_class;

static const char *
vendor_name(unsigned v)
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
	char *q = ui_field_get(&search);
	size_t max = u->w->table->n;

	free(results);
	results = gw_xcalloc(max + 1, sizeof *results);
	nresults = gw_wizard_search(u->w, gw_trim(q), vendors[vendor_idx], cls,
	                            results, max);
	free(q);
	rl.n = (int)nresults;
}

/* GPUs already in the .vmx (from the plan), shown after the wanted ones. */
static size_t
n_existing(const gw_wizard *w)
{
	size_t i, n = 0;

	if (!w->have_plan)
		return 0;
	for (i = 0; i < w->plan.ngpus; i++)
		n += w->plan.gpus[i].existing != 0;
	return n;
}

static const gw_plan_gpu *
existing_at(const gw_wizard *w, size_t k)
{
	size_t i;

	for (i = 0; i < w->plan.ngpus; i++)
		if (w->plan.gpus[i].existing && k-- == 0)
			return &w->plan.gpus[i];
	return NULL;
}

/* GPUs found on the host are listed above the table (this Linux host,
 * an ESXi host). */
static int
detect_mode(const gw_wizard *w)
{
	return w->mode == GW_MODE_LINUX || gw_wizard_host_mode(w);
}

static void
gpu_enter(ui_ctx *u)
{
	const gw_table *t = u->w->table;
	size_t i;

	if (search.buf == NULL)
		ui_field_set(&search, "");
	nvendors = 1;
	vendors[0] = 0;
	for (i = 0; i < t->n; i++) {
		int j, seen = 0;

		for (j = 0; j < nvendors; j++)
			seen |= vendors[j] == t->gpus[i].vendor_id;
		if (!seen && nvendors < (int)(sizeof vendors / sizeof vendors[0]))
			vendors[nvendors++] = t->gpus[i].vendor_id;
	}
	if (vendor_idx >= nvendors)
		vendor_idx = 0;
	refresh_results(u);
	sl.n = (int)(u->w->af.a.ngpus + n_existing(u->w));
	dl.n = (int)u->w->ndetected;
	/* pre-filled: start on the selection; else on the detected GPUs of
	 * this host, else on the search */
	focus = u->w->af.a.ngpus > 0 ? F_SELECTED :
	        detect_mode(u->w) && u->w->ndetected > 0 ? F_DETECTED :
	        F_SEARCH;
}

static int
is_wanted(const gw_wizard *w, const gw_gpu *g)
{
	size_t i;

	for (i = 0; i < w->af.a.ngpus; i++)
		if (w->af.a.gpus[i].gpu == g)
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

/* The "Detected on this host" block; returns the lines it took. */
static int
detected_draw(ui_ctx *u, ui_rect r)
{
	gw_wizard *w = u->w;
	int n = (int)w->ndetected, i, name_w;
	char buf[256];

	dw_put(r.y, r.x,
	       /* TRANSLATORS: heading of the GPUs found on this Linux host;
	        * at most 60 cells. */
	       _("Detected on this host (Space adds):"), r.w,
	       ui_attr(UI_C_HEAD));
	if (w->detect_error || n == 0) {
		dw_put(r.y + 1, r.x + 2, w->detect_error ? w->detect_error :
		       /* TRANSLATORS: no GPU found on this host; at most 76
		        * cells. */
		       _("No GPU found: pick one from the table below."),
		       r.w - 2, ui_attr(w->detect_error ? UI_C_WARN : UI_C_DIM));
		h_det = 1;
		return 2;
	}
	h_det = n < 3 ? n : 3;
	dl.n = n;
	ui_list_fix(&dl, h_det);
	name_w = r.w - 2 - 13 - 7 - 11 - 17 - 2;
	for (i = 0; i < h_det && dl.top + i < n; i++) {
		const gw_linux_gpu *d = &w->detected[dl.top + i];
		int yy = r.y + 1 + i, sel = dl.top + i == dl.cur, x = r.x + 2;
		attr_t a = sel ? ui_attr(focus == F_DETECTED ? UI_C_SEL :
		                         UI_C_SEL_IDLE) : A_NORMAL;

		if (sel)
			dw_fill(yy, r.x, r.w - 1, a);
		if (w->detected_added && w->detected_added[dl.top + i])
			dw_put(yy, r.x, ui_glyph_done(u), 1, a);
		dw_put(yy, x, d->bdf, 12, a);
		x += 13;
		if (d->name)
			snprintf(buf, sizeof buf, "%s", d->name);
		else
			snprintf(buf, sizeof buf, "%04x:%04x", d->vendor, d->device);
		dw_put(yy, x, buf, name_w - 1, a);
		x += name_w;
		if (d->vram_gb >= 0)
			snprintf(buf, sizeof buf, _("%d GB"), d->vram_gb);
		else
			snprintf(buf, sizeof buf, "?");
		dw_put_right(yy, x, buf, 6, a);
		x += 7;
		dw_put(yy, x, d->driver ? d->driver : "-", 10, a);
		x += 11;
		if (gw_wizard_host_mode(w)) {
			snprintf(buf, sizeof buf, "%s",
			         gw_wizard_detected_passthru(w, (size_t)(dl.top + i)) == 1 ?
			         /* TRANSLATORS: a GPU on an ESXi host with
			          * passthrough on / off; at most 16 cells. */
			         _("passthrough on") : _("passthrough off"));
		} else {
			/* TRANSLATORS: a detected GPU's IOMMU group (%s: its
			 * number); at most 16 cells. */
			snprintf(buf, sizeof buf, _("IOMMU group %s"), d->group ? d->group : "-");
		}
		dw_put(yy, x, buf, 16, a);
	}
	ui_list_marks(&dl, r.y + 1, r.x + r.w - 1, h_det);
	return 1 + h_det;
}

static void
gpu_draw(ui_ctx *u, ui_rect r)
{
	gw_wizard *w = u->w;
	/* TRANSLATORS: label of the GPU search field; at most 10 cells. */
	const char *l_search = _("Search:");
	/* TRANSLATORS: label of the vendor filter; at most 10 cells. */
	const char *l_vendor = _("Vendor:");
	/* TRANSLATORS: label of the class filter; at most 10 cells. */
	const char *l_class = _("Class:");
	int vw = 0, cw = 0, i, fx, fw, y, name_w, nsel;
	char buf[256];

	off = 0;
	if (detect_mode(w)) {
		off = detected_draw(u, r);
		r.y += off;
		r.h -= off;
	}
	sl.n = (int)(w->af.a.ngpus + n_existing(w));
	nsel = sl.n;
	/* line 1: search, vendor, class */
	for (i = 0; i < nvendors; i++)
		if (gw_text_cells(vendor_name(vendors[i])) > vw)
			vw = gw_text_cells(vendor_name(vendors[i]));
	for (i = 0; i < GW_NCLASSES; i++)
		if (gw_text_cells(gw_gpu_class_name((gw_gpu_class)i)) > cw)
			cw = gw_text_cells(gw_gpu_class_name((gw_gpu_class)i));
	x_class = r.w - (gw_text_cells(l_class) + 1 + cw + 2);
	x_vendor = x_class - 2 - (gw_text_cells(l_vendor) + 1 + vw + 2);
	fx = gw_text_cells(l_search) + 1;
	fw = x_vendor - 2 - fx;
	dw_put(r.y, r.x, l_search, fx, A_NORMAL);
	ui_field_draw(u, &search, r.y, r.x + fx, fw, focus == F_SEARCH);
	draw_choice(r.y, r.x + x_vendor, r.w - x_vendor, l_vendor,
	            vendor_name(vendors[vendor_idx]), focus == F_VENDOR);
	draw_choice(r.y, r.x + x_class, r.w - x_class, l_class,
	            gw_gpu_class_name(cls), focus == F_CLASS);

	/* sizes: the selection gets up to 5 rows, the table the rest */
	h_sel = nsel < 1 ? 1 : nsel > 5 ? 5 : nsel;
	h_results = r.h - 2 - 1 - h_sel;
	if (h_results < 3)
		h_results = 3;
	y_results = 2;
	y_sel = y_results + h_results + 1;

	/* the table */
	name_w = r.w - 2 - 19 - 10 - 7 - 4 - 2;
	/* TRANSLATORS: column headings of the GPU table: ID at most 18
	 * cells, Model at most 30, PCI id at most 9, VRAM at most 6, vGPU at
	 * most 4. */
	dw_put(r.y + 1, r.x + 2, _("ID"), 18, ui_attr(UI_C_DIM));
	/* TRANSLATORS: column heading, at most 30 cells. */
	dw_put(r.y + 1, r.x + 21, _("Model"), name_w - 1, ui_attr(UI_C_DIM));
	/* TRANSLATORS: column heading (10de:26b9), at most 9 cells. */
	dw_put(r.y + 1, r.x + 21 + name_w, _("PCI id"), 9, ui_attr(UI_C_DIM));
	dw_put_right(r.y + 1, r.x + 21 + name_w + 10,
	             /* TRANSLATORS: column heading, at most 6 cells. */
	             _("VRAM"), 6, ui_attr(UI_C_DIM));
	/* TRANSLATORS: column heading, at most 4 cells; also the key help
	 * label of Space in the selection (cycles the vGPU profiles). */
	dw_put(r.y + 1, r.x + 21 + name_w + 17, _("vGPU"), 4, ui_attr(UI_C_DIM));
	rl.n = (int)nresults;
	ui_list_fix(&rl, h_results);
	if (nresults == 0) {
		dw_put(r.y + y_results, r.x + 2,
		       /* TRANSLATORS: the GPU table shows nothing; at most
		        * 76 cells. */
		       _("No GPU in the table matches the search and filters."),
		       r.w - 2, ui_attr(UI_C_DIM));
	}
	for (i = 0; i < h_results && rl.top + i < rl.n; i++) {
		const gw_gpu *g = results[rl.top + i];
		int yy = r.y + y_results + i, sel = rl.top + i == rl.cur;
		attr_t a = sel ? ui_attr(focus == F_RESULTS ? UI_C_SEL :
		                         UI_C_SEL_IDLE) : A_NORMAL;

		if (sel)
			dw_fill(yy, r.x, r.w - 1, a);
		if (is_wanted(w, g))
			dw_put(yy, r.x, ui_glyph_done(u), 1, a);
		dw_put(yy, r.x + 2, g->id, 18, a);
		dw_put(yy, r.x + 21, g->name, name_w - 1, a);
		snprintf(buf, sizeof buf, "%04x:%04x", g->vendor_id, g->device_id);
		dw_put(yy, r.x + 21 + name_w, buf, 9, a);
		if (g->vram_gb >= 0)
			/* TRANSLATORS: a size in GB in the GPU table; at most
			 * 6 cells for 4 digits. */
			snprintf(buf, sizeof buf, _("%d GB"), g->vram_gb);
		else
			snprintf(buf, sizeof buf, "?");
		dw_put_right(yy, r.x + 21 + name_w + 10, buf, 6, a);
		if (g->vgpu_prefix)
			dw_put(yy, r.x + 21 + name_w + 17, "vGPU", 4, a);
	}
	ui_list_marks(&rl, r.y + y_results, r.x + r.w - 1, h_results);

	/* the selection */
	y = y_sel - 1;
	if (w->have_plan)
		/* TRANSLATORS: heading of the selected GPUs with the plan's
		 * total framebuffer; at most 60 cells. */
		snprintf(buf, sizeof buf, _("Selected for this VM (total %llu GB):"),
		         (unsigned long long)w->plan.total_vram_gb);
	else
		/* TRANSLATORS: heading of the selected GPUs; at most 60
		 * cells. */
		snprintf(buf, sizeof buf, "%s", _("Selected for this VM:"));
	dw_put(r.y + y, r.x, buf, r.w, ui_attr(UI_C_HEAD));
	ui_list_fix(&sl, h_sel);
	if (nsel == 0)
		dw_put(r.y + y_sel, r.x + 2,
		       /* TRANSLATORS: the selection is empty; at most 76
		        * cells. */
		       _("None yet: highlight a GPU in the table and press Space."),
		       r.w - 2, ui_attr(UI_C_DIM));
	for (i = 0; i < h_sel && sl.top + i < nsel; i++) {
		int idx = sl.top + i, yy = r.y + y_sel + i;
		int sel = idx == sl.cur;
		attr_t a = sel ? ui_attr(focus == F_SELECTED ? UI_C_SEL :
		                         UI_C_SEL_IDLE) : A_NORMAL;

		if (sel)
			dw_fill(yy, r.x, r.w - 1, a);
		if (idx < (int)w->af.a.ngpus) {
			const gw_gpu_want *g = &w->af.a.gpus[idx];

			if (g->profile)
				/* TRANSLATORS: a selected vGPU: count, profile,
				 * board id.  At most 76 cells. */
				snprintf(buf, sizeof buf, _("%d x vGPU %s (on %s)"),
				         g->count, g->profile,
				         g->gpu ? g->gpu->id : "?");
			else if (g->gpu)
				/* TRANSLATORS: a selected GPU in passthrough:
				 * count, id, model, VRAM.  At most 76 cells. */
				snprintf(buf, sizeof buf, _("%d x %s (%s), passthrough, %d GB"),
				         g->count, g->gpu->id, g->gpu->name, g->vram_gb);
			else
				/* TRANSLATORS: a GPU given by its size only. */
				snprintf(buf, sizeof buf, _("%d x GPU of %d GB (size only), passthrough"),
				         g->count, g->vram_gb);
			dw_put(yy, r.x + 2, buf, r.w - 3, a);
		} else {
			const gw_plan_gpu *g = existing_at(w, (size_t)(idx - (int)w->af.a.ngpus));

			if (g == NULL)
				continue;
			/* TRANSLATORS: a GPU already attached in the .vmx:
			 * count, label.  At most 76 cells. */
			snprintf(buf, sizeof buf, _("%d x %s, already in the VM"),
			         g->count, g->label);
			dw_put(yy, r.x + 2, buf, r.w - 3,
			       sel ? a : ui_attr(UI_C_DIM));
		}
	}
	ui_list_marks(&sl, r.y + y_sel, r.x + r.w - 1, h_sel);
}

static void
add_highlighted(ui_ctx *u)
{
	gw_wizard *w = u->w;
	const gw_gpu *g;
	gw_err e;

	if (rl.cur < 0 || rl.cur >= (int)nresults)
		return;
	g = results[rl.cur];
	e.msg[0] = '\0';
	if (g->vram_gb < 0) {
		/* the table does not know the size: ask for it, never guess */
		char *label = gw_xasprintf(
			/* TRANSLATORS: asked when the table does not know a GPU's
			 * framebuffer; %s is the model.  Wrapped. */
			_("The table does not know the framebuffer size of %s. Enter it in GB, from the vendor's datasheet:"),
			g->name);
		char *val = NULL;
		unsigned long long gb;
		/* TRANSLATORS: title of the VRAM question; at most 30 cells. */
		int r = ui_input(u, _("Framebuffer size"), label, &val, 1);

		free(label);
		if (r == 1) {
			if (gw_parse_uint(val, 4096, &gb) != 0 || gb == 0)
				/* TRANSLATORS: %s is what was typed. */
				ui_msg(u, UI_MSG_ERROR, _("'%s' is not a size in GB (expected 1..4096)"),
				       val);
			else if (gw_wizard_add_vram(w, (int)gb, 1, &e) != 0)
				ui_msg(u, UI_MSG_ERROR, "%s", e.msg);
			else
				/* TRANSLATORS: %d is the size in GB. */
				ui_msg(u, UI_MSG_OK, _("Added a GPU of %d GB."), (int)gb);
		}
		free(val);
		return;
	}
	if (gw_wizard_add_gpu(w, g, NULL, 1, &e) != 0) {
		ui_msg(u, UI_MSG_ERROR, "%s", e.msg);
		return;
	}
	/* TRANSLATORS: after Space on a GPU of the table; %s is its id. */
	ui_msg(u, UI_MSG_OK, _("Added %s (passthrough). Tab to the selection to change the count or pick a vGPU profile."),
	       g->id);
}

static void
add_detected(ui_ctx *u)
{
	gw_wizard *w = u->w;
	gw_err e;

	if (dl.cur < 0 || dl.cur >= (int)w->ndetected)
		return;
	e.msg[0] = '\0';
	if (gw_wizard_add_detected(w, (size_t)dl.cur, &e) != 0) {
		ui_msg(u, UI_MSG_ERROR, "%s", e.msg);
		return;
	}
	if (w->detected[dl.cur].nforeign > 0) {
		const gw_linux_gpu *d = &w->detected[dl.cur];
		gw_buf b;
		size_t i;

		gw_buf_init(&b);
		for (i = 0; i < d->nforeign; i++)
			gw_buf_printf(&b, "%s%s", i ? ", " : "", d->foreign[i]);
		/* TRANSLATORS: after Space on a detected GPU whose IOMMU group
		 * holds other devices; %s: its address, its group, the other
		 * devices' addresses. */
		ui_msg(u, UI_MSG_INFO, _("Added the GPU at %s; its IOMMU group %s also holds %s, which is not part of the card: pass it through too, or move the card to a slot with its own group."),
		       d->bdf, d->group ? d->group : "?", b.data ? b.data : "");
		gw_buf_free(&b);
		return;
	}
	if (gw_wizard_host_mode(w)) {
		if (gw_wizard_detected_passthru(w, (size_t)dl.cur) != 1) {
			/* TRANSLATORS: after Space on an ESXi GPU whose
			 * passthrough is off; %s is its PCI address. */
			ui_msg(u, UI_MSG_INFO, _("Added the GPU at %s; its passthrough is off on the host: go back to the host step and press e on its row."),
			       w->detected[dl.cur].bdf);
			return;
		}
	}
	/* TRANSLATORS: after Space on a detected GPU; %s is its PCI
	 * address. */
	ui_msg(u, UI_MSG_OK, _("Added the GPU at %s (passthrough)."),
	       w->detected[dl.cur].bdf);
}

static int
find_want(const gw_wizard *w, const gw_gpu *g, const char *profile)
{
	size_t i;

	for (i = 0; i < w->af.a.ngpus; i++) {
		const gw_gpu_want *x = &w->af.a.gpus[i];

		if (x->gpu != g)
			continue;
		if ((profile == NULL && x->profile == NULL) ||
		    (profile && x->profile && gw_strieq(profile, x->profile)))
			return (int)i;
	}
	return -1;
}

/* passthrough -> each vGPU profile -> passthrough */
static void
cycle_profile(ui_ctx *u, size_t idx)
{
	gw_wizard *w = u->w;
	gw_gpu_want *x = &w->af.a.gpus[idx];
	const gw_gpu *g = x->gpu;
	char **pv, *old, *next = NULL;
	size_t n, i;
	int count = x->count, at;
	gw_err e;

	if (g == NULL) {
		ui_msg(u, UI_MSG_ERROR, "%s",
		       /* TRANSLATORS: Space on a GPU given by size only. */
		       _("A GPU given by its size only has no vGPU profiles."));
		return;
	}
	pv = gw_wizard_profiles(g);
	for (n = 0; pv && pv[n]; n++)
		;
	if (n == 0) {
		/* TRANSLATORS: %s is the GPU's id. */
		ui_msg(u, UI_MSG_ERROR, _("%s has no vGPU profiles: passthrough only."),
		       g->id);
		gw_strv_free(pv);
		return;
	}
	if (x->profile == NULL) {
		next = pv[0];
	} else {
		for (i = 0; i < n; i++)
			if (gw_strieq(pv[i], x->profile))
				break;
		next = i + 1 < n ? pv[i + 1] : i < n ? NULL : pv[0];
	}
	old = gw_xstrdup(x->profile);
	gw_wizard_remove_gpu(w, idx);
	e.msg[0] = '\0';
	if (gw_wizard_add_gpu(w, g, next, count, &e) != 0) {
		gw_err e2;

		ui_msg(u, UI_MSG_ERROR, "%s", e.msg);
		gw_wizard_add_gpu(w, g, old, count, &e2);
		next = old;
	} else if (next) {
		/* TRANSLATORS: %s is a vGPU profile name. */
		ui_msg(u, UI_MSG_OK, _("vGPU profile %s (Space for the next one)."), next);
	} else {
		ui_msg(u, UI_MSG_OK, "%s",
		       /* TRANSLATORS: Space cycled back to passthrough. */
		       _("Passthrough: the whole GPU (Space for the vGPU profiles)."));
	}
	at = find_want(w, g, next);
	if (at >= 0)
		sl.cur = at;
	free(old);
	gw_strv_free(pv);
}

static void
change_count(ui_ctx *u, size_t idx, int delta)
{
	gw_wizard *w = u->w;
	int c = w->af.a.gpus[idx].count + delta;
	gw_err e;

	if (c < 1) {
		ui_msg(u, UI_MSG_INFO, "%s",
		       /* TRANSLATORS: '-' at a count of one. */
		       _("The count is 1: press Delete to remove the GPU."));
		return;
	}
	e.msg[0] = '\0';
	if (gw_wizard_set_count(w, idx, c, &e) != 0)
		ui_msg(u, UI_MSG_ERROR, "%s", e.msg);
}

static void
next_focus(const gw_wizard *w, int dir)
{
	focus = (focus + F_N + dir) % F_N;
	if (focus == F_DETECTED &&
	    (!detect_mode(w) || w->ndetected == 0))
		focus = (focus + F_N + dir) % F_N;
}

static int
selected_key(ui_ctx *u, ui_key k)
{
	gw_wizard *w = u->w;
	int idx = sl.cur;
	int editable = idx >= 0 && idx < (int)w->af.a.ngpus;

	if (ui_key_fn(k, KEY_UP) && sl.cur == 0) {
		focus = F_RESULTS;
		return UI_HANDLED;
	}
	if (ui_list_key(&sl, k, h_sel > 0 ? h_sel : 1))
		return UI_HANDLED;
	if (ui_key_space(k) || ui_key_is(k, L'p') || ui_key_is(k, L'+') ||
	    ui_key_is(k, L'-') || ui_key_fn(k, KEY_RIGHT) ||
	    ui_key_fn(k, KEY_LEFT) || ui_key_fn(k, KEY_DC) ||
	    ui_key_is(k, L'x')) {
		if (sl.n == 0)
			return UI_HANDLED;
		if (!editable) {
			ui_msg(u, UI_MSG_INFO, "%s",
			       /* TRANSLATORS: a key on a GPU from the .vmx. */
			       _("This GPU is already in the .vmx; gpuwiz counts it but does not change it."));
			return UI_HANDLED;
		}
		if (ui_key_space(k) || ui_key_is(k, L'p'))
			cycle_profile(u, (size_t)idx);
		else if (ui_key_is(k, L'+') || ui_key_fn(k, KEY_RIGHT))
			change_count(u, (size_t)idx, 1);
		else if (ui_key_is(k, L'-') || ui_key_fn(k, KEY_LEFT))
			change_count(u, (size_t)idx, -1);
		else {
			gw_wizard_remove_gpu(w, (size_t)idx);
			sl.n = (int)(w->af.a.ngpus + n_existing(w));
			ui_list_fix(&sl, h_sel);
		}
		return UI_HANDLED;
	}
	return UI_IGNORED;
}

static int
gpu_key(ui_ctx *u, ui_key k)
{
	if (ui_key_tab(k)) {
		next_focus(u->w, 1);
		return UI_HANDLED;
	}
	if (ui_key_btab(k)) {
		next_focus(u->w, -1);
		return UI_HANDLED;
	}
	switch (focus) {
	case F_DETECTED:
		if (ui_key_fn(k, KEY_DOWN) && dl.cur >= dl.n - 1) {
			focus = F_SEARCH;
			return UI_HANDLED;
		}
		if (ui_list_key(&dl, k, h_det > 0 ? h_det : 1))
			return UI_HANDLED;
		if (ui_key_space(k) || ui_key_is(k, L'+')) {
			add_detected(u);
			return UI_HANDLED;
		}
		return UI_IGNORED;
	case F_SEARCH: {
		int r;

		if (ui_key_fn(k, KEY_UP) && detect_mode(u->w) &&
		    u->w->ndetected > 0) {
			focus = F_DETECTED;
			return UI_HANDLED;
		}
		if (ui_key_fn(k, KEY_DOWN) || ui_key_fn(k, KEY_NPAGE)) {
			focus = F_RESULTS;
			return UI_HANDLED;
		}
		r = ui_field_key(&search, k);
		if (r == UI_FIELD_CHANGED) {
			refresh_results(u);
			rl.cur = 0;
			rl.top = 0;
		}
		return r ? UI_HANDLED : UI_IGNORED;
	}
	case F_VENDOR:
	case F_CLASS:
		if (ui_key_space(k) || ui_key_fn(k, KEY_RIGHT) ||
		    ui_key_fn(k, KEY_LEFT)) {
			int d = ui_key_fn(k, KEY_LEFT) ? -1 : 1;

			if (focus == F_VENDOR)
				vendor_idx = (vendor_idx + nvendors + d) % nvendors;
			else
				cls = (gw_gpu_class)((cls + GW_NCLASSES + d) % GW_NCLASSES);
			refresh_results(u);
			rl.cur = 0;
			rl.top = 0;
			return UI_HANDLED;
		}
		if (ui_key_fn(k, KEY_DOWN)) {
			focus = F_RESULTS;
			return UI_HANDLED;
		}
		return UI_IGNORED;
	case F_RESULTS:
		if (ui_key_fn(k, KEY_UP) && rl.cur <= 0) {
			focus = F_SEARCH;
			return UI_HANDLED;
		}
		if (ui_key_fn(k, KEY_DOWN) && rl.cur >= rl.n - 1) {
			focus = F_SELECTED;
			return UI_HANDLED;
		}
		if (ui_list_key(&rl, k, h_results))
			return UI_HANDLED;
		if (ui_key_space(k) || ui_key_is(k, L'+')) {
			add_highlighted(u);
			return UI_HANDLED;
		}
		if (ui_key_is(k, L'/')) {
			focus = F_SEARCH;
			return UI_HANDLED;
		}
		/* typing a letter or digit starts a search (q still quits) */
		if (k.fn == 0 && k.ch != L'q' && k.ch != L'Q' &&
		    ((k.ch >= L'a' && k.ch <= L'z') || (k.ch >= L'A' && k.ch <= L'Z') ||
		     (k.ch >= L'0' && k.ch <= L'9'))) {
			focus = F_SEARCH;
			ui_field_key(&search, k);
			refresh_results(u);
			rl.cur = 0;
			rl.top = 0;
			return UI_HANDLED;
		}
		return UI_IGNORED;
	case F_SELECTED:
		return selected_key(u, k);
	}
	return UI_IGNORED;
}

static int
gpu_mouse(ui_ctx *u, ui_rect r, int y, int x)
{
	if (off > 0 && y < off) {
		int i = dl.top + (y - 1);

		if (y >= 1 && i < dl.n) {
			if (focus == F_DETECTED && dl.cur == i)
				add_detected(u);   /* a second click adds */
			dl.cur = i;
			focus = F_DETECTED;
		}
		return UI_HANDLED;
	}
	y -= off;
	if (y == 0) {
		if (x >= x_class)
			focus = F_CLASS;
		else if (x >= x_vendor)
			focus = F_VENDOR;
		else
			focus = F_SEARCH;
		return UI_HANDLED;
	}
	if (y >= y_results && y < y_results + h_results) {
		int i = rl.top + (y - y_results);

		if (i < rl.n) {
			if (focus == F_RESULTS && rl.cur == i)
				add_highlighted(u);   /* a second click adds */
			rl.cur = i;
		}
		focus = F_RESULTS;
		return UI_HANDLED;
	}
	if (y >= y_sel && y < y_sel + h_sel) {
		int i = sl.top + (y - y_sel);

		if (i < sl.n)
			sl.cur = i;
		focus = F_SELECTED;
	}
	return UI_HANDLED;
}

static const char *
gpu_help(void)
{
	/* TRANSLATORS: help of step 3, wrapped to about 70 cells. */
	return _("Pick the GPUs this VM gets. The list is gpuwiz's table of GPUs: type in the "
	         "search field to narrow it (id, model name or PCI id such as 10de:26b9), and use "
	         "the Vendor and Class filters (Space or Left/Right changes them).\n"
	         "In the table, Space adds the highlighted GPU in passthrough (the whole GPU), one "
	         "at a time; a letter or digit starts a new search, / goes to the search field. "
	         "A GPU whose memory size the table does not know asks for it: sizes are never "
	         "guessed.\n"
	         "In the selection below the table: + and - (or Right and Left) change the count, "
	         "Space switches between passthrough and the vGPU profiles of that GPU, Delete "
	         "or x removes it. GPUs already in the .vmx you open later are listed too; they "
	         "count for the memory window but are not changed.\n"
	         "Configuring this Linux host, the GPUs found on it are listed first (address, "
	         "name, VRAM, driver, IOMMU group): Space adds the highlighted one in passthrough "
	         "and keeps its PCI address; a GPU the table does not know is sized from its "
	         "64-bit BARs.\n"
	         "Enter goes on once at least one GPU is selected.");
}

static size_t
gpu_keys(ui_ctx *u, ui_keyhelp *out, size_t max)
{
	size_t n = 0;
	ui_key tab = { 0, L'\t' }, sp = { 0, L' ' }, plus = { 0, L'+' };
	ui_key del = { KEY_DC, 0 };

	if (focus != F_SELECTED)
		/* TRANSLATORS: key help label (Tab: next field); at most 8
		 * cells. */
		ui_keys_add(out, &n, max, "Tab", _("Field"), tab);
	switch (focus) {
	case F_DETECTED:
		ui_keys_add(out, &n, max, "Space", _("Add"), sp);
		break;
	case F_SEARCH:
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
	return ui_keys_common(out, n, max, focus == F_SEARCH);
}

static void
gpu_fini(void)
{
	ui_field_free(&search);
	free(results);
	results = NULL;
	nresults = 0;
}

const ui_screen ui_step_gpu = {
	GW_STEP_GPU, gpu_enter, gpu_draw, gpu_key, gpu_mouse, NULL, gpu_help,
	gpu_keys, gpu_fini
};
