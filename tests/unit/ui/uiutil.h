/* SPDX-License-Identifier: GPL-3.0-or-later */
/* uiutil.h: what the ui unit tests share (after testutil.h and curses). */
#ifndef GW_UIUTIL_H
#define GW_UIUTIL_H

#include <locale.h>
#include <stdio.h>
#include <wchar.h>

/* Row y of the curses screen from x, n cells, as a multibyte string
 * (trailing blanks cut; static buffer). */
static inline char *
tu_row(int y, int x, int n)
{
	wchar_t wb[256];
	static char out[1024];
	size_t l;

	memset(wb, 0, sizeof wb);
	mvinnwstr(y, x, wb, n);
	l = wcstombs(out, wb, sizeof out - 1);
	out[l == (size_t)-1 ? 0 : l] = '\0';
	while (l != (size_t)-1 && l > 0 && out[l - 1] == ' ')
		out[--l] = '\0';
	return out;
}

/* A curses screen on /dev/null (vt100, C.UTF-8) for the tests: 0, or 77
 * (skip, said on stdout) when the locale or the terminfo is missing.
 * tu_curses_close ends it. */
typedef struct tu_curses {
	FILE *out, *in;
	SCREEN *scr;
} tu_curses;

static inline int
tu_curses_open(tu_curses *c)
{
	if (setlocale(LC_ALL, "C.UTF-8") == NULL) {
		printf("SKIP: no C.UTF-8 locale\n");
		return 77;
	}
	c->out = fopen("/dev/null", "w");
	c->in = fopen("/dev/null", "r");
	if (c->out == NULL || c->in == NULL ||
	    (c->scr = newterm("vt100", c->out, c->in)) == NULL) {
		printf("SKIP: no vt100 terminfo\n");
		return 77;
	}
	set_term(c->scr);
	return 0;
}

static inline void
tu_curses_close(tu_curses *c)
{
	endwin();
	delscreen(c->scr);
	fclose(c->out);
	fclose(c->in);
}

#endif
