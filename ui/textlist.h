/* SPDX-License-Identifier: GPL-3.0-or-later */
/* textlist.h: a scrolling list of wrapped, coloured lines, shared by the
 * screens that show long read-only text (review, write). */
#ifndef GW_UI_TEXTLIST_H
#define GW_UI_TEXTLIST_H

#include "screen.h"

typedef struct ui_tline {
	char *text;
	int color;
	int indent;
	char *label;        /* drawn at column 0 in lcolor (a copy); NULL:
	                     * none */
	int lcolor;
} ui_tline;

typedef struct ui_textlist {
	ui_tline *lines;
	size_t n;
	int top;    /* first line shown */
	int page;   /* rows shown at the last draw */
} ui_textlist;

void ui_tl_clear(ui_textlist *t);
/* Add text wrapped to width - indent cells; continuation rows are indented
 * by hang more (hanging indent, measured in cells by the caller). */
void ui_tl_add(ui_textlist *t, const char *text, int color, int indent,
               int hang, int width);
/* The same with a label (FAIL, WARN...; copied) in lcolor at column 0 of
 * the first row, the text indented after it (every row of it: the text
 * wraps in its own column, never under the label). */
void ui_tl_add_label(ui_textlist *t, const char *label, int lcolor,
                     const char *text, int color, int indent, int width);
/* A .vmx as gw_wizard_vmx_where names it, on its own rows from column
 * indent: "HOST:/PATH" (a VM on a host) as the label "HOST:" and the path
 * wrapped in the column after it (below it when the label takes more than
 * half the width); a local path wrapped from indent. */
void ui_tl_add_where(ui_textlist *t, const char *where, int color,
                     int indent, int width);
/* Draw into r (keeping the last column for the ^/v scroll marks), after
 * clamping top to the content. */
void ui_tl_draw(ui_textlist *t, ui_rect r);
/* Up/Down/Space, PgUp/PgDn (a page less one row), Home/End.  Returns 1
 * when the key scrolled the list, 0 when it is not a scrolling key. */
int ui_tl_key(ui_textlist *t, ui_key k);
/* PgUp/PgDn only, and only when the list has lines out of sight that
 * way (the steps whose other keys move a cursor): 1 when it scrolled. */
int ui_tl_page_key(ui_textlist *t, ui_key k);
/* Lines hidden below the last draw (the "v" mark is shown). */
int ui_tl_more(const ui_textlist *t);
/* "PgDn More" for the key help line when lines are hidden below (0 or
 * 1 added to out). */
size_t ui_tl_keys(const ui_textlist *t, ui_keyhelp *out, size_t max);

/* The plan's findings of those topics as a scrolling list (common.c):
 * FAIL first, then WARN, INFO, PASS (in the plan's order within one
 * severity), each "FAIL  message" with its fix (the wizard's words,
 * gw_wizard_finding_fix) below, wrapped to r.w.  t keeps its scroll
 * position across calls; the ^/v marks show rows above and below and
 * PgUp/PgDn (ui_tl_page_key) scroll.  Returns the rows drawn (0: none
 * of those topics). */
int ui_findings_list(ui_ctx *u, ui_textlist *t, ui_rect r, unsigned topics);

#endif
