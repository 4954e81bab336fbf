/* gputable.c: the GPU fact table (data/gpus.ini), read with iniparser.
 *
 * Loading is in three steps, so that every problem gets one clear line:
 *  1. gw_read_file(): missing, unreadable, a directory, too large, binary.
 *  2. iniparser_load(): syntax errors and over-long lines, caught through
 *     its error callback and turned into "FILE:LINE: ...".
 *  3. A light scan of the same text for what iniparser accepts silently
 *     (a repeated section or key, a key before any section), then a check
 *     of every section's fields, naming FILE:LINE, [section] and field.
 */
#include "gputable.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>
#include <iniparser.h>

#define TABLE_MAX_BYTES (4u << 20)
/* iniparser 4.1 reads a line into a 1024-byte buffer: at most 1022
 * characters before the newline. */
#define INI_MAX_LINE 1022
/* Candidates named in an "ambiguous" message before "..." */
#define AMBIG_MAX_LIST 12

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

/* ---- a scan of the raw text ------------------------------------------- */

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

static void
scan_free(scan *s)
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

static int
scan_text(scan *s, const char *path, const char *data, size_t len, gw_err *e)
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

static int
scan_key_line(const scan *s, size_t sec, const char *key)
{
	size_t i;

	for (i = 0; i < s->nkeys; i++)
		if (s->keys[i].sec == sec && strcmp(s->keys[i].key, key) == 0)
			return s->keys[i].line;
	return s->secs[sec].line;
}

/* ---- field parsers ---------------------------------------------------- */

/* "0x10de", "10DE": 1 to 4 hex digits, optional 0x. */
static int
parse_hex16(const char *s, unsigned *out)
{
	unsigned v = 0;
	int nd = 0;

	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		s += 2;
	for (; *s; s++, nd++) {
		int c = tolower((unsigned char)*s);

		if (nd == 4 || !isxdigit(c))
			return -1;
		v = v * 16 + (unsigned)(isdigit(c) ? c - '0' : c - 'a' + 10);
	}
	if (nd == 0)
		return -1;
	*out = v;
	return 0;
}

/* "0x10de:0x14a9" */
static int
parse_subsys(const char *s, unsigned *sv, unsigned *sd)
{
	const char *colon = strchr(s, ':');
	char first[16];
	size_t n;

	if (colon == NULL || strchr(colon + 1, ':') != NULL)
		return -1;
	n = (size_t)(colon - s);
	if (n == 0 || n >= sizeof first)
		return -1;
	memcpy(first, s, n);
	first[n] = '\0';
	if (parse_hex16(first, sv) != 0 || parse_hex16(colon + 1, sd) != 0)
		return -1;
	if (*sv == 0 && *sd == 0)
		return -1;
	return 0;
}

/* "unknown", or 1..4 ascending powers of two "256|65536". */
static int
parse_bar1(const char *s, unsigned long out[4], int *n)
{
	char buf[128], *tok, *save = NULL;
	int k = 0;

	if (strcmp(s, "unknown") == 0) {
		*n = 0;
		return 0;
	}
	if (strlen(s) >= sizeof buf)
		return -1;
	strcpy(buf, s);
	if (buf[0] == '|' || buf[strlen(buf) - 1] == '|' || strstr(buf, "||"))
		return -1;
	for (tok = strtok_r(buf, "|", &save); tok; tok = strtok_r(NULL, "|", &save)) {
		unsigned long long v;

		if (k == 4 || gw_parse_uint(tok, 1ULL << 40, &v) != 0 || v == 0 ||
		    (v & (v - 1)) != 0)
			return -1;
		if (k > 0 && v <= out[k - 1])
			return -1;
		out[k++] = (unsigned long)v;
	}
	if (k == 0)
		return -1;
	*n = k;
	return 0;
}

/* A short id: [a-z0-9][a-z0-9.-]*.  No ':' (a PCI id) and no '_' (a vGPU
 * profile), so the three kinds of spec never overlap. */
static int
valid_id(const char *s)
{
	if (!(islower((unsigned char)*s) || isdigit((unsigned char)*s)))
		return 0;
	for (; *s; s++)
		if (!(islower((unsigned char)*s) || isdigit((unsigned char)*s) ||
		      *s == '-' || *s == '.'))
			return 0;
	return 1;
}

