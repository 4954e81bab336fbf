/* SPDX-License-Identifier: GPL-3.0-or-later */
/* dialog.c: modal boxes over the current screen: yes/no, one line of
 * text, the help overlay, progress of long work.  Each runs its own small
 * loop on ui_getkey, so resizes redraw and signals end it at once. */
#include "draw.h"
#include "field.h"
#include "screen.h"
#include "dialog.h"

#include <stdlib.h>
#include <string.h>

/* A box was taken off the screen: curses may have lost track of the
 * cells it covered (wide characters cut by its edges), so the next
 * refresh repaints the whole terminal. */
static void
box_closed(ui_ctx *u)
{
	u->repaint = UI_REPAINT_FULL;
}

static int
box_width(void)
{
	int w = COLS - 6;

	return w > 72 ? 72 : w < 20 ? 20 : w;
}

/* Centre a box of h rows; returns its top row and left column. */
static void
box_place(int h, int w, int *y, int *x)
{
	*y = (LINES - h) / 2;
	*x = (COLS - w) / 2;
	if (*y < 0)
		*y = 0;
	if (*x < 0)
		*x = 0;
}

/* A box at (y, x), h rows by w: the rows it spans and one row above and
 * below (not the step bar's nor the key line's) are cleared across the
 * whole terminal first, so that nothing of the screen below shows beside
 * it, then the frame is drawn. */
static void
box_frame(int y, int x, int h, int w)
{
	int r;

	for (r = y - 1; r <= y + h; r++)
		if (r >= 1 && r < LINES - 1)
			dw_fill(r, 0, COLS, A_NORMAL);
	dw_box(y, x, h, w, ui_attr(UI_C_BOX));
}

static void
box_title(int y, int x, int w, const char *title)
{
	if (title && *title) {
		dw_put(y, x + 2, " ", 1, ui_attr(UI_C_BOX));
		dw_put(y, x + 3, title, w - 6, ui_attr(UI_C_TITLE));
		dw_put(y, x + 3 + (gw_text_cells(title) < w - 6 ?
		                   gw_text_cells(title) : w - 6), " ", 1,
		       ui_attr(UI_C_BOX));
	}
}

/* "key label  key label" at (y, x). */
static void
box_keys(int y, int x, int w, const char *const *pairs)
{
	int i, used = 0;

	for (i = 0; pairs[i] && pairs[i + 1]; i += 2) {
		int need = gw_text_cells(pairs[i]) + 1 + gw_text_cells(pairs[i + 1]);

		if (used + need > w)
			break;
		used += dw_put(y, x + used, pairs[i], w - used, ui_attr(UI_C_KEY));
		used += 1;
		used += dw_put(y, x + used, pairs[i + 1], w - used, A_NORMAL);
		used += 2;
	}
}

/* Show what was drawn and wait, without repainting, until a key (1) or a
 * resize (0); -1 when a signal asks to end. */
static int
box_wait(ui_ctx *u, ui_key *k)
{
	int r;

	ui_refresh(u);
	while ((r = ui_getkey(u, k)) == 0 && !u->redraw)
		;
	u->redraw = 0;
	return r;
}

/* The yes/no box: the question, then the keys; with buttons (focus not
 * NULL) "[ Yes ]  [ No ]" with *focus (1 yes, 0 no) highlighted. */
static void
confirm_draw(ui_ctx *u, const char *question, const int *focus)
{
	int bw = box_width(), bh, y, x, i, tw = 0;
	char **lines;
	size_t n = dw_wrap(question, bw - 4, &lines);
	const char *keys[5];
	char *yes, *no;

	(void)u;
	/* as wide as the text needs, at least 30 cells */
	for (i = 0; i < (int)n; i++)
		if (gw_text_cells(lines[i]) > tw)
			tw = gw_text_cells(lines[i]);
	if (tw + 4 < bw)
		bw = tw + 4 < 30 ? 30 : tw + 4;

	if (n > (size_t)(LINES - 6))
		n = (size_t)(LINES - 6);
	bh = (int)n + 4;
	box_place(bh, bw, &y, &x);
	box_frame(y, x, bh, bw);
	for (i = 0; i < (int)n; i++)
		dw_put(y + 1 + i, x + 2, lines[i], bw - 4, A_BOLD);
	gw_strs_free(lines, n);
	keys[0] = "y";
	/* TRANSLATORS: the answers of a yes/no question (keys
	 * y and n); at most 10 cells each. */
	keys[1] = _("Yes");
	keys[2] = "n";
	/* TRANSLATORS: answer of a yes/no question, at most
	 * 10 cells. */
	keys[3] = _("No");
	keys[4] = NULL;
	if (focus == NULL) {
		box_keys(y + bh - 2, x + 2, bw - 4, keys);
		return;
	}
	/* Yes first, then No; the one with the focus highlighted */
	yes = gw_xasprintf("[ %s ]", keys[1]);
	no = gw_xasprintf("[ %s ]", keys[3]);
	i = dw_put(y + bh - 2, x + 2, yes, bw - 4,
	           ui_attr(*focus ? UI_C_SEL : UI_C_KEY));
	i += 2 + dw_put(y + bh - 2, x + 4 + i, no, bw - 6 - i,
	                ui_attr(*focus ? UI_C_KEY : UI_C_SEL));
	dw_put(y + bh - 2, x + 4 + i, "(y/n)", bw - 6 - i, A_NORMAL);
	free(yes);
	free(no);
}

