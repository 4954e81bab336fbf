/* SPDX-License-Identifier: GPL-3.0-or-later */
/* draw.h: text in terminal cells, colours with a monochrome fallback.
 *
 * Every width here is in terminal cells (wcwidth), never bytes: a CJK
 * character takes two cells and is never cut in half; text that does not
 * fit is clipped at a character boundary (padded with a space where a wide
 * character would have crossed the edge).  Bytes that do not decode and
 * control characters are shown as '?'.
 */
#ifndef GW_UI_DRAW_H
#define GW_UI_DRAW_H

#include "screen.h"

enum {
	UI_C_NORMAL,
	UI_C_TITLE,       /* "Step N/8: ..." */
	UI_C_BAR,         /* the step bar / list */
	UI_C_BAR_CUR,     /* the current step in it */
	UI_C_BAR_DONE,    /* a step already visited */
	UI_C_KEY,         /* key names in the help line */
	UI_C_SEL,         /* the highlighted row of a focused list */
	UI_C_SEL_IDLE,    /* the highlighted row of a list without focus */
	UI_C_FIELD,       /* a text field */
	UI_C_FIELD_FOCUS, /* the text field with the focus */
	UI_C_PASS,
	UI_C_WARN,
	UI_C_FAIL,
	UI_C_INFO,
	UI_C_ADD,         /* "+ key = value" */
	UI_C_DEL,         /* "- key = old" */
	UI_C_DIM,         /* secondary text, unavailable choices */
	UI_C_MSG_ERR,
	UI_C_MSG_OK,
	UI_C_HEAD,        /* section headings in the content */
	UI_C_BOX,         /* dialog frames */
	UI_NCOLORS
};

/* Set up the colour pairs (use_color = 0: attributes only). */
void ui_colors_init(int use_color);
attr_t ui_attr(int c);

/* Glyphs with an ASCII fallback outside UTF-8. */
const char *ui_glyph_done(const ui_ctx *u);    /* "✓" or "*" */

/* The cells s takes as drawn here (a bad byte or control as one '?'). */
int dw_cells(const char *s);
/* Put s at (y, x), at most cells wide: text that does not fit ends with
 * dw_sign() in its last cell(s).  Returns the cells drawn. */
int dw_put(int y, int x, const char *s, int cells, attr_t a);
/* Same, padded with blanks to exactly cells. */
int dw_put_pad(int y, int x, const char *s, int cells, attr_t a);
/* Same, right-aligned in cells. */
int dw_put_right(int y, int x, const char *s, int cells, attr_t a);
int dw_printf(int y, int x, int cells, attr_t a, const char *fmt, ...)
	GW_PRINTF(5, 6);
/* The locale's character set is UTF-8. */
int dw_utf8(void);
/* The sign that text was cut: "…" in a UTF-8 locale, else "...". */
const char *dw_sign(void);
/* The cut audit: with GPUWIZ_UI_AUDIT=FILE in the environment, every text
 * clipped without the sign (no room for it; a text given no row at all)
 * appends one line to FILE naming where (the last dw_audit_where: "step
 * 3", "help") and the text.  The screen tests assert FILE stays empty. */
void dw_audit_where(const char *where);
/* Note len bytes of s, clipped to cells without the sign; how says how
 * ("cut", "no row for").  Nothing without GPUWIZ_UI_AUDIT. */
void dw_audit_cut(const char *s, size_t len, int cells, const char *how);
/* Blanks over cells. */
void dw_fill(int y, int x, int cells, attr_t a);
/* Word-wrap s to width cells: breaks at blanks, between CJK characters
 * (not before CJK closing punctuation), and inside a word longer than
 * the width (after its last '/' that fits: a path); '\n' forces a break.  Returns the number of lines in *lines
 * (malloc'ed strings, free with gw_strs_free). */
size_t dw_wrap(const char *s, int width, char ***lines);
/* The same with a first line of first cells and the others of rest. */
size_t dw_wrap_hang(const char *s, int first, int rest, char ***lines);
/* Wrap and draw s from (y, x) in w cells, at most maxrows rows (the last
 * row shown ends in dw_sign() when text was left out).  Returns the rows used. */
int dw_wrap_put(int y, int x, int w, int maxrows, const char *s, attr_t a);
/* Rows dw_wrap_put would use without a limit. */
int dw_wrap_rows(const char *s, int w);
/* ---- frames and lines (draw_box.c) ---- */

/* A frame with its inside cleared.  A wide character that an edge would
 * cover only half of is blanked whole first. */
void dw_box(int y, int x, int h, int w, attr_t a);
/* A line of n line-drawing characters from (y, x), across or down
 * (vertical): c names the character by its VT100 letter ('q' -, 'x' |,
 * 'l' 'k' 'm' 'j' the corners).  Unicode box characters in a UTF-8
 * locale, else curses' ACS (ASCII where the terminal has none). */
void dw_line(int y, int x, int c, int n, int vertical, attr_t a);
/* When column x of row y holds the second cell of a wide character, blank
 * that character (both cells), so that something drawn from x on does not
 * leave half of it on the screen. */
void dw_unsplit(int y, int x);

/* Teach curses the function and cursor key sequences of the common
 * terminals that the terminfo entry does not bind (F1 from tmux under
 * TERM=linux...).  Once, after initscr (common.c; the frame calls it
 * before its first draw). */
void ui_keys_extra(void);

/* The widest a step's content gets: on a wide terminal (200x50) a
 * table's status stays beside its name instead of 150 cells to its
 * right, and text wraps at a readable length; the extra rows still go to
 * the lists.  r narrowed to it (left-aligned, beside the step list). */
#define UI_CONTENT_MAX_W 100
ui_rect ui_rect_cap(ui_rect r);

/* A cursor over a scrolling list of n rows shown h at a time. */
typedef struct ui_list {
	int n, cur, top;
} ui_list;
/* Keep cur in range and visible in h rows. */
void ui_list_fix(ui_list *l, int h);
/* Up/Down/PgUp/PgDn/Home/End; 1 when the key moved the cursor. */
int ui_list_key(ui_list *l, ui_key k, int h);
/* Draw "more" marks on the right edge when rows are hidden. */
void ui_list_marks(const ui_list *l, int y, int x, int h);

#endif
