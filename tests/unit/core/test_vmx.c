/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_vmx.c: the lossless .vmx document (src/vmx.c). */
#include "testutil.h"
#include "vmx_int.h"   /* the line counts */

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define VMX_DIR "vmx"

/* ---- helpers ---------------------------------------------------------- */

/* Lines of a byte string, each with its ending. */
typedef struct {
	const char **p;
	size_t *len;
	size_t n;
} tlines;

static tlines
split_lines(const char *d, size_t len)
{
	tlines t = { NULL, NULL, 0 };
	size_t cap = 0, i = 0;

	while (i < len) {
		const char *nl = memchr(d + i, '\n', len - i);
		size_t n = nl ? (size_t)(nl - (d + i)) + 1 : len - i;

		if (t.n == cap) {
			cap = cap ? cap * 2 : 64;
			t.p = gw_xrealloc(t.p, cap * sizeof *t.p);
			t.len = gw_xrealloc(t.len, cap * sizeof *t.len);
		}
		t.p[t.n] = d + i;
		t.len[t.n++] = n;
		i += n;
	}
	return t;
}

static void
free_lines(tlines *t)
{
	free(t->p);
	free(t->len);
}

/* Length of the ending of a line (0, 1 or 2). */
static size_t
eol_len(const char *p, size_t n)
{
	if (n >= 2 && p[n - 2] == '\r' && p[n - 1] == '\n')
		return 2;
	return n >= 1 && p[n - 1] == '\n' ? 1 : 0;
}

static int
mem_has(const char *hay, size_t n, const char *needle)
{
	size_t m = strlen(needle), i;

	for (i = 0; i + m <= n; i++)
		if (memcmp(hay + i, needle, m) == 0)
			return 1;
	return 0;
}

static gw_vmx *
parse_ok(const char *data, size_t len, const char *name)
{
	gw_vmx *v = NULL;
	gw_err e = { "", "" };

	if (gw_vmx_parse(&v, data, len, name, &e) != 0)
		fail_msg("%s: parse failed: %s", name, e.msg);
	assert_non_null(v);
	return v;
}

static gw_vmx *
parse_str(const char *s)
{
	return parse_ok(s, strlen(s), "test.vmx");
}

static gw_vmx *
parse_sample(const char *file, char **bytes, size_t *len)
{
	char *rel = gw_xasprintf("%s/%s", VMX_DIR, file);
	size_t n;
	char *d = tu_read_sample(rel, &n);
	gw_vmx *v = parse_ok(d, n, file);

	free(rel);
	if (bytes)
		*bytes = d;
	else
		free(d);
	if (len)
		*len = n;
	return v;
}

static void
set_ok(gw_vmx *v, const char *k, const char *val)
{
	gw_err e = { "", "" };

	if (gw_vmx_set(v, k, val, &e) != 0)
		fail_msg("set %s=%s failed: %s", k, val, e.msg);
}

static void
assert_serial(const gw_vmx *v, const char *want, size_t wantlen)
{
	size_t n;
	char *s = gw_vmx_serialize(v, &n);

	assert_int_equal(n, wantlen);
	assert_memory_equal(s, want, wantlen);
	free(s);
}

/* Sorted file names of the vmx fixture folder (NULL-terminated). */
static char **
list_fixtures(size_t *count)
{
	char *dir = tu_fixture_path(VMX_DIR);
	DIR *d = opendir(dir);
	struct dirent *de;
	char **names = NULL;
	size_t n = 0, i, j;

	if (d == NULL)
		fail_msg("cannot open %s: %s", dir, strerror(errno));
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		names = gw_xrealloc(names, (n + 2) * sizeof *names);
		names[n++] = gw_xstrdup(de->d_name);
	}
	closedir(d);
	free(dir);
	for (i = 1; i < n; i++)
		for (j = i; j > 0 && strcmp(names[j - 1], names[j]) > 0; j--) {
			char *t = names[j];

			names[j] = names[j - 1];
			names[j - 1] = t;
		}
	if (names)
		names[n] = NULL;
	*count = n;
	return names;
}

static void
free_names(char **names, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

static void
write_bytes(const char *path, const char *d, size_t n)
{
	FILE *f = fopen(path, "wb");

	assert_non_null(f);
	assert_int_equal(fwrite(d, 1, n, f), n);
	assert_int_equal(fclose(f), 0);
}

static char *
slurp(const char *path, size_t *n)
{
	char *d = NULL;
	gw_err e;

	if (gw_read_file(path, 64u << 20, &d, n, &e) != 0)
		fail_msg("%s", e.msg);
	return d;
}

/* Number of entries in a directory (without . and ..). */
static int
dir_count(const char *path)
{
	DIR *d = opendir(path);
	struct dirent *de;
	int n = 0;

	if (d == NULL)
		return -1;
	while ((de = readdir(d)) != NULL)
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
			n++;
	closedir(d);
	return n;
}

/* ---- round trip and generic edit over every fixture ------------------- */

static void
test_roundtrip_all(void **state)
{
	size_t n, i;
	char **names = list_fixtures(&n);

	(void)state;
	assert_true(n >= 20);
	for (i = 0; i < n; i++) {
		char *bytes;
		size_t len, olen;
		gw_vmx *v = parse_sample(names[i], &bytes, &len);
		char *out = gw_vmx_serialize(v, &olen);

		if (olen != len || memcmp(out, bytes, len) != 0)
			fail_msg("%s: round trip changed the bytes", names[i]);
		assert_true(v->nlines > 0);
		free(out);
		free(bytes);
		gw_vmx_free(v);
	}
	free_names(names, n);
}

/* A copy of every fixture, and of one edited (lines it owns, a new key):
 * the same bytes and answers as the original, and nothing shared: the
 * copy changed and the original freed, each still reads as before. */
static void
check_dup(const char *name, gw_vmx *v)
{
	size_t la, lb, i;
	char *a, *b;
	gw_vmx *c = gw_vmx_dup(v);

	a = gw_vmx_serialize(v, &la);
	b = gw_vmx_serialize(c, &lb);
	if (la != lb || memcmp(a, b, la) != 0)
		fail_msg("%s: the copy's bytes differ", name);
	assert_true(gw_vmx_same(v, c));
	assert_int_equal(gw_vmx_count(c), gw_vmx_count(v));
	assert_int_equal(c->nmalformed, v->nmalformed);
	for (i = 0; i < gw_vmx_count(v); i++) {
		const char *k = gw_vmx_key_at(v, i);

		assert_string_equal(gw_vmx_key_at(c, i), k);
		assert_string_equal(gw_vmx_value_at(c, i), gw_vmx_value_at(v, i));
		assert_string_equal(gw_vmx_get(c, k), gw_vmx_get(v, k));
		assert_int_equal(gw_vmx_line_of(c, k), gw_vmx_line_of(v, k));
	}
	set_ok(c, "pciPassthru.use64bitMMIO", "TRUE");
	set_ok(c, "gpuwiz.dupTest", "copy");
	assert_null(gw_vmx_get(v, "gpuwiz.dupTest"));
	assert_false(gw_vmx_same(v, c));
	assert_false(gw_vmx_same(c, v));
	free(b);
	b = gw_vmx_serialize(v, &lb);
	if (la != lb || memcmp(a, b, la) != 0)
		fail_msg("%s: editing the copy changed the original", name);
	gw_vmx_free(v);
	assert_string_equal(gw_vmx_get(c, "gpuwiz.dupTest"), "copy");
	assert_string_equal(gw_vmx_get(c, "pciPassthru.use64bitMMIO"), "TRUE");
	free(a);
	free(b);
	gw_vmx_free(c);
}

static void
test_dup_all(void **state)
{
	size_t n, i;
	char **names = list_fixtures(&n);

	(void)state;
	assert_true(n >= 20);
	for (i = 0; i < n; i++) {
		char *bytes;
		size_t len;
		gw_vmx *v = parse_sample(names[i], &bytes, &len), *e;

		/* an edited document too: lines that own their bytes */
		e = gw_vmx_dup(v);
		set_ok(e, "memsize", "65536");
		set_ok(e, "sched.mem.min", "65536");
		check_dup(names[i], v);
		check_dup(names[i], e);
		free(bytes);
	}
	free_names(names, n);
	assert_null(gw_vmx_dup(NULL));
}

/* gw_vmx_same says what comparing the serialized bytes says, whatever
 * lines the bytes are in: a line ended by a set, a key appended. */
static void
test_same(void **state)
{
	static const struct {
		const char *a, *b, *key, *value;  /* b then key = value set */
		int same;
	} cases[] = {
		{ "a = \"1\"\nb = \"2\"\n", "a = \"1\"\n", "b", "2", 1 },
		{ "a = \"1\"\nb = \"2\"\n", "a = \"1\"", "b", "2", 1 },
		{ "a = \"1\"\r\nb = \"2\"\r\n", "a = \"1\"", "b", "2", 0 },
		{ "a = \"1\"\n", "a = \"2\"\n", "a", "1", 1 },
		{ "a = \"1\"\n", "a = \"1\"\n", "a", "2", 0 },
		{ "a = \"1\"\n", "a = \"1\"\n", "b", "2", 0 },
		{ "a = \"1\"\nb = \"2\"\n", "a = \"1\"\n", "b", "3", 0 },
		/* a line set in the middle: the lines around it compared as
		 * runs of the input, the set one apart */
		{ "a = \"1\"\nb = \"2\"\nc = \"3\"\n",
		  "a = \"1\"\nb = \"9\"\nc = \"3\"\n", "b", "2", 1 },
		{ "a = \"1\"\nb = \"2\"\nc = \"3\"\n",
		  "a = \"1\"\nb = \"9\"\nc = \"3\"\n", "b", "8", 0 },
		{ "a = \"1\"\nb = \"2\"\nc = \"3\"\n",
		  "a = \"1\"\nb = \"2\"\nc = \"4\"\n", "a", "1", 0 },
		{ "x = \"1\"\ny = \"2\"\n", "x = \"1\"\ny = \"2\"\nz = \"3\"\n",
		  "x", "1", 0 },
	};
	size_t i, la, lb;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		gw_vmx *a = parse_str(cases[i].a), *b = parse_str(cases[i].b);
		char *x, *y;

		set_ok(b, cases[i].key, cases[i].value);
		x = gw_vmx_serialize(a, &la);
		y = gw_vmx_serialize(b, &lb);
		/* the cases are what a byte compare says */
		assert_int_equal(la == lb && memcmp(x, y, la) == 0, cases[i].same);
		if (gw_vmx_same(a, b) != cases[i].same ||
		    gw_vmx_same(b, a) != cases[i].same)
			fail_msg("case %zu: same %d, expected %d", i,
			         gw_vmx_same(a, b), cases[i].same);
		free(x);
		free(y);
		gw_vmx_free(a);
		gw_vmx_free(b);
	}
}

