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

/* ---- gputable_scan.c ---------------------------------------------------- */

/* A light scan of the raw text: sections and keys with their lines. */
typedef struct scan_sec {
	char *name;      /* lower case, as iniparser stores it */
	int line;
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
} scan;

/* Scan data; fails on what iniparser accepts silently (a repeated section
 * or key, a key before any section). */
int gt_scan_text(scan *s, const char *path, const char *data, size_t len,
                 gw_err *e);
void gt_scan_free(scan *s);
/* The line of key in section sec, else the section's line. */
int gt_scan_key_line(const scan *s, size_t sec, const char *key);
/* iniparser_load() with its syntax errors as "FILE:LINE: ...". */
int gt_ini_load(const char *path, dictionary **out, gw_err *e);

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
