/* uiutil.h: what the ui unit tests share (after testutil.h and curses). */
#ifndef GW_UIUTIL_H
#define GW_UIUTIL_H

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

#endif