/* The board part of a profile or prefix: after "grid_" or "nvidia_";
 * NULL when it has neither. */
static const char *
vgpu_board(const char *s)
{
	if (strncasecmp(s, "grid_", 5) == 0)
		return s + 5;
	if (strncasecmp(s, "nvidia_", 7) == 0)
		return s + 7;
	return NULL;
}

/* grid_<board> / nvidia_<board>, lower case, board [a-z0-9-], not ending
 * in '-'. */
static int
valid_prefix(const char *s)
{
	const char *b = vgpu_board(s), *p;

	if (b == NULL || *b == '\0' || *b == '-' || b[strlen(b) - 1] == '-')
		return 0;
	for (p = s; *p; p++)
		if (isupper((unsigned char)*p))
			return 0;
	for (p = b; *p; p++)
		if (!(islower((unsigned char)*p) || isdigit((unsigned char)*p) ||
		      *p == '-'))
			return 0;
	return 1;
}

/* ---- load ------------------------------------------------------------- */

static const char *const known_keys[] = {
	"name", "vendor_id", "device_id", "subsys_id", "vram_gb", "bar1_mib",
	"vgpu_prefix", "source", NULL
};

static void
gpu_free(gw_gpu *g)
{
	free(g->id);
	free(g->name);
	free(g->vgpu_prefix);
	free(g->source);
	memset(g, 0, sizeof *g);
}

void
gw_table_free(gw_table *t)
{
	size_t i;

	if (t == NULL)
		return;
	for (i = 0; i < t->n; i++)
		gpu_free(&t->gpus[i]);
	free(t->gpus);
	free(t->path);
	memset(t, 0, sizeof *t);
}

/* A value of [sec], or NULL when absent or empty. */
static const char *
get(dictionary *d, const char *sec, const char *key)
{
	char *full = gw_xasprintf("%s:%s", sec, key);
	const char *v = iniparser_getstring(d, full, NULL);

	free(full);
	return v && *v ? v : NULL;
}

