/* SPDX-License-Identifier: GPL-3.0-or-later */
/* field.c: a one-line text entry field in wide characters. */
#include "field.h"
#include "draw.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>
#include <wctype.h>

static void
wipe(wchar_t *b, size_t n)
{
	volatile wchar_t *v = b;

	while (n--)
		*v++ = 0;
}

static void
reserve(ui_field *f, size_t n)
{
	wchar_t *nb;

	if (n + 1 > f->cap) {
		/* a new buffer, the old one wiped: no stray copy of a
		 * secret */
		nb = gw_xcalloc((n + 1) * 2, sizeof *nb);
		if (f->buf) {
			memcpy(nb, f->buf, f->cap * sizeof *nb);
			wipe(f->buf, f->cap);
			free(f->buf);
		}
		f->buf = nb;
		f->cap = (n + 1) * 2;
	}
}

void
ui_field_set(ui_field *f, const char *s)
{
	mbstate_t st;
	size_t len = s ? strlen(s) : 0, i = 0;

	f->len = 0;
	reserve(f, len);
	memset(&st, 0, sizeof st);
	while (i < len) {
		wchar_t wc;
		size_t r = mbrtowc(&wc, s + i, len - i, &st);

		if (r == (size_t)-1 || r == (size_t)-2 || r == 0) {
			memset(&st, 0, sizeof st);
			wc = L'?';
			r = 1;
		}
		f->buf[f->len++] = wc;
		i += r;
	}
	f->buf[f->len] = 0;
	f->cur = f->len;
	f->left = 0;
}

/* Character i as UTF-8 into mb; its length. */
static size_t
char_mb(const ui_field *f, size_t i, char mb[MB_LEN_MAX])
{
	mbstate_t st;
	size_t r;

	memset(&st, 0, sizeof st);
	r = wcrtomb(mb, f->buf[i], &st);
	if (r == (size_t)-1) {
		mb[0] = '?';
		r = 1;
	}
	return r;
}

char *
ui_field_get(const ui_field *f)
{
	char mb[MB_LEN_MAX], *out;
	size_t i, n = 0;

	for (i = 0; i < f->len; i++)
		n += char_mb(f, i, mb);
	out = gw_xmalloc(n + 1);
	for (i = 0, n = 0; i < f->len; i++) {
		size_t r = char_mb(f, i, mb);

		memcpy(out + n, mb, r);
		n += r;
	}
	out[n] = '\0';
	memset(mb, 0, sizeof mb);
	return out;
}

int
ui_field_empty(const ui_field *f)
{
	return f->len == 0;
}

int
ui_field_equals(const ui_field *f, const char *s)
{
	char *t = ui_field_get(f);
	int eq = strcmp(t, s ? s : "") == 0;

	free(t);
	return eq;
}

static void
insert(ui_field *f, wchar_t wc)
{
	size_t max = f->max ? f->max : 4096;

	if (f->len >= max)
		return;
	reserve(f, f->len + 1);
	memmove(f->buf + f->cur + 1, f->buf + f->cur,
	        (f->len - f->cur) * sizeof *f->buf);
	f->buf[f->cur++] = wc;
	f->len++;
	f->buf[f->len] = 0;
}

static void
delete_at(ui_field *f, size_t at, size_t n)
{
	if (at >= f->len)
		return;
	if (at + n > f->len)
		n = f->len - at;
	memmove(f->buf + at, f->buf + at + n,
	        (f->len - at - n) * sizeof *f->buf);
	f->len -= n;
	f->buf[f->len] = 0;
	if (f->cur > at + n)
		f->cur -= n;
	else if (f->cur > at)
		f->cur = at;
}

