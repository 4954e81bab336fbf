/* SPDX-License-Identifier: GPL-3.0-or-later */
/* textwrap.c: where a line of text is cut for a given width in terminal
 * cells (gw_text_line), without the locale: UTF-8 read by hand, East
 * Asian wide characters two cells, no break before closing or after
 * opening punctuation. */
#include "gw.h"

#include <string.h>

/* The code point of the n bytes of one UTF-8 character at s. */
static unsigned long
utf8_cp(const char *s, size_t n)
{
	const unsigned char *u = (const unsigned char *)s;
	unsigned long c;
	size_t i;

	if (n < 2)
		return u[0];
	c = u[0] & (n == 2 ? 0x1fu : n == 3 ? 0x0fu : 0x07u);
	for (i = 1; i < n; i++)
		c = (c << 6) | (u[i] & 0x3fu);
	return c;
}

/* The East Asian wide ranges: CJK, Hangul, full-width forms. */
static int
cp_wide(unsigned long c)
{
	return (c >= 0x1100 && c <= 0x115f) || (c >= 0x2e80 && c <= 0xa4cf) ||
	       (c >= 0xac00 && c <= 0xd7a3) || (c >= 0xf900 && c <= 0xfaff) ||
	       (c >= 0xfe30 && c <= 0xfe4f) || (c >= 0xff00 && c <= 0xff60) ||
	       (c >= 0xffe0 && c <= 0xffe6) ||
	       (c >= 0x20000 && c <= 0x3fffd);
}

/* The punctuation lists (gw.h): closing, which must not begin a line;
 * opening, which must not end one. */
static const unsigned long closing[] = {
	0x3001, 0x3002, 0xff0c, 0xff0e, 0xff1a, 0xff1b, 0xff01,
	0xff1f, 0xff09, 0x300d, 0x300f, 0x3011, 0x300b, 0x3009,
	0x201d, 0x2019, 0xff3d, 0xff5d
};
static const unsigned long opening[] = {
	'(', '[', '{', 0xff08, 0xff3b, 0xff5b, 0x300c, 0x300e,
	0x3010, 0x300a, 0x3008, 0x3014, 0x3016, 0x201c, 0x2018
};

/* Is c one of the n code points of v? */
static int
cp_in(const unsigned long *v, size_t n, unsigned long c)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (c == v[i])
			return 1;
	return 0;
}

int
gw_text_no_break_before(unsigned long c)
{
	return cp_in(closing, sizeof closing / sizeof *closing, c);
}

int
gw_text_no_break_after(unsigned long c)
{
	return cp_in(opening, sizeof opening / sizeof *opening, c);
}

size_t
gw_text_line(const char *s, size_t room, size_t *skip)
{
	size_t i = 0, cells = 0, brk = 0, brk_skip = 0;
	unsigned long prev = 0;
	int prev_wide = 0;

	*skip = 0;
	while (s[i]) {
		size_t n = gw_utf8_char(s + i, strlen(s + i));
		unsigned long c;
		int wide;

		if (n == 0)             /* a byte that is no character: one */
			n = 1;
		c = n == 1 ? (unsigned char)s[i] : utf8_cp(s + i, n);
		wide = n > 1 && cp_wide(c);
		if (i > 0) {
			if (c == ' ') {
				if (!gw_text_no_break_after(prev)) {
					brk = i;
					brk_skip = 1;
				}
			} else if ((wide || prev_wide) && prev != ' ' &&
			           !gw_text_no_break_before(c) &&
			           !gw_text_no_break_after(prev)) {
				brk = i;
				brk_skip = 0;
			}
		}
		if (cells + (size_t)(wide ? 2 : 1) > room)
			break;
		cells += wide ? 2 : 1;
		prev = c;
		prev_wide = wide;
		i += n;
	}
	if (s[i] == '\0')
		return i;
	if (s[i] == ' ') {
		*skip = 1;
		return i;
	}
	if (brk > 0) {
		*skip = brk_skip;
		return brk;
	}
	/* a word wider than the line: cut at a character */
	return i > 0 ? i : gw_utf8_char(s, strlen(s)) > 0 ?
	       gw_utf8_char(s, strlen(s)) : 1;
}
