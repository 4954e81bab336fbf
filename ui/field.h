/* SPDX-License-Identifier: GPL-3.0-or-later */
/* field.h: a one-line text entry field.  Holds wide characters, so UTF-8
 * input (get_wch) and Backspace never split a character; drawn in cells,
 * scrolled sideways to keep the cursor visible. */
#ifndef GW_UI_FIELD_H
#define GW_UI_FIELD_H

#include "screen.h"

typedef struct ui_field {
	wchar_t *buf;
	size_t len, cap;
	size_t cur;        /* cursor, in characters */
	size_t left;       /* first character shown */
	size_t max;        /* most characters (0 = 4096) */
	int digits_only;   /* accept 0-9 only: other keys fall through */
	int secret;        /* a password: drawn empty (no echo, not even its
	                    * length); the text is wiped when the buffer
	                    * moves and when the field is freed */
} ui_field;

/* Field keys results. */
enum { UI_FIELD_NO = 0, UI_FIELD_MOVED = 1, UI_FIELD_CHANGED = 2 };

void ui_field_set(ui_field *f, const char *utf8);
/* The text as UTF-8 (malloc'ed once, to its size: a secret field's copy
 * leaves no other copy behind; the caller wipes it). */
char *ui_field_get(const ui_field *f);
int ui_field_empty(const ui_field *f);
/* Is the text equal to s (NULL = "")? */
int ui_field_equals(const ui_field *f, const char *s);
/* Edit: printable characters, Backspace, Delete, Left/Right, Home/End,
 * Ctrl-A/E/U/K.  Returns UI_FIELD_*; UI_FIELD_NO for keys it leaves to the
 * screen (Enter, Esc, Tab, Up/Down, function keys...). */
int ui_field_key(ui_field *f, ui_key k);
/* Draw in w cells at (y, x); when focused, puts the terminal cursor in
 * u->cursor_y/x. */
void ui_field_draw(ui_ctx *u, ui_field *f, int y, int x, int w, int focused);
void ui_field_free(ui_field *f);

#endif
