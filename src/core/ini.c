/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ini.c: iniparser with its messages caught (see ini.h). */
#include "ini.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* the first message of the current load */
static char ini_errmsg[512];

static int GW_PRINTF(1, 2)
ini_errback(const char *fmt, ...)
{
	va_list ap;
	char *nl;

	if (ini_errmsg[0] != '\0')
		return 0;
	va_start(ap, fmt);
	vsnprintf(ini_errmsg, sizeof ini_errmsg, fmt, ap);
	va_end(ap);
	if ((nl = strchr(ini_errmsg, '\n')) != NULL)
		*nl = '\0';
	return 0;
}

/* "iniparser: syntax error in FILE (12):" -> 12, else 0. */
static int
ini_errline(void)
{
	const char *p = strrchr(ini_errmsg, '(');
	unsigned long long n;
	char num[32];
	size_t i = 0;

	if (p == NULL)
		return 0;
	for (p++; *p >= '0' && *p <= '9' && i < sizeof num - 1; p++)
		num[i++] = *p;
	num[i] = '\0';
	if (gw_parse_uint(num, 1000000000ULL, &n) != 0)
		return 0;
	return (int)n;
}

dictionary *
gw_ini_load(const char *path, gw_err *e)
{
	dictionary *d;
	int fd;

	/* iniparser opens it itself: a FIFO would block it */
	if ((fd = gw_open_regular(path, e)) < 0)
		return NULL;
	close(fd);
	ini_errmsg[0] = '\0';
	iniparser_set_error_callback(ini_errback);
	d = iniparser_load(path);
	iniparser_set_error_callback(NULL);
	if (d == NULL || ini_errmsg[0] != '\0') {
		int line = ini_errline();

		if (line > 0)
			gw_err_set(e, _("%s:%d: syntax error, expected '[section]' or 'key = value'"),
			           path, line);
		else
			gw_err_set(e, _("%s: cannot be read as an INI file"), path);
		if (d)
			iniparser_freedict(d);
		return NULL;
	}
	return d;
}

/* ---- what iniparser does not say ------------------------------------- */

/* iniparser 4 reads a line into 1,024 bytes with fgets: 1,022 bytes and
 * the newline fit, a longer line is "input line too long". */
#define INI_LINE_MAX 1022

struct ini_key {
	char *name;   /* "section:key", lower case as iniparser keeps it */
	int line;
};

/* One line's text, trimmed and lower-cased, into a new string. */
static char *
lower_trimmed(const char *s, size_t n)
{
	char *t = gw_xstrndup(s, n), *p;

	gw_trim(t);
	for (p = t; *p; p++)
		if (*p >= 'A' && *p <= 'Z')
			*p = (char)(*p - 'A' + 'a');
	return t;
}

/* "[section] key" for a message ("key" before any section). */
static void
field_name(char *buf, size_t size, const char *name)
{
	const char *colon = strchr(name, ':');

	if (colon == NULL || colon == name)
		snprintf(buf, size, "%s", colon ? colon + 1 : name);
	else
		snprintf(buf, size, "[%.*s] %s", (int)(colon - name), name,
		         colon + 1);
}

static int
cmp_key(const void *a, const void *b)
{
	const struct ini_key *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	return c ? c : x->line - y->line;
}

/* The first key given twice (by its second line), or -1. */
static int
first_duplicate(struct ini_key *k, size_t n, size_t *first, size_t *again)
{
	size_t i;
	int found = -1;

	qsort(k, n, sizeof *k, cmp_key);
	for (i = 1; i < n; i++)
		if (strcmp(k[i].name, k[i - 1].name) == 0 &&
		    (found < 0 || k[i].line < k[*again].line)) {
			*first = i - 1;
			*again = i;
			found = 0;
		}
	return found;
}

/* One line: a section (sets *sec), a key (added), or neither; -1 for a
 * section whose name holds ':' (iniparser names a key "section:key", so
 * [options:p2p] would be taken for the key p2p of [options]). */
