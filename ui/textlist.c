/* SPDX-License-Identifier: GPL-3.0-or-later */
/* textlist.c: a scrolling list of wrapped, coloured lines. */
#include "textlist.h"
#include "draw.h"

#include <stdlib.h>
#include <string.h>

void
ui_tl_clear(ui_textlist *t)
{
	size_t i;

	for (i = 0; i < t->n; i++) {
		free(t->lines[i].text);
		free(t->lines[i].label);
	}
	free(t->lines);
	t->lines = NULL;
	t->n = 0;
}

void
ui_tl_add(ui_textlist *t, const char *text, int color, int indent, int hang,
          int width)
{
	char **l;
	size_t n, i;

	/* one cell less than drawn (ui_tl_draw): a blank between the text
	 * and the scroll marks */
	width--;
	n = dw_wrap_hang(text, width - indent > 8 ? width - indent : 8,
	                 width - indent - hang > 8 ? width - indent - hang : 8,
	                 &l);

	for (i = 0; i < n; i++) {
		t->lines = gw_xrealloc(t->lines, (t->n + 1) * sizeof *t->lines);
		t->lines[t->n].text = l[i];
		t->lines[t->n].color = color;
		t->lines[t->n].indent = indent + (i > 0 ? hang : 0);
		t->lines[t->n].label = NULL;
		t->lines[t->n].lcolor = color;
		t->n++;
	}
	free(l);
}

void
ui_tl_add_label(ui_textlist *t, const char *label, int lcolor,
                const char *text, int color, int indent, int width)
{
	size_t first = t->n;

	ui_tl_add(t, text, color, indent, 0, width);
	if (t->n > first) {
		t->lines[first].label = gw_xstrdup(label);
		t->lines[first].lcolor = lcolor;
	}
}

void
ui_tl_add_where(ui_textlist *t, const char *where, int color, int indent,
                int width)
{
	const char *sep = strstr(where, ":/");
	char *label;
	int lw;

	if (sep == NULL || sep == where) {
		ui_tl_add(t, where, color, indent, 2, width);
		return;
	}
	label = gw_xasprintf("%*s%.*s", indent, "", (int)(sep - where + 1),
	                     where);
	lw = gw_text_cells(label) + 1;
	if (lw > width / 2) {
		ui_tl_add(t, label + indent, color, indent, 0, width);
		ui_tl_add(t, sep + 1, color, indent + 2, 0, width);
	} else {
		ui_tl_add_label(t, label, color, sep + 1, color, lw, width);
	}
	free(label);
}

void
ui_tl_draw(ui_textlist *t, ui_rect r)
{
	int i;

	t->page = r.h;
	if (t->top > (int)t->n - r.h)
		t->top = (int)t->n - r.h;
	if (t->top < 0)
		t->top = 0;
	for (i = 0; i < r.h && t->top + i < (int)t->n; i++) {
		const ui_tline *l = &t->lines[t->top + i];

		if (l->label)
			dw_put(r.y + i, r.x, l->label, l->indent - 1,
			       ui_attr(l->lcolor));
		dw_put(r.y + i, r.x + l->indent, l->text, r.w - 1 - l->indent,
		       ui_attr(l->color));
	}
	if (t->top > 0)
		dw_put(r.y, r.x + r.w - 1, "^", 1, ui_attr(UI_C_DIM));
	if (t->top + r.h < (int)t->n)
		dw_put(r.y + r.h - 1, r.x + r.w - 1, "v", 1, ui_attr(UI_C_DIM));
}

int
ui_tl_key(ui_textlist *t, ui_key k)
{
	int step = t->page > 1 ? t->page - 1 : 1;

	if (ui_key_fn(k, KEY_UP))
		t->top--;
	else if (ui_key_fn(k, KEY_DOWN) || ui_key_space(k))
		t->top++;
	else if (ui_key_fn(k, KEY_PPAGE))
		t->top -= step;
	else if (ui_key_fn(k, KEY_NPAGE))
		t->top += step;
	else if (ui_key_fn(k, KEY_HOME))
		t->top = 0;
	else if (ui_key_fn(k, KEY_END))
		t->top = 1 << 20;
	else
		return 0;
	if (t->top < 0)
		t->top = 0;
	return 1;
}

int
ui_tl_page_key(ui_textlist *t, ui_key k)
{
	/* only when there is something to scroll that way: else the key is
	 * the step's (a list's PgDn) */
	if (t->page <= 0 ||
	    !((ui_key_fn(k, KEY_NPAGE) && ui_tl_more(t)) ||
	      (ui_key_fn(k, KEY_PPAGE) && t->top > 0)))
		return 0;
	return ui_tl_key(t, k);
}

size_t
ui_tl_keys(const ui_textlist *t, ui_keyhelp *out, size_t max)
{
	ui_key pg = { KEY_NPAGE, 0 };
	size_t n = 0;

	if (ui_tl_more(t))
		/* TRANSLATORS: key help label (PgDn: more below); at most 8
		 * cells. */
		ui_keys_add(out, &n, max, "PgDn", _("More"), pg);
	return n;
}

int
ui_tl_more(const ui_textlist *t)
{
	return t->page > 0 && t->top + t->page < (int)t->n;
}
