/* SPDX-License-Identifier: GPL-3.0-or-later */
/* diagnose_match.c: how gpuwiz diagnose reads a line (diagnose_int.h).
 *
 * Each line is folded (ASCII lower case, every kind of quote to ', tabs
 * and no-break spaces to spaces) and the rules' patterns are searched in
 * it.  A pattern is the message in lower case where
 *     ' '  matches any run of blanks, also none,
 *     '\'' matches one quote or none,
 *     '#'  matches a decimal number and captures it (at most two),
 *     '*'  matches any run of at most STAR_MAX bytes, also none (the
 *          shortest that lets the rest match: "plugin '/usr/lib64/vmware/
 *          plugin/" or "plugin '"); the bound keeps a long line full of
 *          a pattern's first word linear,
 * and any other byte matches itself.  All patterns start with a literal
 * word, found with gw_diag_find, so a line costs about one scan per
 * pattern.
 * Also here: the set of words found in one pass, and quoting the
 * matching line (the names the rules quote: diagnose_names.c).
 */
#include "diagnose_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- folding ------------------------------------------------------------ */

/* An ASCII byte: lower case, '"' and '`' to '\'', tab to space. */
static char
fold_ascii(unsigned char b)
{
	if (b >= 'A' && b <= 'Z')
		return (char)(b - 'A' + 'a');
	if (b == '"' || b == '`')
		return '\'';
	if (b == '\t')
		return ' ';
	return (char)b;
}

/* The sequences of two or three bytes that fold (s[0..m) is what is left
 * of the line): the byte in *c and their length, or 0. */
static size_t
fold_utf8(const unsigned char *s, size_t m, char *c)
{
	if (s[0] == 0xC2 && m > 1 && (s[1] == 0xB4 || s[1] == 0xA0)) {
		/* ´ acute accent, no-break space */
		*c = s[1] == 0xB4 ? '\'' : ' ';
		return 2;
	}
	if (m < 3)
		return 0;
	if (s[0] == 0xE2 && s[1] == 0x80) {
		unsigned char t = s[2];

		/* ‘ ’ ‚ ‛ “ ” „ ‟ (U+2018..U+201F), ′ ″ ‵ (U+2032, 2033, 2035) */
		if ((t >= 0x98 && t <= 0x9F) || t == 0xB2 || t == 0xB3 || t == 0xB5) {
			*c = '\'';
			return 3;
		}
	}
	if (s[0] == 0xEF && s[1] == 0xBC) {
		unsigned char t = s[2];

		/* fullwidth " ' ( ) from a CJK input method */
		if (t == 0x82 || t == 0x87 || t == 0x88 || t == 0x89) {
			*c = t == 0x88 ? '(' : t == 0x89 ? ')' : '\'';
			return 3;
		}
	}
	return 0;
}

/* Fold the character at s[i] (n bytes in all): stores the folded byte in
 * *c and returns how many input bytes it used (1..3). */
static size_t
fold_step(const unsigned char *s, size_t n, size_t i, char *c)
{
	size_t k;

	if (s[i] < 0x80) {
		*c = fold_ascii(s[i]);
		return 1;
	}
	k = fold_utf8(s + i, n - i, c);
	if (k > 0)
		return k;
	*c = (char)s[i];
	return 1;
}

void
gw_diag_fold_line(const char *s, size_t n, gw_buf *b)
{
	static char ascii[128];   /* fold_ascii of each byte */
	static int ready;
	const unsigned char *u = (const unsigned char *)s;
	size_t i = 0, k = 0;
	char *d;

	if (!ready) {
		for (i = 0; i < 128; i++)
			ascii[i] = fold_ascii((unsigned char)i);
		ready = 1;
		i = 0;
	}

	/* room for the line (folding never lengthens it), then written in
	 * place: one byte at a time through a buffer call costs more than
	 * the folding */
	b->len = 0;
	if (b->cap < n + 1)
		gw_buf_add(b, s, n);     /* the room, once per longer line */
	d = b->data;
	while (i < n) {
		if (u[i] < 0x80) {
			d[k++] = ascii[u[i]];
			i++;
		} else
			i += fold_step(u, n, i, &d[k++]);
	}
	b->len = k;
	d[k] = '\0';
}

size_t
gw_diag_orig_offset(const char *s, size_t n, size_t off)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t i = 0, k = 0;

	while (i < n && k < off) {
		char c;

		i += fold_step(u, n, i, &c);
		k++;
	}
	return i;
}

/* ---- patterns ----------------------------------------------------------- */

static int
is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static int pat_from(const char *s, size_t n, size_t i, const char *p,
                    gw_diag_caps *c);

#define STAR_MAX 96