/* Any occurrence of a key, in any case, with exactly the value. */
static void
test_has_pair(void **state)
{
	static const char doc[] =
		"a.b = \"1\"\nA.B = \"2\"\nc = \"x\"\nbad line\n";
	gw_vmx *v = NULL;
	gw_err e;

	(void)state;
	assert_int_equal(gw_vmx_parse(&v, doc, sizeof doc - 1, "doc", &e), 0);
	assert_true(gw_vmx_has_pair(v, "a.b", "1"));
	assert_true(gw_vmx_has_pair(v, "a.B", "2"));
	assert_false(gw_vmx_has_pair(v, "a.b", "3"));
	assert_false(gw_vmx_has_pair(v, "c", "X"));
	assert_false(gw_vmx_has_pair(v, "bad", "line"));
	assert_false(gw_vmx_has_pair(v, "d", "1"));
	set_ok(v, "a.b", "4");          /* both occurrences now agree */
	assert_false(gw_vmx_has_pair(v, "a.b", "1"));
	assert_true(gw_vmx_has_pair(v, "A.b", "4"));
	set_ok(v, "d", "5");
	assert_true(gw_vmx_has_pair(v, "D", "5"));
	gw_vmx_free(v);
}

/* Does line text (without its ending) read as "key = value" for one of the
 * keys that was set, with the value that was set? */
static int
is_set_line(const char *p, size_t n, const char *const *keys,
            const char *const *vals, size_t nk)
{
	gw_vmx *v = NULL;
	gw_err e;
	size_t i;
	int ok = 0;

	if (n == 0 || gw_vmx_parse(&v, p, n, "line", &e) != 0)
		return 0;
	if (gw_vmx_count(v) == 1)
		for (i = 0; i < nk; i++)
			if (gw_strieq(gw_vmx_key_at(v, 0), keys[i]) &&
			    strcmp(gw_vmx_value_at(v, 0), vals[i]) == 0)
				ok = 1;
	gw_vmx_free(v);
	return ok;
}

static void
check_edit(const char *file)
{
	static const char *const keys[] = { "pciPassthru.use64bitMMIO", "memSize" };
	static const char *const vals[] = { "TRUE", "16384" };
	char *bytes, *out, *eol;
	size_t len, olen, i, nappend = 0, nk = 2, count0, nmal0;
	gw_vmx *v = parse_sample(file, &bytes, &len), *v2;
	tlines a, b;
	int absent[2];

	eol = gw_xstrdup(gw_vmx_eol(v));
	count0 = gw_vmx_count(v);
	nmal0 = v->nmalformed;
	for (i = 0; i < nk; i++) {
		absent[i] = gw_vmx_get(v, keys[i]) == NULL;
		nappend += (size_t)absent[i];
		set_ok(v, keys[i], vals[i]);
	}
	out = gw_vmx_serialize(v, &olen);
	a = split_lines(bytes, len);
	b = split_lines(out, olen);
	if (b.n != a.n + nappend)
		fail_msg("%s: %zu lines became %zu (%zu appended)", file, a.n, b.n,
		         nappend);
	for (i = 0; i < a.n; i++) {
		size_t ae = eol_len(a.p[i], a.len[i]), be = eol_len(b.p[i], b.len[i]);
		size_t ac = a.len[i] - ae, bc = b.len[i] - be, pre = 0, suf = 0, k;

		/* The ending stays; only an unterminated last line gains one. */
		if (ae == 0 && i == a.n - 1 && nappend) {
			assert_int_equal(be, strlen(eol));
			assert_memory_equal(b.p[i] + bc, eol, be);
		} else {
			assert_int_equal(ae, be);
			assert_memory_equal(a.p[i] + ac, b.p[i] + bc, be);
		}
		if (ac == bc && memcmp(a.p[i], b.p[i], ac) == 0)
			continue;
		/* A changed line: one of the set keys, and only its value bytes
		 * changed (a common head and tail around the values). */
		if (!is_set_line(b.p[i], bc, keys, vals, nk))
			fail_msg("%s:%zu: line changed but is not a set key", file, i + 1);
		while (pre < ac && pre < bc && a.p[i][pre] == b.p[i][pre])
			pre++;
		while (suf < ac - pre && suf < bc - pre &&
		       a.p[i][ac - 1 - suf] == b.p[i][bc - 1 - suf])
			suf++;
		for (k = 0; k < nk; k++)
			if (is_set_line(b.p[i], bc, keys + k, vals + k, 1))
				break;
		assert_true(k < nk);
		/* +2: a bare value that had to gain quotes */
		if (bc - pre - suf > strlen(vals[k]) + 2)
			fail_msg("%s:%zu: more than the value changed", file, i + 1);
	}
	for (i = 0; i < nk; i++) {
		if (!absent[i])
			continue;
		{
			char *want = gw_xasprintf("%s = \"%s\"%s", keys[i], vals[i], eol);
			size_t j = a.n + (i == 1 && absent[0] ? 1 : 0);

			assert_int_equal(b.len[j], strlen(want));
			assert_memory_equal(b.p[j], want, strlen(want));
			free(want);
		}
	}
	v2 = parse_ok(out, olen, file);
	for (i = 0; i < nk; i++) {
		assert_string_equal(gw_vmx_get(v2, keys[i]), vals[i]);
		assert_string_equal(gw_vmx_get(v, keys[i]), vals[i]);
	}
	assert_int_equal(gw_vmx_count(v2), count0 + nappend);
	assert_int_equal(v2->nmalformed, nmal0);
	assert_string_equal(gw_vmx_eol(v2), eol);
	assert_int_equal(gw_vmx_get_bool(v2, "pciPassthru.use64bitMMIO", 0), 1);
	gw_vmx_free(v2);
	free_lines(&a);
	free_lines(&b);
	free(out);
	free(bytes);
	free(eol);
	gw_vmx_free(v);
}

static void
test_edit_all(void **state)
{
	size_t n, i;
	char **names = list_fixtures(&n);

	(void)state;
	assert_true(n >= 20);
	for (i = 0; i < n; i++)
		check_edit(names[i]);
	free_names(names, n);
}

/* ---- specific samples ------------------------------------------------- */

static void
test_case_insensitive_get(void **state)
{
	static const struct { const char *file, *mem; } t[] = {
		{ "ws-hw11-ubuntu-shebang-utf8.vmx", "2048" },
		{ "ws-winserver2016-efi-windows1252-crlf.vmx", "10000" },
		{ "ws-freebsd-crlf.vmx", "4392" },
		{ "ws-win10-windows1252-renamed-displayname.vmx", "7132" },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof t / sizeof t[0]; i++) {
		gw_vmx *v = parse_sample(t[i].file, NULL, NULL);
		int line = gw_vmx_line_of(v, "memsize");

		/* the real files spell it "memsize"; ESXi and docs "memSize" */
		assert_non_null(gw_vmx_get(v, "memsize"));
		assert_string_equal(gw_vmx_get(v, "memSize"), t[i].mem);
		assert_string_equal(gw_vmx_get(v, "MEMSIZE"), t[i].mem);
		assert_true(line > 0);
		assert_int_equal(gw_vmx_line_of(v, "memSize"), line);
		assert_non_null(gw_vmx_get(v, "virtualhw.version"));
		assert_string_equal(gw_vmx_get(v, "VIRTUALHW.PRODUCTCOMPATIBILITY"),
		                    "hosted");
		assert_null(gw_vmx_get(v, "memsiz"));
		assert_null(gw_vmx_get(v, ""));
		assert_int_equal(gw_vmx_line_of(v, "nosuchkey"), 0);
		gw_vmx_free(v);
	}
}

static void
test_shebang_is_comment(void **state)
{
	gw_vmx *v = parse_sample("ws-hw11-ubuntu-shebang-utf8.vmx", NULL, NULL);

	(void)state;
	assert_int_equal(v->nmalformed, 0);
	assert_string_equal(gw_vmx_key_at(v, 0), ".encoding");
	assert_int_equal(gw_vmx_line_of(v, ".encoding"), 2);
	assert_string_equal(gw_vmx_encoding(v), "UTF-8");
	gw_vmx_free(v);
}

static void
test_set_in_place_keeps_style(void **state)
{
	char *bytes;
	size_t len;
	gw_vmx *v = parse_sample("synthetic-unquoted-values-inline-comments.vmx",
	                         &bytes, &len);
	char *out;
	size_t olen;
	tlines b;

	(void)state;
	assert_int_equal(v->nmalformed, 0);
	assert_string_equal(gw_vmx_get(v, "config.version"), "8");
	assert_string_equal(gw_vmx_get(v, "virtualHW.version"), "19");
	assert_string_equal(gw_vmx_get(v, "memsize"), "4096");
	assert_string_equal(gw_vmx_get(v, "numvcpus"), "4");
	assert_string_equal(gw_vmx_get(v, "displayName"), "odd # spacing");
	assert_string_equal(gw_vmx_get(v, "firmware"), "efi");
	assert_string_equal(gw_vmx_get(v, "uuid.action"), "keep#1");
	assert_string_equal(gw_vmx_get(v, "ethernet0.virtualDev"), "e1000e");
	assert_string_equal(gw_vmx_get(v, "floppy0.present"), "FALSE");
	assert_string_equal(gw_vmx_get(v, "scsi0:0.redo"), "");
	assert_string_equal(gw_vmx_get(v, "sound.fileName"), "");
	assert_string_equal(gw_vmx_get(v, "guestOS"), "other-64");
	assert_int_equal(gw_vmx_get_bool(v, "pciPassthru.use64bitMMIO", 1), 0);

	set_ok(v, "memSize", "8192");
	set_ok(v, "numvcpus", "8");
	set_ok(v, "displayName", "still # quoted");
	set_ok(v, "firmware", "bios");
	set_ok(v, "uuid.action", "needs quotes");
	set_ok(v, "ethernet0.virtualDev", "vmxnet3");
	set_ok(v, "floppy0.present", "TRUE");
	set_ok(v, "sound.fileName", "x");
	set_ok(v, "guestOS", "windows9-64");
	set_ok(v, "pciPassthru.use64bitMMIO", "TRUE");
	out = gw_vmx_serialize(v, &olen);
	b = split_lines(out, olen);
	assert_int_equal(b.n, 14);
#define LINE_IS(i, s) do { \
		assert_int_equal(b.len[(i) - 1], strlen(s)); \
		assert_memory_equal(b.p[(i) - 1], s, strlen(s)); \
	} while (0)
	LINE_IS(2, "config.version = 8\n");
	LINE_IS(3, "virtualHW.version=19\n");
	LINE_IS(4, "memSize = 8192 # MiB, set by hand\n");
	LINE_IS(5, "numvcpus\t=\t\"8\"\t# tab separated\n");
	LINE_IS(6, "displayName   =   \"still # quoted\"    # the # inside quotes is data\n");
	LINE_IS(7, "firmware = \"bios\"# comment right after the closing quote\n");
	LINE_IS(8, "uuid.action = \"needs quotes\"\n");
	LINE_IS(9, "ethernet0.virtualDev = vmxnet3   # inline comment after an unquoted value\n");
	LINE_IS(10, "floppy0.present = \"TRUE\"   \n");
	LINE_IS(11, "scsi0:0.redo = \"\"\n");
	LINE_IS(12, "sound.fileName =\"x\"\n");
	LINE_IS(13, "guestOS=windows9-64\n");
	LINE_IS(14, "pciPassthru.use64bitMMIO = TRUE   # bare boolean\n");