/* A key of the button box: 1 yes, 0 no, -2 not an answer yet. */
static int
button_key(ui_key k, int *focus)
{
	if (ui_key_tab(k) || ui_key_btab(k) || ui_key_fn(k, KEY_LEFT) ||
	    ui_key_fn(k, KEY_RIGHT)) {
		*focus = !*focus;
		return -2;
	}
	if (ui_key_enter(k))
		return *focus;
	return -2;
}

static int
confirm_loop(ui_ctx *u, const char *question, int *focus)
{
	for (;;) {
		ui_key k;
		int r;

		ui_draw_all(u);
		if (!u->too_small)
			confirm_draw(u, question, focus);
		curs_set(0);
		r = box_wait(u, &k);
		if (r < 0)
			return -1;
		if (r == 0)
			continue;
		if (ui_key_fn(k, KEY_MOUSE)) {
			MEVENT ev;

			getmouse(&ev);
			continue;
		}
		if (ui_key_is(k, L'y') || ui_key_is(k, L'Y'))
			return 1;
		if (ui_key_is(k, L'n') || ui_key_is(k, L'N') || ui_key_esc(k))
			return 0;
		if (focus && (r = button_key(k, focus)) != -2)
			return r;
	}
}

int
ui_confirm(ui_ctx *u, const char *question)
{
	int r = confirm_loop(u, question, NULL);

	box_closed(u);
	return r;
}

/* The choice box: the question, then the key/label pairs. */
static void
choose_draw(const char *question, const char *const *pairs)
{
	int bw = box_width(), bh, y, x;
	char **lines;
	size_t i, n = dw_wrap(question, bw - 4, &lines);

	if (n > (size_t)(LINES - 6))
		n = (size_t)(LINES - 6);
	bh = (int)n + 4;
	box_place(bh, bw, &y, &x);
	dw_box(y, x, bh, bw, ui_attr(UI_C_BOX));
	for (i = 0; i < n; i++)
		dw_put(y + 1 + (int)i, x + 2, lines[i], bw - 4, A_BOLD);
	gw_strs_free(lines, n);
	box_keys(y + bh - 2, x + 2, bw - 4, pairs);
}

int
ui_choose(ui_ctx *u, const char *question, const char *const *pairs)
{
	int r = -2;

	for (;;) {
		ui_key k;
		size_t i;
		int got;

		ui_draw_all(u);
		if (!u->too_small)
			choose_draw(question, pairs);
		curs_set(0);
		got = box_wait(u, &k);
		if (got < 0) {
			r = -1;
			break;
		}
		if (got == 0)
			continue;
		if (ui_key_fn(k, KEY_MOUSE)) {
			MEVENT ev;

			getmouse(&ev);
			continue;
		}
		if (ui_key_esc(k))
			break;
		for (i = 0; pairs[i] && pairs[i + 1]; i += 2)
			if (ui_key_is(k, (wint_t)pairs[i][0]) ||
			    ui_key_is(k, (wint_t)(pairs[i][0] ^ 0x20)))
				break;
		if (pairs[i] && pairs[i + 1]) {
			r = (int)(i / 2);
			break;
		}
	}
	box_closed(u);
	return r;
}

int
ui_confirm_no(ui_ctx *u, const char *question)
{
	int focus = 0;   /* No */
	int r = confirm_loop(u, question, &focus);

	box_closed(u);
	return r;
}