/* '*' at p: the rest of the pattern from the nearest place on. */
static int
pat_star(const char *s, size_t n, size_t i, const char *p, gw_diag_caps *c)
{
	gw_diag_caps saved = *c;
	size_t k;

	for (k = i; k <= n && k - i <= STAR_MAX; k++) {
		*c = saved;
		if (pat_from(s, n, k, p + 1, c))
			return 1;
	}
	return 0;
}

/* Match pattern p anchored at s[i], captures appended to c. */
static int
pat_from(const char *s, size_t n, size_t i, const char *p, gw_diag_caps *c)
{
	for (; *p; p++) {
		switch (*p) {
		case '*':
			return pat_star(s, n, i, p, c);
		case ' ':
			while (i < n && s[i] == ' ')
				i++;
			break;
		case '\'':
			if (i < n && s[i] == '\'')
				i++;
			break;
		case '#': {
			size_t st = i;
			uint64_t v = 0;
			int ok = 1;

			while (i < n && is_digit(s[i])) {
				if (v > (UINT64_MAX - 9) / 10)
					ok = 0;
				else
					v = v * 10 + (uint64_t)(s[i] - '0');
				i++;
			}
			if (i == st)
				return 0;
			if (c->n < GW_DIAG_MAXCAP) {
				c->v[c->n] = ok ? v : 0;
				c->ok[c->n] = ok;
				c->n++;
			}
			break;
		}
		default:
			if (i >= n || s[i] != *p)
				return 0;
			i++;
		}
	}
	return 1;
}

/* Match pattern p anchored at s[i]; 1 on a match. */
static int
pat_at(const char *s, size_t n, size_t i, const char *p, gw_diag_caps *c)
{
	c->n = 0;
	return pat_from(s, n, i, p, c);
}

const char *
gw_diag_find(const char *s, size_t n, const char *w, size_t m)
{
	const char *end, *at;

	/* memchr on the first byte, then compare: a log line is short, and
	 * memmem's set-up per call costs more than the search */
	if (m == 0)
		return s;
	if (n < m)
		return NULL;
	end = s + (n - m) + 1;
	for (at = s; (at = memchr(at, w[0], (size_t)(end - at))) != NULL;
	     at++)
		if (memcmp(at + 1, w + 1, m - 1) == 0)
			return at;
	return NULL;
}

long
gw_diag_pat_find(const char *s, size_t n, const char *p, gw_diag_caps *c)
{
	size_t lit = strcspn(p, " '#*"), from = 0;

	if (lit == 0)
		return -1;   /* every pattern starts with a literal word */
	while (from < n) {
		const char *hit = gw_diag_find(s + from, n - from, p, lit);
		size_t at;

		if (hit == NULL)
			return -1;
		at = (size_t)(hit - s);
		if (pat_at(s, n, at, p, c))
			return (long)at;
		from = at + 1;
	}
	return -1;
}

/* ---- many words at once ------------------------------------------------ */

void
gw_diag_words_init(gw_diag_words *ws)
{
	memset(ws, 0, sizeof *ws);
}

int
gw_diag_words_add(gw_diag_words *ws, const char *w, size_t m, uint64_t bit)
{
	unsigned pair;

	if (ws->n == GW_DIAG_MAXWORDS)
		return -1;
	if (m == 0) {
		ws->always |= bit;
		return 0;
	}
	ws->word[ws->n].w = w;
	ws->word[ws->n].m = m;
	ws->word[ws->n].bit = bit;
	if (m == 1) {
		ws->n++;     /* looked for alone (gw_diag_words_in) */
		ws->nshort++;
		return 0;
	}
	pair = (unsigned)(unsigned char)w[0] << 8 | (unsigned char)w[1];
	ws->word[ws->n].next = ws->head[pair];
	ws->head[pair] = (unsigned char)(ws->n + 1);
	ws->n++;
	return 0;
}

uint64_t
gw_diag_words_in(const gw_diag_words *ws, const char *s, size_t n)
{
	const unsigned char *u = (const unsigned char *)s;
	uint64_t bits = ws->always;
	unsigned pair;
	size_t i;

	for (i = 0; ws->nshort > 0 && i < ws->n; i++)
		if (ws->word[i].m == 1 && memchr(s, ws->word[i].w[0], n))
			bits |= ws->word[i].bit;
	if (n < 2)
		return bits;
	/* the pair ending at byte i + 1 kept from the last one: a load and
	 * a test per byte where no word starts */
	for (i = 0, pair = u[0]; i + 1 < n; i++) {
		unsigned k;

		pair = (pair << 8 | u[i + 1]) & 0xffff;
		if (ws->head[pair] == 0)
			continue;
		for (k = ws->head[pair]; k; k = ws->word[k - 1].next) {
			size_t m = ws->word[k - 1].m;

			/* the third byte inline: most pairs go no further */
			if (m <= n - i &&
			    (m == 2 || (s[i + 2] == ws->word[k - 1].w[2] &&
			                memcmp(s + i + 3, ws->word[k - 1].w + 3,
			                       m - 3) == 0)))
				bits |= ws->word[k - 1].bit;
		}
	}
	return bits;
}