#undef LINE_IS
	/* the new bytes read back with the new values */
	{
		gw_vmx *v2 = parse_ok(out, olen, "again");

		assert_string_equal(gw_vmx_get(v2, "uuid.action"), "needs quotes");
		assert_string_equal(gw_vmx_get(v2, "displayName"), "still # quoted");
		assert_string_equal(gw_vmx_get(v2, "sound.fileName"), "x");
		assert_string_equal(gw_vmx_get(v2, "memsize"), "8192");
		assert_int_equal(gw_vmx_count(v2), gw_vmx_count(v));
		gw_vmx_free(v2);
	}
	free_lines(&b);
	free(out);
	free(bytes);
	gw_vmx_free(v);
}

static void
test_set_in_place_crlf(void **state)
{
	char *bytes, *out;
	size_t len, olen;
	gw_vmx *v = parse_sample("ws-freebsd-crlf.vmx", &bytes, &len);
	int line = gw_vmx_line_of(v, "memsize");
	tlines a, b;
	size_t i;

	(void)state;
	assert_string_equal(gw_vmx_eol(v), "\r\n");
	set_ok(v, "memSize", "8192");
	assert_int_equal(gw_vmx_line_of(v, "memsize"), line);
	out = gw_vmx_serialize(v, &olen);
	a = split_lines(bytes, len);
	b = split_lines(out, olen);
	assert_int_equal(a.n, b.n);
	for (i = 0; i < a.n; i++) {
		if ((int)i == line - 1) {
			assert_int_equal(b.len[i], strlen("memsize = \"8192\"\r\n"));
			assert_memory_equal(b.p[i], "memsize = \"8192\"\r\n", b.len[i]);
		} else {
			assert_int_equal(a.len[i], b.len[i]);
			assert_memory_equal(a.p[i], b.p[i], a.len[i]);
		}
	}
	free_lines(&a);
	free_lines(&b);
	free(out);
	free(bytes);
	gw_vmx_free(v);
}

static void
test_gbk_long_line(void **state)
{
	char *bytes, *out;
	size_t len, olen, i, big = 0;
	gw_vmx *v = parse_sample("ws-fully-encrypted-vm-gbk-4337char-line-crlf.vmx",
	                         &bytes, &len);
	tlines a, b;

	(void)state;
	a = split_lines(bytes, len);
	for (i = 0; i < a.n; i++)
		if (a.len[i] > 4000)
			big = i;
	/* 4,336 characters, 4,337 with the CR, 4,338 with CRLF */
	assert_int_equal(a.len[big], 4338);
	assert_int_equal(gw_vmx_line_of(v, "encryption.data"), (int)big + 1);
	assert_int_equal(strlen(gw_vmx_get(v, "encryption.data")),
	                 4336 - strlen("encryption.data = \"\""));
	assert_string_equal(gw_vmx_encoding(v), "GBK");
	assert_null(gw_vmx_get(v, "memsize"));
	set_ok(v, "memSize", "4096");
	set_ok(v, "pciPassthru.use64bitMMIO", "TRUE");
	out = gw_vmx_serialize(v, &olen);
	b = split_lines(out, olen);
	assert_int_equal(b.n, a.n + 2);
	assert_int_equal(b.len[big], a.len[big]);
	assert_memory_equal(b.p[big], a.p[big], a.len[big]);
	assert_memory_equal(b.p[a.n], "memSize = \"4096\"\r\n", b.len[a.n]);
	free_lines(&a);
	free_lines(&b);
	free(out);
	free(bytes);
	gw_vmx_free(v);
}

static void
test_long_line_synthetic(void **state)
{
	char *bytes;
	size_t len;
	gw_vmx *v = parse_sample("synthetic-long-line-over-4000-crlf.vmx", &bytes,
	                         &len);
	const char *ann = gw_vmx_get(v, "annotation");

	(void)state;
	assert_non_null(ann);
	assert_true(strlen(ann) > 6000);
	/* escapes are raw bytes, not decoded */
	assert_memory_equal(ann, "|22quoted|22 ", 13);
	assert_non_null(strstr(ann, "|0D|0Aline 0001"));
	assert_non_null(strstr(ann, "|7C"));
	set_ok(v, "annotation", "short|22now|22");
	assert_string_equal(gw_vmx_get(v, "annotation"), "short|22now|22");
	{
		size_t n;
		char *out = gw_vmx_serialize(v, &n);

		assert_true(mem_has(out, n, "annotation = \"short|22now|22\"\r\n"));
		free(out);
	}
	free(bytes);
	gw_vmx_free(v);
}

static void
test_encodings(void **state)
{
	static const struct { const char *file, *enc; } t[] = {
		{ "ws-fully-encrypted-vm-gbk-4337char-line-crlf.vmx", "GBK" },
		{ "ws-ubuntu-gbk-displayname-bytes-also-valid-utf8.vmx", "GBK" },
		{ "ws-centos7-cp949-korean-displayname-crlf.vmx", "windows-949-2000" },
		{ "ws-hw21-ubuntu-cp949-guestinfo-detailed-longline.vmx", "windows-949-2000" },
		{ "ws-ubuntu-cp949-renamed-displayname-crlf.vmx", "windows-949-2000" },
		{ "ws-win7-shift-jis-encoding-crlf.vmx", "Shift_JIS" },
		{ "ws-hw16-win10-efi-windows1252-crlf.vmx", "windows-1252" },
		{ "ws-win10-windows1252-renamed-displayname.vmx", "windows-1252" },
		{ "ws-win10-efi-windows1251.vmx", "windows-1251" },
		{ "ws-win10-utf8-chinese-sharedfolder-crlf.vmx", "UTF-8" },
		{ "synthetic-leading-space-first-key.vmx", "windows-1252" },
		{ "synthetic-utf8-bom.vmx", "UTF-8" },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof t / sizeof t[0]; i++) {
		gw_vmx *v = parse_sample(t[i].file, NULL, NULL);

		assert_non_null(gw_vmx_encoding(v));
		assert_string_equal(gw_vmx_encoding(v), t[i].enc);
		gw_vmx_free(v);
	}
	{
		gw_vmx *v = parse_sample(
			"HANDWRITTEN-FRAGMENT-esxi8-tesla-p40-pcipassthru0-block-with-comments.vmx",
			NULL, NULL);

		assert_null(gw_vmx_encoding(v));
		gw_vmx_free(v);
	}
}

static void
test_cp949_displayname(void **state)
{
	static const char name[] = "CentOS 7 ansible \xbd\xc7\xc7\xe0";
	static const char line[] =
		"displayName = \"CentOS 7 ansible \xbd\xc7\xc7\xe0\"\r\n";
	char *bytes, *out;
	size_t len, olen;
	gw_vmx *v = parse_sample("ws-centos7-cp949-korean-displayname-crlf.vmx",
	                         &bytes, &len);
	gw_err e = { "", "" };

	(void)state;
	assert_string_equal(gw_vmx_get(v, "displayName"), name);
	assert_true(mem_has(bytes, len, line));
	set_ok(v, "memsize", "16384");
	set_ok(v, "pciPassthru.use64bitMMIO", "TRUE");
	set_ok(v, "pciPassthru.64bitMMIOSizeGB", "64");
	assert_string_equal(gw_vmx_get(v, "displayName"), name);
	out = gw_vmx_serialize(v, &olen);
	assert_true(mem_has(out, olen, line));
	free(out);
	/* UTF-8 bytes would be mojibake in a CP949 file: refused */
	assert_int_equal(gw_vmx_set(v, "displayName", "\xec\x8b\xa4", &e), -1);
	assert_non_null(strstr(e.msg, "displayName"));
	assert_non_null(strstr(e.msg, "windows-949-2000"));
	assert_string_equal(gw_vmx_get(v, "displayName"), name);
	free(bytes);
	gw_vmx_free(v);

	/* GBK bytes that also happen to be valid UTF-8 */
	v = parse_sample("ws-ubuntu-gbk-displayname-bytes-also-valid-utf8.vmx",
	                 &bytes, &len);
	assert_string_equal(gw_vmx_get(v, "displayName"), "Ubuntu 64 \xce\xbb");
	set_ok(v, "memSize", "8192");
	out = gw_vmx_serialize(v, &olen);
	assert_true(mem_has(out, olen, "\ndisplayName = \"Ubuntu 64 \xce\xbb\"\n"));
	free(out);
	free(bytes);
	gw_vmx_free(v);
}

static void
test_invalid_utf8_kept(void **state)
{
	char *bytes;
	size_t len;
	gw_vmx *v = parse_sample("synthetic-invalid-utf8-bytes.vmx", &bytes, &len);

	(void)state;
	assert_int_equal(v->nmalformed, 0);
	assert_string_equal(gw_vmx_get(v, "displayName"), "bad \xff\xfe bytes");
	set_ok(v, "memsize", "2048");
	set_ok(v, "displayName", "ok \xc3\xa9");   /* declared UTF-8: allowed */
	assert_string_equal(gw_vmx_get(v, "annotation"),
	                    "lone continuation \x80 and truncated \xe4\xb8");
	{
		size_t n;
		char *out = gw_vmx_serialize(v, &n);

		assert_true(mem_has(out, n, "# comment with invalid bytes: \xff\xfe \x80\n"));
		assert_true(mem_has(out, n, "sharedFolder0.hostPath = \"C:\\Users\\\xc0\xaf overlong\"\n"));
		assert_true(mem_has(out, n, "displayName = \"ok \xc3\xa9\"\n"));
		free(out);
	}
	free(bytes);
	gw_vmx_free(v);
}