static int
load_section(gw_gpu *g, dictionary *d, const scan *s, size_t si,
             const char *path, gw_err *e)
{
	const char *sec = s->secs[si].name;
	const char *v;
	unsigned long long vram;
	size_t k;
	int line = s->secs[si].line;

	if (!valid_id(sec)) {
		gw_err_set(e, _("%s:%d: [%s] is not a valid GPU id (expected lower-case letters, digits, '-' and '.')"),
		           path, line, sec);
		return -1;
	}
	for (k = 0; k < s->nkeys; k++) {
		size_t j;
		int ok = 0;

		if (s->keys[k].sec != si)
			continue;
		for (j = 0; known_keys[j]; j++)
			if (strcmp(s->keys[k].key, known_keys[j]) == 0)
				ok = 1;
		if (!ok) {
			gw_err_set(e, _("%s:%d: [%s] unknown key '%s' (expected name, vendor_id, device_id, subsys_id, vram_gb, bar1_mib, vgpu_prefix, source)"),
			           path, s->keys[k].line, sec, s->keys[k].key);
			return -1;
		}
	}

	g->id = gw_xstrdup(sec);
	/* Required text fields. */
	if ((v = get(d, sec, "name")) == NULL) {
		gw_err_set(e, _("%s:%d: [%s] has no name (expected name = the pci.ids model name)"),
		           path, line, sec);
		return -1;
	}
	g->name = gw_xstrdup(v);
	if ((v = get(d, sec, "source")) == NULL) {
		gw_err_set(e, _("%s:%d: [%s] has no source (expected source = where the facts come from)"),
		           path, line, sec);
		return -1;
	}
	g->source = gw_xstrdup(v);

	/* PCI ids. */
	if ((v = get(d, sec, "vendor_id")) == NULL) {
		gw_err_set(e, _("%s:%d: [%s] has no vendor_id (expected e.g. vendor_id = 0x10de)"),
		           path, line, sec);
		return -1;
	}
	if (parse_hex16(v, &g->vendor_id) != 0 || g->vendor_id == 0 ||
	    g->vendor_id == 0xffff) {
		gw_err_set(e, _("%s:%d: [%s] vendor_id: '%s' is not a PCI vendor id (expected 0x0001 to 0xfffe)"),
		           path, scan_key_line(s, si, "vendor_id"), sec, v);
		return -1;
	}
	if ((v = get(d, sec, "device_id")) == NULL) {
		gw_err_set(e, _("%s:%d: [%s] has no device_id (expected e.g. device_id = 0x26b9)"),
		           path, line, sec);
		return -1;
	}
	if (parse_hex16(v, &g->device_id) != 0) {
		gw_err_set(e, _("%s:%d: [%s] device_id: '%s' is not a PCI device id (expected 0x0000 to 0xffff)"),
		           path, scan_key_line(s, si, "device_id"), sec, v);
		return -1;
	}
	if ((v = get(d, sec, "subsys_id")) != NULL &&
	    parse_subsys(v, &g->subsys_vendor, &g->subsys_device) != 0) {
		gw_err_set(e, _("%s:%d: [%s] subsys_id: '%s' is not a PCI subsystem id (expected 0xVVVV:0xDDDD)"),
		           path, scan_key_line(s, si, "subsys_id"), sec, v);
		return -1;
	}

	/* Sizes: "unknown" stays unknown. */
	if ((v = get(d, sec, "vram_gb")) == NULL) {
		gw_err_set(e, _("%s:%d: [%s] has no vram_gb (expected a whole number of GB or 'unknown')"),
		           path, line, sec);
		return -1;
	}
	if (strcmp(v, "unknown") == 0)
		g->vram_gb = -1;
	else if (gw_parse_uint(v, 65536, &vram) == 0 && vram > 0)
		g->vram_gb = (int)vram;
	else {
		gw_err_set(e, _("%s:%d: [%s] vram_gb: '%s' is not a whole number of GB (1 to 65536) or 'unknown'"),
		           path, scan_key_line(s, si, "vram_gb"), sec, v);
		return -1;
	}
	if ((v = get(d, sec, "bar1_mib")) == NULL) {
		gw_err_set(e, _("%s:%d: [%s] has no bar1_mib (expected MiB, 'a|b', or 'unknown')"),
		           path, line, sec);
		return -1;
	}
	if (parse_bar1(v, g->bar1_mib, &g->nbar1) != 0) {
		gw_err_set(e, _("%s:%d: [%s] bar1_mib: '%s' is not 'unknown' or up to 4 ascending powers of two in MiB such as 256|65536"),
		           path, scan_key_line(s, si, "bar1_mib"), sec, v);
		return -1;
	}

	if ((v = get(d, sec, "vgpu_prefix")) != NULL) {
		if (!valid_prefix(v)) {
			gw_err_set(e, _("%s:%d: [%s] vgpu_prefix: '%s' is not a vGPU profile prefix (expected grid_<board> or nvidia_<board>, lower case)"),
			           path, scan_key_line(s, si, "vgpu_prefix"), sec, v);
			return -1;
		}
		g->vgpu_prefix = gw_xstrdup(v);
	}
	return 0;
}

/* What one row must not share with another: the PCI id (unless the
 * subsystem tells them apart) and the vGPU board. */
static int
check_unique(const gw_table *t, const scan *s, const size_t *secidx,
             const char *path, gw_err *e)
{
	size_t i, j;

	for (i = 0; i < t->n; i++) {
		const gw_gpu *a = &t->gpus[i];

		for (j = 0; j < i; j++) {
			const gw_gpu *b = &t->gpus[j];

			if (a->vendor_id == b->vendor_id &&
			    a->device_id == b->device_id &&
			    a->subsys_vendor == b->subsys_vendor &&
			    a->subsys_device == b->subsys_device) {
				gw_err_set(e, _("%s:%d: [%s] has the same PCI id %04x:%04x as [%s]; add subsys_id = 0xVVVV:0xDDDD to tell them apart"),
				           path, s->secs[secidx[i]].line, a->id,
				           a->vendor_id, a->device_id, b->id);
				return -1;
			}
			if (a->vgpu_prefix && b->vgpu_prefix &&
			    gw_strieq(vgpu_board(a->vgpu_prefix),
			              vgpu_board(b->vgpu_prefix))) {
				gw_err_set(e, _("%s:%d: [%s] vgpu_prefix: '%s' names the same board as [%s] (%s); a profile must map to one GPU"),
				           path, scan_key_line(s, secidx[i], "vgpu_prefix"),
				           a->id, a->vgpu_prefix, b->id, b->vgpu_prefix);
				return -1;
			}
		}
	}
	return 0;
}

