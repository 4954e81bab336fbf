/* SPDX-License-Identifier: GPL-3.0-or-later */
/* draw_box.c: frames and lines in terminal cells (draw.h): box
 * characters in a UTF-8 locale, curses' ACS elsewhere, and wide
 * characters that an edge would split blanked whole first. */
#include "draw.h"

#include <wchar.h>

/* Is column x of row y the second cell of a wide character?  curses has
 * no portable way to ask, so walk the row from its start: every cell read
 * there begins a character, and a wide one covers the next cell too. */
static int
second_half(int y, int x)
{
	int c = 0;

	while (c < x) {
		cchar_t cc;
		wchar_t wch[CCHARW_MAX + 1];
		attr_t at;
		short pair;
		int w = 1;

		if (mvin_wch(y, c, &cc) == ERR)
			return 0;
		wch[0] = L'\0';
		if (getcchar(&cc, wch, &at, &pair, NULL) != ERR &&
		    wch[0] != L'\0' && !(at & A_ALTCHARSET))
			w = wcwidth(wch[0]);
		if (w < 1)
			w = 1;
		if (c + w > x)
			return 1;
		c += w;
	}
	return 0;
}

void
dw_unsplit(int y, int x)
{
	if (y < 0 || y >= LINES || x <= 0 || x >= COLS)
		return;
	if (second_half(y, x)) {
		/* blank the whole character, both its cells, in its colours */
		cchar_t cc, sp;
		wchar_t wch[CCHARW_MAX + 1];
		attr_t at = A_NORMAL;
		short pair = 0;

		if (mvin_wch(y, x - 1, &cc) == ERR ||
		    getcchar(&cc, wch, &at, &pair, NULL) == ERR) {
			at = A_NORMAL;
			pair = 0;
		}
		at &= ~A_ALTCHARSET;
		setcchar(&sp, L" ", at, pair, NULL);
		mvadd_wch(y, x - 1, &sp);
		mvadd_wch(y, x, &sp);
	}
}

void
dw_box(int y, int x, int h, int w, attr_t a)
{
	int i;

	/* A wide character under an edge would be half covered: curses and
	 * the terminal then disagree on that row until a full repaint, and
	 * ncurses blanks the left half of a wide character when a line is
	 * drawn over its right half, which would eat a corner drawn there
	 * first.  So blank the characters that cross the edges whole, then
	 * clear the box's cells before drawing anything in them. */
	for (i = 0; i < h; i++) {
		dw_unsplit(y + i, x);
		dw_unsplit(y + i, x + w);
		dw_fill(y + i, x, w, A_NORMAL);
	}
	dw_line(y, x, 'l', 1, 0, a);
	dw_line(y, x + 1, 'q', w - 2, 0, a);
	dw_line(y, x + w - 1, 'k', 1, 0, a);
	dw_line(y + 1, x, 'x', h - 2, 1, a);
	dw_line(y + 1, x + w - 1, 'x', h - 2, 1, a);
	dw_line(y + h - 1, x, 'm', 1, 0, a);
	dw_line(y + h - 1, x + 1, 'q', w - 2, 0, a);
	dw_line(y + h - 1, x + w - 1, 'j', 1, 0, a);
}

/* The line-drawing character of VT100 name c (the acsc letters: q -, x |,
 * l k m j the corners).  In a UTF-8 locale curses draws them as Unicode
 * box characters (WACS_*), which every UTF-8 terminal shows, also those
 * whose terminfo switches character sets with SO/SI (vt100) that the
 * terminal may ignore; elsewhere as ACS_*, which curses turns into ASCII
 * (+ - |) when the terminal has no line drawing. */
static const cchar_t *
wacs_of(int c)
{
	switch (c) {
	case 'q': return WACS_HLINE;
	case 'x': return WACS_VLINE;
	case 'l': return WACS_ULCORNER;
	case 'k': return WACS_URCORNER;
	case 'm': return WACS_LLCORNER;
	default: return WACS_LRCORNER;
	}
}

static chtype
acs_of(int c)
{
	switch (c) {
	case 'q': return ACS_HLINE;
	case 'x': return ACS_VLINE;
	case 'l': return ACS_ULCORNER;
	case 'k': return ACS_URCORNER;
	case 'm': return ACS_LLCORNER;
	default: return ACS_LRCORNER;
	}
}

void
dw_line(int y, int x, int c, int n, int vertical, attr_t a)
{
	if (n <= 0)
		return;
	attrset(a);
	if (dw_utf8()) {
		if (vertical)
			mvvline_set(y, x, wacs_of(c), n);
		else
			mvhline_set(y, x, wacs_of(c), n);
	} else if (vertical) {
		mvvline(y, x, acs_of(c), n);
	} else {
		mvhline(y, x, acs_of(c), n);
	}
	attrset(A_NORMAL);
}