static void
test_no_final_newline(void **state)
{
	static const struct { const char *file, *eol, *lastkey; } t[] = {
		{ "synthetic-no-final-newline-lf.vmx", "\n", "guestOS" },
		{ "synthetic-no-final-newline-crlf.vmx", "\r\n", "firmware" },
	};
	size_t i;

	(void)state;
	for (i = 0; i < 2; i++) {
		char *bytes, *want;
		size_t len;
		gw_vmx *v = parse_sample(t[i].file, &bytes, &len);

		assert_true(len > 0 && bytes[len - 1] != '\n');
		assert_string_equal(gw_vmx_eol(v), t[i].eol);
		/* changing the unterminated last line keeps it unterminated */
		set_ok(v, t[i].lastkey, "zz");
		assert_string_equal(gw_vmx_get(v, t[i].lastkey), "zz");
		set_ok(v, t[i].lastkey, "yy");
		{
			size_t n;
			char *out = gw_vmx_serialize(v, &n);
			char *tail = gw_xasprintf("%s = \"yy\"", t[i].lastkey);

			assert_true(n >= strlen(tail));
			assert_memory_equal(out + n - strlen(tail), tail, strlen(tail));
			free(tail);
			free(out);
		}
		gw_vmx_free(v);

		/* appending ends the last line first, with the file's ending */
		v = parse_ok(bytes, len, t[i].file);
		set_ok(v, "pciPassthru.use64bitMMIO", "TRUE");
		set_ok(v, "pciPassthru.64bitMMIOSizeGB", "128");
		want = gw_xasprintf("%s%spciPassthru.use64bitMMIO = \"TRUE\"%s"
		                    "pciPassthru.64bitMMIOSizeGB = \"128\"%s",
		                    bytes, t[i].eol, t[i].eol, t[i].eol);
		assert_serial(v, want, strlen(want));
		assert_int_equal(gw_vmx_line_of(v, "pciPassthru.64bitMMIOSizeGB"),
		                 (int)v->nlines);
		free(want);
		free(bytes);
		gw_vmx_free(v);
	}
}

static void
test_eol_detection(void **state)
{
	gw_vmx *v;

	(void)state;
	v = parse_str("a = \"1\"");
	assert_string_equal(gw_vmx_eol(v), "\n");
	set_ok(v, "b", "2");
	assert_serial(v, "a = \"1\"\nb = \"2\"\n", 16);
	gw_vmx_free(v);

	v = parse_str("# c\r\na = \"1\"\nb = \"2\"\r\n");
	assert_string_equal(gw_vmx_eol(v), "\r\n");
	set_ok(v, "a", "3");
	set_ok(v, "c", "4");
	assert_serial(v, "# c\r\na = \"3\"\nb = \"2\"\r\nc = \"4\"\r\n", 31);
	gw_vmx_free(v);
}

static void
test_malformed(void **state)
{
	char *bytes;
	size_t len;
	gw_vmx *v = parse_sample("synthetic-malformed-lines.vmx", &bytes, &len);
	gw_err e = { "", "" };

	(void)state;
	gw_vmx_free(v);
	v = parse_ok(bytes, len, "vm.vmx");
	/* lines 4..8 of the sample are malformed */
	assert_int_equal(v->nmalformed, 5);
	assert_int_equal(v->nlines, 10);
	assert_int_equal(gw_vmx_count(v), 5);
	assert_null(gw_vmx_get(v, "pciPassthru.64bitMMIOSizeGB"));
	assert_int_equal(gw_vmx_line_of(v, "pciPassthru.64bitMMIOSizeGB"), 0);
	assert_int_equal(gw_vmx_malformed_line_of(v, "pcipassthru.64bitmmiosizegb"), 4);
	assert_int_equal(gw_vmx_malformed_line_of(v, "firmware"), 8);
	assert_int_equal(gw_vmx_malformed_line_of(v, "memsize"), 0);
	assert_null(gw_vmx_get(v, "firmware"));
	assert_null(gw_vmx_get(v, "bad"));

	assert_int_equal(gw_vmx_set(v, "pciPassthru.64bitMMIOSizeGB", "64", &e), -1);
	assert_string_equal(e.msg,
		"vm.vmx:4: line for 'pciPassthru.64bitMMIOSizeGB' is malformed "
		"(unterminated quote); fix it by hand first");
	assert_int_equal(gw_vmx_set(v, "firmware", "efi", &e), -1);
	assert_non_null(strstr(e.msg, "vm.vmx:8:"));
	assert_non_null(strstr(e.msg, "'firmware'"));
	assert_serial(v, bytes, len);      /* refused: nothing changed */

	/* well-formed keys still edit fine around the malformed lines */
	set_ok(v, "memsize", "4096");
	set_ok(v, "pciPassthru.use64bitMMIO", "FALSE");
	{
		size_t n;
		char *out = gw_vmx_serialize(v, &n);

		assert_true(mem_has(out, n, "pciPassthru.64bitMMIOSizeGB = \"128\n"
		                            "this line has no equals sign\n"
		                            "bad key!name = \"x\"\n"
		                            "caf\xe9.key = \"latin-1 byte in the key\"\n"
		                            "firmware = \"efi\" trailing junk\n"));
		free(out);
	}
	assert_int_equal(v->nmalformed, 5);
	free(bytes);
	gw_vmx_free(v);
}

/* A quoted value is read eight bytes at a time up to its closing quote:
 * a control byte (or DEL) at any place of a value of any length up to
 * 24 bytes makes the line malformed, a tab there does not, and the value
 * read is every byte up to the quote, the line after it ending the same
 * way (a comment, the line's end); bare values likewise. */
static void
test_value_scan(void **state)
{
	static const char bytes[] = { '\x01', '\x1f', '\x7f', '\t' };
	size_t n, at, b, q;

	(void)state;
	for (q = 0; q < 2; q++)
		for (n = 1; n <= 24; n++)
			for (at = 0; at < n; at++)
				for (b = 0; b < sizeof bytes; b++) {
					char val[32], *line;
					gw_vmx *v;
					int tab = bytes[b] == '\t';

					memset(val, 'v', n);
					val[n] = '\0';
					val[at] = bytes[b];
					if (!q && tab)
						continue;   /* a bare value ends at blanks */
					line = q ? gw_xasprintf("k = \"%s\" # c\r\n", val)
					         : gw_xasprintf("k = %s\n", val);
					v = parse_str(line);
					if (tab ? gw_vmx_count(v) != 1 ||
					          strcmp(gw_vmx_get(v, "k"), val) != 0
					        : gw_vmx_count(v) != 0 || v->nmalformed != 1)
						fail_msg("byte %#x at %zu of %zu (%s): "
						         "%zu entries", (unsigned char)bytes[b],
						         at, n, q ? "quoted" : "bare",
						         gw_vmx_count(v));
					gw_vmx_free(v);
					free(line);
				}
	for (n = 0; n <= 24; n++) {
		char val[32], *line;
		gw_vmx *v;

		memset(val, 'w', n);
		val[n] = '\0';
		line = gw_xasprintf("k = \"%s\"", val);
		v = parse_str(line);
		assert_string_equal(gw_vmx_get(v, "k"), val);
		gw_vmx_free(v);
		free(line);
	}
}

static void
test_line_forms(void **state)
{
	static const struct { const char *line, *key, *val; } ok[] = {
		{ "a = \"b\"", "a", "b" },
		{ "a=\"b\"", "a", "b" },
		{ "  a\t =  \"b c\"  ", "a", "b c" },
		{ "a = \"\"", "a", "" },
		{ "a = \"x # y\" # z", "a", "x # y" },
		{ "a = b # c", "a", "b" },
		{ "a = b#c", "a", "b#c" },
		{ "a = b c   ", "a", "b c" },
		{ "a = # only a comment", "a", "" },
		{ "a =", "a", "" },
		{ "scsi0:0.fileName = \"x.vmdk\"", "scsi0:0.fileName", "x.vmdk" },
		{ "usb_xhci:4.port = \"4\"", "usb_xhci:4.port", "4" },
		{ "a-b.c_d = \"|22q|22\"", "a-b.c_d", "|22q|22" },
		{ "a = \"=\"", "a", "=" },
		{ "a = \"caf\xc3\xa9\"", "a", "caf\xc3\xa9" },
		{ "a = \"\xff\"", "a", "\xff" },
	};
	static const char *const bad[] = {
		"a = \"b", "a \"b\"", "= \"b\"", "a b = \"c\"", "a! = \"b\"",
		"a = \"b\" c", "a = b\"c", "a = \"b\x01\"", "\xe9 = \"b\"",
		"just words",
	};
	static const char *const skip[] = {
		"", "   ", "\t", "# c", "  # indented", "#!/usr/bin/vmware", "#a = \"b\"",
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof ok / sizeof ok[0]; i++) {
		gw_vmx *v = parse_str(ok[i].line);

		if (gw_vmx_count(v) != 1)
			fail_msg("'%s' should be an entry", ok[i].line);
		assert_string_equal(gw_vmx_key_at(v, 0), ok[i].key);
		assert_string_equal(gw_vmx_value_at(v, 0), ok[i].val);
		assert_string_equal(gw_vmx_get(v, ok[i].key), ok[i].val);
		assert_int_equal(v->nmalformed, 0);
		gw_vmx_free(v);
	}
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		char *s = gw_xasprintf("%s\n", bad[i]);
		gw_vmx *v = parse_str(s);

		if (gw_vmx_count(v) != 0 || v->nmalformed != 1)
			fail_msg("'%s' should be malformed", bad[i]);
		assert_serial(v, s, strlen(s));
		gw_vmx_free(v);
		free(s);
	}
	for (i = 0; i < sizeof skip / sizeof skip[0]; i++) {
		char *s = gw_xasprintf("%s\n", skip[i]);
		gw_vmx *v = parse_str(s);

		assert_int_equal(gw_vmx_count(v), 0);
		assert_int_equal(v->nmalformed, 0);
		assert_int_equal(v->nlines, 1);
		gw_vmx_free(v);
		free(s);
	}
}

