/* SPDX-License-Identifier: GPL-3.0-or-later */
/* gputable_scan.c: reading the GPU table's text: iniparser's error
 * messages turned into "FILE:LINE: ..." lines, and a light scan of the raw
 * text for what iniparser accepts silently. */
#include "gputable_int.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

/* ---- iniparser error capture ------------------------------------------ */

/* iniparser reports through a printf-style callback; keep the first
 * message (it goes on after a syntax error and reports each one). */
static char ini_msg[1024];

static int ini_errback(const char *fmt, ...) GW_PRINTF(1, 2);

static int
ini_errback(const char *fmt, ...)
{
	va_list ap;

	if (ini_msg[0] != '\0')
		return 0;
	va_start(ap, fmt);
	vsnprintf(ini_msg, sizeof ini_msg, fmt, ap);
	va_end(ap);
	return 0;
}

/* The line number in "iniparser: syntax error in PATH (12):\n-> ..." or
 * "iniparser: input line too long in PATH (12)"; 0 when there is none.
 * The number is looked for right after the path, as the quoted line text
 * may hold parentheses of its own. */
static int
ini_msg_line(const char *path)
{
	const char *p = strstr(ini_msg, path);
	long n;
	char *end;

	if (p == NULL)
		return 0;
	p += strlen(path);
	if (strncmp(p, " (", 2) != 0)
		return 0;
	p += 2;
	if (!isdigit((unsigned char)*p))
		return 0;
	errno = 0;
	n = strtol(p, &end, 10);
	if (errno != 0 || *end != ')' || n <= 0 || n > INT_MAX)
		return 0;
	return (int)n;
}

/* The offending text iniparser quotes after "-> ": one line, at most 60
 * bytes cut on a UTF-8 boundary, control characters shown as '?'. */
static void
ini_msg_text(char *out, size_t outsz)
{
	const char *p = strstr(ini_msg, "\n-> ");
	size_t n, i;

	out[0] = '\0';
	if (p == NULL)
		return;
	p += 4;
	n = strcspn(p, "\r\n");
	if (n > 60) {
		n = 60;
		while (n > 0 && ((unsigned char)p[n] & 0xc0) == 0x80)
			n--;
	}
	if (n >= outsz)
		n = outsz - 1;
	for (i = 0; i < n; i++)
		out[i] = (unsigned char)p[i] < 0x20 || p[i] == 0x7f ? '?' : p[i];
	out[n] = '\0';
}

/* iniparser_load(name) for path's lines from line0 + 1 on: its syntax
 * errors as "PATH:LINE: ...". */
static int
ini_load_one(const char *name, const char *path, int line0, dictionary **out,
             gw_err *e)
{
	dictionary *d;

	ini_msg[0] = '\0';
	iniparser_set_error_callback(ini_errback);
	d = iniparser_load(name);
	iniparser_set_error_callback(NULL);
	if (d == NULL || ini_msg[0] != '\0') {
		int line = ini_msg_line(name);
		char text[64];

		if (line > 0)
			line += line0;
		ini_msg_text(text, sizeof text);
		if (line > 0 && strstr(ini_msg, "too long") != NULL)
			gw_err_set(e, _("%s:%d: line too long (at most %d characters)"),
			           path, line, INI_MAX_LINE);
		else if (line > 0 && text[0] != '\0')
			gw_err_set(e, _("%s:%d: syntax error, expected 'key = value', '[section]' or a comment, got '%s'"),
			           path, line, text);
		else if (line > 0)
			gw_err_set(e, _("%s:%d: syntax error, expected 'key = value', '[section]' or a comment"),
			           path, line);
		else
			gw_err_set(e, _("%s: cannot be read as an INI file"), path);
		if (d)
			iniparser_freedict(d);
		return -1;
	}
	*out = d;
	return 0;
}

/* The entries (sections and keys) iniparser is given at a time: its
 * dictionary starts with room for 128 and searches all of them on each
 * set and get, so a run of sections that fits costs no more per entry
 * than a smaller one, and takes fewer system calls. */
#define CHUNK_ENTRIES 120

/* The whole file read by its path as one run. */
static int
ini_load_whole(scan *s, const char *path, gw_err *e)
{
	size_t i;

	s->dicts = gw_xcalloc(1, sizeof *s->dicts);
	for (i = 0; i < s->nsecs; i++)
		s->secs[i].chunk = 0;
	if (ini_load_one(path, path, 0, &s->dicts[0], e) != 0)
		return -1;
	s->ndicts = 1;
	return 0;
}

/* iniparser reads files only: each run of sections is written to one
 * memory file, read back through /proc/self/fd.  Where that cannot be
 * made or written (no memfd_create, no /proc, a memory file refused by
 * RLIMIT_FSIZE or the memory cgroup), the whole file is read by its path
 * as one run. */
