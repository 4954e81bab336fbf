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
#include "gw.h"
#include "vmx.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#define VMX_MAX_BYTES ((size_t)16 << 20)
#define NONE ((size_t)-1)

enum { L_BLANK, L_COMMENT, L_ENTRY, L_MALFORMED };

struct vline {
	const char *text;   /* raw bytes, line ending included */
	size_t len;         /* bytes in text, line ending included */
	size_t vstart;      /* entry: value bytes are text[vstart..vend) */
	size_t vend;
	size_t next;        /* entry: next line with the same key, or NONE */
	char *key;          /* entry: "key\0value\0" (one block); malformed:
	                     * its key part or NULL */
	char *value;        /* entry: points into the key block */
	const char *why;    /* malformed: N_() reason */
	unsigned char eol;  /* 0 (none), 1 ("\n") or 2 ("\r\n") */
	unsigned char kind;
	unsigned char quoted;
	char *own;          /* text when this line owns it (malloc'ed), or NULL */
};

struct slot {
	size_t first;       /* line index, NONE = empty slot */
	size_t last;
	uint32_t hash;
};

struct gw_vmx {
	char *name;
	char *data;         /* the input bytes (copy) */
	size_t size;
	struct vline *lines;
	size_t nlines, caplines;
	size_t *entries;    /* line indexes of well-formed entries, in order */
	size_t nentries, capentries;
	size_t nmalformed;
	struct slot *slots; /* capacity is a power of two */
	size_t nslots, used;
};

/* ---- small helpers --------------------------------------------------- */

static int
is_ws(unsigned char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

static int
is_key_byte(unsigned char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
	       (c >= '0' && c <= '9') || c == '.' || c == '_' || c == ':' ||
	       c == '-';
}

static int
is_ctl(unsigned char c)
{
	return (c < 0x20 && c != '\t') || c == 0x7f;
}

static unsigned char
lower(unsigned char c)
{
	return c >= 'A' && c <= 'Z' ? (unsigned char)(c + 32) : c;
}

static int
key_eq(const char *a, const char *b)
{
	for (; *a && *b; a++, b++)
		if (lower((unsigned char)*a) != lower((unsigned char)*b))
			return 0;
	return *a == *b;
}

static uint32_t
key_hash(const char *k)
{
	uint32_t h = 2166136261u;

	for (; *k; k++) {
		h ^= lower((unsigned char)*k);
		h *= 16777619u;
	}
	return h;
}

static int
valid_key(const char *k)
{
	if (k == NULL || *k == '\0')
		return 0;
	for (; *k; k++)
		if (!is_key_byte((unsigned char)*k))
			return 0;
	return 1;
}

static const char *
vname(const gw_vmx *v)
{
	return v->name ? v->name : "<vmx>";
}

/* ---- line parsing ---------------------------------------------------- */

static void
line_clear(struct vline *l)
{
	free(l->key);
	l->key = NULL;
	l->value = NULL;
	l->why = NULL;
	l->vstart = l->vend = 0;
	l->quoted = 0;
	l->next = NONE;
}

static void
set_malformed(struct vline *l, const char *why, const char *kp, size_t kplen)
{
	l->kind = L_MALFORMED;
	l->why = why;
	l->key = kplen ? gw_xstrndup(kp, kplen) : NULL;
}

/* Classify l (text, len and eol already set).  skip: bytes at the start
 * not to parse (a byte order mark). */
static void
parse_line(struct vline *l, size_t skip)
{
	const char *s = l->text, *kp;
	size_t end = l->len - l->eol, p = skip, ks, ke, eq, vs, ve, kplen, i;
	const char *q;
	int quoted = 0;

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
	/* The key part, for malformed_line_of(): the first token. */
	kp = s + p;
	while (kp < s + end && *kp == '"')
		kp++;
	for (kplen = 0; kp + kplen < s + end; kplen++) {
		unsigned char c = (unsigned char)kp[kplen];

		if (is_ws(c) || c == '=' || c == '"')
			break;
	}

	q = memchr(s + p, '=', end - p);
	if (q == NULL) {
		set_malformed(l, N_("no '=' sign"), kp, kplen);
		return;
	}
	eq = (size_t)(q - s);
	ks = p;
	ke = eq;
	while (ke > ks && is_ws((unsigned char)s[ke - 1]))
		ke--;
	if (ke == ks) {
		set_malformed(l, N_("no key before '='"), kp, kplen);
		return;
	}
	for (i = ks; i < ke; i++)
		if (!is_key_byte((unsigned char)s[i])) {
			set_malformed(l, N_("invalid characters in the key"),
			              kp, kplen);
			return;
		}

	p = eq + 1;
	while (p < end && is_ws((unsigned char)s[p]))
		p++;
	if (p < end && s[p] == '"') {
		q = memchr(s + p + 1, '"', end - p - 1);
		if (q == NULL) {
			set_malformed(l, N_("unterminated quote"), kp, kplen);
			return;
		}
		vs = p + 1;
		ve = (size_t)(q - s);
		p = ve + 1;
		while (p < end && is_ws((unsigned char)s[p]))
			p++;
		if (p < end && s[p] != '#') {
			set_malformed(l, N_("text after the closing quote"),
			              kp, kplen);
			return;
		}
		quoted = 1;
	} else {
		vs = p;
		while (p < end && !(s[p] == '#' &&
		                    (p == vs || is_ws((unsigned char)s[p - 1]))))
			p++;
		ve = p;
		while (ve > vs && is_ws((unsigned char)s[ve - 1]))
			ve--;
		if (memchr(s + vs, '"', ve - vs) != NULL) {
			set_malformed(l, N_("unterminated quote"), kp, kplen);
			return;
		}
	}
	for (i = vs; i < ve; i++)
		if (is_ctl((unsigned char)s[i])) {
			set_malformed(l, N_("control character in the value"),
			              kp, kplen);
			return;
		}

	l->kind = L_ENTRY;
	l->quoted = (unsigned char)quoted;
	l->vstart = vs;
	l->vend = ve;
	l->key = gw_xmalloc((ke - ks) + 1 + (ve - vs) + 1);
	memcpy(l->key, s + ks, ke - ks);
	l->key[ke - ks] = '\0';
	l->value = l->key + (ke - ks) + 1;
	memcpy(l->value, s + vs, ve - vs);
	l->value[ve - vs] = '\0';
}

/* ---- document storage ------------------------------------------------ */

static size_t
push_line(gw_vmx *v, const char *text, size_t len, char *own)
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
		if (s->hash == h && key_eq(v->lines[s->first].key, key))
			return s;
	}
}

