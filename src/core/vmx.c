/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vmx.c: a lossless .vmx document (see vmx.h).
 *
 * The document keeps one copy of the input bytes; every line points into
 * it until gw_vmx_set() rewrites the line, which then owns its bytes.
 * Lines are only ever rewritten or appended, never removed, so a line's
 * index + 1 is its line number for the whole life of the document.
 *
 * Line grammar (what counts as a well-formed entry):
 *   [ws] key [ws] '=' [ws] '"' raw-value '"' [ws] [ '#' comment ]
 *   [ws] key [ws] '=' [ws] bare-value                [ ws '#' comment ]
 * key is one or more of [A-Za-z0-9._:-]; raw-value is kept verbatim
 * (VMware's "|22"-style escapes are not decoded); a bare value ends at a
 * '#' that starts the value or follows whitespace, and is trimmed.
 * Blank lines and lines whose first non-blank byte is '#' (including the
 * "#!/usr/bin/vmware" shebang) are comments.  Anything else is malformed:
 * kept byte for byte, never an entry.  A UTF-8 byte order mark before the
 * first line is kept and skipped for parsing.
 *
 * Lookups go through a small open-addressing hash table (ASCII
 * case-insensitive) whose slots hold the first and last line of a key;
 * occurrences of one key are chained through vline.next, so parse, get,
 * set and append are all linear or better.
 */
#include "vmx_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- small helpers --------------------------------------------------- */

/* Each byte's classes: C_KEY a key byte [A-Za-z0-9._:-]; C_WS a blank
 * (space, tab, CR, FF, VT); C_CTL a control byte other than tab, or DEL.
 * The bytes from 128 up are none of them. */
enum { C_KEY = 1, C_WS = 2, C_CTL = 4 };
static const unsigned char byte_class[256] = {
	4, 4, 4, 4, 4, 4, 4, 4, 4, 2, 4, 6, 6, 6, 4, 4,
	4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4,
	2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 0,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0,
	0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 1,
	0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 4,
};

static int
is_ws(unsigned char c)
{
	return byte_class[c] & C_WS;
}

int
vmx_is_ws(unsigned char c)
{
	return is_ws(c);
}

static int
is_key_byte(unsigned char c)
{
	return byte_class[c] & C_KEY;
}

static int
is_ctl(unsigned char c)
{
	return byte_class[c] & C_CTL;
}

static unsigned char
lower(unsigned char c)
{
	return (unsigned char)(c + ((unsigned)(c - 'A') < 26u ? 32 : 0));
}

int
vmx_key_eq(const char *a, const char *b)
{
	for (; *a && *b; a++, b++)
		if (lower((unsigned char)*a) != lower((unsigned char)*b))
			return 0;
	return *a == *b;
}

/* The n bytes of a key at k hashed eight at a time (FNV-1a's steps on
 * words), each byte with bit 5 set: 'A' and 'a' hash alike (ASCII, any
 * case), as vmx_key_eq wants; the other bytes it merges ('@' and '`',
 * ...) only share a hash, which vmx_key_eq tells apart. */
static uint32_t
hash_bytes(const char *k, size_t n)
{
	const uint64_t bit5 = 0x2020202020202020ULL;
	uint64_t h = 0xcbf29ce484222325ULL ^ n, w;

	for (; n >= 8; k += 8, n -= 8) {
		memcpy(&w, k, 8);
		h = (h ^ (w | bit5)) * 0x100000001b3ULL;
	}
	for (w = 0; n > 0; n--)
		w = w << 8 | (unsigned char)k[n - 1];
	h = (h ^ (w | bit5)) * 0x100000001b3ULL;
	return (uint32_t)(h ^ (h >> 32));
}

static uint32_t
key_hash(const char *k)
{
	return hash_bytes(k, strlen(k));
}

int
vmx_valid_key(const char *k)
{
	if (k == NULL || *k == '\0')
		return 0;
	for (; *k; k++)
		if (!is_key_byte((unsigned char)*k))
			return 0;
	return 1;
}

const char *
vmx_vname(const gw_vmx *v)
{
	return v->name ? v->name : "<vmx>";
}

/* ---- line parsing ---------------------------------------------------- */

static void
line_clear(struct vline *l)
{
	if (l->kown)
		free(l->key);
	l->key = NULL;
	l->value = NULL;
	l->why = NULL;
	l->vstart = l->vend = 0;
	l->quoted = 0;
	l->kown = 0;
	l->next = NONE;
}

/* n bytes for l's key block: at *store (moved past them), or malloc'ed */
static char *
key_block(struct vline *l, size_t n, char **store)
{
	char *k;

	if (store == NULL) {
		l->kown = 1;
		return l->key = gw_xmalloc(n);
	}
	k = *store;
	*store += n;
	return l->key = k;
}

static void
set_malformed(struct vline *l, const char *why, const char *kp, size_t kplen,
              char **store)
{
	l->kind = L_MALFORMED;
	l->why = why;
	if (kplen) {
		char *k = key_block(l, kplen + 1, store);

		memcpy(k, kp, kplen);
		k[kplen] = '\0';
	}
}

/* The key part of a line, for malformed_line_of(): its first token. */
static const char *
first_token(const char *s, size_t p, size_t end, size_t *len)
{
	const char *kp = s + p;
	size_t n;

	while (kp < s + end && *kp == '"')
		kp++;
	for (n = 0; kp + n < s + end; n++) {
		unsigned char c = (unsigned char)kp[n];

		if (is_ws(c) || c == '=' || c == '"')
			break;
	}
	*len = n;
	return kp;
}

/* key [ws] '=' from p: [*ks, *ke) the key, *eq the '='.  NULL or why the
 * line is malformed. */
static const char *
scan_key(const char *s, size_t p, size_t end, size_t *ks, size_t *ke,
         size_t *eq)
{
	const char *q = memchr(s + p, '=', end - p);
	size_t i;

	if (q == NULL)
		return N_("no '=' sign");
	*eq = (size_t)(q - s);
	*ks = p;
	*ke = *eq;
	while (*ke > *ks && is_ws((unsigned char)s[*ke - 1]))
		(*ke)--;
	if (*ke == *ks)
		return N_("no key before '='");
	for (i = *ks; i < *ke; i++)
		if (!is_key_byte((unsigned char)s[i]))
			return N_("invalid characters in the key");
	return NULL;
}

/* '"' raw-value '"' [ws] ['#' comment] from p (at the quote); *ctl: has
 * the value a control byte?  Eight bytes at a time up to the word with
 * the closing quote, then a byte at a time. */
static const char *
scan_quoted(const char *s, size_t p, size_t end, size_t *vs, size_t *ve,
            int *ctl)
{
	size_t q = p + 1;
	uint64_t bad = 0, w;

	for (; q + 8 <= end; q += 8) {
		memcpy(&w, s + q, 8);
		if (gw_word_eq(w, '"') != 0)
			break;
		bad |= (gw_word_below(w, 0x20) & ~gw_word_eq(w, '\t')) |
		       gw_word_eq(w, 0x7f);
	}
	for (; q < end && s[q] != '"'; q++)
		bad |= is_ctl((unsigned char)s[q]);
	if (q == end)
		return N_("unterminated quote");
	*ctl = bad != 0;
	*vs = p + 1;
	*ve = q;
	p = q + 1;
	while (p < end && is_ws((unsigned char)s[p]))
		p++;
	if (p < end && s[p] != '#')
		return N_("text after the closing quote");
	return NULL;
}

/* bare-value [ws '#' comment] from p, trimmed. */
static const char *
scan_bare(const char *s, size_t p, size_t end, size_t *vs, size_t *ve)
{
	*vs = p;
	while (p < end && !(s[p] == '#' &&
	                    (p == *vs || is_ws((unsigned char)s[p - 1]))))
		p++;
	*ve = p;
	while (*ve > *vs && is_ws((unsigned char)s[*ve - 1]))
		(*ve)--;
	if (memchr(s + *vs, '"', *ve - *vs) != NULL)
		return N_("unterminated quote");
	return NULL;
}

/* The value after the '=' at eq; *quoted says which form it has. */
static const char *
scan_value(const char *s, size_t eq, size_t end, size_t *vs, size_t *ve,
           int *quoted)
{
	size_t p = eq + 1, i;
	const char *why;
	int ctl = 0;

	while (p < end && is_ws((unsigned char)s[p]))
		p++;
	*quoted = p < end && s[p] == '"';
	if (*quoted) {
		why = scan_quoted(s, p, end, vs, ve, &ctl);
	} else if ((why = scan_bare(s, p, end, vs, ve)) == NULL) {
		for (i = *vs; i < *ve; i++)
			ctl |= is_ctl((unsigned char)s[i]);
	}
	if (why)
		return why;
	if (ctl)
		return N_("control character in the value");
	return NULL;
}

/* The well-formed line's key from p: a run of key bytes, blanks, then
 * '='.  0 when the line is not that (scan_key then says why), else the
 * key's end with *eq set.  The run needs no bound: s[end] is never a key
 * byte (vmx_int.h). */
static size_t
fast_key(const char *s, size_t p, size_t end, size_t *eq)
{
	size_t ke, q;

	for (ke = p; is_key_byte((unsigned char)s[ke]); ke++)
		;
	for (q = ke; q < end && is_ws((unsigned char)s[q]); q++)
		;
	if (ke == p || q == end || s[q] != '=')
		return 0;
	*eq = q;
	return ke;
}

/* Classify l (text, len and eol already set).  skip: bytes at the start
 * not to parse (a byte order mark). */
void
vmx_parse_line(struct vline *l, size_t skip, char **store)
{
	const char *s = l->text, *kp, *why = NULL;
	size_t end = l->len - l->eol, p = skip, ks, ke, eq, vs, ve, kplen;
	int quoted = 0;
	char *k;

	line_clear(l);
	while (p < end && is_ws((unsigned char)s[p]))
		p++;
	if (p == end) {
		l->kind = L_BLANK;
		return;
	}
	if (s[p] == '#') {
		l->kind = L_COMMENT;
		return;
	}
	ks = p;
	if ((ke = fast_key(s, p, end, &eq)) == 0)
		why = scan_key(s, p, end, &ks, &ke, &eq);
	if (why == NULL)
		why = scan_value(s, eq, end, &vs, &ve, &quoted);
	if (why) {
		kp = first_token(s, p, end, &kplen);
		set_malformed(l, why, kp, kplen, store);
		return;
	}
	l->kind = L_ENTRY;
	l->quoted = (unsigned char)quoted;
	l->vstart = vs;
	l->vend = ve;
	k = key_block(l, (ke - ks) + 1 + (ve - vs) + 1, store);
	memcpy(k, s + ks, ke - ks);
	k[ke - ks] = '\0';
	l->value = k + (ke - ks) + 1;
	memcpy(l->value, s + vs, ve - vs);
	l->value[ve - vs] = '\0';
	l->hash = hash_bytes(k, ke - ks);
}

/* ---- document storage ------------------------------------------------ */

size_t
vmx_push_line(gw_vmx *v, const char *text, size_t len, char *own)
{
	struct vline *l;

	if (v->nlines == v->caplines) {
		v->caplines = v->caplines ? v->caplines * 2 : 64;
		v->lines = gw_xrealloc(v->lines, v->caplines * sizeof *v->lines);
	}
	l = &v->lines[v->nlines];
	memset(l, 0, sizeof *l);
	l->text = text;
	l->len = len;
	l->own = own;
	l->next = NONE;
	if (len >= 2 && text[len - 2] == '\r' && text[len - 1] == '\n')
		l->eol = 2;
	else if (len >= 1 && text[len - 1] == '\n')
		l->eol = 1;
	return v->nlines++;
}

static struct slot *
find_slot(const gw_vmx *v, const char *key, uint32_t h)
{
	size_t mask, i;

	if (v->nslots == 0)
		return NULL;
	mask = v->nslots - 1;
	for (i = h & mask;; i = (i + 1) & mask) {
		struct slot *s = &v->slots[i];

		if (s->first == NONE)
			return s;
		if (s->hash == h && vmx_key_eq(v->lines[s->first].key, key))
			return s;
	}
}

/* An empty index of n slots (a power of two). */
static void
new_slots(gw_vmx *v, size_t n)
{
	size_t i;

	v->nslots = n;
	v->slots = gw_xmalloc(n * sizeof *v->slots);
	for (i = 0; i < n; i++)
		v->slots[i].first = v->slots[i].last = NONE;
}

static void
grow_slots(gw_vmx *v)
{
	struct slot *old = v->slots;
	size_t oldn = v->nslots, i;

	new_slots(v, oldn ? oldn * 2 : 64);
	for (i = 0; i < oldn; i++)
		if (old[i].first != NONE) {
			struct slot *s = find_slot(v, v->lines[old[i].first].key,
			                           old[i].hash);
			*s = old[i];
		}
	free(old);
}

/* Record line idx (an entry) in the index and the entry list. */
void
vmx_index_entry(gw_vmx *v, size_t idx)
{
	const char *key = v->lines[idx].key;
	uint32_t h = v->lines[idx].hash;
	struct slot *s;

	if ((v->used + 1) * 2 > v->nslots)
		grow_slots(v);
	s = find_slot(v, key, h);
	if (s->first == NONE) {
		s->first = s->last = idx;
		s->hash = h;
		v->used++;
	} else {
		v->lines[s->last].next = idx;
		s->last = idx;
	}
	if (v->nentries == v->capentries) {
		v->capentries = v->capentries ? v->capentries * 2 : 64;
		v->entries = gw_xrealloc(v->entries,
		                         v->capentries * sizeof *v->entries);
	}
	v->entries[v->nentries++] = idx;
}

const struct slot *
vmx_lookup(const gw_vmx *v, const char *key)
{
	const struct slot *s;

	if (v == NULL || key == NULL || *key == '\0')
		return NULL;
	s = find_slot(v, key, key_hash(key));
	return s && s->first != NONE ? s : NULL;
}

/* ---- parse / free ---------------------------------------------------- */

int
gw_vmx_parse(gw_vmx **out, const char *data, size_t len, const char *name,
             gw_err *e)
{
	const char *nm = name ? name : "<vmx>";
	gw_vmx *v;
	size_t p, nul_at, nlines = 0;
	char *store;

	*out = NULL;
	if (data == NULL || len == 0) {
		gw_err_set(e, _("%s: the file is empty; expected a .vmx text file"),
		           nm);
		return -1;
	}
	if (vmx_looks_binary(data, len, &nul_at, &nlines)) {
		if (len >= 2 && (((unsigned char)data[0] == 0xff &&
		                  (unsigned char)data[1] == 0xfe) ||
		                 ((unsigned char)data[0] == 0xfe &&
		                  (unsigned char)data[1] == 0xff)))
			gw_err_set(e, _("%s: looks like UTF-16 text; expected a .vmx "
			                "text file (UTF-8 or the .encoding's bytes)"),
			           nm);
		else if (nul_at != NONE)
			gw_err_set(e, _("%s: binary data (NUL byte at offset %zu); "
			                "expected a .vmx text file"), nm, nul_at);
		else
			gw_err_set(e, _("%s: binary data (control bytes); "
			                "expected a .vmx text file"), nm);
		return -1;
	}

	v = gw_xcalloc(1, sizeof *v);
	v->name = gw_xstrdup(nm);
	v->data = gw_xmalloc(len + 1);
	memcpy(v->data, data, len);
	v->data[len] = '\0';
	v->size = len;
	v->keys = gw_xmalloc(len + 1);
	store = v->keys;
	/* room for every line and the keys a plan appends, and an index
	 * that need not grow while it is read */
	v->caplines = v->capentries = nlines + 32;
	v->lines = gw_xmalloc(v->caplines * sizeof *v->lines);
	v->entries = gw_xmalloc(v->capentries * sizeof *v->entries);
	for (p = 64; p < 2 * (nlines + 1); p *= 2)
		;
	new_slots(v, p);

	for (p = 0; p < len;) {
		const char *nl = memchr(v->data + p, '\n', len - p);
		size_t n = nl ? (size_t)(nl - (v->data + p)) + 1 : len - p;
		size_t idx = vmx_push_line(v, v->data + p, n, NULL), skip = 0;

		if (p == 0 && n >= 3 && memcmp(v->data, "\xef\xbb\xbf", 3) == 0)
			skip = 3;
		vmx_parse_line(&v->lines[idx], skip, &store);
		if (v->lines[idx].kind == L_ENTRY)
			vmx_index_entry(v, idx);
		else if (v->lines[idx].kind == L_MALFORMED)
			v->nmalformed++;
		p += n;
	}
	v->nkeys = (size_t)(store - v->keys);
	*out = v;
	return 0;
}

int
gw_vmx_load(gw_vmx **out, const char *path, gw_err *e)
{
	return gw_vmx_load_fd(out, path, -1, e);
}

int
gw_vmx_load_fd(gw_vmx **out, const char *path, int fd, gw_err *e)
{
	char *data = NULL;
	size_t len = 0;
	int rc;

	*out = NULL;
	if ((fd < 0 ? gw_read_file(path, VMX_MAX_BYTES, &data, &len, e)
	            : gw_read_fd(fd, path, VMX_MAX_BYTES, &data, &len, e)) != 0)
		return -1;
	rc = gw_vmx_parse(out, data, len, path, e);
	free(data);
	return rc;
}

void
gw_vmx_free(gw_vmx *v)
{
	size_t i;

	if (v == NULL)
		return;
	for (i = 0; i < v->nlines; i++) {
		if (v->lines[i].kown)
			free(v->lines[i].key);
		free(v->lines[i].own);
	}
	free(v->keys);
	free(v->lines);
	free(v->entries);
	free(v->slots);
	free(v->data);
	free(v->name);
	free(v);
}