int
gw_table_load(gw_table *t, const char *path, gw_err *e)
{
	dictionary *d;
	char *data = NULL;
	size_t len = 0, i, *secidx;
	scan s;

	memset(t, 0, sizeof *t);
	memset(&s, 0, sizeof s);

	/* 1. Clear messages for what iniparser would only half report. */
	if (gw_read_file(path, TABLE_MAX_BYTES, &data, &len, e) != 0)
		return -1;
	if (memchr(data, '\0', len) != NULL) {
		gw_err_set(e, _("%s: binary data, expected the GPU table (an INI file)"),
		           path);
		free(data);
		return -1;
	}

	/* 2. Syntax, through iniparser. */
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
		free(data);
		return -1;
	}

	/* 3. What iniparser accepts silently, then each section. */
	if (scan_text(&s, path, data, len, e) != 0)
		goto fail;
	free(data);
	data = NULL;
	if (s.nsecs == 0) {
		gw_err_set(e, _("%s: no GPUs in the table (expected [id] sections with name, vendor_id, device_id, vram_gb, bar1_mib, source)"),
		           path);
		goto fail;
	}
	t->gpus = gw_xcalloc(s.nsecs, sizeof *t->gpus);
	secidx = gw_xcalloc(s.nsecs, sizeof *secidx);
	for (i = 0; i < s.nsecs; i++) {
		if (load_section(&t->gpus[t->n], d, &s, i, path, e) != 0) {
			gpu_free(&t->gpus[t->n]);
			free(secidx);
			goto fail;
		}
		secidx[t->n++] = i;
	}
	if (check_unique(t, &s, secidx, path, e) != 0) {
		free(secidx);
		goto fail;
	}
	free(secidx);
	t->path = gw_xstrdup(path);
	iniparser_freedict(d);
	scan_free(&s);
	return 0;

fail:
	free(data);
	iniparser_freedict(d);
	scan_free(&s);
	gw_table_free(t);
	return -1;
}

/* ---- default path ----------------------------------------------------- */

