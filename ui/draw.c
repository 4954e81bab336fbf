/* SPDX-License-Identifier: GPL-3.0-or-later */
/* draw.c: text in terminal cells, colours with a monochrome fallback. */
#include "draw.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <langinfo.h>
#include <string.h>
#include <wchar.h>

/* ---- colours ----------------------------------------------------------- */

static attr_t attrs[UI_NCOLORS];

void
ui_colors_init(int use_color)
{
	int i;

	if (!use_color) {
		/* monochrome: attributes only */
		attrs[UI_C_NORMAL] = A_NORMAL;
		attrs[UI_C_TITLE] = A_BOLD;
		attrs[UI_C_BAR] = A_REVERSE;
		attrs[UI_C_BAR_CUR] = A_BOLD;
		attrs[UI_C_BAR_DONE] = A_REVERSE;
		attrs[UI_C_KEY] = A_BOLD;
		attrs[UI_C_SEL] = A_REVERSE;
		attrs[UI_C_SEL_IDLE] = A_BOLD;
		attrs[UI_C_FIELD] = A_UNDERLINE;
		attrs[UI_C_FIELD_FOCUS] = A_UNDERLINE | A_BOLD;
		attrs[UI_C_PASS] = A_BOLD;
		attrs[UI_C_WARN] = A_BOLD;
		attrs[UI_C_FAIL] = A_BOLD | A_UNDERLINE;
		attrs[UI_C_INFO] = A_NORMAL;
		attrs[UI_C_ADD] = A_BOLD;
		attrs[UI_C_DEL] = A_NORMAL;
		attrs[UI_C_DIM] = A_DIM;
		attrs[UI_C_MSG_ERR] = A_BOLD;
		attrs[UI_C_MSG_OK] = A_BOLD;
		attrs[UI_C_HEAD] = A_BOLD;
		attrs[UI_C_BOX] = A_NORMAL;
		return;
	}
	start_color();
	use_default_colors();
	{
		static const struct { int c; short fg, bg; attr_t extra; } pairs[] = {
			{ UI_C_TITLE, COLOR_CYAN, -1, A_BOLD },
			{ UI_C_BAR, COLOR_WHITE, COLOR_BLUE, A_NORMAL },
			{ UI_C_BAR_CUR, COLOR_BLACK, COLOR_CYAN, A_BOLD },
			{ UI_C_BAR_DONE, COLOR_GREEN, COLOR_BLUE, A_BOLD },
			{ UI_C_KEY, COLOR_YELLOW, -1, A_BOLD },
			{ UI_C_SEL, COLOR_BLACK, COLOR_CYAN, A_NORMAL },
			{ UI_C_SEL_IDLE, COLOR_CYAN, -1, A_BOLD },
			{ UI_C_FIELD, COLOR_WHITE, COLOR_BLUE, A_NORMAL },
			{ UI_C_FIELD_FOCUS, COLOR_BLACK, COLOR_WHITE, A_NORMAL },
			{ UI_C_PASS, COLOR_GREEN, -1, A_BOLD },
			{ UI_C_WARN, COLOR_YELLOW, -1, A_BOLD },
			{ UI_C_FAIL, COLOR_RED, -1, A_BOLD },
			{ UI_C_INFO, COLOR_CYAN, -1, A_NORMAL },
			{ UI_C_ADD, COLOR_GREEN, -1, A_NORMAL },
			{ UI_C_DEL, COLOR_RED, -1, A_NORMAL },
			{ UI_C_DIM, COLOR_BLUE, -1, A_BOLD },
			{ UI_C_MSG_ERR, COLOR_RED, -1, A_BOLD },
			{ UI_C_MSG_OK, COLOR_GREEN, -1, A_BOLD },
			{ UI_C_HEAD, COLOR_WHITE, -1, A_BOLD },
			{ UI_C_BOX, COLOR_CYAN, -1, A_NORMAL },
		};

		attrs[UI_C_NORMAL] = A_NORMAL;
		for (i = 0; i < (int)(sizeof pairs / sizeof pairs[0]); i++) {
			init_pair((short)(i + 1), pairs[i].fg, pairs[i].bg);
			attrs[pairs[i].c] = COLOR_PAIR(i + 1) | pairs[i].extra;
		}
	}
}

attr_t
ui_attr(int c)
{
	return c >= 0 && c < UI_NCOLORS ? attrs[c] : A_NORMAL;
}