static void
test_leading_space_and_bom(void **state)
{
	char *bytes;
	size_t len;
	gw_vmx *v = parse_sample("synthetic-leading-space-first-key.vmx", &bytes,
	                         &len);

	(void)state;
	assert_int_equal(v->nmalformed, 0);
	assert_string_equal(gw_vmx_key_at(v, 0), ".encoding");
	assert_string_equal(gw_vmx_get(v, "virtualHW.version"), "19");
	set_ok(v, "displayName", "moved");
	{
		size_t n;
		char *out = gw_vmx_serialize(v, &n);

		assert_true(mem_has(out, n, "\n  displayName = \"moved\"\n"));
		assert_memory_equal(out, " .encoding = \"windows-1252\"\n", 28);
		free(out);
	}
	free(bytes);
	gw_vmx_free(v);

	v = parse_sample("synthetic-utf8-bom.vmx", &bytes, &len);
	assert_int_equal(v->nmalformed, 0);
	assert_string_equal(gw_vmx_key_at(v, 0), ".encoding");
	assert_int_equal(gw_vmx_line_of(v, ".encoding"), 1);
	set_ok(v, ".encoding", "UTF-8");
	assert_serial(v, bytes, len);
	assert_memory_equal(bytes, "\xef\xbb\xbf.encoding", 12);
	free(bytes);
	gw_vmx_free(v);
}

static void
test_duplicates(void **state)
{
	char *bytes;
	size_t len;
	gw_vmx *v = parse_sample("synthetic-mixed-case-duplicate-keys.vmx", &bytes,
	                         &len);

	(void)state;
	assert_int_equal(gw_vmx_count(v), 9);
	assert_string_equal(gw_vmx_get(v, "memsize"), "8192");   /* the last */
	assert_int_equal(gw_vmx_line_of(v, "memSize"), 7);
	assert_string_equal(gw_vmx_get(v, "ethernet0.present"), "FALSE");
	assert_int_equal(gw_vmx_line_of(v, "ethernet0.present"), 9);
	assert_string_equal(gw_vmx_get(v, "virtualHW.version"), "19");
	assert_string_equal(gw_vmx_get(v, "virtualhw.productcompatibility"),
	                    "hosted");
	set_ok(v, "memSize", "1024");
	set_ok(v, "ethernet0.present", "TRUE");
	{
		static const char want[] =
			".encoding = \"UTF-8\"\n"
			"virtualhw.version = \"19\"\n"
			"virtualHW.productCompatibility = \"hosted\"\n"
			"memsize = \"1024\"\n"
			"displayName = \"dup-keys\"\n"
			"memSize = \"1024\"\n"
			"MEMSIZE = \"1024\"\n"
			"ethernet0.present = \"TRUE\"\n"
			"ethernet0.present = \"TRUE\"\n";

		assert_serial(v, want, strlen(want));
	}
	/* iteration sees every occurrence with its own spelling */
	assert_string_equal(gw_vmx_key_at(v, 3), "memsize");
	assert_string_equal(gw_vmx_key_at(v, 5), "memSize");
	assert_string_equal(gw_vmx_key_at(v, 6), "MEMSIZE");
	assert_string_equal(gw_vmx_value_at(v, 6), "1024");
	assert_int_equal(gw_vmx_count(v), 9);
	free(bytes);
	gw_vmx_free(v);
}

static void
test_empty_and_binary(void **state)
{
	gw_vmx *v = (gw_vmx *)1;
	gw_err e = { "", "" };
	static const char nul[] = "a = \"b\"\n\0\0\0\x01\x02";
	static const char utf16[] = "\xff\xfe.\0e\0n\0c\0";
	static const char junk[] = "\x7f" "ELF\x02\x01\x01\x03\x04\x05\x06\x07"
	                           "\x08\x0e\x0f\x10\x11\x12\x13\x14\x15";
	char *dir, *path;

	(void)state;
	assert_int_equal(gw_vmx_parse(&v, "", 0, "empty.vmx", &e), -1);
	assert_null(v);
	assert_non_null(strstr(e.msg, "empty.vmx"));
	assert_non_null(strstr(e.msg, "expected a .vmx text file"));

	assert_int_equal(gw_vmx_parse(&v, nul, sizeof nul - 1, "bin.vmx", &e), -1);
	assert_null(v);
	assert_non_null(strstr(e.msg, "bin.vmx"));
	assert_non_null(strstr(e.msg, "expected a .vmx text file"));
	assert_null(strchr(e.msg, '\n'));

	assert_int_equal(gw_vmx_parse(&v, utf16, sizeof utf16 - 1, "u16.vmx", &e), -1);
	assert_non_null(strstr(e.msg, "u16.vmx"));
	assert_non_null(strstr(e.msg, "expected a .vmx text file"));

	assert_int_equal(gw_vmx_parse(&v, junk, sizeof junk - 1, "junk.vmx", &e), -1);
	assert_non_null(strstr(e.msg, "expected a .vmx text file"));

	/* blank lines only: a (useless) text file, not an error */
	v = parse_str("\n\r\n  \n");
	assert_int_equal(gw_vmx_count(v), 0);
	assert_int_equal(v->nlines, 3);
	gw_vmx_free(v);

	/* load: empty file, missing file, binary file */
	dir = tu_tmpdir();
	path = gw_xasprintf("%s/empty.vmx", dir);
	write_bytes(path, "", 0);
	assert_int_equal(gw_vmx_load(&v, path, &e), -1);
	assert_non_null(strstr(e.msg, path));
	assert_non_null(strstr(e.msg, "expected a .vmx text file"));
	write_bytes(path, nul, sizeof nul - 1);
	assert_int_equal(gw_vmx_load(&v, path, &e), -1);
	assert_non_null(strstr(e.msg, path));
	unlink(path);
	assert_int_equal(gw_vmx_load(&v, path, &e), -1);
	assert_non_null(strstr(e.msg, path));
	free(path);
	tu_rm_tree(dir);
	free(dir);
}

/* The line between text and binary data: more than 8 control bytes and
 * more than there are lines.  Tabs, CR, FF, VT, DEL and bytes above 0x7f
 * count for nothing, wherever they sit in a word of eight bytes. */
static void
test_binary_threshold(void **state)
{
	size_t ctl, lines, shift, i;

	(void)state;
	for (shift = 0; shift < 8; shift++)
		for (ctl = 7; ctl <= 11; ctl++)
			for (lines = 6; lines <= 11; lines++) {
				gw_buf b;
				gw_vmx *v = NULL;
				gw_err e = { "", "" };
				int bin = ctl > 8 && ctl > lines, rc;

				gw_buf_init(&b);
				for (i = 0; i < shift; i++)
					gw_buf_puts(&b, " ");
				for (i = 0; i < lines; i++)
					/* lines is one more than the newlines */
					gw_buf_puts(&b, i + 1 < lines
					            ? "a = \"\t\x7f\xc3\xa9\" \r\f\v\n"
					            : "b = \"1\"");
				for (i = 0; i < ctl; i++)
					gw_buf_add(&b, i % 2 ? "\x01" : "\x1b", 1);
				rc = gw_vmx_parse(&v, b.data, b.len, "t.vmx", &e);
				if (rc != (bin ? -1 : 0))
					fail_msg("%zu control bytes, %zu lines, %zu "
					         "before: %s", ctl, lines, shift,
					         rc ? e.msg : "text");
				gw_vmx_free(v);
				gw_buf_free(&b);
			}
}

/* What gpuwiz writes it reads back: a text file with a few stray control
 * bytes stays text after an edit that shortens a value (found by
 * tests/fuzz/fuzz_vmx: the control bytes per byte crossed the binary
 * threshold, so the next run refused the file it had just written). */
static void
test_edit_keeps_text(void **state)
{
	gw_buf b;
	gw_vmx *v, *w = NULL;
	char *out;
	size_t len;
	gw_err e;
	int i;

	(void)state;
	gw_buf_init(&b);
	gw_buf_puts(&b, "k = \"xxxxxxxxxxxxxxxxxxxx\"\n");
	gw_buf_puts(&b, "\x04\x04\x04\x04\x04\x04\x04\x04\x04\x04\n");
	for (i = 0; i < 141; i++)
		gw_buf_puts(&b, "#\n");
	assert_int_equal(b.len, 320);     /* 10 control bytes in 320 */
	assert_int_equal(gw_vmx_parse(&v, b.data, b.len, "t.vmx", &e), 0);
	assert_int_equal(gw_vmx_set(v, "k", "y", &e), 0);
	out = gw_vmx_serialize(v, &len);
	assert_int_equal(len, 301);
	if (gw_vmx_parse(&w, out, len, "t.vmx", &e) != 0)
		fail_msg("the edited file is refused: %s", e.msg);
	assert_string_equal(gw_vmx_get(w, "k"), "y");
	gw_vmx_free(w);
	gw_vmx_free(v);
	free(out);
	gw_buf_free(&b);
}

static void
test_set_refuses_bad_input(void **state)
{
	static const char src[] = "a = \"1\"\n";
	gw_vmx *v = parse_str(src);
	gw_err e = { "", "" };

	(void)state;
	assert_int_equal(gw_vmx_set(v, "a", "x\"y", &e), -1);
	assert_non_null(strstr(e.msg, "'a'"));
	assert_non_null(strstr(e.msg, "test.vmx"));
	assert_int_equal(gw_vmx_set(v, "b", "x\ny", &e), -1);
	assert_non_null(strstr(e.msg, "'b'"));
	assert_int_equal(gw_vmx_set(v, "b", "x\ry", &e), -1);
	assert_int_equal(gw_vmx_set(v, "b", "tab\there", &e), -1);
	assert_int_equal(gw_vmx_set(v, "b", "\x7f", &e), -1);
	assert_int_equal(gw_vmx_set(v, "bad key", "1", &e), -1);
	assert_non_null(strstr(e.msg, "bad key"));
	assert_int_equal(gw_vmx_set(v, "", "1", &e), -1);
	assert_int_equal(gw_vmx_set(v, "k=v", "1", &e), -1);
	assert_int_equal(gw_vmx_set(v, "a", NULL, &e), -1);
	/* no .encoding: non-ASCII is refused too */
	assert_int_equal(gw_vmx_set(v, "a", "\xc3\xa9", &e), -1);
	assert_serial(v, src, strlen(src));
	/* |22 is VMware's own escape: stored as given */
	set_ok(v, "a", "say |22hi|22");
	assert_string_equal(gw_vmx_get(v, "a"), "say |22hi|22");
	gw_vmx_free(v);
}

