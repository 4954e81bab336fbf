/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vmx.h: a lossless .vmx document.
 *
 * The file is kept as a list of lines holding their raw bytes (line ending
 * included).  Unchanged lines are written back byte for byte: order,
 * comments, blank lines, CRLF/LF, odd spacing, unquoted values, inline
 * "# comments", long lines, non-UTF-8 bytes in any .encoding, a missing final
 * newline.  Keys compare case-insensitively (ASCII).  Setting an existing
 * key rewrites only the value part of that line (spacing, quoting style,
 * inline comment and line ending kept); a new key is appended as
 *   key = "value"<the file's line ending>
 * (if the file lacked a final newline, one is added before the new line).
 *
 * A malformed line (no '=', unterminated quote, a key with invalid bytes)
 * is kept untouched and is not a key; if a key that must be set exists only
 * as a malformed line, gw_vmx_set() refuses with an error naming the line.
 */
#ifndef GW_VMX_H
#define GW_VMX_H

#include "gw.h"

typedef struct gw_vmx gw_vmx;

/* Parse bytes (copied).  name is used in error messages (a file path).
 * Rejects: empty input, NUL bytes / binary garbage (error names the file
 * and says a .vmx text file was expected).  Never fails for odd lines. */
int gw_vmx_parse(gw_vmx **out, const char *data, size_t len, const char *name,
                 gw_err *e);
/* Read a file (max 16 MiB) and parse it. */
int gw_vmx_load(gw_vmx **out, const char *path, gw_err *e);
void gw_vmx_free(gw_vmx *v);

/* gw_vmx_load(), then: is the document a .vmx at all?  0 when it has at
 * least one well-formed key = value entry and at most as many malformed
 * lines as entries when it has config.version or virtualHW.version, else
 * at most 2 (a hand-written fragment).  -1 and e ("PATH: not a .vmx file:
 * ...") otherwise (a vmware.log, an nvidia-smi capture, an answers file),
 * and on a load failure; *out is NULL on failure. */
int gw_vmx_load_checked(gw_vmx **out, const char *path, gw_err *e);
/* The same read through fd (path open for reading at its start, a
 * regular file: gpuwiz's lock, gw_vmx_lock), or path itself when fd < 0. */
int gw_vmx_load_checked_fd(gw_vmx **out, const char *path, int fd,
                           gw_err *e);

const char *gw_vmx_name(const gw_vmx *v);

/* Value of the LAST well-formed occurrence of key (as VMware reads it),
 * unquoted, NULL when absent.  Owned by the document. */
const char *gw_vmx_get(const gw_vmx *v, const char *key);
/* Has any occurrence of key (any case) exactly this value?  One lookup
 * and the key's own occurrences, not a scan of the document. */
int gw_vmx_has_pair(const gw_vmx *v, const char *key, const char *value);
/* 1-based line number of that occurrence, 0 when absent. */
int gw_vmx_line_of(const gw_vmx *v, const char *key);
/* 1-based line of a malformed line whose key part matches, 0 if none. */
int gw_vmx_malformed_line_of(const gw_vmx *v, const char *key);

/* Boolean as VMware reads it: TRUE/true/1/yes -> 1, FALSE/false/0/no -> 0,
 * absent or anything else -> dflt. */
int gw_vmx_get_bool(const gw_vmx *v, const char *key, int dflt);

/* Set key to value (value given unquoted, ASCII).  In place when the key
 * exists (every well-formed occurrence is updated so duplicates agree);
 * appended otherwise.  Fails when the key only exists malformed. */
int gw_vmx_set(gw_vmx *v, const char *key, const char *value, gw_err *e);

/* Iterate well-formed entries in file order (i = 0 .. count-1). */
size_t gw_vmx_count(const gw_vmx *v);
const char *gw_vmx_key_at(const gw_vmx *v, size_t i);
const char *gw_vmx_value_at(const gw_vmx *v, size_t i);
/* The first entry from i on that is not the same in a and b at the same
 * place: not the same key (byte for byte) or, unless key_only, not the
 * same value; the smaller count when there is none.  i itself when
 * either is NULL. */
size_t gw_vmx_next_changed(const gw_vmx *a, const gw_vmx *b, size_t i,
                           int key_only);


/* .encoding value or NULL. */
const char *gw_vmx_encoding(const gw_vmx *v);
/* "\r\n" or "\n": the ending of the first line that has one ("\n" if none) */
const char *gw_vmx_eol(const gw_vmx *v);

/* The whole document as bytes (malloc'ed, *len set). */
char *gw_vmx_serialize(const gw_vmx *v, size_t *len);
/* Do a and b serialize to the same bytes?  Compared line by line, with
 * neither serialized. */
int gw_vmx_same(const gw_vmx *a, const gw_vmx *b);

/* A copy of v that shares nothing with it (freed by gw_vmx_free): the
 * same lines, entries and index, without parsing the bytes again. */
gw_vmx *gw_vmx_dup(const gw_vmx *v);

/* Is the VM running?  Looks for "<path>.lck" (an ESXi lock file, or a
 * Workstation lock directory holding *.lck entries).  Returns 1 when
 * locked, 0 when not; lock_path (if non-NULL) gets the path found. */
int gw_vmx_is_locked(const char *vmx_path, char **lock_path);

/* Save over path: refuse when locked unless force, and when the file has
 * no write bit for anyone (read-only) unless force; copy the current file
 * to "<path>.<YYYYmmdd-HHMMSS>.bak" (".N" suffix added if it exists), then
 * write atomically (temp in same dir, fsync, rename, fsync dir), keeping
 * the file mode.  With was given, refused too when the file no longer
 * holds those wlen bytes (the .vmx as read) right before the rename.
 * *backup_path (if non-NULL) gets the backup's path.  Nothing is changed
 * on failure: no backup nor temporary is left. */
/* The refusal of a .vmx with no write bit for anyone, saved without force
 * (here and by the ESXi host's write script): one line naming path and
 * --force (the wizard's own line names its Force option). */
void gw_vmx_err_read_only(gw_err *e, const char *path);
int gw_vmx_save(const gw_vmx *v, const char *path, const char *was,
                size_t wlen, int force, char **backup_path, gw_err *e);

/* gpuwiz's advisory lock on the .vmx at path (flock on the file, its links
 * followed), held from the read to the write so that two gpuwiz runs do
 * not both write from the same read: waits up to GW_VMX_LOCK_WAIT_S
 * seconds for another gpuwiz, then -1 with e naming path.  0 with *fd the
 * lock (give it to gw_vmx_unlock), or *fd -1 where there is nothing to
 * lock (no such file, not a regular file: the read says so) or the file
 * system has no locks.  A file replaced (renamed over) while waiting is
 * locked as it is then.  VMware's .lck is gw_vmx_is_locked's. */
#define GW_VMX_LOCK_WAIT_S 10
#define GW_VMX_LOCK_POLL_MS 20
int gw_vmx_lock(const char *path, int *fd, gw_err *e);
void gw_vmx_unlock(int fd);

#endif