static void
grow_slots(gw_vmx *v)
{
	struct slot *old = v->slots;
	size_t oldn = v->nslots, i;

	v->nslots = oldn ? oldn * 2 : 64;
	v->slots = gw_xmalloc(v->nslots * sizeof *v->slots);
	for (i = 0; i < v->nslots; i++)
		v->slots[i].first = v->slots[i].last = NONE;
	for (i = 0; i < oldn; i++)
		if (old[i].first != NONE) {
			struct slot *s = find_slot(v, v->lines[old[i].first].key,
			                           old[i].hash);
			*s = old[i];
		}
	free(old);
}

/* Record line idx (an entry) in the index and the entry list. */
static void
index_entry(gw_vmx *v, size_t idx)
{
	const char *key = v->lines[idx].key;
	uint32_t h = key_hash(key);
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

static const struct slot *
lookup(const gw_vmx *v, const char *key)
{
	const struct slot *s;

	if (v == NULL || key == NULL || *key == '\0')
		return NULL;
	s = find_slot(v, key, key_hash(key));
	return s && s->first != NONE ? s : NULL;
}

/* ---- parse / free ---------------------------------------------------- */

/* Is this binary data rather than a text file?  *nul_at gets the offset of
 * the first NUL byte (NONE if there is none). */
static int
looks_binary(const char *d, size_t len, size_t *nul_at)
{
	const char *z = memchr(d, '\0', len);
	size_t i, n = len < 8192 ? len : 8192, ctl = 0;

	*nul_at = z ? (size_t)(z - d) : NONE;
	if (z)
		return 1;
	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)d[i];

		if (c < 0x20 && c != '\t' && c != '\n' && c != '\r' &&
		    c != '\f' && c != '\v')
			ctl++;
	}
	return ctl > 8 && ctl * 32 > n;
}

