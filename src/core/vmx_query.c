/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vmx_query.c: what a parsed .vmx document holds (vmx.h): its values by
 * key, its entries in order, its encoding and line ending, and its bytes
 * back (serialized, or compared with another document's). */
#include "vmx_int.h"

#include <stdlib.h>
#include <string.h>

/* ---- queries --------------------------------------------------------- */

const char *
gw_vmx_name(const gw_vmx *v)
{
	return v ? vmx_vname(v) : NULL;
}

const char *
gw_vmx_get(const gw_vmx *v, const char *key)
{
	const struct slot *s = vmx_lookup(v, key);

	return s ? v->lines[s->last].value : NULL;
}

int
gw_vmx_has_pair(const gw_vmx *v, const char *key, const char *value)
{
	const struct slot *s = vmx_lookup(v, key);

	for (size_t i = s ? s->first : NONE; i != NONE; i = v->lines[i].next)
		if (strcmp(v->lines[i].value, value) == 0)
			return 1;
	return 0;
}

int
gw_vmx_line_of(const gw_vmx *v, const char *key)
{
	const struct slot *s = vmx_lookup(v, key);

	return s ? (int)(s->last + 1) : 0;
}

int
gw_vmx_malformed_line_of(const gw_vmx *v, const char *key)
{
	size_t i;

	if (v == NULL || key == NULL || v->nmalformed == 0)
		return 0;
	for (i = 0; i < v->nlines; i++)
		if (v->lines[i].kind == L_MALFORMED && v->lines[i].key &&
		    vmx_key_eq(v->lines[i].key, key))
			return (int)(i + 1);
	return 0;
}

int
gw_vmx_get_bool(const gw_vmx *v, const char *key, int dflt)
{
	const char *s = gw_vmx_get(v, key);

	if (s == NULL)
		return dflt;
	if (vmx_key_eq(s, "true") || vmx_key_eq(s, "yes") || strcmp(s, "1") == 0)
		return 1;
	if (vmx_key_eq(s, "false") || vmx_key_eq(s, "no") || strcmp(s, "0") == 0)
		return 0;
	return dflt;
}

size_t
gw_vmx_count(const gw_vmx *v)
{
	return v ? v->nentries : 0;
}

const char *
gw_vmx_key_at(const gw_vmx *v, size_t i)
{
	return v && i < v->nentries ? v->lines[v->entries[i]].key : NULL;
}

const char *
gw_vmx_value_at(const gw_vmx *v, size_t i)
{
	return v && i < v->nentries ? v->lines[v->entries[i]].value : NULL;
}

/* Have the lines la and lb the same key (byte for byte) and, unless
 * key_only, the same value? */
static int
entry_same(const struct vline *la, const struct vline *lb, int key_only)
{
	/* the same bytes parse the same (an entry's line never starts with
	 * the byte order mark, which only the first line may skip) */
	if (la->len == lb->len && memcmp(la->text, lb->text, la->len) == 0)
		return 1;
	return strcmp(la->key, lb->key) == 0 &&
	       (key_only || strcmp(la->value, lb->value) == 0);
}

size_t
gw_vmx_next_changed(const gw_vmx *a, const gw_vmx *b, size_t i, int key_only)
{
	size_t n;

	if (a == NULL || b == NULL)
		return i;
	n = a->nentries < b->nentries ? a->nentries : b->nentries;
	for (; i < n; i++)
		if (!entry_same(&a->lines[a->entries[i]],
		                &b->lines[b->entries[i]], key_only))
			break;
	return i;
}

const char *
gw_vmx_encoding(const gw_vmx *v)
{
	return gw_vmx_get(v, ".encoding");
}

const char *
gw_vmx_eol(const gw_vmx *v)
{
	size_t i;

	if (v)
		for (i = 0; i < v->nlines; i++)
			if (v->lines[i].eol)
				return v->lines[i].eol == 2 ? "\r\n" : "\n";
	return "\n";
}

/* How many bytes from line i on lie one after another in memory (the
 * lines as read, side by side in the document's copy of the input), and
 * the index of the first line after them in *next. */
static size_t
run_of(const gw_vmx *v, size_t i, size_t *next)
{
	const char *end = v->lines[i].text + v->lines[i].len;
	size_t n = v->lines[i].len;

	for (i++; i < v->nlines && v->lines[i].text == end; i++) {
		end += v->lines[i].len;
		n += v->lines[i].len;
	}
	*next = i;
	return n;
}

char *
gw_vmx_serialize(const gw_vmx *v, size_t *len)
{
	size_t total = 0, i, n;
	char *out, *p;

	for (i = 0; i < v->nlines; i++)
		total += v->lines[i].len;
	p = out = gw_xmalloc(total + 1);
	/* a run of lines as read at a time */
	for (i = 0; i < v->nlines; p += n) {
		const char *from = v->lines[i].text;

		n = run_of(v, i, &i);
		memcpy(p, from, n);
	}
	*p = '\0';
	if (len)
		*len = total;
	return out;
}

int
gw_vmx_same(const gw_vmx *a, const gw_vmx *b)
{
	size_t ia = 0, ib = 0, oa = 0, ob = 0, na = 0, nb = 0, n;
	const char *pa = NULL, *pb = NULL;

	/* the two byte streams side by side, a run of lines that lie one
	 * after another at a time: runs need not break in the same places
	 * for the bytes to be the same */
	for (;;) {
		if (oa == na) {
			if (ia == a->nlines)
				return ib == b->nlines && ob == nb;
			pa = a->lines[ia].text;
			na = run_of(a, ia, &ia);
			oa = 0;
			continue;
		}
		if (ob == nb) {
			if (ib == b->nlines)
				return 0;
			pb = b->lines[ib].text;
			nb = run_of(b, ib, &ib);
			ob = 0;
			continue;
		}
		n = na - oa < nb - ob ? na - oa : nb - ob;
		if (memcmp(pa + oa, pb + ob, n) != 0)
			return 0;
		oa += n;
		ob += n;
	}
}