const char *
ui_glyph_done(const ui_ctx *u)
{
	return u->utf8 ? "\xe2\x9c\x93" : "*";
}

/* ---- text in cells --------------------------------------------------- */

/* Decode one character: its length in bytes, its width in cells and
 * whether it must be shown as '?' (bad byte, control character, a
 * bidirectional control: textesc.h). */
static size_t
next_char(const char *s, size_t len, wchar_t *wc, int *w, int *bad)
{
	mbstate_t st;
	size_t r;

	/* printable ASCII: itself, one cell, in every locale */
	if (*s >= 0x20 && *s < 0x7f) {
		*wc = (wchar_t)*s;
		*w = 1;
		*bad = 0;
		return 1;
	}
	memset(&st, 0, sizeof st);
	r = mbrtowc(wc, s, len, &st);
	*bad = 0;
	if (r == (size_t)-1 || r == (size_t)-2 || r == 0) {
		*wc = L'?';
		*w = 1;
		*bad = 1;
		return 1;
	}
	if (*wc == L'\t') {
		*wc = L' ';
		*w = 1;
		*bad = 1;
		return r;
	}
	*w = wcwidth(*wc);
	if (*w < 0 || gw_bidi_control((unsigned long)*wc)) {
		*wc = L'?';
		*w = 1;
		*bad = 1;
	}
	return r;
}

int
dw_cells(const char *s)
{
	size_t len = strlen(s), i = 0;
	int cells = 0;

	while (i < len) {
		wchar_t wc;
		int w, bad;

		i += next_char(s + i, len - i, &wc, &w, &bad);
		cells += w > 0 ? w : 0;
	}
	return cells;
}

int
dw_utf8(void)
{
	const char *cs = nl_langinfo(CODESET);

	return cs && (strcmp(cs, "UTF-8") == 0 || strcmp(cs, "utf8") == 0);
}

const char *
dw_sign(void)
{
	return dw_utf8() ? "\xe2\x80\xa6" : "...";
}

static int
sign_cells(const char *g)
{
	return g[0] == '.' ? 3 : 1;
}

/* Copy into buf what of s fits in cells (bad bytes as '?').  Returns
 * the bytes of s taken; *o gets the bytes in buf, *used the cells. */
static size_t
copy_fit(const char *s, size_t len, int cells, char *buf, size_t *o,
         int *used)
{
	size_t i = 0;

	*o = 0;
	*used = 0;
	while (i < len) {
		wchar_t wc;
		int w, bad;
		size_t r = next_char(s + i, len - i, &wc, &w, &bad);

		if (*used + w > cells)
			break;
		if (bad) {
			buf[(*o)++] = wc == L' ' ? ' ' : '?';
		} else {
			memcpy(buf + *o, s + i, r);
			*o += r;
		}
		*used += w;
		i += r;
	}
	buf[*o] = '\0';
	return i;
}

static int
only_blanks(const char *s)
{
	while (*s == ' ' || *s == '\t' || *s == '\n')
		s++;
	return *s == '\0';
}

/* Text that does not fit ends with the sign (dw_sign) in the last cell;
 * where not even the sign fits, it is clipped and the audit says so. */
int
dw_put(int y, int x, const char *s, int cells, attr_t a)
{
	char stackbuf[512], *buf = stackbuf;
	size_t len, i, o;
	int used;

	if (s == NULL || cells <= 0)
		return 0;
	len = strlen(s);
	if (len + 8 > sizeof stackbuf)
		buf = gw_xmalloc(len + 8);
	i = copy_fit(s, len, cells, buf, &o, &used);
	if (i < len && !only_blanks(s + i)) {
		const char *g = dw_sign();
		int gw = sign_cells(g);

		if (cells > gw) {
			copy_fit(s, len, cells - gw, buf, &o, &used);
			while (o > 0 && buf[o - 1] == ' ') {
				o--;
				used--;
			}
			memcpy(buf + o, g, strlen(g) + 1);
			o += strlen(g);
			used += gw;
		} else {
			dw_audit_cut(s, len, cells, "cut");
		}
	}
	attrset(a);
	mvaddnstr(y, x, buf, (int)o);
	attrset(A_NORMAL);
	if (buf != stackbuf)
		free(buf);
	return used;
}

int
dw_put_pad(int y, int x, const char *s, int cells, attr_t a)
{
	int used = dw_put(y, x, s, cells, a);

	if (used < cells)
		dw_fill(y, x + used, cells - used, a);
	return cells;
}

