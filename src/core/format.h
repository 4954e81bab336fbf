/* SPDX-License-Identifier: GPL-3.0-or-later */
/* format.h: printf-style formatting into memory (format.c), for the
 * formatted helpers of util.c. */
#ifndef GW_FORMAT_H
#define GW_FORMAT_H

#include <stdarg.h>
#include <stddef.h>

/* The size of the stack buffer a formatted string is tried in first:
 * most fit, and are formatted once rather than measured first. */
#define FMT_SMALL 512

/* vsnprintf(dst, cap, fmt, ap): the same bytes and length.  A format of
 * strings and decimal integers alone is put together without stdio. */
int gw_format_into(char *dst, size_t cap, const char *fmt, va_list ap);
/* fmt with ap, formatted once into small (FMT_SMALL bytes) and, when it
 * does not fit there, again into *big (malloc'ed; NULL when it fit).  The
 * length, or -1 when fmt cannot be formatted. */
int gw_format_small(char *small, char **big, const char *fmt, va_list ap);

#endif
