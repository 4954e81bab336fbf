/* SPDX-License-Identifier: GPL-3.0-or-later */
/* util.c: errors, allocation, buffers and strings (reading a file is
 * readfile.c, writing one safefile.c). */
#include "gw.h"
#include "textesc.h"
#include "format.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>
#include <wchar.h>

static size_t str_escape(char *dst, size_t size, const char *src);

/* vsnprintf into buf, with what came from outside (a file's bytes, a
 * host's output) made safe to print: str_escape, which also never ends
 * in half a UTF-8 character when the text is cut off. */
static void
err_format(char *buf, size_t size, const char *fmt, va_list ap)
{
	char raw[4096];

	vsnprintf(raw, sizeof raw, fmt, ap);
	str_escape(buf, size, raw);
}

void
gw_err_set(gw_err *e, const char *fmt, ...)
{
	va_list ap;

	if (e == NULL)
		return;
	va_start(ap, fmt);
	err_format(e->msg, sizeof e->msg, fmt, ap);
	va_end(ap);
	e->ui[0] = '\0';
}

void
gw_err_set_ui(gw_err *e, const char *fmt, ...)
{
	va_list ap;

	if (e == NULL)
		return;
	va_start(ap, fmt);
	err_format(e->ui, sizeof e->ui, fmt, ap);
	va_end(ap);
}

const char *
gw_err_text(const gw_err *e, int wizard)
{
	return wizard && e->ui[0] ? e->ui : e->msg;
}

static void
oom(void)
{
	fputs("gpuwiz: out of memory\n", stderr);
	abort();
}

void *
gw_xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (p == NULL)
		oom();
	return p;
}

void *
gw_xcalloc(size_t n, size_t sz)
{
	void *p = calloc(n ? n : 1, sz ? sz : 1);

	if (p == NULL)
		oom();
	return p;
}

void *
gw_xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);

	if (q == NULL)
		oom();
	return q;
}

char *
gw_xstrdup(const char *s)
{
	return s ? gw_xstrndup(s, strlen(s)) : NULL;
}

