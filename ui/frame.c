/* SPDX-License-Identifier: GPL-3.0-or-later */
/* frame.c: the frame the main loop draws around the current screen: the
 * step list (a side list from 100 columns, else a bar across the top),
 * the title and purpose, the message line(s) and the key help line, and
 * the "terminal too small" notice.  Where each step and key was drawn is
 * kept in the ui_ctx for the mouse. */
#include "draw.h"
#include "screen.h"

#include <stdio.h>
#include <string.h>

/* ---- layout and frame ---------------------------------------------------- */

#define SIDE_MIN_COLS 100
#define SIDE_W 24

static int
msg_rows(const ui_ctx *u, int w)
{
	int n;

	if (u->msg[0] == '\0')
		return 1;
	n = dw_wrap_rows(u->msg, w);
	return n < 1 ? 1 : n > 3 ? 3 : n;
}

void
ui_layout(ui_ctx *u)
{
	int mr;

	u->too_small = COLS < UI_MIN_COLS || LINES < UI_MIN_ROWS;
	u->bar_side = COLS >= SIDE_MIN_COLS;
	if (u->bar_side) {
		u->content.x = SIDE_W + 2;
		u->content.w = COLS - SIDE_W - 3;
		u->content.y = 3;
	} else {
		u->content.x = 1;
		u->content.w = COLS - 2;
		u->content.y = 4;
	}
	mr = msg_rows(u, COLS - 2);
	u->content.h = LINES - u->content.y - 1 - mr;
	if (u->content.h < 1)
		u->content.h = 1;
}

/* The mark before step i in the bar or list (gw_wizard_step_mark): a
 * tick for a step that passed, "!" for one left with a FAIL or WARN, a
 * blank for the current step and those skipped or ahead. */
static const char *
step_mark(const ui_ctx *u, int i)
{
	switch (gw_wizard_step_mark(u->w, (gw_step)i)) {
	case GW_MARK_PASS:
		return ui_glyph_done(u);
	case GW_MARK_WARN:
		return "!";
	default:
		return " ";
	}
}

static void
draw_side_list(ui_ctx *u)
{
	const gw_wizard *w = u->w;
	int i, y;

	for (y = 0; y < LINES - 1; y++)
		dw_fill(y, 0, SIDE_W, ui_attr(UI_C_BAR));
	dw_put(0, 1, "gpuwiz", SIDE_W - 2, ui_attr(UI_C_BAR) | A_BOLD);
	for (i = 0; i < GW_NSTEPS; i++) {
		int cur = (int)gw_wizard_step(w) == i;
		int done = gw_wizard_visited(w, (gw_step)i);
		attr_t a = ui_attr(cur ? UI_C_BAR_CUR :
		                   done ? UI_C_BAR_DONE : UI_C_BAR);
		char num[8];

		y = 2 + i;
		dw_fill(y, 0, SIDE_W, a);
		dw_put(y, 1, step_mark(u, i), 1, a);
		snprintf(num, sizeof num, "%d", i + 1);
		dw_put(y, 3, num, 1, a);
		dw_put(y, 5, gw_step_title((gw_step)i), SIDE_W - 6, a);
		u->bar_y[i] = y;
		u->bar_x0[i] = 0;
		u->bar_x1[i] = SIDE_W;
	}
	dw_line(0, SIDE_W, 'x', LINES - 1, 1, ui_attr(UI_C_BOX));
}

/* One step of the top bar: "✓2 Host check " (the mark, the number, the
 * title when shown, a blank). */
static void
top_bar_seg(const ui_ctx *u, int i, int with_title, char *seg, size_t size)
{
	snprintf(seg, size, "%s%d%s%s ", step_mark(u, i), i + 1,
	         with_title ? " " : "",
	         with_title ? gw_step_title((gw_step)i) : "");
}

/* One line across the top: "gpuwiz  ✓1 Welcome  ✓2 Host check  3 GPU ...".
 * Titles of the other steps are dropped (numbers only) when they do not
 * all fit.  Each step is drawn as its segment and one blank between
 * segments; whether all the titles fit is measured on those very strings
 * in cells. */
static void
draw_top_bar(ui_ctx *u)
{
	const gw_wizard *w = u->w;
	int i, x, end, full;
	const char *name = "gpuwiz ";
	char seg[128];

	dw_fill(0, 0, COLS, ui_attr(UI_C_BAR));
	x = 1 + dw_put(0, 1, name, COLS - 2, ui_attr(UI_C_BAR) | A_BOLD);
	/* where the last segment would end with every title shown */
	end = x;
	for (i = 0; i < GW_NSTEPS; i++) {
		top_bar_seg(u, i, 1, seg, sizeof seg);
		end += (i > 0 ? 1 : 0) + gw_text_cells(seg);
	}
	full = end <= COLS - 1;
	for (i = 0; i < GW_NSTEPS; i++)
		u->bar_y[i] = -1;   /* not drawn: no click lands there */
	for (i = 0; i < GW_NSTEPS; i++) {
		int cur = (int)gw_wizard_step(w) == i;
		int done = gw_wizard_visited(w, (gw_step)i);
		attr_t a = ui_attr(cur ? UI_C_BAR_CUR :
		                   done ? UI_C_BAR_DONE : UI_C_BAR);
		int n;

		top_bar_seg(u, i, full || cur, seg, sizeof seg);
		if (x >= COLS - 1)
			break;
		n = dw_put(0, x, seg, COLS - 1 - x, a);
		u->bar_y[i] = 0;
		u->bar_x0[i] = x;
		u->bar_x1[i] = x + n;
		x += n + 1;
	}
}

