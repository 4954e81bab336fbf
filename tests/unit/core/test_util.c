/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_util.c: errors, buffers, integer parsing and file helpers. */
#include "testutil.h"
#include "textesc.h"

#include <limits.h>
#include <locale.h>
#include <stdint.h>
#include <sys/stat.h>
#include <unistd.h>

static void
test_parse_uint(void **state)
{
	unsigned long long v = 7;

	(void)state;
	assert_int_equal(gw_parse_uint("0", 10, &v), 0);
	assert_int_equal(v, 0);
	assert_int_equal(gw_parse_uint("10", 10, &v), 0);
	assert_int_equal(v, 10);
	assert_int_equal(gw_parse_uint("11", 10, &v), -1);
	assert_int_equal(gw_parse_uint("18446744073709551615", UINT64_MAX, &v), 0);
	assert_true(v == UINT64_MAX);
	assert_int_equal(gw_parse_uint("18446744073709551616", UINT64_MAX, &v), -1);
	assert_int_equal(gw_parse_uint("99999999999999999999999", UINT64_MAX, &v), -1);
	assert_int_equal(gw_parse_uint("", 10, &v), -1);
	assert_int_equal(gw_parse_uint("-1", 10, &v), -1);
	assert_int_equal(gw_parse_uint("+1", 10, &v), -1);
	assert_int_equal(gw_parse_uint(" 1", 10, &v), -1);
	assert_int_equal(gw_parse_uint("1x", 10, &v), -1);
	assert_int_equal(gw_parse_uint(NULL, 10, &v), -1);
	assert_int_equal(gw_parse_uint("7", 5, &v), -1);
}

/* Every byte and EOF against strtol's reading of one hex digit. */
static void
test_hexval(void **state)
{
	int c;

	(void)state;
	for (c = -1; c < 256; c++) {
		char s[2] = { (char)c, '\0' }, *end;
		long v = c > 0 ? strtol(s, &end, 16) : 0;
		int want = c > 0 && end == s + 1 && s[0] != '+' &&
		           s[0] != '-' && s[0] != ' ' ? (int)v : -1;

		if (gw_hexval(c) != want)
			fail_msg("gw_hexval(%d) = %d, expected %d", c,
			         gw_hexval(c), want);
	}
	assert_int_equal(gw_hexval('0'), 0);
	assert_int_equal(gw_hexval('F'), 15);
	assert_int_equal(gw_hexval('f'), 15);
	assert_int_equal(gw_hexval('g'), -1);
	assert_int_equal(gw_hexval('G'), -1);
	assert_int_equal(gw_hexval('@'), -1);
	assert_int_equal(gw_hexval('`'), -1);
}

static void
test_buf(void **state)
{
	gw_buf b;
	char *s;
	int i;

	(void)state;
	gw_buf_init(&b);
	for (i = 0; i < 1000; i++)
		gw_buf_printf(&b, "%d,", i);
	gw_buf_add(&b, "xyz", 2);
	assert_int_equal(b.len, strlen(b.data));
	assert_memory_equal(b.data + b.len - 6, "999,xy", 6);
	s = gw_buf_steal(&b);
	assert_null(b.data);
	assert_true(strncmp(s, "0,1,2,", 6) == 0);
	free(s);
	s = gw_xasprintf("%s-%03d", "a", 7);
	assert_string_equal(s, "a-007");
	free(s);
}

/* A literal's translation kept while the cache is on (gw_gettext_lit),
 * and looked up again once the locale changes: English, Chinese, English
 * again, each as gettext gives it. */
static void
test_gettext_cache(void **state)
{
	const char *en, *zh;

	(void)state;
	setlocale(LC_ALL, "C");
	gw_gettext_cache(1);
	en = _("Changes:");
	assert_string_equal(en, "Changes:");
	if (tu_use_zh_catalogue() == 0) {
		zh = _("Changes:");
		assert_string_equal(zh, gettext("Changes:"));
		assert_string_not_equal(zh, "Changes:");
		assert_string_equal(_("Changes:"), zh);
		setlocale(LC_ALL, "C");
		assert_string_equal(_("Changes:"), "Changes:");
	}
	gw_gettext_cache(0);
	setlocale(LC_ALL, "C");
}

static void
test_trim_ieq(void **state)
{
	char s[] = "  \t memSize \r\n";

	(void)state;
	assert_string_equal(gw_trim(s), "memSize");
	assert_true(gw_strieq("memsize", "memSize"));
	assert_false(gw_strieq("memsize", "memsizes"));
	assert_false(gw_strieq("", "a"));
}

