/* SPDX-License-Identifier: GPL-3.0-or-later */
/* format.c: printf-style formatting into memory.  Most of gpuwiz's
 * formats, and their translations, convert only strings and decimal
 * integers without flags or widths; those are put together here
 * directly, the bytes vsnprintf would give, and every other format goes
 * to vsnprintf. */
#include "gw.h"
#include "format.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

/* A directive format_plain takes at fmt (just past its '%'): its length
 * in bytes, 0 when it is another (flags, a width, a precision, a
 * position, another conversion).  *len: 0, 'l' (long), 'L' (long long)
 * or 'z' (size_t); *conv: 's', 'd', 'i', 'u' or '%'. */
static size_t
plain_directive(const char *fmt, char *len, char *conv)
{
	size_t k = 0;

	*len = 0;
	if (fmt[0] == 'l' && fmt[1] == 'l') {
		*len = 'L';
		k = 2;
	} else if (fmt[0] == 'l' || fmt[0] == 'z') {
		*len = fmt[0];
		k = 1;
	}
	*conv = fmt[k];
	if (*conv == 'd' || *conv == 'i' || *conv == 'u' ||
	    (*len == 0 && (*conv == 's' || *conv == '%')))
		return k + 1;
	return 0;
}

/* The decimal digits of x (negative when neg) at the end of buf[24]. */
static const char *
decimal(unsigned long long x, int neg, char *buf, size_t *n)
{
	char *p = buf + 24;

	do
		*--p = (char)('0' + x % 10);
	while ((x /= 10) != 0);
	if (neg)
		*--p = '-';
	*n = (size_t)(buf + 24 - p);
	return p;
}

/* One integer argument of ap as len and conv say, as its digits. */
#define PLAIN_INT(ap, len, conv, buf, k)                                   \
	((conv) == 'u'                                                      \
	 ? decimal((len) == 'l' ? va_arg(ap, unsigned long)                 \
	           : (len) == 'L' ? va_arg(ap, unsigned long long)          \
	           : (len) == 'z' ? va_arg(ap, size_t)                      \
	           : va_arg(ap, unsigned), 0, buf, k)                       \
	 : signed_decimal((len) == 'l' ? va_arg(ap, long)                   \
	                  : (len) == 'L' ? va_arg(ap, long long)            \
	                  : (len) == 'z' ? (long long)va_arg(ap, ssize_t)   \
	                  : va_arg(ap, int), buf, k))

static const char *
signed_decimal(long long x, char *buf, size_t *n)
{
	return decimal(x < 0 ? 0ULL - (unsigned long long)x
	                     : (unsigned long long)x, x < 0, buf, n);
}

/* vsnprintf for a fmt of "%s", "%%" and the decimal integers alone,
 * without stdio's machinery: the same bytes ("(null)" for a NULL string,
 * as glibc prints it) and the same length, dst cut at cap - 1 bytes and
 * ended when cap > 0.  -2 at another directive (ap then spent): most of
 * gpuwiz's formats, and of their translations, have none. */
static int
format_plain(char *dst, size_t cap, const char *fmt, va_list ap)
{
	size_t n = 0, k;
	const char *part;
	char num[24], len, conv;

	while (*fmt) {
		const char *pct = strchr(fmt, '%');

		if (pct == NULL) {
			part = fmt;
			k = strlen(fmt);
			fmt += k;
		} else if (pct > fmt) {
			part = fmt;
			k = (size_t)(pct - fmt);
			fmt = pct;
		} else {
			if ((k = plain_directive(fmt + 1, &len, &conv)) == 0)
				return -2;
			fmt += 1 + k;
			if (conv == '%') {
				part = "%";
				k = 1;
			} else if (conv == 's') {
				part = va_arg(ap, const char *);
				if (part == NULL)
					part = "(null)";
				k = strlen(part);
			} else {
				part = PLAIN_INT(ap, len, conv, num, &k);
			}
		}
		if (n < cap)
			memcpy(dst + n, part, cap - n > k ? k : cap - n);
		n += k;
	}
	if (cap > 0)
		dst[n < cap ? n : cap - 1] = '\0';
	return n > INT_MAX ? -1 : (int)n;
}

int
gw_format_into(char *dst, size_t cap, const char *fmt, va_list ap)
{
	va_list aq;
	int n;

	va_copy(aq, ap);
	n = format_plain(dst, cap, fmt, aq);
	va_end(aq);
	return n != -2 ? n : vsnprintf(dst, cap, fmt, ap);
}

int
gw_format_small(char *small, char **big, const char *fmt, va_list ap)
{
	va_list ap2;
	int n;

	*big = NULL;
	va_copy(ap2, ap);
	n = gw_format_into(small, FMT_SMALL, fmt, ap);
	if (n >= FMT_SMALL) {
		*big = gw_xmalloc((size_t)n + 1);
		gw_format_into(*big, (size_t)n + 1, fmt, ap2);
	}
	va_end(ap2);
	return n;
}
