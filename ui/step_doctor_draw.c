/* SPDX-License-Identifier: GPL-3.0-or-later */
/* step_doctor_draw.c: the doctor's findings page (step_doctor.h): the
 * heading, each finding's cause with its severity, its fix in the
 * wizard's words (gw_wizard_finding_fix), source and log line, the VM
 * found beside the log, scrolled with marks; the next action below. */
#include "draw.h"
#include "screen.h"
#include "step_doctor.h"

#include <stdlib.h>
#include <string.h>

/* The rows of the findings page: text, attribute, indent. */
typedef struct dc_row {
	char *s;
	attr_t a;
	int indent;
	const char *label;      /* drawn in front (a severity), or NULL */
	attr_t la;
} dc_row;

typedef struct dc_rows {
	dc_row *v;
	size_t n, cap;
} dc_rows;

/* ---- the findings ------------------------------------------------------- */

static void
rows_add(dc_rows *o, char *s, attr_t a, int indent)
{
	if (o->n == o->cap) {
		o->cap = o->cap ? o->cap * 2 : 32;
		o->v = gw_xrealloc(o->v, o->cap * sizeof *o->v);
	}
	o->v[o->n].s = s;
	o->v[o->n].a = a;
	o->v[o->n].indent = indent;
	o->v[o->n].label = NULL;
	o->v[o->n].la = A_NORMAL;
	o->n++;
}

/* s wrapped in w cells from column indent. */
static void
rows_wrap(dc_rows *o, const char *s, int w, int indent, attr_t a)
{
	char **l;
	size_t n = dw_wrap(s, w - indent, &l), i;

	for (i = 0; i < n; i++)
		rows_add(o, gw_xstrdup(l[i]), a, indent);
	gw_strs_free(l, n);
}

#define LABEL_W 6

static void
finding_rows(dc_rows *o, const gw_diag_finding *f, int w)
{
	const char *fix = gw_wizard_finding_fix(&f->f);
	size_t first = o->n;
	char *s;

	rows_wrap(o, f->f.message, w, LABEL_W, A_NORMAL);
	if (o->n > first) {
		o->v[first].label = gw_sev_label(f->f.sev);
		o->v[first].la = ui_attr(ui_sev_color(f->f.sev)) | A_BOLD;
	}
	if (fix != NULL) {
		/* TRANSLATORS: before a finding's fix in the doctor. */
		s = gw_xasprintf(_("Fix: %s"), fix);
		rows_wrap(o, s, w, LABEL_W, A_NORMAL);
		free(s);
	}
	if (f->f.source != NULL) {
		/* TRANSLATORS: before a finding's source (KB numbers...). */
		s = gw_xasprintf(_("Source: %s"), f->f.source);
		rows_wrap(o, s, w, LABEL_W, ui_attr(UI_C_DIM));
		free(s);
	}
	if (f->line != NULL) {
		/* TRANSLATORS: %lu: the line number in the text; %s: the
		 * line as it was there. */
		s = gw_xasprintf(_("Line %lu: %s"), f->lineno, f->line);
		rows_wrap(o, s, w, LABEL_W, ui_attr(UI_C_DIM));
		free(s);
	}
	rows_add(o, gw_xstrdup(""), A_NORMAL, 0);
}

static void
head_rows(dc_rows *o, const gw_wizard_doctor *d, int w)
{
	const char *src = gw_wizard_doctor_source(d);
	char *s;

	if (gw_wizard_doctor_count(d) == 0) {
		/* TRANSLATORS: the doctor's heading when no rule matched. */
		rows_add(o, gw_xstrdup(_("Nothing recognised")),
		         ui_attr(UI_C_WARN) | A_BOLD, 0);
		rows_wrap(o, _("None of the failures gpuwiz knows is in this text: the MMIO window, the memory reservation, a device that cannot be registered or is not a passthrough device, a hexadecimal or stale device id, the vGPU graphics type, NCCL on vGPU, the free ESXi API, the guest's BARs, DevicePowerOn."),
		          w, 0, A_NORMAL);
	} else {
		/* TRANSLATORS: the doctor's heading over its findings. */
		rows_add(o, gw_xstrdup(_("What the doctor found")),
		         ui_attr(UI_C_HEAD), 0);
	}
	if (src != NULL) {
		/* TRANSLATORS: %s: the file the doctor read. */
		s = gw_xasprintf(_("Read from %s"), src);
		rows_wrap(o, s, w, 0, ui_attr(UI_C_DIM));
		free(s);
	}
}

static void
vm_rows(dc_rows *o, const gw_wizard_doctor *d, int w)
{
	char *s = NULL;

	if (gw_wizard_doctor_vmx(d) != NULL)
		/* TRANSLATORS: %s: the .vmx found beside the vmware.log. */
		s = gw_xasprintf(_("The VM: %s, beside the log."),
		                 gw_wizard_doctor_vmx(d));
	else if (gw_wizard_doctor_nvmx(d) > 1)
		/* TRANSLATORS: %zu: how many .vmx files lie beside the log. */
		s = gw_xasprintf(P_("%zu .vmx file beside the log: the VM step asks which one.",
		                    "%zu .vmx files beside the log: the VM step asks which one.",
		                    gw_wizard_doctor_nvmx(d)),
		                 gw_wizard_doctor_nvmx(d));
	if (s != NULL)
		rows_wrap(o, s, w, 0, A_NORMAL);
	free(s);
	rows_add(o, gw_xstrdup(""), A_NORMAL, 0);
}

static void
rows_free(dc_rows *o)
{
	size_t i;

	for (i = 0; i < o->n; i++)
		free(o->v[i].s);
	free(o->v);
}

void
ui_doctor_findings_draw(ui_ctx *u, const gw_wizard_doctor *d, ui_rect r,
                        ui_doctor_scroll *sc)
{
	const char *next = gw_wizard_doctor_next(d, u->w);
	int nh = dw_wrap_rows(next, r.w - 1), h, i, tw = r.w - 2;
	dc_rows o = { NULL, 0, 0 };
	ui_list l;
	size_t k;

	/* what was read and the VM first: the findings scroll below */
	head_rows(&o, d, tw);
	vm_rows(&o, d, tw);
	for (k = 0; k < gw_wizard_doctor_count(d); k++)
		finding_rows(&o, gw_wizard_doctor_finding(d, k), tw);
	if (nh > 3)
		nh = 3;
	h = r.h - nh - 1;
	sc->rows = h;
	sc->nrows = (int)o.n;
	if (sc->top > sc->nrows - h)
		sc->top = sc->nrows - h;
	if (sc->top < 0)
		sc->top = 0;
	for (i = 0; i < h && sc->top + i < sc->nrows; i++) {
		const dc_row *row = &o.v[sc->top + i];

		if (row->label != NULL)
			dw_put(r.y + i, r.x, row->label, LABEL_W - 1, row->la);
		dw_put(r.y + i, r.x + row->indent, row->s, tw - row->indent,
		       row->a);
	}
	l.n = sc->nrows;
	l.top = sc->top;
	l.cur = sc->top;
	ui_list_marks(&l, r.y, r.x + r.w - 1, h);
	dw_wrap_put(r.y + r.h - nh, r.x, r.w - 1, nh, next, ui_attr(UI_C_INFO));
	rows_free(&o);
}