static void
test_read_file_errors(void **state)
{
	char *dir = tu_tmpdir(), *path, *data = NULL;
	size_t len;
	gw_err e;
	FILE *f;

	(void)state;
	path = gw_xasprintf("%s/missing.vmx", dir);
	assert_int_equal(gw_read_file(path, 100, &data, &len, &e), -1);
	assert_non_null(strstr(e.msg, path));
	free(path);

	assert_int_equal(gw_read_file(dir, 100, &data, &len, &e), -1);
	assert_non_null(strstr(e.msg, dir));

	path = gw_xasprintf("%s/big", dir);
	f = fopen(path, "w");
	fputs("0123456789", f);
	fclose(f);
	assert_int_equal(gw_read_file(path, 5, &data, &len, &e), -1);
	assert_int_equal(gw_read_file(path, 10, &data, &len, &e), 0);
	assert_int_equal(len, 10);
	assert_string_equal(data, "0123456789");
	free(data);
	/* text: the same file passes; a NUL byte is refused, naming what
	 * the text should be */
	assert_int_equal(gw_read_text_file(path, 10, "lspci -nnvv", &data,
	                                   &len, &e), 0);
	free(data);
	f = fopen(path, "w");
	fwrite("01\0" "3", 1, 4, f);
	fclose(f);
	data = NULL;
	assert_int_equal(gw_read_text_file(path, 10, "lspci -nnvv", &data,
	                                   &len, &e), -1);
	assert_null(data);
	assert_non_null(strstr(e.msg, path));
	assert_non_null(strstr(e.msg, "binary data (NUL byte); expected the "
	                              "text output of lspci -nnvv"));
	assert_int_equal(gw_read_file(path, 10, &data, &len, &e), 0);
	free(data);
	unlink(path);
	free(path);
	rmdir(dir);
	free(dir);
}

static void
test_write_atomic(void **state)
{
	char *dir = tu_tmpdir(), *path, *data = NULL;
	struct stat st;
	size_t len;
	gw_err e;
	FILE *f;

	(void)state;
	path = gw_xasprintf("%s/f.vmx", dir);
	f = fopen(path, "w");
	fputs("old\n", f);
	fclose(f);
	assert_int_equal(chmod(path, 0640), 0);
	assert_int_equal(gw_write_file_atomic(path, "new\r\n", 5, &e), 0);
	assert_int_equal(gw_read_file(path, 100, &data, &len, &e), 0);
	assert_int_equal(len, 5);
	assert_memory_equal(data, "new\r\n", 5);
	free(data);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0640);
	/* a directory in the way is refused, nothing created */
	assert_int_equal(gw_write_file_atomic(dir, "x", 1, &e), -1);
	assert_non_null(strstr(e.msg, dir));
	unlink(path);
	free(path);
	/* a missing directory fails cleanly */
	path = gw_xasprintf("%s/nope/f.vmx", dir);
	assert_int_equal(gw_write_file_atomic(path, "x", 1, &e), -1);
	assert_non_null(strstr(e.msg, path));
	free(path);
	assert_int_equal(rmdir(dir), 0); /* empty: no temp file left */
	free(dir);
}

/* Is c part of a Latin word (letters, digits, '_')? */
static int
latin(char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
	       (c >= '0' && c <= '9') || c == '_';
}

/* Cells of the n bytes at p: the CJK characters and full-width
 * punctuation of these tests (lead bytes E3..EF) two, ASCII one. */
static int
cells_of(const char *p, size_t n)
{
	const unsigned char *u = (const unsigned char *)p;
	int c = 0;
	size_t i;

	for (i = 0; i < n; i++)
		if ((u[i] & 0xc0) != 0x80)
			c += u[i] >= 0xe3 ? 2 : 1;
	return c;
}

/* s wrapped at room cells: every line fits, no line ends inside a Latin
 * word; the lines joined again give s (spaces at breaks dropped).
 * Returns the number of lines. */
static int
wrap_check(const char *s, size_t room)
{
	const char *p = s;
	int nlines = 0;

	while (*p) {
		size_t skip, n = gw_text_line(p, room, &skip);

		assert_true(n > 0);
		assert_true((size_t)cells_of(p, n) <= room);
		if (p[n] != '\0' && skip == 0)
			assert_false(latin(p[n - 1]) && latin(p[n]));
		p += n + skip;
		nlines++;
	}
	return nlines;
}