static int
is_file(const char *p)
{
	struct stat st;

	return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

char *
gw_table_default_path(gw_err *e)
{
	const char *env = getenv("GPUWIZ_TABLE");
	char exe[PATH_MAX], *slash, *cand[4];
	gw_buf tried;
	ssize_t n;
	size_t i, nc = 0;
	char *found = NULL;

	/* Named explicitly: use it even when missing, so that loading it
	 * names the file the operator asked for. */
	if (env && *env)
		return gw_xstrdup(env);

	/* A build-tree binary first (its own table, not an older installed
	 * one), then the installed table, then the source tree of an
	 * out-of-tree build. */
	n = readlink("/proc/self/exe", exe, sizeof exe - 1);
	if (n > 0) {
		exe[n] = '\0';
		if ((slash = strrchr(exe, '/')) != NULL) {
			*slash = '\0';
			cand[nc++] = gw_xasprintf("%s/../data/gpus.ini", exe);
			cand[nc++] = gw_xasprintf("%s/data/gpus.ini", exe);
		}
	}
#ifdef PKGDATADIR
	cand[nc++] = gw_xstrdup(PKGDATADIR "/gpus.ini");
#endif
#ifdef GW_TOP_SRCDIR
	cand[nc++] = gw_xstrdup(GW_TOP_SRCDIR "/data/gpus.ini");
#endif
	gw_buf_init(&tried);
	for (i = 0; i < nc; i++) {
		if (found == NULL && is_file(cand[i])) {
			found = cand[i];
			continue;
		}
		if (found == NULL)
			gw_buf_printf(&tried, "%s%s", tried.len ? ", " : "", cand[i]);
		free(cand[i]);
	}
	if (found == NULL)
		gw_err_set(e, _("no GPU table found (tried %s); set GPUWIZ_TABLE to the path of gpus.ini"),
		           tried.len ? tried.data : "-");
	gw_buf_free(&tried);
	return found;
}

/* ---- lookup ----------------------------------------------------------- */

int
gw_is_vgpu_profile(const char *spec)
{
	const char *b;

	if (spec == NULL)
		return 0;
	b = vgpu_board(spec);
	return b != NULL && *b != '\0';
}

unsigned long
gw_gpu_bar1_max_mib(const gw_gpu *g)
{
	if (g == NULL || g->nbar1 <= 0)
		return 0;
	return g->bar1_mib[g->nbar1 - 1];
}

const gw_gpu *
gw_table_find_pci(const gw_table *t, unsigned vendor, unsigned device,
                  unsigned subsys_vendor, unsigned subsys_device,
                  int *ambiguous)
{
	const gw_gpu *exact = NULL, *generic = NULL, *any = NULL;
	size_t i, nexact = 0, ngeneric = 0, nany = 0;
	int have_subsys = subsys_vendor != 0 || subsys_device != 0;

	if (ambiguous)
		*ambiguous = 0;
	if (t == NULL)
		return NULL;
	for (i = 0; i < t->n; i++) {
		const gw_gpu *g = &t->gpus[i];

		if (g->vendor_id != vendor || g->device_id != device)
			continue;
		nany++;
		any = g;
		if (g->subsys_vendor == 0 && g->subsys_device == 0) {
			ngeneric++;
			generic = g;
		} else if (have_subsys && g->subsys_vendor == subsys_vendor &&
		           g->subsys_device == subsys_device) {
			nexact++;
			exact = g;
		}
	}
	if (nexact == 1)
		return exact;
	if (nexact == 0 && ngeneric == 1)
		return generic;
	if (nexact == 0 && ngeneric == 0 && nany == 1 && !have_subsys)
		return any;
	if (ambiguous && (nexact > 1 || ngeneric > 1 || nany > 1))
		*ambiguous = 1;
	return NULL;
}

/* "10de:26b9" or "10de:25b6:10de:14a9" (each part 1-4 hex digits, 0x
 * allowed).  Returns the number of parts (2 or 4), 0 when not a PCI id. */
static int
parse_pci_spec(const char *spec, unsigned v[4])
{
	char buf[64], *p, *save = NULL;
	int n = 0;

	if (strlen(spec) >= sizeof buf)
		return 0;
	strcpy(buf, spec);
	if (buf[0] == ':' || buf[strlen(buf) - 1] == ':' || strstr(buf, "::"))
		return 0;
	for (p = strtok_r(buf, ":", &save); p; p = strtok_r(NULL, ":", &save)) {
		if (n == 4 || parse_hex16(p, &v[n]) != 0)
			return 0;
		n++;
	}
	return n == 2 || n == 4 ? n : 0;
}

/* Case-insensitive substring. */
static int
ci_contains(const char *hay, const char *needle)
{
	size_t n = strlen(needle);

	if (n == 0)
		return 0;
	for (; *hay; hay++)
		if (strncasecmp(hay, needle, n) == 0)
			return 1;
	return 0;
}

/* The model part of a pci.ids name: the text between the first '[' and
 * the last ']' ("AD102GL [L40S]" -> "L40S"), else the whole name. */
static const char *
model_part(const char *name, size_t *n)
{
	const char *open = strchr(name, '['), *close = strrchr(name, ']');

	if (open == NULL || close == NULL || close < open) {
		*n = strlen(name);
		return name;
	}
	*n = (size_t)(close - open - 1);
	return open + 1;
}

static int
model_equals(const char *name, const char *spec)
{
	size_t n;
	const char *m = model_part(name, &n);

	return strlen(spec) == n && strncasecmp(m, spec, n) == 0;
}

static int
model_contains(const char *name, const char *spec)
{
	size_t n, k = strlen(spec), i;
	const char *m = model_part(name, &n);

	for (i = 0; k > 0 && i + k <= n; i++)
		if (strncasecmp(m + i, spec, k) == 0)
			return 1;
	return 0;
}

/* "a, b, c" of the candidates' ids, at most AMBIG_MAX_LIST then "...". */
static void
list_ids(gw_buf *b, const gw_gpu *const *c, size_t n)
{
	size_t i;

	for (i = 0; i < n && i < AMBIG_MAX_LIST; i++)
		gw_buf_printf(b, "%s%s", i ? ", " : "", c[i]->id);
	if (n > AMBIG_MAX_LIST)
		gw_buf_printf(b, _(", ... (%zu in all)"), n);
}

/* spec's board part starts with g's vGPU board, followed by the end or a
 * '-'.  Returns the board length matched, 0 for no match; *suffix is set
 * to the text after the '-' ("" when none): the size and series ("80c",
 * "1-10c", "48q"), checked by valid_suffix(). */
static size_t
profile_match(const gw_gpu *g, const char *spec, const char **suffix)
{
	const char *sb = vgpu_board(spec), *gb;
	size_t n;

	if (g->vgpu_prefix == NULL || sb == NULL)
		return 0;
	gb = vgpu_board(g->vgpu_prefix);
	n = strlen(gb);
	if (strncasecmp(sb, gb, n) != 0 || (sb[n] != '-' && sb[n] != '\0'))
		return 0;
	*suffix = sb[n] == '-' ? sb + n + 1 : sb + n;
	return n;
}

static int
valid_suffix(const char *s)
{
	if (!isdigit((unsigned char)*s))
		return 0;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && *s != '-')
			return 0;
	return 1;
}