int
dw_put_right(int y, int x, const char *s, int cells, attr_t a)
{
	int w = gw_text_cells(s);

	if (w >= cells)
		return dw_put(y, x, s, cells, a);
	return dw_put(y, x + cells - w, s, w, a);
}

int
dw_printf(int y, int x, int cells, attr_t a, const char *fmt, ...)
{
	char *s;
	va_list ap;
	int n, r;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		return 0;
	s = gw_xmalloc((size_t)n + 1);
	va_start(ap, fmt);
	vsnprintf(s, (size_t)n + 1, fmt, ap);
	va_end(ap);
	r = dw_put(y, x, s, cells, a);
	free(s);
	return r;
}

void
dw_fill(int y, int x, int cells, attr_t a)
{
	if (cells <= 0)
		return;
	attrset(a);
	mvhline(y, x, ' ', cells);
	attrset(A_NORMAL);
}

static void
add_line(char ***lines, size_t *n, const char *s, size_t len)
{
	while (len > 0 && s[len - 1] == ' ')
		len--;
	*lines = gw_xrealloc(*lines, (*n + 1) * sizeof **lines);
	(*lines)[(*n)++] = gw_xstrndup(s, len);
}

size_t
dw_wrap(const char *s, int width, char ***out)
{
	return dw_wrap_hang(s, width, width, out);
}

/* May a line break before wc, a character of w cells that is not the
 * first of the line?  Before and after CJK characters, except before
 * closing and after opening punctuation (ink: the last character but
 * blanks before it). */
static int
cjk_break(wchar_t wc, int w, int prev_wide, wchar_t ink)
{
	if (gw_text_no_break_before((unsigned long)wc) ||
	    gw_text_no_break_after((unsigned long)ink))
		return 0;
	return w == 2 || (prev_wide && w > 0);
}

/* What fits of one line from p in width cells. */
typedef struct wrap_scan {
	const char *end;    /* the first character that does not fit, or the
	                     * line's '\n' or NUL */
	const char *brk;    /* the last place to break, or NULL */
	const char *next;   /* where the next line starts after brk */
	const char *last;   /* the last character that fits */
	wchar_t last_wc;    /* the character at last */
	const char *slash;  /* just after the last '/' that fits, or NULL:
	                     * where a path longer than the line breaks */
} wrap_scan;

static void
wrap_scan_line(const char *p, int width, wrap_scan *sc)
{
	const char *q = p;
	int cells = 0, prev_wide = 0;
	wchar_t ink = 0;      /* the last character before q but blanks */

	memset(sc, 0, sizeof *sc);
	while (*q && *q != '\n') {
		wchar_t wc;
		int w, bad;
		size_t r = next_char(q, strlen(q), &wc, &w, &bad);
		int blank = !bad && wc == L' ';

		if (blank) {
			if (!gw_text_no_break_after((unsigned long)ink)) {
				sc->brk = q;
				sc->next = q + r;
			}
		} else if (q > p && cjk_break(wc, w, prev_wide, ink)) {
			sc->brk = q;
			sc->next = q;
		}
		if (cells + w > width)
			break;
		cells += w;
		prev_wide = (w == 2);
		if (!blank)
			ink = wc;
		sc->last = q;
		sc->last_wc = wc;
		q += r;
		if (wc == L'/' && q[0] != '\0' && q[0] != ' ' && q[0] != '\n')
			sc->slash = q;
	}
	sc->end = q;
}

/* One word longer than the line: cut after its last '/' (a path), else
 * at a character, before an opening bracket that would end the line.
 * Returns where the next line starts. */
static const char *
cut_word(char ***lines, size_t *n, const char *p, const wrap_scan *sc)
{
	const char *q = sc->end;

	if (q == p) {
		wchar_t wc;
		int w, bad;

		q += next_char(q, strlen(q), &wc, &w, &bad);
	} else if (sc->slash != NULL && sc->slash > p) {
		q = sc->slash;
	} else if (sc->last != NULL && sc->last > p &&
	           gw_text_no_break_after((unsigned long)sc->last_wc)) {
		q = sc->last;
	}
	add_line(lines, n, p, (size_t)(q - p));
	return q;
}

