/* SPDX-License-Identifier: GPL-3.0-or-later */
/* esxi_int.h: what the ESXi parsers (esxi_*.c) share: the command names
 * used in messages, line splitting, error helpers and small field and
 * column readers.  Private to src/host/esxi_*.c. */
#ifndef GW_ESXI_INT_H
#define GW_ESXI_INT_H

#include "esxi.h"
#include "plan.h"         /* gw_bdf_parse, gw_system_id_valid */

#include <stddef.h>
#include <stdio.h>

#define CMD_PCI_LIST   "esxcli hardware pci list"
#define CMD_UUID       "esxcli system uuid get"
#define CMD_VERSION    "esxcli system version get"
#define CMD_GETALLVMS  "vim-cmd vmsvc/getallvms"
#define CMD_POWER      "vim-cmd vmsvc/power.getstate"
#define CMD_PROCS      "esxcli vm process list"
#define CMD_PATHS      "esxcli storage core path list"
#define CMD_DEVICES    "esxcli storage core device list"
#define CMD_EXTENTS    "esxcli storage vmfs extent list"

/* Not set: a column index that was not found. */
#define ESXI_NO_COL ((size_t)-1)

/* ---- errors (esxi_text.c) ---------------------------------------------- */

/* "NAME:LINE: text", or "line LINE: text" without a name. */
void esxi_err_line(gw_err *e, const char *name, unsigned line,
                   const char *fmt, ...) GW_PRINTF(4, 5);
/* "NAME: text", or the text alone. */
void esxi_err_input(gw_err *e, const char *name, const char *fmt, ...)
	GW_PRINTF(3, 4);
/* A short excerpt of s for a message: at most 48 bytes, not cutting a
 * UTF-8 character, "..." when cut. */
const char *esxi_excerpt(const char *s, char *buf, size_t n);

/* ---- lines ------------------------------------------------------------- */

typedef struct esxi_lines {
	char **v;        /* v[i] is line i + 1, CR and trailing blanks gone */
	size_t n;
} esxi_lines;


/* Read text line by line, skip its preamble (blank lines, '#' comments,
 * the command itself) and call fn for each line after it, blank ones
 * included (""), with its number; fn is not called again after a
 * non-zero return, which is returned unless the input is refused (too
 * large, binary, empty: e set, -1). */
typedef int esxi_line_fn(void *ctx, const char *s, unsigned ln);
int esxi_each_line(const char *text, const char *name, const char *cmd,
                   esxi_line_fn *fn, void *ctx, gw_err *e);

/* An input read line by line, in one pass (esxi_lines.c): a text in
 * memory, a regular file, or a command's output as it arrives (produce
 * hands it over in chunks; a NUL ends it, as it ends a text). */
typedef struct esxi_src {
	const char *text;        /* the input, NUL-terminated, or */
	FILE *f;                 /* a regular file, read from where it is, or */
	gw_esxi_produce *produce; /* a command's output (pctx) */
	void *pctx;
	const char *path;        /* f's name in the file's own errors */
	size_t max;              /* f: larger is refused */
	int empty_ok;            /* only blanks (isspace) is no line, not an
	                          * error */
} esxi_src;
/* esxi_each_line over src.  controls_ok: for an output that prints names
 * the user chose (a VM's, which may hold any byte but a newline), control
 * bytes are kept in the lines, and every printer escapes them
 * (textesc.h); a NUL still ends the text. */
int esxi_src_each_line(const esxi_src *src, const char *name,
                       const char *cmd, int controls_ok, esxi_line_fn *fn,
                       void *ctx, gw_err *e);

/* v with room for element n (n in use, *cap allocated, each size
 * bytes); the first allocation holds first. */
void *esxi_grow(void *v, size_t n, size_t *cap, size_t size, size_t first);

