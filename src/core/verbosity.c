/* SPDX-License-Identifier: GPL-3.0-or-later */
/* verbosity.c: how much gpuwiz says on stderr besides its errors (-q,
 * -v; gw.h), and the one printer of -v's lines. */
#include "gw.h"
#include "textesc.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

static int verbosity = GW_NORMAL;

void
gw_verbosity_set(int v)
{
	verbosity = v;
}

int
gw_verbosity(void)
{
	return verbosity;
}

void
gw_trace(const char *fmt, ...)
{
	va_list ap;
	char *line;

	va_start(ap, fmt);
	if (vasprintf(&line, fmt, ap) < 0)
		line = NULL;
	va_end(ap);
	if (line == NULL)
		return;
	gw_fprintf_escaped(stderr, "%s: %s\n", PACKAGE, line);
	fflush(stderr);
	free(line);
}