static void
test_get_bool(void **state)
{
	gw_vmx *v = parse_str(
		"t1 = \"TRUE\"\nt2 = \"true\"\nt3 = \"1\"\nt4 = \"yes\"\nt5 = True\n"
		"f1 = \"FALSE\"\nf2 = \"false\"\nf3 = \"0\"\nf4 = \"no\"\nf5 = NO\n"
		"x1 = \"maybe\"\nx2 = \"\"\nx3 = \" TRUE\"\nx4 = \"2\"\n");
	static const char *const t[] = { "t1", "t2", "t3", "t4", "t5" };
	static const char *const f[] = { "f1", "f2", "f3", "f4", "f5" };
	static const char *const x[] = { "x1", "x2", "x3", "x4", "absent" };
	size_t i;

	(void)state;
	for (i = 0; i < 5; i++) {
		assert_int_equal(gw_vmx_get_bool(v, t[i], 0), 1);
		assert_int_equal(gw_vmx_get_bool(v, f[i], 1), 0);
		assert_int_equal(gw_vmx_get_bool(v, x[i], 7), 7);
		assert_int_equal(gw_vmx_get_bool(v, x[i], -1), -1);
	}
	gw_vmx_free(v);
}

static void
test_iterate_p40(void **state)
{
	gw_vmx *v = parse_sample(
		"HANDWRITTEN-FRAGMENT-esxi8-tesla-p40-pcipassthru0-block-with-comments.vmx",
		NULL, NULL);
	size_t i, n0 = 0;
	int seen_id = 0, seen_slot = 0;

	(void)state;
	assert_int_equal(v->nmalformed, 0);
	assert_int_equal(gw_vmx_count(v), 19);
	assert_int_equal(v->nlines, 28);
	assert_string_equal(gw_vmx_key_at(v, 0), "pciPassthru0.present");
	assert_string_equal(gw_vmx_value_at(v, 0), "TRUE");
	for (i = 0; i < gw_vmx_count(v); i++) {
		const char *k = gw_vmx_key_at(v, i), *val = gw_vmx_value_at(v, i);

		assert_non_null(k);
		assert_non_null(val);
		assert_null(strchr(val, '"'));
		if (strncmp(k, "pciPassthru0.", 13) != 0)
			continue;
		n0++;
		if (strcmp(k, "pciPassthru0.id") == 0) {
			assert_string_equal(val, "0:66:0.0");
			seen_id = 1;
		}
		if (strcmp(k, "pciPassthru0.pciSlotNumber") == 0) {
			assert_string_equal(val, "2208");
			seen_slot = 1;
		}
	}
	assert_int_equal(n0, 11);
	assert_true(seen_id && seen_slot);
	assert_null(gw_vmx_key_at(v, gw_vmx_count(v)));
	assert_null(gw_vmx_value_at(v, gw_vmx_count(v)));
	assert_string_equal(gw_vmx_get(v, "pciPassthru0.deviceId"), "0x1b38");
	assert_string_equal(gw_vmx_get(v, "pcipassthru0.vendorid"), "0x10de");
	assert_string_equal(gw_vmx_get(v, "pciPassthru0.systemId"),
	                    "65106d9a-406e-5fda-b7ab-b8ca3a63b8b4");
	assert_string_equal(gw_vmx_get(v, "pciPassthru.64bitMMIOSizeGB"), "128");
	assert_int_equal(gw_vmx_get_bool(v, "pciPassthru.use64bitMMIO", 0), 1);
	assert_int_equal(gw_vmx_get_bool(v, "hypervisor.cpuid.v0", 1), 0);
	assert_int_equal(gw_vmx_line_of(v, "pciPassthru0.present"), 2);
	assert_string_equal(gw_vmx_get(v, "sched.mem.min"), "16384");
	assert_string_equal(gw_vmx_get(v, "sched.mem.minSize"), "16384");
	assert_null(gw_vmx_get(v, "memsize"));
	gw_vmx_free(v);
}

static void
test_load(void **state)
{
	char *path = tu_fixture_path(VMX_DIR "/ws-freebsd-crlf.vmx");
	gw_vmx *v = NULL;
	gw_err e = { "", "" };

	(void)state;
	assert_int_equal(gw_vmx_load(&v, path, &e), 0);
	assert_string_equal(gw_vmx_name(v), path);
	/* the fixture's own "# source:" line is a comment */
	assert_string_equal(gw_vmx_get(v, "memsize"), "4392");
	assert_int_equal(gw_vmx_line_of(v, ".encoding"), 2);
	gw_vmx_free(v);
	free(path);
}

/* Random lines from .vmx-ish pieces: never fail, always round trip, and
 * a successful set always reads back. */
static void
test_random_lines(void **state)
{
	static const char *const piece[] = {
		"memsize", "MemSize", "a.b:c-d_e", " ", "\t", "=", " = ", "\"",
		"#", " # ", "val", "\r", "|22", "\xff\xfe", "TRUE", "!", "",
	};
	static const char *const keys[] = { "memSize", "a.b:c-d_e", "new.key" };
	unsigned long seed = 12345;
	size_t doc, i, k, np = sizeof piece / sizeof piece[0];

	(void)state;
	for (doc = 0; doc < 400; doc++) {
		gw_buf b;
		size_t nl = 1 + doc % 12, before, after;
		gw_vmx *v;
		gw_err e;

		gw_buf_init(&b);
		for (i = 0; i < nl; i++) {
			size_t np_line = (seed >> 7) % 7, j;

			for (j = 0; j < np_line; j++) {
				seed = seed * 1103515245u + 12345u;
				gw_buf_puts(&b, piece[(seed >> 9) % np]);
			}
			seed = seed * 1103515245u + 12345u;
			if (i + 1 < nl || (seed >> 5) % 3)
				gw_buf_puts(&b, (seed >> 11) % 2 ? "\r\n" : "\n");
		}
		if (b.len == 0) {
			gw_buf_free(&b);
			continue;
		}
		v = parse_ok(b.data, b.len, "rand.vmx");
		assert_serial(v, b.data, b.len);
		for (k = 0; k < 3; k++) {
			size_t n1, n2;
			char *s1 = gw_vmx_serialize(v, &n1), *s2;
			gw_vmx *v2;

			before = v->nmalformed;
			if (gw_vmx_set(v, keys[k], "x|22y", &e) != 0) {
				assert_true(gw_vmx_malformed_line_of(v, keys[k]) > 0);
				assert_serial(v, s1, n1);
				free(s1);
				continue;
			}
			free(s1);
			s2 = gw_vmx_serialize(v, &n2);
			v2 = parse_ok(s2, n2, "rand2.vmx");
			assert_string_equal(gw_vmx_get(v2, keys[k]), "x|22y");
			after = v2->nmalformed;
			assert_int_equal(before, after);
			assert_int_equal(gw_vmx_count(v2), gw_vmx_count(v));
			assert_int_equal(v2->nlines, v->nlines);
			gw_vmx_free(v2);
			free(s2);
		}
		gw_vmx_free(v);
		gw_buf_free(&b);
	}
}

/* ---- size and speed --------------------------------------------------- */

static void
test_large_file(void **state)
{
	gw_buf b;
	gw_vmx *v;
	gw_err e = { "", "" };
	size_t i, n, lines = 0, added = 20000, want;
	char *out, *dir, *path;

	(void)state;
	gw_buf_init(&b);
	gw_buf_puts(&b, ".encoding = \"UTF-8\"\r\n");
	while (b.len < ((size_t)16 << 20) - 200) {
		gw_buf_printf(&b, "key%07zu.opt = \"value %zu padding padding "
		              "padding\" # c\r\n", lines, lines);
		lines++;
	}
	gw_buf_puts(&b, "memsize = \"1024\"");   /* no final newline */
	v = parse_ok(b.data, b.len, "big.vmx");
	assert_int_equal(gw_vmx_count(v), lines + 2);
	assert_string_equal(gw_vmx_get(v, "KEY0000000.OPT"), "value 0 padding "
	                    "padding padding");
	set_ok(v, "key0000007.opt", "x");
	want = b.len - strlen("value 7 padding padding padding") + 1;
	want += 2;                      /* the last line gains "\r\n" */
	for (i = 0; i < added; i++) {
		char k[32];

		snprintf(k, sizeof k, "new.key%zu", i);
		set_ok(v, k, "TRUE");
		want += strlen(k) + strlen(" = \"TRUE\"\r\n");
	}
	set_ok(v, "new.key5", "FALSE");
	want += 1;
	assert_int_equal(gw_vmx_count(v), lines + 2 + added);
	assert_string_equal(gw_vmx_get(v, "NEW.KEY5"), "FALSE");
	assert_string_equal(gw_vmx_get(v, "key0000007.opt"), "x");
	out = gw_vmx_serialize(v, &n);
	assert_int_equal(n, want);
	assert_memory_equal(out + n - 23, "new.key19999 = \"TRUE\"\r\n", 23);
	assert_true(mem_has(out, 8192, "key0000007.opt = \"x\" # c\r\n"));
	free(out);
	gw_vmx_free(v);

	/* gw_vmx_load's limit is 16 MiB */
	dir = tu_tmpdir();
	path = gw_xasprintf("%s/big.vmx", dir);
	while (b.len <= ((size_t)16 << 20))
		gw_buf_puts(&b, "\n# padding padding padding padding padding\n");
	write_bytes(path, b.data, b.len);
	assert_int_equal(gw_vmx_load(&v, path, &e), -1);
	assert_non_null(strstr(e.msg, path));
	free(path);
	tu_rm_tree(dir);
	free(dir);
	gw_buf_free(&b);
}

/* ---- saving ----------------------------------------------------------- */

typedef struct {
	char *dir, *path, *bytes;
	size_t len;
} savefx;

static savefx
save_setup(void)
{
	savefx f;

	f.dir = tu_tmpdir();
	f.path = gw_xasprintf("%s/vm.vmx", f.dir);
	f.bytes = tu_read_sample(VMX_DIR "/ws-centos7-cp949-korean-displayname-crlf.vmx",
	                         &f.len);
	write_bytes(f.path, f.bytes, f.len);
	assert_int_equal(chmod(f.path, 0640), 0);
	return f;
}

static void
save_teardown(savefx *f)
{
	tu_rm_tree(f->dir);
	free(f->dir);
	free(f->path);
	free(f->bytes);
}