static void
test_text_line(void **state)
{
	/* the playbook's note on the connection, in Chinese */
	static const char zh[] =
		"\xe8\xbf\x9e\xe6\x8e\xa5\xe4\xbf\xa1\xe6\x81\xaf\xe5\x8f\x96"
		"\xe8\x87\xaa\xe8\xaf\xa5\xe9\x9b\x86\xe5\x90\x88\xe8\xaf\xbb"
		"\xe5\x8f\x96\xe7\x9a\x84\xe7\x8e\xaf\xe5\xa2\x83\xe5\x8f\x98"
		"\xe9\x87\x8f\xef\xbc\x9aVMWARE_HOST\xe3\x80\x81VMWARE_USER\xe3\x80\x81"
		"VMWARE_PASSWORD\xe3\x80\x81VMWARE_VALIDATE_CERTS\xef\xbc\x88\xe8\x87\xaa"
		"\xe7\xad\xbe\xe5\x90\x8d\xe8\xaf\x81\xe4\xb9\xa6\xe6\x97\xb6"
		"\xe8\xae\xbe\xe4\xb8\xba false\xef\xbc\x89\xe5\x92\x8c VMWARE_PORT"
		"\xe3\x80\x82";
	/* eight Han characters: 16 cells */
	static const char han[] =
		"\xe4\xb8\x80\xe4\xba\x8c\xe4\xb8\x89\xe5\x9b\x9b"
		"\xe4\xba\x94\xe5\x85\xad\xe4\xb8\x83\xe5\x85\xab";
	size_t room, skip;

	(void)state;
	for (room = 22; room <= 78; room++)
		wrap_check(zh, room);
	/* the width the playbook's top note had: no "VMWARE_PASSWOR" / "D" */
	assert_int_equal(gw_text_line(zh, 76, &skip),
	                 strstr(zh, "VMWARE_PASSWORD") - zh);
	assert_int_equal(skip, 0);
	/* Han text breaks between any two characters */
	assert_int_equal(gw_text_line(han, 7, &skip), 9);
	assert_int_equal(skip, 0);
	assert_int_equal(wrap_check(han, 4), 4);
	/* English at its spaces; a word wider than the line is cut */
	assert_int_equal(gw_text_line("set VMWARE_PASSWORD first", 12, &skip), 3);
	assert_int_equal(skip, 1);
	assert_int_equal(gw_text_line("VMWARE_PASSWORD", 6, &skip), 6);
	assert_int_equal(gw_text_line("short", 6, &skip), 5);
	/* no closing punctuation at a line's start: the comma goes along */
	assert_int_equal(gw_text_line("\xe4\xb8\x80\xe4\xba\x8c\xe3\x80\x81\xe4\xb8\x89",
	                              4, &skip), 3);
}

/* A formatted string that fits the stack buffer and one that does not
 * (512 bytes, util.c): the same bytes by either way, and the escaped
 * printer writes what gw_str_escaped makes of them. */
static void
test_format_sizes(void **state)
{
	static const size_t lens[] = { 10, 510, 511, 512, 513, 4000 };
	size_t k;

	(void)state;
	for (k = 0; k < sizeof lens / sizeof lens[0]; k++) {
		size_t n = lens[k], got_len;
		char *arg = gw_xmalloc(n + 1), *s, *want, *got;
		FILE *f;

		memset(arg, 'a', n);
		arg[n] = '\0';
		arg[n / 2] = '\x01';    /* a control byte to escape */
		s = gw_xasprintf("%s|%d", arg, 7);
		assert_int_equal(strlen(s), n + 2);
		assert_memory_equal(s, arg, n);
		assert_string_equal(s + n, "|7");
		f = open_memstream(&got, &got_len);
		assert_non_null(f);
		assert_true(gw_fprintf_escaped(f, "%s|%d", arg, 7) >= 0);
		fclose(f);
		want = gw_str_escaped(s);
		assert_string_equal(got, want);
		free(want);
		free(got);
		free(s);
		free(arg);
	}
}

/* Formats of strings alone ("%s", "%%") are put together without stdio
 * (util.c, format_plain): the same bytes as snprintf's for each, at
 * sizes about the stack buffer's (512 bytes), a NULL string as glibc
 * prints it, and gw_buf_printf on a part-filled buffer the same.  The
 * formats come from the table: no format check to make on them. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
static void
test_format_strings(void **state)
{
	static const char *const fmts[] = {
		"", "plain", "%s", "%%", "%%s", "100%% %s", "%s%s", "a%sb%sc",
		"  + %s = \"%s\"\n", "%s%%%s%%", "%s %s %s %s",
	};
	static const size_t lens[] = { 0, 1, 250, 255, 256, 257, 511, 512, 513,
	                               3000 };
	size_t f, k;

	(void)state;
	for (f = 0; f < sizeof fmts / sizeof fmts[0]; f++)
		for (k = 0; k < sizeof lens / sizeof lens[0]; k++) {
			size_t n = lens[k];
			char *a = gw_xmalloc(n + 1), want[8192], *got;
			const char *b = k % 2 ? "x" : NULL;
			gw_buf buf;

			memset(a, 'q', n);
			a[n] = '\0';
			snprintf(want, sizeof want, fmts[f], a, b, a, b);
			got = gw_xasprintf(fmts[f], a, b, a, b);
			assert_string_equal(got, want);
			free(got);
			gw_buf_init(&buf);
			gw_buf_puts(&buf, "head:");
			gw_buf_printf(&buf, fmts[f], a, b, a, b);
			assert_string_equal(buf.data + 5, want);
			assert_int_equal(buf.len, 5 + strlen(want));
			gw_buf_free(&buf);
			free(a);
		}
}
#pragma GCC diagnostic pop

/* The decimal integers format_plain takes, at their ends, and the
 * directives it leaves to vsnprintf beside them: snprintf's bytes. */