char *
gw_xstrndup(const char *s, size_t n)
{
	char *p = gw_xmalloc(n + 1);

	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *
gw_xasprintf(const char *fmt, ...)
{
	va_list ap;
	char small[FMT_SMALL], *big;
	int n;

	va_start(ap, fmt);
	n = gw_format_small(small, &big, fmt, ap);
	va_end(ap);
	if (n < 0)
		oom();
	if (big == NULL) {
		big = gw_xmalloc((size_t)n + 1);
		memcpy(big, small, (size_t)n + 1);
	}
	return big;
}

void
gw_strs_free(char **v, size_t n)
{
	size_t i;

	for (i = 0; v != NULL && i < n; i++)
		free(v[i]);
	free(v);
}

void
gw_buf_init(gw_buf *b)
{
	b->data = gw_xmalloc(64);
	b->data[0] = '\0';
	b->len = 0;
	b->cap = 64;
}

static void
buf_reserve(gw_buf *b, size_t extra)
{
	size_t need;

	if (b->data == NULL)
		gw_buf_init(b);
	if (extra > SIZE_MAX - b->len - 1)
		oom();
	need = b->len + extra + 1;
	if (need <= b->cap)
		return;
	while (b->cap < need)
		b->cap = b->cap > SIZE_MAX / 2 ? need : b->cap * 2;
	b->data = gw_xrealloc(b->data, b->cap);
}

void
gw_buf_add(gw_buf *b, const char *s, size_t n)
{
	buf_reserve(b, n);
	memcpy(b->data + b->len, s, n);
	b->len += n;
	b->data[b->len] = '\0';
}

void
gw_buf_puts(gw_buf *b, const char *s)
{
	gw_buf_add(b, s, strlen(s));
}

void
gw_buf_printf(gw_buf *b, const char *fmt, ...)
{
	va_list ap, ap2;
	size_t room;
	int n;

	/* into the room there is; measured and formatted again only when
	 * it does not fit */
	buf_reserve(b, 0);
	room = b->cap - b->len;
	va_start(ap, fmt);
	va_copy(ap2, ap);
	n = gw_format_into(b->data + b->len, room, fmt, ap);
	va_end(ap);
	if (n < 0)
		oom();
	if ((size_t)n >= room) {
		buf_reserve(b, (size_t)n);
		gw_format_into(b->data + b->len, (size_t)n + 1, fmt, ap2);
	}
	va_end(ap2);
	b->len += (size_t)n;
}

char *
gw_buf_steal(gw_buf *b)
{
	char *p;

	if (b->data == NULL)
		gw_buf_init(b);
	p = b->data;
	b->data = NULL;
	b->len = b->cap = 0;
	return p;
}

void
gw_buf_free(gw_buf *b)
{
	free(b->data);
	b->data = NULL;
	b->len = b->cap = 0;
}

int
gw_strieq(const char *a, const char *b)
{
	for (; *a && *b; a++, b++)
		if (tolower((unsigned char)*a) != tolower((unsigned char)*b))
			return 0;
	return *a == *b;
}

int
gw_str_icontains(const char *hay, const char *needle)
{
	size_t n = strlen(needle);

	if (hay == NULL || n == 0)
		return 0;
	for (; *hay; hay++)
		if (strncasecmp(hay, needle, n) == 0)
			return 1;
	return 0;
}

int
gw_parse_uint(const char *s, unsigned long long max, unsigned long long *out)
{
	unsigned long long v = 0;

	if (s == NULL || *s == '\0')
		return -1;
	for (; *s; s++) {
		unsigned d;

		if (*s < '0' || *s > '9')
			return -1;
		d = (unsigned)(*s - '0');
		if (v > max / 10 || (v == max / 10 && d > max % 10))
			return -1;
		v = v * 10 + d;
	}
	if (v > max)
		return -1;
	*out = v;
	return 0;
}

char *
gw_trim(char *s)
{
	char *end;

	while (*s && isspace((unsigned char)*s))
		memmove(s, s + 1, strlen(s));
	end = s + strlen(s);
	while (end > s && isspace((unsigned char)end[-1]))
		*--end = '\0';
	return s;
}

int
gw_text_cells(const char *s)
{
	mbstate_t st;
	int cells = 0;
	size_t n = strlen(s);

	memset(&st, 0, sizeof st);
	while (n > 0) {
		wchar_t wc;
		size_t r;
		int w;

		/* printable ASCII is one cell in every locale (the state is the
		 * initial one before each character) */
		if (*s >= 0x20 && *s < 0x7f) {
			cells++;
			s++;
			n--;
			continue;
		}
		r = mbrtowc(&wc, s, n, &st);
		if (r == (size_t)-1 || r == (size_t)-2) {
			memset(&st, 0, sizeof st);
			cells++;
			s++;
			n--;
			continue;
		}
		w = wcwidth(wc);
		cells += w > 0 ? w : 0;
		s += r;
		n -= r;
	}
	return cells;
}

const unsigned char gw_hex_digit1[256] = {
	['0'] = 1, ['1'] = 2, ['2'] = 3, ['3'] = 4, ['4'] = 5,
	['5'] = 6, ['6'] = 7, ['7'] = 8, ['8'] = 9, ['9'] = 10,
	['a'] = 11, ['b'] = 12, ['c'] = 13, ['d'] = 14, ['e'] = 15, ['f'] = 16,
	['A'] = 11, ['B'] = 12, ['C'] = 13, ['D'] = 14, ['E'] = 15, ['F'] = 16,
};

/* ---- escaping what came from outside ---------------------------------- */

size_t
gw_utf8_char(const char *p, size_t n)
{
	const unsigned char *s = (const unsigned char *)p;
	size_t len, i;
	unsigned long cp;

	if (n == 0 || s[0] < 0x20 || s[0] == 0x7F)
		return 0;
	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xC2 && s[0] <= 0xDF)
		len = 2, cp = s[0] & 0x1F;
	else if (s[0] >= 0xE0 && s[0] <= 0xEF)
		len = 3, cp = s[0] & 0x0F;
	else if (s[0] >= 0xF0 && s[0] <= 0xF4)
		len = 4, cp = s[0] & 0x07;
	else
		return 0;
	if (n < len)
		return 0;
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xC0) != 0x80)
			return 0;
		cp = (cp << 6) | (s[i] & 0x3F);
	}
	if ((len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) ||
	    (cp >= 0xD800 && cp <= 0xDFFF) || cp > 0x10FFFF ||
	    cp <= 0x9F ||   /* C1 controls: U+009B is CSI to some terminals */
	    gw_bidi_control(cp))
		return 0;
	return len;
}