/* A character: Ctrl-A/E/U/K, Backspace, or one to insert. */
static int
char_key(ui_field *f, wint_t c)
{
	if (c == UI_CTRL('a')) {
		f->cur = 0;
		return UI_FIELD_MOVED;
	}
	if (c == UI_CTRL('e')) {
		f->cur = f->len;
		return UI_FIELD_MOVED;
	}
	if (c == UI_CTRL('u')) {
		delete_at(f, 0, f->cur);
		return UI_FIELD_CHANGED;
	}
	if (c == UI_CTRL('k')) {
		delete_at(f, f->cur, f->len - f->cur);
		return UI_FIELD_CHANGED;
	}
	if (c == 127 || c == 8) {
		if (f->cur > 0)
			delete_at(f, f->cur - 1, 1);
		return UI_FIELD_CHANGED;
	}
	if (c < 0x20 || c == 0x7f || (c >= 0x80 && c < 0xa0))
		return UI_FIELD_NO;
	if (f->digits_only && !(c >= L'0' && c <= L'9'))
		return UI_FIELD_NO;
	if (wcwidth((wchar_t)c) < 0)
		return UI_FIELD_NO;
	insert(f, (wchar_t)c);
	return UI_FIELD_CHANGED;
}

/* A function key: Backspace, Delete, Left/Right, Home/End. */
static int
fn_key(ui_field *f, int fn)
{
	switch (fn) {
	case KEY_BACKSPACE:
		if (f->cur > 0)
			delete_at(f, f->cur - 1, 1);
		return UI_FIELD_CHANGED;
	case KEY_DC:
		delete_at(f, f->cur, 1);
		return UI_FIELD_CHANGED;
	case KEY_LEFT:
		if (f->cur > 0)
			f->cur--;
		return UI_FIELD_MOVED;
	case KEY_RIGHT:
		if (f->cur < f->len)
			f->cur++;
		return UI_FIELD_MOVED;
	case KEY_HOME:
		f->cur = 0;
		return UI_FIELD_MOVED;
	case KEY_END:
		f->cur = f->len;
		return UI_FIELD_MOVED;
	default:
		return UI_FIELD_NO;
	}
}

int
ui_field_key(ui_field *f, ui_key k)
{
	if (f->buf == NULL)
		ui_field_set(f, "");
	return k.fn == 0 ? char_key(f, k.ch) : fn_key(f, k.fn);
}

static int
wcells(wchar_t wc)
{
	int w = wcwidth(wc);

	return w < 0 ? 1 : w;
}

void
ui_field_draw(ui_ctx *u, ui_field *f, int y, int x, int w, int focused)
{
	attr_t a = ui_attr(focused ? UI_C_FIELD_FOCUS : UI_C_FIELD);
	size_t i;
	int used = 0, avail = w - 1;   /* one cell for the cursor at the end */
	char *shown;
	wchar_t save;
	size_t end;

	if (f->buf == NULL)
		ui_field_set(f, "");
	if (f->secret) {
		/* no echo: the field stays empty, the cursor at its start */
		dw_put_pad(y, x, "", w, a);
		if (focused) {
			u->cursor_y = y;
			u->cursor_x = x;
		}
		return;
	}
	if (avail < 1)
		avail = 1;
	/* scroll so that the cursor is visible */
	if (f->left > f->cur)
		f->left = f->cur;
	for (;;) {
		int c = 0;

		for (i = f->left; i < f->cur; i++)
			c += wcells(f->buf[i]);
		if (c <= avail || f->left >= f->cur)
			break;
		f->left++;
	}
	/* the visible part */
	for (end = f->left; end < f->len; end++) {
		int cw = wcells(f->buf[end]);

		if (used + cw > w)
			break;
		used += cw;
	}
	save = f->buf[end];
	f->buf[end] = 0;
	{
		ui_field tmp = *f;

		tmp.buf = f->buf + f->left;
		tmp.len = end - f->left;
		shown = ui_field_get(&tmp);
	}
	f->buf[end] = save;
	dw_put_pad(y, x, shown, w, a);
	free(shown);
	if (end < f->len && w > 1) {
		/* more text right of the field (the cursor moved left): the
		 * sign in its last cell */
		dw_unsplit(y, x + w - 1);
		dw_put(y, x + w - 1, dw_utf8() ? dw_sign() : ">", 1, a);
	}
	if (focused) {
		int c = 0;

		for (i = f->left; i < f->cur; i++)
			c += wcells(f->buf[i]);
		u->cursor_y = y;
		u->cursor_x = x + (c < w ? c : w - 1);
	}
}

void
ui_field_free(ui_field *f)
{
	if (f->buf)
		wipe(f->buf, f->cap);
	free(f->buf);
	memset(f, 0, sizeof *f);
}