static gw_vmx *
load_ok(const char *path)
{
	gw_vmx *v = NULL;
	gw_err e = { "", "" };

	if (gw_vmx_load(&v, path, &e) != 0)
		fail_msg("%s", e.msg);
	return v;
}

static void
assert_file(const char *path, const char *want, size_t wantlen)
{
	size_t n;
	char *d = slurp(path, &n);

	assert_int_equal(n, wantlen);
	assert_memory_equal(d, want, n);
	free(d);
}

static int
backup_name_ok(const char *bak, const char *path)
{
	size_t pl = strlen(path), i;
	const char *s = bak + pl;

	if (strncmp(bak, path, pl) != 0 || *s++ != '.')
		return 0;
	for (i = 0; i < 15; i++)
		if (i == 8 ? s[i] != '-' : (s[i] < '0' || s[i] > '9'))
			return 0;
	s += 15;
	if (strncmp(s, ".bak", 4) != 0)
		return 0;
	s += 4;
	if (*s == '\0')
		return 1;
	if (*s++ != '.' || *s == '\0')
		return 0;
	for (; *s; s++)
		if (*s < '0' || *s > '9')
			return 0;
	return 1;
}

static void
test_save_backup_and_mode(void **state)
{
	savefx f = save_setup();
	gw_vmx *v = load_ok(f.path);
	gw_err e = { "", "" };
	char *bak = NULL, *bak2 = NULL, *want, *want2;
	size_t wl, wl2;
	struct stat st;

	(void)state;
	set_ok(v, "memsize", "16384");
	set_ok(v, "pciPassthru.use64bitMMIO", "TRUE");
	want = gw_vmx_serialize(v, &wl);
	assert_int_equal(gw_vmx_save(v, f.path, NULL, 0, 0, &bak, &e), 0);
	assert_non_null(bak);
	assert_true(backup_name_ok(bak, f.path));
	assert_file(bak, f.bytes, f.len);
	assert_file(f.path, want, wl);
	assert_int_equal(stat(f.path, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0640);
	assert_int_equal(stat(bak, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0640);
	assert_int_equal(dir_count(f.dir), 2);   /* no temp file left */

	/* a second save: a second, distinct backup of the edited file */
	set_ok(v, "memsize", "8192");
	want2 = gw_vmx_serialize(v, &wl2);
	assert_int_equal(gw_vmx_save(v, f.path, NULL, 0, 0, &bak2, &e), 0);
	assert_true(backup_name_ok(bak2, f.path));
	assert_string_not_equal(bak, bak2);
	assert_file(bak, f.bytes, f.len);
	assert_file(bak2, want, wl);
	assert_file(f.path, want2, wl2);
	assert_int_equal(dir_count(f.dir), 3);
	/* backup_path may be NULL */
	assert_int_equal(gw_vmx_save(v, f.path, NULL, 0, 0, NULL, &e), 0);
	assert_int_equal(dir_count(f.dir), 4);
	free(want);
	free(want2);
	free(bak);
	free(bak2);
	gw_vmx_free(v);
	save_teardown(&f);
}

static void
test_save_backup_copies_disk(void **state)
{
	savefx f = save_setup();
	gw_vmx *v = load_ok(f.path);
	gw_err e = { "", "" };
	static const char other[] = "# changed on disk after loading\n";
	char *bak = NULL;

	(void)state;
	write_bytes(f.path, other, strlen(other));
	assert_int_equal(gw_vmx_save(v, f.path, NULL, 0, 0, &bak, &e), 0);
	assert_file(bak, other, strlen(other));
	assert_file(f.path, f.bytes, f.len);
	free(bak);
	gw_vmx_free(v);
	save_teardown(&f);
}

/* The file changed between the read and the rename: refused, naming it;
 * the file as the other writer left it, no backup, no temporary. */
static void
test_save_changed_on_disk(void **state)
{
	savefx f = save_setup();
	gw_vmx *v = load_ok(f.path);
	gw_err e = { "", "" };
	static const char other[] = "# an admin's edit\nmemsize = \"8192\"\n";
	char *bak = NULL, *was, *want;
	size_t wl, l;

	(void)state;
	was = gw_vmx_serialize(v, &wl);
	set_ok(v, "memsize", "16384");
	write_bytes(f.path, other, strlen(other));
	assert_int_equal(gw_vmx_save(v, f.path, was, wl, 0, &bak, &e), -1);
	assert_null(bak);
	assert_non_null(strstr(e.msg, f.path));
	assert_non_null(strstr(e.msg, "changed on disk"));
	assert_file(f.path, other, strlen(other));
	assert_int_equal(dir_count(f.dir), 1);   /* no backup, no temporary */
	/* force does not write over another's change */
	assert_int_equal(gw_vmx_save(v, f.path, was, wl, 1, &bak, &e), -1);
	assert_file(f.path, other, strlen(other));
	assert_int_equal(dir_count(f.dir), 1);
	/* the same bytes as read: written */
	write_bytes(f.path, was, wl);
	want = gw_vmx_serialize(v, &l);
	assert_int_equal(gw_vmx_save(v, f.path, was, wl, 0, &bak, &e), 0);
	assert_file(f.path, want, l);
	assert_file(bak, was, wl);
	free(want);
	free(bak);
	free(was);
	gw_vmx_free(v);
	save_teardown(&f);
}

/* No write bit for anyone: refused without force, one line saying
 * --force; with force written, the mode kept. */
static void
test_save_read_only(void **state)
{
	savefx f = save_setup();
	gw_vmx *v = load_ok(f.path);
	gw_err e = { "", "" };
	char *bak = NULL, *want;
	size_t wl;
	struct stat st;

	(void)state;
	set_ok(v, "memsize", "16384");
	assert_int_equal(chmod(f.path, 0444), 0);
	assert_int_equal(gw_vmx_save(v, f.path, NULL, 0, 0, &bak, &e), -1);
	assert_null(bak);
	assert_non_null(strstr(e.msg, f.path));
	assert_non_null(strstr(e.msg, "read-only"));
	assert_non_null(strstr(e.msg, "--force"));
	assert_null(strchr(e.msg, '\n'));
	assert_file(f.path, f.bytes, f.len);
	assert_int_equal(dir_count(f.dir), 1);
	want = gw_vmx_serialize(v, &wl);
	assert_int_equal(gw_vmx_save(v, f.path, NULL, 0, 1, &bak, &e), 0);
	assert_file(f.path, want, wl);
	assert_int_equal(stat(f.path, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0444);
	assert_file(bak, f.bytes, f.len);
	/* 0644 is no read-only file */
	assert_int_equal(chmod(f.path, 0644), 0);
	free(bak);
	assert_int_equal(gw_vmx_save(v, f.path, NULL, 0, 0, &bak, &e), 0);
	free(bak);
	free(want);
	gw_vmx_free(v);
	save_teardown(&f);
}

/* gpuwiz's lock: a second taker waits its bound, then is refused naming
 * the file; a file renamed over while waited for is locked anew. */
static void
test_vmx_lock(void **state)
{
	savefx f = save_setup();
	gw_err e = { "", "" };
	char *tmp = gw_xasprintf("%s.new", f.path);
	int a = -1, b = -1, held;
	time_t t0;

	(void)state;
	assert_int_equal(gw_vmx_lock(f.path, &a, &e), 0);
	assert_true(a >= 0);
	/* another open file description: the lock another process sees */
	held = open(f.path, O_RDONLY);
	assert_true(held >= 0);
	assert_int_equal(flock(held, LOCK_EX | LOCK_NB), -1);
	close(held);
	if (fork() == 0) {
		gw_err ce;
		int c = -1;

		t0 = time(NULL);
		_exit(gw_vmx_lock(f.path, &c, &ce) == -1 &&
		      strstr(ce.msg, f.path) && strstr(ce.msg, "another gpuwiz") &&
		      time(NULL) - t0 >= GW_VMX_LOCK_WAIT_S - 1 ? 0 : 1);
	}
	{
		int st;

		assert_true(wait(&st) > 0);
		assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	}
	/* replaced by a rename: the new file is not locked by a */
	write_bytes(tmp, "x = \"1\"\n", 8);
	assert_int_equal(rename(tmp, f.path), 0);
	assert_int_equal(gw_vmx_lock(f.path, &b, &e), 0);
	assert_true(b >= 0);
	gw_vmx_unlock(b);
	gw_vmx_unlock(a);
	/* no file: nothing to lock, no error (the read says why) */
	unlink(f.path);
	assert_int_equal(gw_vmx_lock(f.path, &b, &e), 0);
	assert_int_equal(b, -1);
	free(tmp);
	save_teardown(&f);
}

static void
test_save_lock_file(void **state)
{
	savefx f = save_setup();
	gw_vmx *v = load_ok(f.path);
	gw_err e = { "", "" };
	char *lck = gw_xasprintf("%s.lck", f.path), *found = NULL, *bak = NULL;
	char *want;
	size_t wl;

	(void)state;
	write_bytes(lck, "", 0);
	set_ok(v, "memsize", "16384");
	assert_int_equal(gw_vmx_is_locked(f.path, &found), 1);
	assert_string_equal(found, lck);
	free(found);
	assert_int_equal(gw_vmx_save(v, f.path, NULL, 0, 0, &bak, &e), -1);
	assert_null(bak);
	assert_non_null(strstr(e.msg, f.path));
	assert_non_null(strstr(e.msg, lck));
	assert_file(f.path, f.bytes, f.len);
	assert_int_equal(dir_count(f.dir), 2);   /* vm.vmx, vm.vmx.lck */

	/* force overrides the lock */
	want = gw_vmx_serialize(v, &wl);
	assert_int_equal(gw_vmx_save(v, f.path, NULL, 0, 1, &bak, &e), 0);
	assert_non_null(bak);
	assert_file(f.path, want, wl);
	assert_file(bak, f.bytes, f.len);
	free(want);
	free(bak);
	free(lck);
	gw_vmx_free(v);
	save_teardown(&f);
}

static void
test_save_lock_dir(void **state)
{
	savefx f = save_setup();
	gw_vmx *v = load_ok(f.path);
	gw_err e = { "", "" };
	char *lck = gw_xasprintf("%s.lck", f.path), *found = NULL, *bak = NULL;
	char *inner = gw_xasprintf("%s/M41235.lck", lck), *other;

	(void)state;
	set_ok(v, "memsize", "16384");
	/* an empty lock directory is stale: not a lock */
	assert_int_equal(mkdir(lck, 0755), 0);
	assert_int_equal(gw_vmx_is_locked(f.path, &found), 0);
	assert_null(found);
	other = gw_xasprintf("%s/notes.txt", lck);
	write_bytes(other, "x", 1);
	assert_int_equal(gw_vmx_is_locked(f.path, NULL), 0);

	/* a Workstation lock directory holding M<pid>.lck: running */
	write_bytes(inner, "", 0);
	assert_int_equal(gw_vmx_is_locked(f.path, &found), 1);
	assert_string_equal(found, inner);
	free(found);
	assert_int_equal(gw_vmx_save(v, f.path, NULL, 0, 0, &bak, &e), -1);
	assert_null(bak);
	assert_non_null(strstr(e.msg, "M41235.lck"));
	assert_file(f.path, f.bytes, f.len);
	assert_int_equal(dir_count(f.dir), 2);

	/* empty it again: saving works */
	unlink(inner);
	unlink(other);
	assert_int_equal(gw_vmx_save(v, f.path, NULL, 0, 0, &bak, &e), 0);
	assert_non_null(bak);
	assert_file(bak, f.bytes, f.len);
	assert_int_equal(dir_count(f.dir), 3);
	free(bak);
	free(other);
	free(inner);
	free(lck);
	gw_vmx_free(v);
	save_teardown(&f);
}

static void
test_save_missing_dir(void **state)
{
	savefx f = save_setup();
	gw_vmx *v = load_ok(f.path);
	gw_err e = { "", "" };
	char *missing = gw_xasprintf("%s/nodir/vm.vmx", f.dir), *bak = (char *)1;
	char *fresh = gw_xasprintf("%s/new.vmx", f.dir);
	size_t n;
	char *want;

	(void)state;
	assert_int_equal(gw_vmx_save(v, missing, NULL, 0, 0, &bak, &e), -1);
	assert_null(bak);
	assert_non_null(strstr(e.msg, missing));
	assert_null(strchr(e.msg, '\n'));
	assert_int_equal(dir_count(f.dir), 1);   /* only vm.vmx */

	/* saving to a new file: nothing to back up */
	bak = (char *)1;
	assert_int_equal(gw_vmx_save(v, fresh, NULL, 0, 0, &bak, &e), 0);
	assert_null(bak);
	want = gw_vmx_serialize(v, &n);
	assert_file(fresh, want, n);
	assert_int_equal(dir_count(f.dir), 2);

	/* a directory where the file should be */
	assert_int_equal(gw_vmx_save(v, f.dir, NULL, 0, 0, &bak, &e), -1);
	assert_non_null(strstr(e.msg, f.dir));
	assert_int_equal(dir_count(f.dir), 2);
	free(want);
	free(missing);
	free(fresh);
	gw_vmx_free(v);
	save_teardown(&f);
}

/* ---- gw_vmx_load_checked: is it a .vmx at all? ------------------------- */

/* s saved as DIR/t.vmx and loaded with gw_vmx_load_checked. */
static int
check_bytes(const char *s, char *msg, size_t msz)
{
	char dir[] = "/tmp/gw-vmx-check-XXXXXX";
	gw_vmx *v = NULL;
	char *path;
	gw_err e;
	FILE *f;
	int rc;

	assert_non_null(mkdtemp(dir));
	path = gw_xasprintf("%s/t.vmx", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	assert_int_equal(fputs(s, f) >= 0, 1);
	assert_int_equal(fclose(f), 0);
	e.msg[0] = '\0';
	rc = gw_vmx_load_checked(&v, path, &e);
	assert_true(rc == 0 ? v != NULL : v == NULL);
	snprintf(msg, msz, "%s", e.msg);
	gw_vmx_free(v);
	unlink(path);
	rmdir(dir);
	free(path);
	return rc;
}

static void
test_check_fixtures_accepted(void **state)
{
	size_t n, i;
	char **names = list_fixtures(&n);

	(void)state;
	assert_true(n >= 20);
	for (i = 0; i < n; i++) {
		char *rel = gw_xasprintf(VMX_DIR "/%s", names[i]);
		char *path = tu_fixture_path(rel);
		gw_vmx *v = NULL;
		gw_err e;

		e.msg[0] = '\0';
		if (gw_vmx_load_checked(&v, path, &e) != 0)
			fail_msg("%s refused: %s", names[i], e.msg);
		assert_non_null(v);
		gw_vmx_free(v);
		free(path);
		free(rel);
		free(names[i]);
	}
	free(names);
}

static void
test_check_not_vmx_files(void **state)
{
	static const char *const rel[] = {
		"vmwarelog/vmware-log-pcipassthru-bar-mapping-tesla-p40-esxi8.txt",
		"vmwarelog/vmware-log-pages-needed-exceeds-limit-devicepoweron-dell-kb.txt",
		"nvidia-smi/h200-sxm-passthrough-vm.txt",
		"nvidia-smi/rtxa6000-24q-vgpu-guest.txt",
		"nvidia-smi/a16-vgpu-host-sriov.txt",
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof rel / sizeof rel[0]; i++) {
		char *path = tu_fixture_path(rel[i]);
		gw_vmx *v = (gw_vmx *)1;
		gw_err e;

		e.msg[0] = '\0';
		if (gw_vmx_load_checked(&v, path, &e) == 0)
			fail_msg("%s accepted as a .vmx", rel[i]);
		assert_null(v);
		assert_non_null(strstr(e.msg, path));
		assert_non_null(strstr(e.msg, "not a .vmx file"));
		free(path);
	}
}

static void
test_check_empty_and_binary(void **state)
{
	char *dir = tu_tmpdir(), *empty, *bin, *missing;
	static const char zeros[] = "\x7f" "ELF\x02\x01\x01\0\0\0\0\0\0\0\0\0";
	gw_vmx *v = NULL;
	gw_err e;
	FILE *f;

	(void)state;
	empty = gw_xasprintf("%s/empty.vmx", dir);
	bin = gw_xasprintf("%s/a.out", dir);
	missing = gw_xasprintf("%s/none.vmx", dir);
	f = fopen(empty, "w");
	fclose(f);
	f = fopen(bin, "wb");
	fwrite(zeros, 1, sizeof zeros, f);
	fclose(f);
	assert_int_equal(gw_vmx_load_checked(&v, empty, &e), -1);
	assert_null(v);
	assert_non_null(strstr(e.msg, "empty"));
	assert_int_equal(gw_vmx_load_checked(&v, bin, &e), -1);
	assert_null(v);
	assert_non_null(strstr(e.msg, "binary"));
	assert_int_equal(gw_vmx_load_checked(&v, missing, &e), -1);
	assert_null(v);
	unlink(empty);
	unlink(bin);
	rmdir(dir);
	free(empty);
	free(bin);
	free(missing);
	free(dir);
}

static void
test_check_rule(void **state)
{
	char m[512];

	(void)state;
	/* comments and blank lines only: no entry */
	assert_int_equal(check_bytes("# just a comment\n\n", m, sizeof m), -1);
	assert_non_null(strstr(m, "t.vmx: not a .vmx file: no line"));
	/* text with no '=' at all */
	assert_int_equal(check_bytes("hello\nworld\n", m, sizeof m), -1);
	/* a fragment: entries, no version, 2 malformed lines allowed */
	assert_int_equal(check_bytes("a = \"1\"\nb = \"2\"\noops\noops too\n",
	                             m, sizeof m), 0);
	/* 3 are not */
	assert_int_equal(check_bytes("a = \"1\"\nb = \"2\"\nx\ny\nz\n", m,
	                             sizeof m), -1);
	assert_non_null(strstr(m, "no config.version or virtualHW.version, "
	                          "and 3 lines are not key = value (the first "
	                          "is line 3)"));
	/* an answers file given by mistake */
	assert_int_equal(check_bytes("[host]\nkind = esxi\n[vm]\nvmx = a.vmx\n"
	                             "[options]\nuvm = yes\n", m, sizeof m), -1);
	/* versioned: as many malformed lines as entries */
	assert_int_equal(check_bytes("config.version = \"8\"\nx\n", m,
	                             sizeof m), 0);
	assert_int_equal(check_bytes("virtualHW.version = \"21\"\nx\ny\nz\n",
	                             m, sizeof m), -1);
	assert_non_null(strstr(m, "3 of its 4 lines are not key = value "
	                          "(the first is line 2)"));
	/* one entry is enough when nothing else is wrong */
	assert_int_equal(check_bytes("memsize = \"8192\"\n", m, sizeof m), 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_roundtrip_all),
		cmocka_unit_test(test_dup_all),
		cmocka_unit_test(test_same),
		cmocka_unit_test(test_has_pair),
		cmocka_unit_test(test_edit_all),
		cmocka_unit_test(test_case_insensitive_get),
		cmocka_unit_test(test_shebang_is_comment),
		cmocka_unit_test(test_set_in_place_keeps_style),
		cmocka_unit_test(test_set_in_place_crlf),
		cmocka_unit_test(test_gbk_long_line),
		cmocka_unit_test(test_long_line_synthetic),
		cmocka_unit_test(test_encodings),
		cmocka_unit_test(test_cp949_displayname),
		cmocka_unit_test(test_invalid_utf8_kept),
		cmocka_unit_test(test_no_final_newline),
		cmocka_unit_test(test_eol_detection),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_line_forms),
		cmocka_unit_test(test_leading_space_and_bom),
		cmocka_unit_test(test_duplicates),
		cmocka_unit_test(test_empty_and_binary),
		cmocka_unit_test(test_binary_threshold),
		cmocka_unit_test(test_value_scan),
		cmocka_unit_test(test_edit_keeps_text),
		cmocka_unit_test(test_set_refuses_bad_input),
		cmocka_unit_test(test_get_bool),
		cmocka_unit_test(test_iterate_p40),
		cmocka_unit_test(test_load),
		cmocka_unit_test(test_random_lines),
		cmocka_unit_test(test_large_file),
		cmocka_unit_test(test_save_backup_and_mode),
		cmocka_unit_test(test_save_backup_copies_disk),
		cmocka_unit_test(test_save_lock_file),
		cmocka_unit_test(test_save_changed_on_disk),
		cmocka_unit_test(test_save_read_only),
		cmocka_unit_test(test_vmx_lock),
		cmocka_unit_test(test_save_lock_dir),
		cmocka_unit_test(test_save_missing_dir),
		cmocka_unit_test(test_check_fixtures_accepted),
		cmocka_unit_test(test_check_not_vmx_files),
		cmocka_unit_test(test_check_empty_and_binary),
		cmocka_unit_test(test_check_rule),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