static inline int
esxi_is_blank(int c)
{
	return c == ' ' || c == '\t';
}
/* s with its leading blanks skipped. */
static inline const char *
esxi_skip_blanks(const char *s)
{
	while (esxi_is_blank(*s))
		s++;
	return s;
}
/* [a, b) without its blanks at both ends, malloc'ed. */
char *esxi_trimmed_span(const char *a, const char *b);

/* ---- small parsers ----------------------------------------------------- */

/* "0x" and 1..maxdig hex digits, nothing else. */
int esxi_parse_0x(const char *s, int maxdig, unsigned *out);
/* "true" / "false" (any case). */
int esxi_parse_bool(const char *s, int *out);
/* An address as esxcli prints it: "0000:3b:00.0" (hex), or the old
 * decimal form "000:128:00.0".  Other forms gw_bdf_parse takes
 * ("3b:00.0") are accepted when loose is set (for lookups). */
int esxi_parse_addr(const char *s, int loose, unsigned *dom, unsigned *bus,
                    unsigned *dev, unsigned *fn);
/* "0000:3b:00.0" */
void esxi_fmt_bdf(char *out, size_t n, unsigned dom, unsigned bus,
                  unsigned dev, unsigned fn);

/* ---- esxcli hardware pci list (esxi_pci.c) ---------------------------- */

/* gw_esxi_parse_pci_list over src, keeping only the blocks keep accepts
 * (all when NULL; kctx passed to it); "no device block" counts every
 * block read. */
int esxi_parse_pci_src(const esxi_src *src, const char *name,
                       gw_esxi_pci_keep *keep, const void *kctx,
                       gw_esxi_pci_list *out, gw_err *e);

/* ---- "Key: Value" fields ----------------------------------------------- */

const gw_esxi_field *esxi_find_field(const gw_esxi_field *f, size_t n,
                                     const char *key);
void esxi_fields_free(gw_esxi_field *f, size_t n);
/* Append a field (key taken over, value copied and trimmed) to *f,
 * growing *cap. */
void esxi_field_add(gw_esxi_field **f, size_t *n, size_t *cap, char *key,
                    const char *value, unsigned line);

/* ---- tables with a line of dashes -------------------------------------- */

typedef struct esxi_column {
	size_t start, end;   /* [start, end): end is the next column's start */
} esxi_column;

/* A line of dashes and blanks only, with at least one dash? */
int esxi_dash_line(const char *s);
/* Text of line s in column c, trimmed, into buf. */
const char *esxi_cell(const char *s, const esxi_column *c, char *buf,
                      size_t n);
/* The line of dashes under the header at line index i: 0 with the
 * columns; when it is not a line of dashes, -1 with e set if named (the
 * header holds the names the table needs), else 1: the header is not
 * this table's (the caller says what was expected); 1 too for more than
 * max columns. */
int esxi_table_dashes(const esxi_lines *tl, size_t i, int named,
                      esxi_column *cols, size_t max, size_t *ncols,
                      const char *name, gw_err *e);
/* A table of cmd's output: a header line, a line of dashes, rows. */
typedef struct esxi_table {
	const char *cmd;
	/* The header at line index i of tl (the dashes at i + 1): 0, or -1
	 * with the error set. */
	int (*header)(void *ctx, const esxi_lines *tl, size_t i);
	/* One non-blank row s at line ln: 0, or -1 with the error set. */
	int (*row)(void *ctx, const char *s, unsigned ln);
} esxi_table;
/* Split text, skip its preamble, refuse an input without a line after it
 * ("no output in it"), then read the header and every non-blank row.  0
 * or -1. */
int esxi_parse_table(const char *text, const char *name,
                     const esxi_table *t, void *ctx, gw_err *e);
/* at[j] = the column of header whose name is names[j] (any case), else
 * ESXI_NO_COL. */
void esxi_find_columns(const char *header, const esxi_column *cols,
                       size_t ncols, const char *const names[],
                       size_t nnames, size_t *at);

#endif