char *
gw_gpu_vgpu_profile(const gw_gpu *g, const char *profile)
{
	const char *suffix = NULL;
	char *out, *p;

	if (g == NULL || profile == NULL || profile_match(g, profile, &suffix) == 0 ||
	    !valid_suffix(suffix))
		return NULL;
	out = gw_xasprintf("%s-%s", g->vgpu_prefix, suffix);
	for (p = out; *p; p++)
		*p = (char)tolower((unsigned char)*p);
	return out;
}

static const gw_gpu *
lookup_profile(const gw_table *t, const char *spec, gw_err *e)
{
	const gw_gpu *best = NULL;
	const char *suffix = NULL, *sfx;
	size_t i, bestlen = 0;

	/* The longest board wins: nvidia_rtx6000-ada-48q is rtx6000-ada. */
	for (i = 0; i < t->n; i++) {
		size_t n = profile_match(&t->gpus[i], spec, &sfx);

		if (n > bestlen) {
			bestlen = n;
			best = &t->gpus[i];
			suffix = sfx;
		}
	}
	if (best == NULL) {
		gw_err_set(e, _("unknown vGPU profile '%s' (no GPU in %s has vGPU types of that board; expected e.g. nvidia_l40s-48c or grid_a100-40c)"),
		           spec, t->path ? t->path : _("the table"));
		return NULL;
	}
	if (!valid_suffix(suffix)) {
		gw_err_set(e, _("vGPU profile '%s' has no valid size and series after the board (expected e.g. %s-%dc for [%s])"),
		           spec, best->vgpu_prefix,
		           best->vram_gb > 0 ? best->vram_gb : 4, best->id);
		return NULL;
	}
	return best;
}

/* "a2 = 10de:25b6:10de:157e, a16 = ..." for the rows of one PCI id. */
static void
list_subsys(gw_buf *b, const gw_gpu *const *c, size_t n)
{
	size_t i;

	for (i = 0; i < n && i < AMBIG_MAX_LIST; i++) {
		if (c[i]->subsys_vendor == 0 && c[i]->subsys_device == 0)
			gw_buf_printf(b, "%s%s = %04x:%04x", i ? ", " : "", c[i]->id,
			              c[i]->vendor_id, c[i]->device_id);
		else
			gw_buf_printf(b, "%s%s = %04x:%04x:%04x:%04x", i ? ", " : "",
			              c[i]->id, c[i]->vendor_id, c[i]->device_id,
			              c[i]->subsys_vendor, c[i]->subsys_device);
	}
}