static void
draw_help_line(ui_ctx *u, const ui_screen *s)
{
	ui_keyhelp kh[UI_MAX_KEYHELP];
	size_t n = s->keys ? s->keys(u, kh, UI_MAX_KEYHELP) : 0, i;
	int x = 0, y = LINES - 1;

	u->help_y = y;
	u->help_n = 0;
	dw_fill(y, 0, COLS, A_NORMAL);
	/* the last four are the common keys (Enter, Esc, F1, q): when the
	 * line is too long, the screen's own keys give way first */
	for (;;) {
		int total = 0;

		for (i = 0; i < n; i++)
			total += gw_text_cells(kh[i].key) + 1 +
			         gw_text_cells(kh[i].label) + 2;
		if (total - 2 <= COLS - 1 || n <= 4)
			break;
		memmove(&kh[n - 5], &kh[n - 4], 4 * sizeof kh[0]);
		n--;
	}
	for (i = 0; i < n; i++) {
		int need = gw_text_cells(kh[i].key) + 1 +
		           gw_text_cells(kh[i].label) + 2;
		int x0 = x;

		if (x + need - 2 > COLS - 1)
			break;
		x += dw_put(y, x, kh[i].key, COLS - x, ui_attr(UI_C_KEY));
		x += kh[i].key[0] != '\0';
		x += dw_put(y, x, kh[i].label, COLS - x - 1, A_NORMAL);
		x += 2;
		if (kh[i].key[0] == '\0')
			continue;   /* a note without a key: not clicked */
		u->help_x0[u->help_n] = x0;
		u->help_x1[u->help_n] = x - 2;
		u->help_k[u->help_n] = kh[i].k;
		u->help_n++;
	}
}

static void
draw_too_small(ui_ctx *u)
{
	char buf[256];
	int rows, w = COLS > 4 ? COLS - 2 : COLS;

	erase();
	/* TRANSLATORS: shown alone when the terminal is too small; wrapped to
	 * the terminal's width.  %dx%d are the minimum, then the current
	 * columns x rows. */
	snprintf(buf, sizeof buf, _("Terminal too small: enlarge it to at least %dx%d (now %dx%d)"),
	         UI_MIN_COLS, UI_MIN_ROWS, COLS, LINES);
	rows = dw_wrap_rows(buf, w);
	dw_wrap_put(LINES > rows ? (LINES - rows) / 2 : 0, COLS > 4 ? 1 : 0, w,
	            LINES, buf, ui_attr(UI_C_MSG_ERR));
	u->cursor_y = -1;
}

void
ui_draw_all(ui_ctx *u)
{
	gw_step step = gw_wizard_step(u->w);
	const ui_screen *s = u->screens[step];
	char title[256];
	int tx, ty, tw;

	ui_keys_extra();
	ui_layout(u);
	u->cursor_y = -1;
	snprintf(title, sizeof title, "step %d", (int)step + 1);
	dw_audit_where(title);
	if (u->too_small) {
		draw_too_small(u);
		return;
	}
	erase();
	if (u->bar_side) {
		draw_side_list(u);
		tx = SIDE_W + 2;
		tw = COLS - SIDE_W - 3;
		ty = 0;
	} else {
		draw_top_bar(u);
		tx = 1;
		tw = COLS - 2;
		ty = 1;
	}
	/* TRANSLATORS: the title line of every screen: "Step 3/8: GPU".
	 * Keep "%d/%d" together; the whole line gets the width of the
	 * terminal (78 cells at 80 columns) with the step title at most 18. */
	snprintf(title, sizeof title, _("Step %d/%d: %s"), (int)step + 1,
	         (int)GW_NSTEPS, gw_step_title(step));
	dw_put(ty, tx, title, tw, ui_attr(UI_C_TITLE));
	dw_put(ty + 1, tx, gw_step_purpose(step), tw, A_NORMAL);
	dw_line(ty + 2, tx, 'q', tw, 0, ui_attr(UI_C_BOX));

	s->draw(u, u->content);

	/* message line(s) */
	if (u->msg[0]) {
		int y = u->content.y + u->content.h;
		int c = u->msg_kind == UI_MSG_ERROR ? UI_C_MSG_ERR :
		        u->msg_kind == UI_MSG_OK ? UI_C_MSG_OK : UI_C_NORMAL;

		dw_wrap_put(y, 1, COLS - 2, LINES - 1 - y, u->msg, ui_attr(c));
	}
	draw_help_line(u, s);
}

void
ui_refresh(ui_ctx *u)
{
	if (u->repaint != UI_REPAINT_NONE)
		clearok(curscr, TRUE);
	u->repaint = UI_REPAINT_NONE;
	refresh();
}

void
ui_show(ui_ctx *u)
{
	if (u->cursor_y >= 0 && !u->too_small) {
		move(u->cursor_y, u->cursor_x);
		curs_set(1);
	} else {
		curs_set(0);
	}
	ui_refresh(u);
}