size_t
dw_wrap_hang(const char *s, int first, int rest, char ***out)
{
	char **lines = NULL;
	size_t n = 0;
	const char *p = s ? s : "";

	if (first < 2)
		first = 2;
	if (rest < 2)
		rest = 2;
	for (;;) {
		wrap_scan sc;

		wrap_scan_line(p, n == 0 ? first : rest, &sc);
		if (*sc.end == '\0' || *sc.end == '\n') {
			add_line(&lines, &n, p, (size_t)(sc.end - p));
			if (*sc.end == '\0')
				break;
			p = sc.end + 1;
			continue;
		}
		if (sc.brk != NULL && sc.brk > p) {
			add_line(&lines, &n, p, (size_t)(sc.brk - p));
			p = sc.next;
		} else {
			p = cut_word(&lines, &n, p, &sc);
		}
		while (*p == ' ')
			p++;
		if (*p == '\0')
			break;
	}
	*out = lines;
	return n;
}

/* The last row that fits of text that goes on: cut by the wrapping
 * rules (no opening bracket right before the sign), then the sign. */
static void
put_last_row(int y, int x, int w, const char *line, attr_t a)
{
	const char *g = dw_sign();
	int gw = sign_cells(g), used;
	char **cut;
	size_t nc = dw_wrap(line, w - gw, &cut);

	used = dw_put(y, x, nc ? cut[0] : "", w - gw, a);
	gw_strs_free(cut, nc);
	dw_put(y, x + used, g, gw, a);
}

int
dw_wrap_put(int y, int x, int w, int maxrows, const char *s, attr_t a)
{
	char **lines;
	size_t n = dw_wrap(s, w, &lines), i;
	int rows = 0;

	if (maxrows < 1 && !only_blanks(s ? s : ""))
		dw_audit_cut(s, strlen(s), w, "no row for");
	for (i = 0; i < n && rows < maxrows; i++, rows++) {
		if (rows == maxrows - 1 && i + 1 < n)
			put_last_row(y + rows, x, w, lines[i], a);
		else
			dw_put(y + rows, x, lines[i], w, a);
	}
	gw_strs_free(lines, n);
	return rows;
}

int
dw_wrap_rows(const char *s, int w)
{
	char **lines;
	size_t n = dw_wrap(s, w, &lines);

	gw_strs_free(lines, n);
	return (int)n;
}

/* ---- scrolling lists ------------------------------------------------- */

ui_rect
ui_rect_cap(ui_rect r)
{
	if (r.w > UI_CONTENT_MAX_W)
		r.w = UI_CONTENT_MAX_W;
	return r;
}

void
ui_list_fix(ui_list *l, int h)
{
	if (h < 1)
		h = 1;
	if (l->cur >= l->n)
		l->cur = l->n - 1;
	if (l->cur < 0)
		l->cur = 0;
	if (l->top > l->cur)
		l->top = l->cur;
	if (l->cur >= l->top + h)
		l->top = l->cur - h + 1;
	if (l->top > l->n - h)
		l->top = l->n - h;
	if (l->top < 0)
		l->top = 0;
}

int
ui_list_key(ui_list *l, ui_key k, int h)
{
	if (l->n <= 0)
		return 0;
	if (ui_key_fn(k, KEY_UP))
		l->cur--;
	else if (ui_key_fn(k, KEY_DOWN))
		l->cur++;
	else if (ui_key_fn(k, KEY_PPAGE))
		l->cur -= h > 1 ? h - 1 : 1;
	else if (ui_key_fn(k, KEY_NPAGE))
		l->cur += h > 1 ? h - 1 : 1;
	else if (ui_key_fn(k, KEY_HOME))
		l->cur = 0;
	else if (ui_key_fn(k, KEY_END))
		l->cur = l->n - 1;
	else
		return 0;
	if (l->cur < 0)
		l->cur = 0;
	if (l->cur >= l->n)
		l->cur = l->n - 1;
	ui_list_fix(l, h);
	return 1;
}

/* A scroll mark at (y, x) with a blank before it, so that it never
 * touches the row's text ("with v" reads as a word). */
static void
list_mark(int y, int x, const char *mark)
{
	dw_unsplit(y, x - 1);
	dw_unsplit(y, x);
	dw_put(y, x - 1, " ", 1, A_NORMAL);
	dw_put(y, x, mark, 1, ui_attr(UI_C_DIM));
}

void
ui_list_marks(const ui_list *l, int y, int x, int h)
{
	if (l->top > 0)
		list_mark(y, x, "^");
	if (l->top + h < l->n)
		list_mark(y + h - 1, x, "v");
}
