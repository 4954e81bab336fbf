/* SPDX-License-Identifier: GPL-3.0-or-later */
/* gputable_int.h: what the pieces of the GPU table (gputable.c: field
 * parsers and loading; gputable_scan.c: iniparser's errors and a scan of
 * the raw text; gputable_lookup.c: lookups by id, PCI id, name, profile)
 * share.  Not for use outside src/core/gputable*.c. */
#ifndef GW_GPUTABLE_INT_H
#define GW_GPUTABLE_INT_H

#include "gputable.h"

#include <iniparser.h>

#define TABLE_MAX_BYTES (4u << 20)
/* iniparser 4.1 reads a line into a 1024-byte buffer: at most 1022
 * characters before the newline. */
#define INI_MAX_LINE 1022
/* Candidates named in an "ambiguous" message before "..." */
#define AMBIG_MAX_LIST 12

/* ---- gputable_index.c --------------------------------------------------- */

/* An open-addressing hash of entry numbers (0 .. n-1, kept as n+1 so
 * that 0 is an empty slot), sized once for at most the n it is made for:
 * what the entries are and when two are the same the caller says. */
typedef struct gt_hash {
	size_t *slot;
	size_t mask;
} gt_hash;

typedef int (*gt_hash_eq)(const void *ctx, size_t entry, const void *key);

void gt_hash_init(gt_hash *h, size_t n);
void gt_hash_free(gt_hash *h);
/* The slot holding the entry that eq() says is key, else the empty slot
 * where key goes: *slot is then 0, and the caller stores entry + 1. */
size_t *gt_hash_slot(const gt_hash *h, size_t hv, gt_hash_eq eq,
                     const void *ctx, const void *key);
/* FNV-1a of n bytes, lower-cased (ASCII): ids, section and key names
 * and vGPU boards compare without case. */
size_t gt_hash_lower(const char *s, size_t n);

/* What gw_table_index_build() found two rows sharing (the PCI id with
 * the subsystem, or the vGPU board), in the rows' order. */
typedef struct gt_dup {
	int what;        /* 0 none, GT_DUP_PCI or GT_DUP_BOARD */
	size_t row;      /* the first row that shares it with an earlier one */
	size_t first;    /* the earliest such row */
} gt_dup;
enum { GT_DUP_PCI = 1, GT_DUP_BOARD = 2 };

/* Index t's rows by id, by vendor:device and by vGPU board, in one pass
 * in the rows' order; a row sharing its PCI id and subsystem or its vGPU
 * board with an earlier one is reported in *dup (the index is built all
 * the same, so that gw_table_free frees it).  Ids are unique already
 * (a repeated section is refused by the scan). */
void gt_index_build(gw_table *t, gt_dup *dup);
void gt_index_free(gw_table *t);
/* The row of id (any case), else NULL. */
const gw_gpu *gt_index_id(const gw_table *t, const char *id, size_t n);
/* The row whose vGPU board is board[0..n) (any case), else NULL. */
const gw_gpu *gt_index_board(const gw_table *t, const char *board, size_t n);
/* The rows of vendor:device, in the table's order: *count of them from
 * the returned array (NULL when none). */
const gw_gpu *const *gt_index_pci(const gw_table *t, unsigned vendor,
                                  unsigned device, size_t *count);

/* ---- gputable_scan.c ---------------------------------------------------- */

/* A light scan of the raw text: sections and keys with their lines. */
typedef struct scan_sec {
	char *name;      /* lower case, as iniparser stores it */
	int line;
	size_t off;      /* where its header's line starts in the text */
	size_t key0, nkeys; /* its keys: keys[key0 .. key0 + nkeys) */
	size_t chunk;    /* the iniparser dictionary that holds it */
} scan_sec;

typedef struct scan_key {
	size_t sec;      /* index into secs */
	char *key;       /* lower case */
	int line;
} scan_key;

typedef struct scan {
	scan_sec *secs;
	size_t nsecs, capsecs;
	scan_key *keys;
	size_t nkeys, capkeys;
	gt_hash secidx;  /* sections by name */
	gt_hash keyidx;  /* keys by section and name */
	int failed;      /* err holds the first problem found */
	gw_err err;
	dictionary **dicts; /* what iniparser read, by chunk */
	size_t ndicts;
} scan;

/* Scan data in one pass: the sections (with where each starts) and their
 * keys.  What iniparser accepts silently (a repeated section or key, a
 * key before any section) sets s->failed and s->err to the first such
 * problem; the scan goes on to the end all the same, so that iniparser's
 * syntax errors, anywhere in the file, come first. */
void gt_scan_text(scan *s, const char *path, const char *data, size_t len);
void gt_scan_free(scan *s);
/* The line of key in section sec, else the section's line. */
int gt_scan_key_line(const scan *s, size_t sec, const char *key);
/* Read data with iniparser, a few sections at a time (its dictionary
 * searches every entry on each set and get, so one dictionary per small
 * run of sections keeps the load linear), into s->dicts; its syntax
 * errors as "FILE:LINE: ..." for path. */
int gt_ini_load(scan *s, const char *path, const char *data, size_t len,
                gw_err *e);
/* The value of key in section sec as iniparser read it, else NULL. */
const char *gt_ini_get(const scan *s, size_t sec, const char *key);

/* ---- gputable.c ------------------------------------------------------- */

/* "0x10de", "10DE": 1 to 4 hex digits, optional 0x. */
int gt_parse_hex16(const char *s, unsigned *out);
/* The board part of a profile or prefix: after "grid_" or "nvidia_";
 * NULL when it has neither. */
const char *gt_vgpu_board(const char *s);

/* ---- gputable_lookup.c ------------------------------------------------ */

/* A vGPU type as a vgpu_types entry spells it: "48c", "1-10c". */
void gt_vgpu_type_entry(const gw_vgpu_type *vt, char *buf, size_t size);

#endif