int
ui_input(ui_ctx *u, const char *title, const char *label, char **value,
         int digits_only)
{
	ui_field f;
	int rc;

	memset(&f, 0, sizeof f);
	f.digits_only = digits_only;
	ui_field_set(&f, *value ? *value : "");
	for (;;) {
		ui_key k;
		int r;

		ui_draw_all(u);
		u->cursor_y = -1;
		if (!u->too_small) {
			int bw = box_width(), bh, y, x, rows;
			const char *keys[5];

			rows = dw_wrap_rows(label, bw - 4);
			if (rows > 6)
				rows = 6;
			bh = rows + 6;
			box_place(bh, bw, &y, &x);
			box_frame(y, x, bh, bw);
			box_title(y, x, bw, title);
			dw_wrap_put(y + 1, x + 2, bw - 4, rows, label, A_NORMAL);
			ui_field_draw(u, &f, y + 1 + rows + 1, x + 2, bw - 4, 1);
			keys[0] = "Enter";
			/* TRANSLATORS: keys of a text input box; at most 10
			 * cells each. */
			keys[1] = _("OK");
			keys[2] = "Esc";
			/* TRANSLATORS: key of a box, at most 10 cells. */
			keys[3] = _("Cancel");
			keys[4] = NULL;
			box_keys(y + bh - 2, x + 2, bw - 4, keys);
		}
		if (u->cursor_y >= 0) {
			move(u->cursor_y, u->cursor_x);
			curs_set(1);
		} else {
			curs_set(0);
		}
		r = box_wait(u, &k);
		if (r < 0) {
			rc = -1;
			break;
		}
		if (r == 0)
			continue;
		if (ui_key_fn(k, KEY_MOUSE)) {
			MEVENT ev;

			getmouse(&ev);
			continue;
		}
		if (ui_key_enter(k)) {
			free(*value);
			*value = ui_field_get(&f);
			rc = 1;
			break;
		}
		if (ui_key_esc(k)) {
			rc = 0;
			break;
		}
		ui_field_key(&f, k);
	}
	ui_field_free(&f);
	curs_set(0);
	box_closed(u);
	return rc;
}

/* The help text: the screen's paragraphs, then the general keys, with
 * a blank line between paragraphs (malloc'ed). */
static char *
help_text(ui_ctx *u, const ui_screen *s)
{
	const char *const parts[2] = {
		s->help ? s->help(u) : gw_wizard_step_help(u->w, s->step),
		ui_help_general()
	};
	gw_buf b;
	const char *p;
	int i;

	gw_buf_init(&b);
	for (i = 0; i < 2; i++) {
		if (i > 0)
			gw_buf_puts(&b, "\n\n");
		for (p = parts[i]; *p; p++)
			gw_buf_puts(&b, *p == '\n' ? "\n\n" : (char[2]){ *p, 0 });
	}
	return gw_buf_steal(&b);
}

/* Draw the help box over the screen from line *top (kept in range);
 * returns the rows of text it shows (0 when the terminal is too small). */
static int
help_draw(ui_ctx *u, const ui_screen *s, const char *text, int *top)
{
	int y, x, i, bh, bw, rows;
	char title[256], **lines = NULL;
	const char *const keys[] = {
		/* TRANSLATORS: keys of the help box; at most 10 cells each. */
		"Esc", _("Close"),
		/* TRANSLATORS: key of the help box, at most 10 cells. */
		"PgDn", _("More"),
		/* TRANSLATORS: key of the help box (scroll up), at most 10
		 * cells. */
		"PgUp", _("Back up"), NULL
	};
	size_t n;

	ui_draw_all(u);
	if (u->too_small)
		return 0;
	dw_audit_where("help");
	bw = COLS - 4 > 76 ? 76 : COLS - 4;
	bh = LINES - 2;
	box_place(bh, bw, &y, &x);
	/* a blank column between the text and the scroll marks */
	n = dw_wrap(text, bw - 5, &lines);
	rows = bh - 4;
	if (*top > (int)n - rows)
		*top = (int)n - rows;
	if (*top < 0)
		*top = 0;
	box_frame(y, x, bh, bw);
	/* TRANSLATORS: the help box's title; %s is the step's title (at most
	 * 18 cells).  At most 40 cells. */
	snprintf(title, sizeof title, _("Help: %s"), gw_step_title(s->step));
	box_title(y, x, bw, title);
	for (i = 0; i < rows && *top + i < (int)n; i++)
		dw_put(y + 1 + i, x + 2, lines[*top + i], bw - 4, A_NORMAL);
	if (*top > 0)
		dw_put(y + 1, x + bw - 2, "^", 1, ui_attr(UI_C_DIM));
	if (*top + rows < (int)n)
		dw_put(y + bh - 4, x + bw - 2, "v", 1, ui_attr(UI_C_DIM));
	box_keys(y + bh - 2, x + 2, bw - 4, keys);
	gw_strs_free(lines, n);
	return rows;
}

