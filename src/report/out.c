/* SPDX-License-Identifier: GPL-3.0-or-later */
/* out.c: flushing stdout without losing why it failed (out.h). */
#include "out.h"

#include <errno.h>
#include <stdio.h>

static int out_errno;

int
gw_out_flush(void)
{
	if (fflush(stdout) == 0)
		return 0;
	if (out_errno == 0)
		out_errno = errno;
	return -1;
}

int
gw_out_text(const char *text)
{
	if (fputs(text, stdout) == EOF) {
		if (out_errno == 0)
			out_errno = errno;
		return -1;
	}
	return gw_out_flush();
}

int
gw_out_errno(void)
{
	return out_errno;
}
