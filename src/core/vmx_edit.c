/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vmx_edit.c: changing a .vmx document in place (gw_vmx_set): a set
 * replaces the value of the last line of a key, keeping its quoting and
 * comment; a new key is appended in the file's own line ending.  And the
 * copy of a document to change (gw_vmx_dup). */
#include "vmx_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- editing --------------------------------------------------------- */

/* Give line l new bytes (owned), keeping nothing of the old text. */
static void
line_replace(struct vline *l, char *text, size_t len)
{
	free(l->own);
	l->own = text;
	l->text = text;
	l->len = len;
}

/* A bare (unquoted) value that reads back the same when written bare. */
static int
bare_safe(const char *value)
{
	const char *p;

	if (*value == '\0')
		return 0;
	for (p = value; *p; p++)
		if (vmx_is_ws((unsigned char)*p) || *p == '#' || *p == '"')
			return 0;
	return 1;
}

/* Rewrite the value bytes of entry line l in place. */
static void
rewrite_value(struct vline *l, const char *value)
{
	size_t vlen = strlen(value), head = l->vstart, tail = l->len - l->vend;
	int quote = !l->quoted && !(l->vend > l->vstart && bare_safe(value));
	size_t n = head + vlen + tail + (quote ? 2 : 0);
	char *t = gw_xmalloc(n + 1), *p = t;
	unsigned char eol = l->eol;

	memcpy(p, l->text, head);
	p += head;
	if (quote)
		*p++ = '"';
	memcpy(p, value, vlen);
	p += vlen;
	if (quote)
		*p++ = '"';
	memcpy(p, l->text + l->vend, tail);
	p += tail;
	*p = '\0';
	line_replace(l, t, n);
	l->eol = eol;
}

static int
is_utf8_name(const char *enc)
{
	return enc && (vmx_key_eq(enc, "UTF-8") || vmx_key_eq(enc, "UTF8"));
}

int
gw_vmx_set(gw_vmx *v, const char *key, const char *value, gw_err *e)
{
	const struct slot *s;
	const unsigned char *p;
	int nonascii = 0, ml;
	size_t idx, i;

	if (!vmx_valid_key(key)) {
		gw_err_set(e, _("%s: '%s' is not a valid .vmx key (expected "
		                "letters, digits, '.', '_', ':' or '-')"),
		           vmx_vname(v), key ? key : "");
		return -1;
	}
	if (value == NULL) {
		gw_err_set(e, _("%s: no value given for '%s'"), vmx_vname(v), key);
		return -1;
	}
	for (p = (const unsigned char *)value; *p; p++) {
		if (*p == '"' || *p < 0x20 || *p == 0x7f) {
			gw_err_set(e, _("%s: value for '%s' contains a double quote "
			                "or a control character; refusing to write it"),
			           vmx_vname(v), key);
			return -1;
		}
		if (*p >= 0x80)
			nonascii = 1;
	}
	/* Bytes beyond ASCII mean something only in the file's encoding. */
	if (nonascii && !is_utf8_name(gw_vmx_encoding(v))) {
		gw_err_set(e, _("%s: value for '%s' is not plain ASCII and the file "
		                "is not declared UTF-8 (.encoding = \"%s\"); "
		                "refusing to write it"),
		           vmx_vname(v), key,
		           gw_vmx_encoding(v) ? gw_vmx_encoding(v) : "");
		return -1;
	}

	s = vmx_lookup(v, key);
	if (s != NULL) {
		for (idx = s->first; idx != NONE; idx = v->lines[idx].next) {
			struct vline *l = &v->lines[idx];
			size_t next = l->next;

			rewrite_value(l, value);
			vmx_parse_line(l, idx == 0 && l->len >= 3 &&
			              memcmp(l->text, "\xef\xbb\xbf", 3) == 0 ? 3 : 0,
			              NULL);
			l->next = next;
			if (l->kind != L_ENTRY)  /* cannot happen: checked above */
				abort();
		}
		return 0;
	}

	ml = gw_vmx_malformed_line_of(v, key);
	if (ml > 0) {
		gw_err_set(e, _("%s:%d: line for '%s' is malformed (%s); fix it by "
		                "hand first"),
		           vmx_vname(v), ml, key, _(v->lines[ml - 1].why));
		return -1;
	}

	/* Append "key = "value"" with the file's ending, ending the last line
	 * first when the file has no final newline. */
	{
		const char *eol = gw_vmx_eol(v);
		size_t el = strlen(eol), kl = strlen(key), vl = strlen(value), n;
		char *t;

		if (v->nlines > 0 && v->lines[v->nlines - 1].eol == 0) {
			struct vline *last = &v->lines[v->nlines - 1];
			size_t ln = last->len;

			t = gw_xmalloc(ln + el + 1);
			memcpy(t, last->text, ln);
			memcpy(t + ln, eol, el + 1);
			line_replace(last, t, ln + el);
			last->eol = (unsigned char)el;
		}
		n = kl + 4 + vl + 1 + el;
		t = gw_xmalloc(n + 1);
		i = 0;
		memcpy(t + i, key, kl);
		i += kl;
		memcpy(t + i, " = \"", 4);
		i += 4;
		memcpy(t + i, value, vl);
		i += vl;
		t[i++] = '"';
		memcpy(t + i, eol, el + 1);
		idx = vmx_push_line(v, t, n, t);
		vmx_parse_line(&v->lines[idx], 0, NULL);
		if (v->lines[idx].kind != L_ENTRY)  /* cannot happen */
			abort();
		vmx_index_entry(v, idx);
	}
	return 0;
}