static void
test_format_integers(void **state)
{
	char want[256], *got;

	(void)state;
#define SAME(...)                                                    \
	do {                                                         \
		snprintf(want, sizeof want, __VA_ARGS__);            \
		got = gw_xasprintf(__VA_ARGS__);                     \
		assert_string_equal(got, want);                      \
		free(got);                                           \
	} while (0)
	SAME("%d|%d|%d|%i", 0, INT_MIN, INT_MAX, -7);
	SAME("%u|%u", 0u, UINT_MAX);
	SAME("%ld|%ld|%lu", LONG_MIN, LONG_MAX, ULONG_MAX);
	SAME("%lld|%lld|%llu", LLONG_MIN, LLONG_MAX, ULLONG_MAX);
	SAME("%zu|%zd|%zd", (size_t)SIZE_MAX, (ssize_t)-1, (ssize_t)SSIZE_MAX);
	SAME("%s %d x %s, %llu GB%%", "VM", 2, "l40s", 96ULL);
	SAME("%5d|%-3u|%x|%c|%.2s|%04x", 42, 7u, 255u, 'q', "abc", 0x1au);
#undef SAME
}

/* gw_word_below and gw_word_eq (gw.h): each byte value at each of the
 * eight places, beside bytes that could carry into it (0x00, 0x7f,
 * 0x80, 0xff), marks exactly the bytes that are so; and the printers
 * built on them take and refuse the same bytes as one at a time. */
static void
test_word_masks(void **state)
{
	static const unsigned cs[] = { 0x01, 0x0a, 0x20, 0x7f, 0x80 };
	static const unsigned char fill[] = { 0x00, 0x7f, 0x80, 0xff, 'a' };
	unsigned v, c, k, f, b;

	(void)state;
	for (f = 0; f < sizeof fill; f++)
		for (k = 0; k < 8; k++)
			for (v = 0; v < 256; v++) {
				unsigned char by[8];
				uint64_t w;

				memset(by, fill[f], 8);
				by[k] = (unsigned char)v;
				memcpy(&w, by, 8);
				for (c = 0; c < sizeof cs / sizeof cs[0]; c++) {
					uint64_t below = gw_word_below(w, cs[c]),
					         eq = gw_word_eq(w, cs[c]);

					for (b = 0; b < 8; b++) {
						unsigned char m[8];

						memcpy(m, &below, 8);
						assert_int_equal(m[b], by[b] < cs[c] ? 0x80 : 0);
						memcpy(m, &eq, 8);
						assert_int_equal(m[b], by[b] == cs[c] ? 0x80 : 0);
					}
				}
			}
	/* a tab or newline in any place of a word, then one byte to
	 * escape: printed as is, then escaped */
	for (k = 0; k < 24; k++) {
		char t[32], *got;
		size_t len;
		FILE *out;

		memset(t, 'x', sizeof t - 1);
		t[sizeof t - 1] = '\0';
		t[k] = k % 2 ? '\n' : '\t';
		out = open_memstream(&got, &len);
		assert_non_null(out);
		gw_fputs_escaped(t, out);
		fclose(out);
		assert_string_equal(got, t);
		free(got);
		t[k + 3] = '\x7f';
		out = open_memstream(&got, &len);
		assert_non_null(out);
		gw_fputs_escaped(t, out);
		fclose(out);
		assert_string_not_equal(got, t);
		free(got);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_uint),
		cmocka_unit_test(test_hexval),
		cmocka_unit_test(test_buf),
		cmocka_unit_test(test_format_sizes),
		cmocka_unit_test(test_format_strings),
		cmocka_unit_test(test_format_integers),
		cmocka_unit_test(test_word_masks),
		cmocka_unit_test(test_gettext_cache),
		cmocka_unit_test(test_trim_ieq),
		cmocka_unit_test(test_read_file_errors),
		cmocka_unit_test(test_write_atomic),
		cmocka_unit_test(test_text_line),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