int
gt_ini_load(scan *s, const char *path, const char *data, size_t len,
            gw_err *e)
{
	size_t i, start, end, entries, nchunks;
	struct rlimit fsize;
	int fd, line0;
	char name[64];

	/* a write past RLIMIT_FSIZE raises SIGXFSZ, which ends the process
	 * unless it is ignored: no memory file where the limit is that low */
	if (getrlimit(RLIMIT_FSIZE, &fsize) == 0 &&
	    fsize.rlim_cur != RLIM_INFINITY && fsize.rlim_cur <= (rlim_t)len)
		return ini_load_whole(s, path, e);
	fd = memfd_create("gpuwiz-gpus.ini", MFD_CLOEXEC);
	snprintf(name, sizeof name, "/proc/self/fd/%d", fd);
	if (fd >= 0 && access(name, R_OK) != 0) {
		close(fd);
		fd = -1;
	}
	if (fd < 0)
		return ini_load_whole(s, path, e);
	/* runs of whole sections of about CHUNK_ENTRIES entries each, the
	 * first with the text before the first section */
	s->dicts = gw_xcalloc(s->nsecs + 1, sizeof *s->dicts);
	nchunks = 0;
	start = 0;
	line0 = 0;
	i = 0;
	for (;;) {
		for (entries = 0; i < s->nsecs &&
		     (entries == 0 ||
		      entries + 1 + s->secs[i].nkeys <= CHUNK_ENTRIES); i++) {
			s->secs[i].chunk = nchunks;
			entries += 1 + s->secs[i].nkeys;
		}
		end = i < s->nsecs ? s->secs[i].off : len;
		if (lseek(fd, 0, SEEK_SET) != 0 || ftruncate(fd, 0) != 0 ||
		    gw_write_all(fd, data + start, end - start) != 0) {
			close(fd);
			for (i = 0; i < nchunks; i++)
				iniparser_freedict(s->dicts[i]);
			free(s->dicts);
			s->dicts = NULL;
			s->ndicts = 0;
			return ini_load_whole(s, path, e);
		}
		if (ini_load_one(name, path, line0, &s->dicts[nchunks], e) != 0) {
			close(fd);
			return -1;
		}
		s->ndicts = ++nchunks;
		if (end >= len)
			break;
		line0 = s->secs[i].line - 1;
		start = end;
	}
	close(fd);
	return 0;
}

const char *
gt_ini_get(const scan *s, size_t sec, const char *key)
{
	/* "section:key", as iniparser stores it: a section's name fits in
	 * one line, the key is one of known_keys */
	char full[INI_MAX_LINE + 64];
	const char *name = s->secs[sec].name, *v;
	size_t ns = strlen(name), nk = strlen(key);

	if (ns + 1 + nk >= sizeof full)
		return NULL;
	memcpy(full, name, ns);
	full[ns] = ':';
	memcpy(full + ns + 1, key, nk + 1);
	v = iniparser_getstring(s->dicts[s->secs[sec].chunk], full, NULL);
	return v && *v ? v : NULL;
}

/* ---- a scan of the raw text ------------------------------------------- */


void
gt_scan_free(scan *s)
{
	size_t i;

	for (i = 0; i < s->nsecs; i++)
		free(s->secs[i].name);
	for (i = 0; i < s->nkeys; i++)
		free(s->keys[i].key);
	for (i = 0; i < s->ndicts; i++)
		iniparser_freedict(s->dicts[i]);
	free(s->dicts);
	free(s->secs);
	free(s->keys);
	gt_hash_free(&s->secidx);
	gt_hash_free(&s->keyidx);
	memset(s, 0, sizeof *s);
}

static char *
lower_dup(const char *s, size_t n)
{
	char *p = gw_xstrndup(s, n);
	char *q;

	for (q = p; *q; q++)
		*q = (char)tolower((unsigned char)*q);
	return p;
}

/* Trim [s, s+n) in place of pointers. */
static void
span_trim(const char **s, size_t *n)
{
	while (*n > 0 && isspace((unsigned char)**s)) {
		(*s)++;
		(*n)--;
	}
	while (*n > 0 && isspace((unsigned char)(*s)[*n - 1]))
		(*n)--;
}

/* A name to look up in the scan: n bytes, any case; sec for a key. */
typedef struct scan_name {
	const char *s;
	size_t n, sec;
} scan_name;

static int
sec_eq(const void *ctx, size_t i, const void *key)
{
	const scan *s = ctx;
	const scan_name *k = key;

	return strlen(s->secs[i].name) == k->n &&
	       strncasecmp(s->secs[i].name, k->s, k->n) == 0;
}

static int
key_eq(const void *ctx, size_t i, const void *key)
{
	const scan *s = ctx;
	const scan_name *k = key;

	return s->keys[i].sec == k->sec && strlen(s->keys[i].key) == k->n &&
	       strncasecmp(s->keys[i].key, k->s, k->n) == 0;
}

static size_t
key_hash(size_t sec, const char *key, size_t n)
{
	return gt_hash_lower(key, n) ^ (sec * 0x9e3779b97f4a7c15ULL);
}

/* The first problem only; the scan goes on. */
static void
scan_fail(scan *s)
{
	s->failed = 1;
}

/* One logical line (continuations already joined, as iniparser does)
 * that starts at byte off of the text. */
