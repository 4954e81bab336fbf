/* textlist.h: a scrolling list of wrapped, coloured lines, shared by the
 * screens that show long read-only text (review, write). */
#ifndef GW_UI_TEXTLIST_H
#define GW_UI_TEXTLIST_H

#include "screen.h"

typedef struct ui_tline {
	char *text;
	int color;
	int indent;
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
/* Draw into r (keeping the last column for the ^/v scroll marks), after
 * clamping top to the content. */
void ui_tl_draw(ui_textlist *t, ui_rect r);
/* Up/Down/Space, PgUp/PgDn (a page less one row), Home/End.  Returns 1
 * when the key scrolled the list, 0 when it is not a scrolling key. */
int ui_tl_key(ui_textlist *t, ui_key k);

#endif