int
gw_bidi_control(unsigned long cp)
{
	return cp == 0x061C ||                     /* ARABIC LETTER MARK */
	       cp == 0x200E || cp == 0x200F ||     /* LRM, RLM */
	       (cp >= 0x202A && cp <= 0x202E) ||   /* LRE RLE PDF LRO RLO */
	       (cp >= 0x2066 && cp <= 0x2069);     /* LRI RLI FSI PDI */
}

/* Copy src into dst (size bytes, always NUL-terminated when size > 0)
 * with every byte that is not part of well-formed UTF-8, and every control
 * (C0 but tab and newline, DEL, C1), written as \xNN: user input (a
 * file's bytes, a host's output) echoed in a message never reaches the
 * terminal raw.  Cut off, it ends on a whole character.  Returns the
 * length written.  Every gw_err message goes through it (tests/unit/core/test_escape.c
 * reaches it through gw_err_set and gw_str_escaped). */
static size_t
str_escape(char *dst, size_t size, const char *src)
{
	const unsigned char *s = (const unsigned char *)src;
	size_t o = 0, n, left = strlen(src);

	if (size == 0)
		return 0;
	while (*s) {
		/* a run of printable ASCII at once, as far as it fits; a
		 * control byte is escaped too: ESC would drive the terminal */
		for (n = 0; s[n] >= 0x20 && s[n] < 0x7F && o + n + 1 < size;
		     n++)
			;
		if (n == 0)
			n = *s == '\t' || *s == '\n' ? 1 :
			    gw_utf8_char((const char *)s, left);
		if (n == 0) {
			if (o + 4 >= size)
				break;
			snprintf(dst + o, 5, "\\x%02X", *s);
			o += 4;
			s++;
			left--;
			continue;
		}
		if (o + n >= size)
			break;   /* whole characters only */
		memcpy(dst + o, s, n);
		o += n;
		s += n;
		left -= n;
	}
	dst[o] = '\0';
	return o;
}

/* ---- textesc.h: the same without a size limit, for the printers ------ */

char *
gw_str_escaped(const char *s)
{
	size_t n = strlen(s) * 4 + 1;   /* \xNN: four bytes for one */
	char *d = gw_xmalloc(n);

	str_escape(d, n, s);
	return d;
}

static int plain_text(const char *s, size_t n);

void
gw_buf_put_escaped(gw_buf *b, const char *s)
{
	size_t n = strlen(s);
	char *t;

	if (plain_text(s, n)) {
		gw_buf_add(b, s, n);
		return;
	}
	t = gw_str_escaped(s);
	gw_buf_puts(b, t);
	free(t);
}

size_t
gw_plain_prefix(const char *p, size_t n, int high_ok)
{
	size_t i = 0;

	for (; i + 8 <= n; i += 8) {
		uint64_t w;

		memcpy(&w, p + i, 8);
		if ((gw_word_below(w, 0x20) | gw_word_eq(w, 0x7f) |
		     (high_ok ? 0 : w & GW_W7)) != 0)
			break;
	}
	return i;
}

/* Do the n bytes at s need no escaping (printable ASCII, tab and newline
 * only)?  Eight at a time; those with a tab or newline looked at again. */
static int
plain_text(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i + 8 <= n; i += 8) {
		uint64_t w, low, high;

		memcpy(&w, s + i, 8);
		low = gw_word_below(w, 0x20);
		high = ~gw_word_below(w, 0x7f) & GW_W7;
		if ((low | high) == 0)
			continue;
		if (high != 0 ||
		    (low & ~gw_word_eq(w, '\t') & ~gw_word_eq(w, '\n')) != 0)
			return 0;
	}
	for (; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if ((c < 0x20 || c >= 0x7F) && c != '\t' && c != '\n')
			return 0;
	}
	return 1;
}

int
gw_fputs_escaped(const char *s, FILE *f)
{
	char *t;
	int rc;

	size_t n = strlen(s);

	if (plain_text(s, n))
		return fwrite(s, 1, n, f) == n ? 1 : EOF;
	t = gw_str_escaped(s);
	rc = fputs(t, f);
	free(t);
	return rc;
}

int
gw_fprintf_escaped(FILE *f, const char *fmt, ...)
{
	va_list ap;
	char small[FMT_SMALL], *big;
	int n, rc;

	va_start(ap, fmt);
	n = gw_format_small(small, &big, fmt, ap);
	va_end(ap);
	if (n < 0)
		abort();
	rc = gw_fputs_escaped(big ? big : small, f);
	free(big);
	return rc;
}