/* ---- copying ----------------------------------------------------------- */

/* to's key block as from's: at the same place in c's key store, or a
 * copy of its own (value pointing into it as in the original). */
static void
dup_key_block(struct vline *to, const struct vline *from, const gw_vmx *v,
              gw_vmx *c)
{
	size_t n;

	if (from->key == NULL)
		return;
	if (!from->kown) {
		to->key = c->keys + (from->key - v->keys);
	} else {
		n = from->value ? (size_t)(from->value - from->key) +
		                  strlen(from->value) + 1
		                : strlen(from->key) + 1;
		to->key = gw_xmalloc(n);
		memcpy(to->key, from->key, n);
	}
	if (from->value)
		to->value = to->key + (from->value - from->key);
}

gw_vmx *
gw_vmx_dup(const gw_vmx *v)
{
	gw_vmx *c;
	size_t i;

	if (v == NULL)
		return NULL;
	c = gw_xcalloc(1, sizeof *c);
	*c = *v;
	c->name = gw_xstrdup(v->name);
	c->data = gw_xmalloc(v->size + 1);
	memcpy(c->data, v->data, v->size + 1);
	c->keys = gw_xmalloc(v->nkeys ? v->nkeys : 1);
	memcpy(c->keys, v->keys, v->nkeys);
	c->lines = gw_xmalloc((v->caplines ? v->caplines : 1) * sizeof *c->lines);
	for (i = 0; i < v->nlines; i++) {
		const struct vline *f = &v->lines[i];
		struct vline *t = &c->lines[i];

		*t = *f;
		t->key = t->value = t->own = NULL;
		if (f->own) {
			t->own = gw_xmalloc(f->len + 1);
			memcpy(t->own, f->own, f->len);
			t->own[f->len] = '\0';
			t->text = t->own + (f->text - f->own);
		} else {
			t->text = c->data + (f->text - v->data);
		}
		dup_key_block(t, f, v, c);
	}
	c->entries = gw_xmalloc((v->capentries ? v->capentries : 1) *
	                        sizeof *c->entries);
	if (v->nentries)
		memcpy(c->entries, v->entries, v->nentries * sizeof *c->entries);
	c->slots = v->nslots ? gw_xmalloc(v->nslots * sizeof *c->slots) : NULL;
	if (v->nslots)
		memcpy(c->slots, v->slots, v->nslots * sizeof *c->slots);
	return c;
}