int
gw_vmx_parse(gw_vmx **out, const char *data, size_t len, const char *name,
             gw_err *e)
{
	const char *nm = name ? name : "<vmx>";
	gw_vmx *v;
	size_t p, nul_at;

	*out = NULL;
	if (data == NULL || len == 0) {
		gw_err_set(e, _("%s: the file is empty; expected a .vmx text file"),
		           nm);
		return -1;
	}
	if (looks_binary(data, len, &nul_at)) {
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

	for (p = 0; p < len;) {
		const char *nl = memchr(v->data + p, '\n', len - p);
		size_t n = nl ? (size_t)(nl - (v->data + p)) + 1 : len - p;
		size_t idx = push_line(v, v->data + p, n, NULL), skip = 0;

		if (p == 0 && n >= 3 && memcmp(v->data, "\xef\xbb\xbf", 3) == 0)
			skip = 3;
		parse_line(&v->lines[idx], skip);
		if (v->lines[idx].kind == L_ENTRY)
			index_entry(v, idx);
		else if (v->lines[idx].kind == L_MALFORMED)
			v->nmalformed++;
		p += n;
	}
	*out = v;
	return 0;
}

int
gw_vmx_load(gw_vmx **out, const char *path, gw_err *e)
{
	char *data = NULL;
	size_t len = 0;
	int rc;

	*out = NULL;
	if (gw_read_file(path, VMX_MAX_BYTES, &data, &len, e) != 0)
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
		free(v->lines[i].key);
		free(v->lines[i].own);
	}
	free(v->lines);
	free(v->entries);
	free(v->slots);
	free(v->data);
	free(v->name);
	free(v);
}

/* ---- queries --------------------------------------------------------- */

const char *
gw_vmx_name(const gw_vmx *v)
{
	return v ? vname(v) : NULL;
}

const char *
gw_vmx_get(const gw_vmx *v, const char *key)
{
	const struct slot *s = lookup(v, key);

	return s ? v->lines[s->last].value : NULL;
}

int
gw_vmx_line_of(const gw_vmx *v, const char *key)
{
	const struct slot *s = lookup(v, key);

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
		    key_eq(v->lines[i].key, key))
			return (int)(i + 1);
	return 0;
}