/* The mouse wheel over the help box scrolls it. */
static void
help_mouse(int *top)
{
	MEVENT ev;

	if (getmouse(&ev) == OK && (ev.bstate & BUTTON4_PRESSED))
		*top -= 3;
#ifdef BUTTON5_PRESSED
	else if (ev.bstate & BUTTON5_PRESSED)
		*top += 3;
#endif
}

/* A key in the help box: 1 closes it, else it scrolls *top. */
static int
help_key(ui_key k, int *top, int rows)
{
	int page = rows > 1 ? rows - 1 : 1;

	if (ui_key_esc(k) || ui_key_is(k, L'q') || ui_key_is(k, L'Q') ||
	    ui_key_is(k, L'?') || ui_key_fn(k, KEY_F(1)) || ui_key_enter(k))
		return 1;
	if (ui_key_fn(k, KEY_UP))
		(*top)--;
	else if (ui_key_fn(k, KEY_DOWN) || ui_key_space(k))
		(*top)++;
	else if (ui_key_fn(k, KEY_PPAGE))
		*top -= page;
	else if (ui_key_fn(k, KEY_NPAGE))
		*top += page;
	else if (ui_key_fn(k, KEY_HOME))
		*top = 0;
	else if (ui_key_fn(k, KEY_END))
		*top = 1 << 20;
	if (*top < 0)
		*top = 0;
	return 0;
}

void
ui_help(ui_ctx *u, const ui_screen *s)
{
	char *text = help_text(u, s);
	int top = 0;

	for (;;) {
		ui_key k;
		int r, rows = help_draw(u, s, text, &top);

		curs_set(0);
		r = box_wait(u, &k);
		if (r < 0)
			break;
		if (r == 0)
			continue;
		if (ui_key_fn(k, KEY_MOUSE)) {
			help_mouse(&top);
			continue;
		}
		if (help_key(k, &top, rows))
			break;
	}
	free(text);
	box_closed(u);
}

/* The progress box; with cancel, its key Esc and a look at the keyboard:
 * 1 when the operator asked to cancel. */
static int
progress_box(ui_ctx *u, const char *what, int pct, int cancel_key)
{
	ui_key k;
	int r, cancel = 0;

	ui_draw_all(u);
	if (!u->too_small) {
		int bw = box_width(), bh = 6, y, x;
		const char *keys[3];

		box_place(bh, bw, &y, &x);
		box_frame(y, x, bh, bw);
		dw_put(y + 1, x + 2, what, bw - 4, A_BOLD);
		if (pct >= 0) {
			int full = (bw - 4) * (pct > 100 ? 100 : pct) / 100;

			dw_fill(y + 2, x + 2, bw - 4, ui_attr(UI_C_FIELD));
			dw_fill(y + 2, x + 2, full, ui_attr(UI_C_SEL));
		}
		if (cancel_key) {
			keys[0] = "Esc";
			/* TRANSLATORS: key of the progress box, at most 10
			 * cells. */
			keys[1] = _("Cancel");
			keys[2] = NULL;
			box_keys(y + bh - 2, x + 2, bw - 4, keys);
		}
	}
	curs_set(0);
	/* the same box redrawn needs no full repaint; a dialog closed just
	 * before does */
	if (u->repaint == UI_REPAINT_PROGRESS)
		u->repaint = UI_REPAINT_NONE;
	ui_refresh(u);
	/* it stays up until the caller draws again: then repaint all */
	u->repaint = UI_REPAINT_PROGRESS;
	if (!cancel_key)
		return 0;
	/* look at the keyboard without waiting */
	timeout(0);
	while ((r = ui_getkey(u, &k)) != 0) {
		if (r < 0 || ui_key_esc(k) || ui_key_is(k, L'c')) {
			cancel = 1;
			break;
		}
	}
	timeout(200);
	return cancel;
}

void
ui_progress(ui_ctx *u, const char *what, int pct)
{
	progress_box(u, what, pct, 0);
}

int
ui_progress_cancel(ui_ctx *u, const char *what, int pct)
{
	return progress_box(u, what, pct, 1);
}

/* ---- the box pieces, for the boxes of other files (dialog.h) ---------- */

int
ui_box_width(void)
{
	return box_width();
}

void
ui_box_place(int h, int w, int *y, int *x)
{
	box_place(h, w, y, x);
}

void
ui_box_title(int y, int x, int w, const char *title)
{
	box_title(y, x, w, title);
}

void
ui_box_keys(int y, int x, int w, const char *const *pairs)
{
	box_keys(y, x, w, pairs);
}

int
ui_box_wait(ui_ctx *u, ui_key *k)
{
	return box_wait(u, k);
}

void
ui_box_closed(ui_ctx *u)
{
	box_closed(u);
}