static int
scan_line(const char *s, size_t n, char **sec, struct ini_key **keys,
          size_t *nk, int line)
{
	const char *eq = memchr(s, '=', n);
	char *key;

	while (n > 0 && (*s == ' ' || *s == '\t'))
		s++, n--;
	if (n == 0 || *s == ';' || *s == '#')
		return 0;
	if (*s == '[') {
		const char *end = memchr(s, ']', n);

		if (end != NULL) {
			free(*sec);
			*sec = lower_trimmed(s + 1, (size_t)(end - s - 1));
			if (strchr(*sec, ':') != NULL)
				return -1;
		}
		return 0;
	}
	if (eq == NULL)
		return 0;
	key = lower_trimmed(s, (size_t)(eq - s));
	*keys = gw_xrealloc(*keys, (*nk + 1) * sizeof **keys);
	(*keys)[*nk].name = gw_xasprintf("%s:%s", *sec, key);
	(*keys)[*nk].line = line;
	(*nk)++;
	free(key);
	return 0;
}

/* The line at s: too long?  Sets e naming its key when it is. */
static int
line_too_long(const char *path, const char *s, size_t n, const char *sec,
              int line, gw_err *e)
{
	const char *eq = memchr(s, '=', n);
	char *key, *name, field[256];

	if (n <= INI_LINE_MAX)
		return 0;
	if (eq == NULL) {
		gw_err_set(e, _("%s:%d: line too long (%zu bytes, at most %d)"),
		           path, line, n, INI_LINE_MAX);
		return 1;
	}
	key = lower_trimmed(s, (size_t)(eq - s));
	name = gw_xasprintf("%s:%.64s", sec, key);
	field_name(field, sizeof field, name);
	/* TRANSLATORS: an answers file's line; %s:%d the file and line, %s
	 * the field ("[vm] vmx"), %zu its length, %d the limit. */
	gw_err_set(e, _("%s:%d: %s: line too long (%zu bytes, at most %d)"),
	           path, line, field, n, INI_LINE_MAX);
	free(name);
	free(key);
	return 1;
}

int
gw_ini_check(const char *path, const char *data, size_t len, gw_err *e)
{
	struct ini_key *keys = NULL;
	size_t nk = 0, i, first = 0, again = 0;
	const char *p = data, *end = data + len;
	char *sec = gw_xstrdup(""), field[256];
	int line = 0, rc = 0, cont = 0;

	while (p < end && rc == 0) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
		size_t body = n;

		line++;
		if (body > 0 && p[body - 1] == '\r')
			body--;
		if (line_too_long(path, p, n, sec, line, e))
			rc = -1;
		else if (!cont &&   /* a continued value is not a key */
		         scan_line(p, body, &sec, &keys, &nk, line) != 0) {
			/* TRANSLATORS: an answers file's section; %s:%d the
			 * file and line, %s the section's name. */
			gw_err_set(e, _("%s:%d: section [%s]: a section name holds no ':', expected [wizard], [host], [gpu], [vm], [options] or [output]"),
			           path, line, sec);
			rc = -1;
		}
		cont = body > 0 && p[body - 1] == '\\';
		p = nl ? nl + 1 : end;
	}
	if (rc == 0 && nk > 1 && first_duplicate(keys, nk, &first, &again) == 0) {
		field_name(field, sizeof field, keys[again].name);
		/* TRANSLATORS: an answers file's key given twice; %s:%d the
		 * file and the second line, %s the field ("[gpu] devices"),
		 * %d the first line. */
		gw_err_set(e, _("%s:%d: %s: given twice (first on line %d), expected each key once"),
		           path, keys[again].line, field, keys[first].line);
		rc = -1;
	}
	for (i = 0; i < nk; i++)
		free(keys[i].name);
	free(keys);
	free(sec);
	return rc;
}
