/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vmx_int.h: what the pieces of the .vmx document (vmx.c: parsing,
 * storage and queries; vmx_edit.c: gw_vmx_set; vmx_save.c: locks, backups
 * and saving) share.  Not for use outside src/core/vmx*.c, but for
 * tests/unit/core/test_vmx.c and tests/fuzz/fuzz_vmx.c, which read the
 * line counts (nlines, nmalformed). */
#ifndef GW_VMX_INT_H
#define GW_VMX_INT_H

#include "gw.h"
#include "vmx.h"

#define VMX_MAX_BYTES ((size_t)16 << 20)
#define NONE ((size_t)-1)

enum { L_BLANK, L_COMMENT, L_ENTRY, L_MALFORMED };

struct vline {
	const char *text;   /* raw bytes, line ending included; then
	                     * text[len - eol] is the line ending's first
	                     * byte or, without one, the NUL after the
	                     * bytes: never a key byte */
	size_t len;         /* bytes in text, line ending included */
	size_t vstart;      /* entry: value bytes are text[vstart..vend) */
	size_t vend;
	size_t next;        /* entry: next line with the same key, or NONE */
	char *key;          /* entry: "key\0value\0" (one block); malformed:
	                     * its key part or NULL.  In the document's
	                     * key store (gw_vmx.keys) or, kown, malloc'ed */
	char *value;        /* entry: points into the key block */
	const char *why;    /* malformed: N_() reason */
	uint32_t hash;      /* entry: the key's hash (vmx.c, key_hash) */
	unsigned char eol;  /* 0 (none), 1 ("\n") or 2 ("\r\n") */
	unsigned char kind;
	unsigned char quoted;
	unsigned char kown; /* key is malloc'ed, not in the key store */
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
	/* the key blocks of the lines as parsed, one after another: a
	 * line's block ("key\0value\0") is never longer than the line
	 * (the last line's by one byte), so size + 1 bytes hold them all */
	char *keys;
	size_t nkeys;       /* bytes used */
	struct vline *lines;
	size_t nlines, caplines;
	size_t *entries;    /* line indexes of well-formed entries, in order */
	size_t nentries, capentries;
	size_t nmalformed;
	struct slot *slots; /* capacity is a power of two */
	size_t nslots, used;
};

int vmx_is_ws(unsigned char c);
int vmx_key_eq(const char *a, const char *b);   /* ASCII, any case */
int vmx_valid_key(const char *k);               /* [A-Za-z0-9._:-]+ */
const char *vmx_vname(const gw_vmx *v);         /* name for errors */
/* Are the len bytes at d binary data rather than a text file (the rule
 * in vmx_check.c)?  *nul_at: the first NUL's offset or NONE; *nlines:
 * the lines counted. */
int vmx_looks_binary(const char *d, size_t len, size_t *nul_at,
                     size_t *nlines);
/* Classify l (text, len and eol already set).  skip: bytes at the start
 * not to parse (a byte order mark).  store: where the key block goes (at
 * *store, which then moves past it), or NULL for a block of its own. */
void vmx_parse_line(struct vline *l, size_t skip, char **store);
/* Append a line (own: text when the line owns it); returns its index. */
size_t vmx_push_line(gw_vmx *v, const char *text, size_t len, char *own);
/* Add the entry at line idx to the key index. */
void vmx_index_entry(gw_vmx *v, size_t idx);
/* The index slot of key, or NULL. */
const struct slot *vmx_lookup(const gw_vmx *v, const char *key);

/* gw_vmx_load through fd (at the file's start), or path when fd < 0. */
int gw_vmx_load_fd(gw_vmx **out, const char *path, int fd, gw_err *e);

#endif