static const gw_gpu *
lookup_pci(const gw_table *t, const char *spec, const unsigned v[4], int n,
           gw_err *e)
{
	const gw_gpu *g, **c;
	int amb = 0;
	size_t i, nc = 0;
	gw_buf ids, subs;

	g = gw_table_find_pci(t, v[0], v[1], n == 4 ? v[2] : 0,
	                      n == 4 ? v[3] : 0, &amb);
	if (g)
		return g;
	/* every candidate, so the "(N in all)" count is true */
	c = gw_xcalloc(t->n ? t->n : 1, sizeof *c);
	for (i = 0; i < t->n; i++)
		if (t->gpus[i].vendor_id == v[0] && t->gpus[i].device_id == v[1])
			c[nc++] = &t->gpus[i];
	if (nc == 0) {
		gw_err_set(e, _("unknown GPU '%s' (no GPU in %s has this PCI id)"),
		           spec, t->path ? t->path : _("the table"));
		free(c);
		return NULL;
	}
	gw_buf_init(&ids);
	gw_buf_init(&subs);
	list_ids(&ids, c, nc);
	list_subsys(&subs, c, nc);
	if (amb && n == 2)
		gw_err_set(e, _("GPU '%s' is ambiguous: %s (the PCI subsystem id tells them apart: %s)"),
		           spec, ids.data, subs.data);
	else if (amb)
		gw_err_set(e, _("GPU '%s' is ambiguous: %s (subsystem %04x:%04x is not in the table: %s)"),
		           spec, ids.data, v[2], v[3], subs.data);
	else
		gw_err_set(e, _("unknown GPU '%s' (subsystem %04x:%04x is not in the table: %s)"),
		           spec, v[2], v[3], subs.data);
	gw_buf_free(&ids);
	gw_buf_free(&subs);
	free(c);
	return NULL;
}

enum name_tier { TIER_FULL, TIER_MODEL, TIER_MODEL_PART, TIER_ANY_PART,
                 TIER_END };

static const gw_gpu *
lookup_name(const gw_table *t, const char *spec, gw_err *e)
{
	const gw_gpu **c = gw_xcalloc(t->n ? t->n : 1, sizeof *c);
	const gw_gpu *found = NULL;
	int tier;
	size_t i, nc = 0;

	for (tier = TIER_FULL; tier < TIER_END && nc == 0; tier++) {
		for (i = 0; i < t->n; i++) {
			const char *name = t->gpus[i].name;
			int hit = tier == TIER_FULL ? gw_strieq(name, spec) :
			          tier == TIER_MODEL ? model_equals(name, spec) :
			          tier == TIER_MODEL_PART ? model_contains(name, spec) :
			          ci_contains(name, spec);

			if (hit)
				c[nc++] = &t->gpus[i];
		}
	}
	if (nc == 1) {
		found = c[0];
	} else if (nc > 1) {
		gw_buf b;

		gw_buf_init(&b);
		list_ids(&b, c, nc);
		gw_err_set(e, _("GPU '%s' is ambiguous: %s (name one by its id)"),
		           spec, b.data);
		gw_buf_free(&b);
	} else {
		gw_err_set(e, _("unknown GPU '%s' (not an id, PCI id, vGPU profile or model name in %s)"),
		           spec, t->path ? t->path : _("the table"));
	}
	free(c);
	return found;
}

const gw_gpu *
gw_table_lookup(const gw_table *t, const char *spec, gw_err *e)
{
	const gw_gpu *g = NULL;
	unsigned v[4];
	char *s;
	size_t i;
	int n;

	if (t == NULL || spec == NULL) {
		gw_err_set(e, _("no GPU given"));
		return NULL;
	}
	s = gw_trim(gw_xstrdup(spec));
	if (*s == '\0') {
		gw_err_set(e, _("no GPU given (expected an id such as l40s, a PCI id such as 10de:26b9, a vGPU profile or a model name)"));
		free(s);
		return NULL;
	}
	/* 1. short id */
	for (i = 0; i < t->n; i++)
		if (gw_strieq(t->gpus[i].id, s)) {
			free(s);
			return &t->gpus[i];
		}
	/* 2. PCI id, 3. vGPU profile, 4. model name */
	if ((n = parse_pci_spec(s, v)) != 0)
		g = lookup_pci(t, s, v, n, e);
	else if (gw_is_vgpu_profile(s))
		g = lookup_profile(t, s, e);
	else
		g = lookup_name(t, s, e);
	free(s);
	return g;
}

int
gw_is_onboard_display(unsigned vendor)
{
	return vendor == 0x1a03 ||   /* ASPEED (BMC) */
	       vendor == 0x102b ||   /* Matrox (BMC) */
	       vendor == 0x15ad ||   /* VMware SVGA (nested ESXi) */
	       vendor == 0x1234 ||   /* QEMU standard VGA */
	       vendor == 0x1b36;     /* QEMU/Red Hat QXL */
}
