/* SPDX-License-Identifier: GPL-3.0-or-later */
/* draw_audit.c: the cut audit of the drawing layer (draw.h): with
 * GPUWIZ_UI_AUDIT=FILE, every text clipped without the sign is named in
 * FILE, so that the screen tests (tests/e2e/test_tui_cut.sh) can walk
 * every screen and assert that nothing was. */
#include "draw.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Where the text being drawn belongs ("step 3", "help"), for the audit. */
static char audit_where[64];

void
dw_audit_where(const char *where)
{
	snprintf(audit_where, sizeof audit_where, "%s", where ? where : "");
}

/* One line to the audit file for text cut without a sign: the screen
 * tests walk every screen and assert the file stays empty.  A line
 * already written is not written again (the screens redraw often). */
void
dw_audit_cut(const char *s, size_t len, int cells, const char *how)
{
	static const char *path;
	static int looked;
	static unsigned long seen[256];
	static size_t nseen;
	unsigned long h = 5381;
	size_t i;
	FILE *f;

	if (!looked) {
		looked = 1;
		path = secure_getenv("GPUWIZ_UI_AUDIT");
	}
	if (path == NULL || *path == '\0')
		return;
	for (i = 0; i < len && s[i]; i++)
		h = h * 33 + (unsigned char)s[i];
	for (i = 0; audit_where[i]; i++)
		h = h * 33 + (unsigned char)audit_where[i];
	h = h * 33 + (unsigned long)cells;
	for (i = 0; i < nseen; i++)
		if (seen[i] == h)
			return;
	seen[nseen++ % 256] = h;
	if (nseen > 256)
		nseen = 256;
	if ((f = fopen(path, "a")) == NULL)
		return;
	fprintf(f, "%s: %s in %d cells: %.*s\n",
	        audit_where[0] ? audit_where : "-", how, cells, (int)len, s);
	fclose(f);
}
