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

/* Load path with iniparser; its syntax errors as "FILE:LINE: ...". */
int
gt_ini_load(const char *path, dictionary **out, gw_err *e)
{
	dictionary *d;

	ini_msg[0] = '\0';
	iniparser_set_error_callback(ini_errback);
	d = iniparser_load(path);
	iniparser_set_error_callback(NULL);
	if (d == NULL || ini_msg[0] != '\0') {
		int line = ini_msg_line(path);
		char text[64];

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

/* ---- a scan of the raw text ------------------------------------------- */


void
gt_scan_free(scan *s)
{
	size_t i;

	for (i = 0; i < s->nsecs; i++)
		free(s->secs[i].name);
	for (i = 0; i < s->nkeys; i++)
		free(s->keys[i].key);
	free(s->secs);
	free(s->keys);
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

/* One logical line (continuations already joined, as iniparser does). */
static int
scan_line(scan *s, const char *path, const char *text, size_t n, int line,
          gw_err *e)
{
	size_t i;

	span_trim(&text, &n);
	if (n == 0 || text[0] == '#' || text[0] == ';')
		return 0;
	if (text[0] == '[' && text[n - 1] == ']') {
		const char *name = text + 1;
		size_t len = strcspn(name, "]");

		span_trim(&name, &len);
		for (i = 0; i < s->nsecs; i++) {
			if (strlen(s->secs[i].name) == len &&
			    strncasecmp(s->secs[i].name, name, len) == 0) {
				gw_err_set(e, _("%s:%d: duplicate section [%s] (first at line %d)"),
				           path, line, s->secs[i].name, s->secs[i].line);
				return -1;
			}
		}
		if (s->nsecs == s->capsecs) {
			s->capsecs = s->capsecs ? s->capsecs * 2 : 128;
			s->secs = gw_xrealloc(s->secs, s->capsecs * sizeof *s->secs);
		}
		s->secs[s->nsecs].name = lower_dup(name, len);
		s->secs[s->nsecs].line = line;
		s->nsecs++;
		return 0;
	}
	{
		const char *eq = memchr(text, '=', n);
		const char *key = text;
		size_t klen;

		if (eq == NULL)
			return 0;   /* iniparser has already refused it */
		klen = (size_t)(eq - text);
		span_trim(&key, &klen);
		if (s->nsecs == 0) {
			gw_err_set(e, _("%s:%d: '%.*s' is outside any [section]"),
			           path, line, (int)(klen > 40 ? 40 : klen), key);
			return -1;
		}
		for (i = 0; i < s->nkeys; i++) {
			if (s->keys[i].sec == s->nsecs - 1 &&
			    strlen(s->keys[i].key) == klen &&
			    strncasecmp(s->keys[i].key, key, klen) == 0) {
				gw_err_set(e, _("%s:%d: [%s] %s is set twice (first at line %d)"),
				           path, line, s->secs[s->nsecs - 1].name,
				           s->keys[i].key, s->keys[i].line);
				return -1;
			}
		}
		if (s->nkeys == s->capkeys) {
			s->capkeys = s->capkeys ? s->capkeys * 2 : 1024;
			s->keys = gw_xrealloc(s->keys, s->capkeys * sizeof *s->keys);
		}
		s->keys[s->nkeys].sec = s->nsecs - 1;
		s->keys[s->nkeys].key = lower_dup(key, klen);
		s->keys[s->nkeys].line = line;
		s->nkeys++;
	}
	return 0;
}

int
gt_scan_text(scan *s, const char *path, const char *data, size_t len, gw_err *e)
{
	gw_buf logical;
	size_t pos = 0;
	int lineno = 0, first = 0, rc = 0;

	gw_buf_init(&logical);
	while (pos < len && rc == 0) {
		const char *start = data + pos;
		const char *nl = memchr(start, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - start) : len - pos;

		pos += n + (nl ? 1 : 0);
		lineno++;
		/* iniparser drops trailing blanks (CR included) first. */
		while (n > 0 && isspace((unsigned char)start[n - 1]))
			n--;
		if (logical.len == 0)
			first = lineno;
		if (n > 0 && start[n - 1] == '\\') {
			gw_buf_add(&logical, start, n - 1);
			continue;
		}
		gw_buf_add(&logical, start, n);
		rc = scan_line(s, path, logical.data, logical.len, first, e);
		logical.len = 0;
		logical.data[0] = '\0';
	}
	if (rc == 0 && logical.len > 0)
		rc = scan_line(s, path, logical.data, logical.len, first, e);
	gw_buf_free(&logical);
	return rc;
}

int
gt_scan_key_line(const scan *s, size_t sec, const char *key)
{
	size_t i;

	for (i = 0; i < s->nkeys; i++)
		if (s->keys[i].sec == sec && strcmp(s->keys[i].key, key) == 0)
			return s->keys[i].line;
	return s->secs[sec].line;
}