static void
scan_line(scan *s, const char *path, const char *text, size_t n, int line,
          size_t off)
{
	scan_name k;
	size_t *slot;
	gw_err *e = s->failed ? NULL : &s->err;

	span_trim(&text, &n);
	if (n == 0 || text[0] == '#' || text[0] == ';')
		return;
	if (text[0] == '[' && text[n - 1] == ']') {
		const char *name = text + 1;
		size_t len = strcspn(name, "]");

		span_trim(&name, &len);
		k.s = name;
		k.n = len;
		k.sec = 0;
		slot = gt_hash_slot(&s->secidx, gt_hash_lower(name, len),
		                    sec_eq, s, &k);
		if (*slot != 0 && e != NULL) {
			gw_err_set(e, _("%s:%d: duplicate section [%s] (first at line %d)"),
			           path, line, s->secs[*slot - 1].name,
			           s->secs[*slot - 1].line);
			scan_fail(s);
		}
		if (s->nsecs == s->capsecs) {
			s->capsecs = s->capsecs ? s->capsecs * 2 : 128;
			s->secs = gw_xrealloc(s->secs, s->capsecs * sizeof *s->secs);
		}
		if (*slot == 0)
			*slot = s->nsecs + 1;
		memset(&s->secs[s->nsecs], 0, sizeof s->secs[s->nsecs]);
		s->secs[s->nsecs].name = lower_dup(name, len);
		s->secs[s->nsecs].line = line;
		s->secs[s->nsecs].off = off;
		s->secs[s->nsecs].key0 = s->nkeys;
		s->nsecs++;
		return;
	}
	{
		const char *eq = memchr(text, '=', n);
		const char *key = text;
		size_t klen;

		if (eq == NULL)
			return;   /* iniparser refuses it */
		klen = (size_t)(eq - text);
		span_trim(&key, &klen);
		if (s->nsecs == 0) {
			if (e != NULL) {
				gw_err_set(e, _("%s:%d: '%.*s' is outside any [section]"),
				           path, line, (int)(klen > 40 ? 40 : klen),
				           key);
				scan_fail(s);
			}
			return;
		}
		k.s = key;
		k.n = klen;
		k.sec = s->nsecs - 1;
		slot = gt_hash_slot(&s->keyidx, key_hash(k.sec, key, klen),
		                    key_eq, s, &k);
		if (*slot != 0) {
			if (e != NULL) {
				gw_err_set(e, _("%s:%d: [%s] %s is set twice (first at line %d)"),
				           path, line, s->secs[k.sec].name,
				           s->keys[*slot - 1].key,
				           s->keys[*slot - 1].line);
				scan_fail(s);
			}
			return;
		}
		if (s->nkeys == s->capkeys) {
			s->capkeys = s->capkeys ? s->capkeys * 2 : 1024;
			s->keys = gw_xrealloc(s->keys, s->capkeys * sizeof *s->keys);
		}
		*slot = s->nkeys + 1;
		s->keys[s->nkeys].sec = k.sec;
		s->keys[s->nkeys].key = lower_dup(key, klen);
		s->keys[s->nkeys].line = line;
		s->nkeys++;
		s->secs[k.sec].nkeys++;
	}
}

/* An upper bound on the sections and keys in data: its lines. */
static size_t
scan_lines(const char *data, size_t len)
{
	const char *p = data, *end = data + len;
	size_t n = 1;

	while (p < end && (p = memchr(p, '\n', (size_t)(end - p))) != NULL) {
		n++;
		p++;
	}
	return n;
}

void
gt_scan_text(scan *s, const char *path, const char *data, size_t len)
{
	gw_buf logical;
	size_t pos = 0, first_off = 0, nlines = scan_lines(data, len);
	int lineno = 0, first = 0;

	gt_hash_init(&s->secidx, nlines);
	gt_hash_init(&s->keyidx, nlines);
	gw_buf_init(&logical);
	while (pos < len) {
		const char *start = data + pos;
		const char *nl = memchr(start, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - start) : len - pos;

		if (logical.len == 0) {
			first = lineno + 1;
			first_off = pos;
		}
		pos += n + (nl ? 1 : 0);
		lineno++;
		/* iniparser drops trailing blanks (CR included) first. */
		while (n > 0 && isspace((unsigned char)start[n - 1]))
			n--;
		if (n > 0 && start[n - 1] == '\\') {
			gw_buf_add(&logical, start, n - 1);
			continue;
		}
		gw_buf_add(&logical, start, n);
		scan_line(s, path, logical.data, logical.len, first, first_off);
		logical.len = 0;
		logical.data[0] = '\0';
	}
	if (logical.len > 0)
		scan_line(s, path, logical.data, logical.len, first, first_off);
	gw_buf_free(&logical);
}

int
gt_scan_key_line(const scan *s, size_t sec, const char *key)
{
	size_t i;

	for (i = s->secs[sec].key0; i < s->secs[sec].key0 + s->secs[sec].nkeys;
	     i++)
		if (strcmp(s->keys[i].key, key) == 0)
			return s->keys[i].line;
	return s->secs[sec].line;
}