/* The words that make a line or a text ESXi's, and those that make a
 * line a Linux boot loader's or command line's (gw_diag_esxi_line). */
const char *const gw_diag_esxi_words[] = {
	"boot.cfg", "kernelopt", "/bootbank", "esxcli", "esx.conf", NULL
};
static const char *const linux_words[] = {
	"grub", "vmlinuz", "cmdline", "command line", "linux", "proxmox",
	"kvm", NULL
};

static int
has_any(const char *s, size_t n, const char *const *words)
{
	size_t i;

	for (i = 0; words[i]; i++)
		if (gw_diag_ci_contains(s, n, words[i]))
			return 1;
	return 0;
}

int
gw_diag_esxi_line(const char *s, size_t n, int text_esxi)
{
	if (has_any(s, n, gw_diag_esxi_words))
		return 1;
	if (has_any(s, n, linux_words))
		return 0;
	return text_esxi;
}

int
gw_diag_ci_contains(const char *s, size_t n, const char *needle)
{
	size_t m = strlen(needle), i, j;
	const char *end, *lo, *up;
	char c0, u0;

	if (m == 0 || n < m)
		return m == 0;
	/* the candidates for the needle's first byte found with memchr, in
	 * both cases (the needle is lower case), each searched again only
	 * once passed */
	c0 = needle[0];
	if (c0 >= 'A' && c0 <= 'Z')
		return 0;     /* a folded byte never equals it */
	u0 = c0 >= 'a' && c0 <= 'z' ? (char)(c0 - 'a' + 'A') : c0;
	end = s + (n - m) + 1;
	lo = memchr(s, c0, (size_t)(end - s));
	up = u0 != c0 ? memchr(s, u0, (size_t)(end - s)) : NULL;
	while (lo != NULL || up != NULL) {
		const char *at = lo == NULL ? up
		                 : up == NULL ? lo : lo < up ? lo : up;

		i = (size_t)(at - s);
		for (j = 1; j < m; j++) {
			char c = s[i + j];

			if (c >= 'A' && c <= 'Z')
				c = (char)(c - 'A' + 'a');
			if (c != needle[j])
				break;
		}
		if (j == m)
			return 1;
		if (at == lo)
			lo = at + 1 < end ? memchr(at + 1, c0,
			                           (size_t)(end - at - 1)) : NULL;
		else
			up = at + 1 < end ? memchr(at + 1, u0,
			                           (size_t)(end - at - 1)) : NULL;
	}
	return 0;
}

/* ---- quoting the line --------------------------------------------------- */

/* The line s[0..n), match at byte at: trimmed, printable UTF-8, at most
 * GW_DIAG_LINE_MAX bytes (a window around the match marked with "..."). */
char *
gw_diag_quote_line(const char *s, size_t n, size_t at)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t st = 0, end = n, i;
	gw_buf b;
	int cut_front = 0, cut_back = 0;

	while (st < end && (s[st] == ' ' || s[st] == '\t'))
		st++;
	while (end > st && (s[end - 1] == ' ' || s[end - 1] == '\t'))
		end--;
	if (at < st)
		at = st;
	if (end - st > GW_DIAG_LINE_MAX - 6) {
		size_t room = GW_DIAG_LINE_MAX - 6, from;

		from = at > st + room / 4 ? at - room / 4 : st;
		if (from + room > end)
			from = end - room;
		/* do not start or end inside a UTF-8 sequence */
		while (from > st && (u[from] & 0xC0) == 0x80)
			from--;
		cut_front = from > st;
		st = from;
		if (end - st > room) {
			end = st + room;
			while (end > st && (u[end] & 0xC0) == 0x80)
				end--;
			cut_back = 1;
		}
	}
	gw_buf_init(&b);
	if (cut_front)
		gw_buf_puts(&b, "...");
	for (i = st; i < end;) {
		size_t k = gw_utf8_char(s + i, end - i);

		if (k == 0) {
			gw_buf_add(&b, s[i] == '\t' ? " " : "?", 1);
			i++;
		} else {
			gw_buf_add(&b, s + i, k);
			i += k;
		}
	}
	if (cut_back)
		gw_buf_puts(&b, "...");
	return gw_buf_steal(&b);
}
