/* SPDX-License-Identifier: GPL-3.0-or-later */
/* step_vm_answers.c: the [vm] answers of step 4 below the path: the
 * host's ESXi version, the memory without a .vmx, the host PCI addresses
 * and the system id.  Each goes to the wizard when the focus leaves it or
 * on Enter. */
#include "step_vm.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The wizard's value of a small field, as text (malloc'ed). */
char *
vm_small_value(const gw_wizard *w, int f)
{
	const gw_answers *a = &gw_wizard_answers(w)->a;
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

/* Hand the text v of small field f to the wizard; 0 when it stands. */
static int
set_small(gw_wizard *w, int f, char *v, gw_err *e)
{
	unsigned long long mb = 0;
	char *tok;
	int rc = 0;

	switch (f) {
	case F_ESXI:
		return gw_wizard_set_esxi(w, v, e);
	case F_MEM:
		if (*v && (gw_parse_uint(v, 64ULL * 1024 * 1024, &mb) != 0)) {
			/* TRANSLATORS: %s is what was typed in the memory
			 * field. */
			gw_err_set(e, _("Memory: '%s' is not a size in MB"), v);
			return -1;
		}
		return gw_wizard_set_memory(w, (long)mb, e);
	case F_BDF:
		gw_wizard_clear_bdfs(w);
		while (rc == 0 && (tok = strsep(&v, ", ")) != NULL)
			if (*tok)
				rc = gw_wizard_add_bdf(w, tok, e);
		return rc;
	case F_SYSID:
		return gw_wizard_set_system_id(w, v, e);
	}
	return 0;
}

/* Hand a small field to the wizard when it changed.  0 when it stands. */
int
vm_apply_one(ui_ctx *u, int f)
{
	gw_wizard *w = u->w;
	vm_st *st = vst(u);
	ui_field *fl = &st->small[f - F_ESXI];
	char *cur = vm_small_value(w, f), *t = ui_field_get(fl), *v;
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
	rc = set_small(w, f, v, &e);
	if (rc != 0) {
		ui_msg(u, UI_MSG_ERROR, "%s", e.msg);
		st->focus = f;
	} else if (f == F_BDF) {
		/* show the addresses as the wizard keeps them */
		char *now = vm_small_value(w, F_BDF);

		ui_field_set(fl, now);
		free(now);
	}
	free(t);
	return rc;
}

int
vm_apply_small(ui_ctx *u)
{
	int f;

	for (f = F_ESXI; f <= F_SYSID; f++)
		if (vm_apply_one(u, f) != 0)
			return -1;
	return 0;
}

/* The [vm] answers: ESXi version and memory on one row, the host PCI
 * addresses and the system id below. */
void
vm_draw_small(ui_ctx *u, ui_rect r)
{
	vm_st *st = vst(u);
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
	st->y_small[0] = st->y_small[1] = 2;
	st->y_small[2] = 3;
	st->y_small[3] = 4;
	dw_put(r.y + 2, r.x + 1, l_esxi, lw - 1, A_NORMAL);
	ui_field_draw(u, &st->small[0], r.y + 2, r.x + 1 + lw, 9,
	              st->focus == F_ESXI);
	mx = 1 + lw + 11;
	x = mx + dw_put(r.y + 2, r.x + mx, l_mem, r.w - mx, A_NORMAL) + 1;
	ui_field_draw(u, &st->small[1], r.y + 2, r.x + x, 9,
	              st->focus == F_MEM);
	/* TRANSLATORS: after the memory field (with a .vmx, without one);
	 * at most 20 cells each. */
	dw_put(r.y + 2, r.x + x + 10, gw_wizard_vmx(u->w) ? _("(empty: the .vmx's)") :
	       /* TRANSLATORS: at most 20 cells. */
	       _("(without a .vmx)"), r.w - x - 10, ui_attr(UI_C_DIM));
	dw_put(r.y + 3, r.x + 1, l_bdf, lw - 1, A_NORMAL);
	ui_field_draw(u, &st->small[2], r.y + 3, r.x + 1 + lw, r.w - 1 - lw,
	              st->focus == F_BDF);
	dw_put(r.y + 4, r.x + 1, l_sys, lw - 1, A_NORMAL);
	ui_field_draw(u, &st->small[3], r.y + 4, r.x + 1 + lw,
	              r.w - 1 - lw < 40 ? r.w - 1 - lw : 40,
	              st->focus == F_SYSID);
}