int
gw_vmx_get_bool(const gw_vmx *v, const char *key, int dflt)
{
	const char *s = gw_vmx_get(v, key);

	if (s == NULL)
		return dflt;
	if (key_eq(s, "true") || key_eq(s, "yes") || strcmp(s, "1") == 0)
		return 1;
	if (key_eq(s, "false") || key_eq(s, "no") || strcmp(s, "0") == 0)
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

size_t
gw_vmx_nlines(const gw_vmx *v)
{
	return v ? v->nlines : 0;
}

size_t
gw_vmx_nmalformed(const gw_vmx *v)
{
	return v ? v->nmalformed : 0;
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

char *
gw_vmx_serialize(const gw_vmx *v, size_t *len)
{
	size_t total = 0, i;
	char *out, *p;

	for (i = 0; i < v->nlines; i++)
		total += v->lines[i].len;
	p = out = gw_xmalloc(total + 1);
	for (i = 0; i < v->nlines; i++) {
		memcpy(p, v->lines[i].text, v->lines[i].len);
		p += v->lines[i].len;
	}
	*p = '\0';
	if (len)
		*len = total;
	return out;
}

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
		if (is_ws((unsigned char)*p) || *p == '#' || *p == '"')
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
	return enc && (key_eq(enc, "UTF-8") || key_eq(enc, "UTF8"));
}

int
gw_vmx_set(gw_vmx *v, const char *key, const char *value, gw_err *e)
{
	const struct slot *s;
	const unsigned char *p;
	int nonascii = 0, ml;
	size_t idx, i;

	if (!valid_key(key)) {
		gw_err_set(e, _("%s: '%s' is not a valid .vmx key (expected "
		                "letters, digits, '.', '_', ':' or '-')"),
		           vname(v), key ? key : "");
		return -1;
	}
	if (value == NULL) {
		gw_err_set(e, _("%s: no value given for '%s'"), vname(v), key);
		return -1;
	}
	for (p = (const unsigned char *)value; *p; p++) {
		if (*p == '"' || *p < 0x20 || *p == 0x7f) {
			gw_err_set(e, _("%s: value for '%s' contains a double quote "
			                "or a control character; refusing to write it"),
			           vname(v), key);
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
		           vname(v), key,
		           gw_vmx_encoding(v) ? gw_vmx_encoding(v) : "");
		return -1;
	}

	s = lookup(v, key);
	if (s != NULL) {
		for (idx = s->first; idx != NONE; idx = v->lines[idx].next) {
			struct vline *l = &v->lines[idx];
			size_t next = l->next;

			rewrite_value(l, value);
			parse_line(l, idx == 0 && l->len >= 3 &&
			              memcmp(l->text, "\xef\xbb\xbf", 3) == 0 ? 3 : 0);
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
		           vname(v), ml, key, _(v->lines[ml - 1].why));
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
		idx = push_line(v, t, n, t);
		parse_line(&v->lines[idx], 0);
		if (v->lines[idx].kind != L_ENTRY)  /* cannot happen */
			abort();
		index_entry(v, idx);
	}
	return 0;
}

/* ---- locks and saving ------------------------------------------------ */

static int
ends_with_lck(const char *name)
{
	size_t n = strlen(name);

	return n > 4 && key_eq(name + n - 4, ".lck");
}

int
gw_vmx_is_locked(const char *vmx_path, char **lock_path)
{
	char *lck = gw_xasprintf("%s.lck", vmx_path);
	struct stat st;
	int locked = 0;

	if (lock_path)
		*lock_path = NULL;
	if (lstat(lck, &st) != 0) {
		/* Not there: not locked.  Cannot look: assume locked. */
		locked = errno != ENOENT && errno != ENOTDIR;
	} else if (!S_ISDIR(st.st_mode)) {
		locked = 1;             /* an ESXi-style lock file */
	} else {
		/* Workstation: a directory holding M<pid>.lck entries.  An empty
		 * one is left behind by a crash and is not a lock. */
		DIR *d = opendir(lck);
		struct dirent *de;

		if (d == NULL) {
			locked = 1;
		} else {
			while ((de = readdir(d)) != NULL)
				if (ends_with_lck(de->d_name)) {
					char *inner = gw_xasprintf("%s/%s", lck,
					                           de->d_name);

					free(lck);
					lck = inner;
					locked = 1;
					break;
				}
			closedir(d);
		}
	}
	if (locked && lock_path)
		*lock_path = lck;
	else
		free(lck);
	return locked;
}

/* Copy the file now at path to "<path>.<YYYYmmdd-HHMMSS>.bak" (".N"
 * appended while that exists).  *bak is NULL (and 0 returned) when there is
 * no file at path yet.  On failure nothing is left behind. */
static int
make_backup(const char *path, char **bak, gw_err *e)
{
	char stamp[32], buf[65536], *name = NULL;
	struct stat st;
	struct tm tm;
	time_t now = time(NULL);
	int in, out = -1, n, saved;
	ssize_t r;

	*bak = NULL;
	in = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (in < 0) {
		if (errno == ENOENT)
			return 0;
		gw_err_set(e, _("%s: cannot read it to make a backup: %s"), path,
		           strerror(errno));
		return -1;
	}
	if (fstat(in, &st) != 0 || !S_ISREG(st.st_mode)) {
		gw_err_set(e, _("%s: not a regular file; expected a .vmx file"),
		           path);
		close(in);
		return -1;
	}
	if (localtime_r(&now, &tm) == NULL ||
	    strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &tm) == 0)
		snprintf(stamp, sizeof stamp, "%lld", (long long)now);
	for (n = 0; n < 1000; n++) {
		name = n ? gw_xasprintf("%s.%s.bak.%d", path, stamp, n)
		         : gw_xasprintf("%s.%s.bak", path, stamp);
		out = open(name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC,
		           st.st_mode & 0777);
		if (out >= 0 || errno != EEXIST)
			break;
		free(name);
		name = NULL;
	}
	if (out < 0) {
		saved = errno;
		gw_err_set(e, _("%s: cannot create a backup beside it: %s"), path,
		           name ? strerror(saved) : _("too many backups this second"));
		free(name);
		close(in);
		return -1;
	}
	for (;;) {
		r = read(in, buf, sizeof buf);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		if (gw_write_all(out, buf, (size_t)r) != 0) {
			r = -1;
			break;
		}
	}
	saved = errno;
	if (r == 0 && (fchmod(out, st.st_mode & 0777) != 0 || fsync(out) != 0)) {
		r = -1;
		saved = errno;
	}
	if (close(out) != 0 && r == 0) {
		r = -1;
		saved = errno;
	}
	close(in);
	if (r != 0) {
		unlink(name);
		gw_err_set(e, _("%s: cannot write the backup %s: %s"), path, name,
		           strerror(saved));
		free(name);
		return -1;
	}
	*bak = name;
	return 0;
}

int
gw_vmx_save(const gw_vmx *v, const char *path, int force, char **backup_path,
            gw_err *e)
{
	char *lck = NULL, *bak = NULL, *data;
	size_t len;

	if (backup_path)
		*backup_path = NULL;
	if (!force && gw_vmx_is_locked(path, &lck)) {
		gw_err_set(e, _("%s: the VM looks powered on (lock %s exists); "
		                "power it off first"), path, lck);
		free(lck);
		return -1;
	}
	if (make_backup(path, &bak, e) != 0)
		return -1;
	data = gw_vmx_serialize(v, &len);
	if (gw_write_file_atomic(path, data, len, e) != 0) {
		if (bak)
			unlink(bak);
		free(bak);
		free(data);
		return -1;
	}
	free(data);
	if (backup_path)
		*backup_path = bak;
	else
		free(bak);
	return 0;
}
