/* SPDX-License-Identifier: GPL-3.0-or-later */
/* step_host_rows.c: step 2's probed rows (this Linux host's checks, an
 * ESXi host's or the vSphere API's rows): FAIL and WARN first, the ^/v
 * marks and PgDn when they do not all fit, the status right after the
 * longest title (and never far right on a wide terminal), and the
 * highlighted row's message and fix kept whole below them. */
#include "step_host.h"

#include <stdlib.h>

int
host_shown_row(const gw_wizard *w, int k)
{
	const gw_finding *c;
	int n = (int)gw_wizard_checks(w, &c), sev, i;

	for (sev = GW_SEV_ERROR; sev >= GW_SEV_PASS; sev--)
		for (i = 0; i < n; i++)
			if ((int)c[i].sev == sev && k-- == 0)
				return i;
	return 0;
}

int
host_row_shown_at(const gw_wizard *w, int i)
{
	const gw_finding *c;
	int n = (int)gw_wizard_checks(w, &c), k = 0, j;

	if (i < 0 || i >= n)
		return 0;
	for (j = 0; j < n; j++)
		k += c[j].sev > c[i].sev || (c[j].sev == c[i].sev && j < i);
	return k;
}

/* The highlighted row's message and its fix, from row y; returns y
 * after them. */
static int
draw_row_detail(ui_rect r, int y, const gw_finding *c)
{
	char *s;

	y += dw_wrap_put(r.y + y, r.x + 1, r.w - 2, r.h - y, c->message,
	                 ui_attr(c->sev == GW_SEV_PASS ? UI_C_DIM :
	                         UI_C_NORMAL));
	if (gw_wizard_finding_fix(c) && y < r.h) {
		s = gw_xasprintf(_("fix: %s"), gw_wizard_finding_fix(c));
		y += dw_wrap_put(r.y + y, r.x + 1, r.w - 2, r.h - y, s,
		                 ui_attr(UI_C_DIM));
		free(s);
	}
	return y;
}

/* Rows the longest detail (message and fix) takes in w cells: they are
 * kept free under the rows, so that the highlighted row's advice is
 * never cut and the list does not jump as the cursor moves. */
static int
detail_rows(const gw_finding *c, int n, int w)
{
	int i, most = 1;

	for (i = 0; i < n; i++) {
		int k = dw_wrap_rows(c[i].message, w - 2);

		if (gw_wizard_finding_fix(&c[i])) {
			char *s = gw_xasprintf(_("fix: %s"),
			                       gw_wizard_finding_fix(&c[i]));

			k += dw_wrap_rows(s, w - 2);
			free(s);
		}
		if (k > most)
			most = k;
	}
	return most;
}

/* Where the status column starts: right after the longest title (and
 * the mark's column), at most at the right edge. */
static int
status_x(const gw_finding *c, int n, int w)
{
	int i, most = 0, lab_w = 6;

	for (i = 0; i < n; i++)
		if (gw_text_cells(c[i].title ? c[i].title : "") > most)
			most = gw_text_cells(c[i].title ? c[i].title : "");
	return 1 + most + 4 < w - lab_w + 1 ? 1 + most + 4 : w - lab_w + 1;
}

/* The rows in the order shown, h of them from line y: title, the ^/v
 * marks with a blank on each side, the status. */
static void
draw_rows(ui_ctx *u, ui_rect r, int y, int h)
{
	const gw_wizard *w = u->w;
	host_st *st = hst(u);
	const gw_finding *checks;
	int n = (int)gw_wizard_checks(w, &checks), i;
	int sx = status_x(checks, n, r.w);

	for (i = 0; i < h && st->view.top + i < n; i++) {
		int row = host_shown_row(w, st->view.top + i);
		const gw_finding *c = &checks[row];
		int foc = row == st->list.cur;
		attr_t a = foc ? ui_attr(UI_C_SEL) : A_NORMAL;
		int lc = c->sev == GW_SEV_PASS ? UI_C_PASS :
		         c->sev == GW_SEV_WARN ? UI_C_WARN :
		         c->sev == GW_SEV_INFO ? UI_C_INFO : UI_C_FAIL;

		if (foc)
			dw_fill(r.y + y + i, r.x, sx - 1, a);
		dw_put(r.y + y + i, r.x + 1, c->title, sx - 4, a);
		/* PASS/WARN/FAIL translated, like gpuwiz check's rows and
		 * the BIOS list (doc/design.md, section 11) */
		dw_put(r.y + y + i, r.x + sx, gw_sev_label(c->sev), 5,
		       ui_attr(lc));
	}
	ui_list_marks(&st->view, r.y + y, r.x + sx - 2, h);
}

void
host_rows_draw(ui_ctx *u, ui_rect r)
{
	const gw_wizard *w = u->w;
	host_st *st = hst(u);
	const gw_finding *checks;
	int n = (int)gw_wizard_checks(w, &checks), y = 0, h, over;
	char *s;

	r = ui_rect_cap(r);   /* the status beside the title at 200x50 */
	/* the heading names the root checked: a long path wraps at its
	 * '/' onto a second row */
	s = gw_wizard_checks_title(w);
	y = dw_wrap_put(r.y, r.x, r.w, 2, s, ui_attr(UI_C_HEAD));
	free(s);
	if (y < 1)
		y = 1;
	if (gw_wizard_error(w, GW_ERR_CHECKS)) {
		dw_wrap_put(r.y + y, r.x, r.w, r.h - y,
		            gw_wizard_error(w, GW_ERR_CHECKS),
		            ui_attr(UI_C_FAIL));
		return;
	}
	/* the rows, then a blank and the highlighted one's message and fix
	 * (and the override's line) */
	over = gw_wizard_is(w, GW_WIZ_HOST_OVERRIDE) &&
	       gw_wizard_host_fail(w) != NULL;
	h = r.h - y - 1 - detail_rows(checks, n, r.w) - over;
	if (h < 3)
		h = 3;
	if (h > n)
		h = n;
	st->list.n = n;
	st->view.n = n;
	st->view.cur = host_row_shown_at(w, st->list.cur);
	ui_list_fix(&st->view, h);
	st->lrow_y0 = y;
	st->rows_h = h;
	draw_rows(u, r, y, h);
	y += h + 1;
	if (st->list.cur >= 0 && st->list.cur < n)
		y = draw_row_detail(r, y, &checks[st->list.cur]);
	if (over && y < r.h)
		dw_put(r.y + r.h - 1, r.x + 1,
		       /* TRANSLATORS: after o confirmed going on past FAIL
		        * rows; at most 76 cells. */
		       _("Going on despite the FAIL rows (o again takes it back)."),
		       r.w - 2, ui_attr(UI_C_WARN));
}
