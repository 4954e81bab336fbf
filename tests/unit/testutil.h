/* SPDX-License-Identifier: GPL-3.0-or-later */
/* testutil.h: shared helpers for the cmocka unit tests. */
#ifndef GW_TESTUTIL_H
#define GW_TESTUTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>
#include <libintl.h>
#include <locale.h>

#include "gw.h"

/* $GW_FIXTURES/rel (malloc'ed).  make check sets GW_FIXTURES; running a
 * test binary by hand from the source tree falls back to tests/fixtures. */
static inline char *
tu_fixture_path(const char *rel)
{
	const char *dir = getenv("GW_FIXTURES");

	return gw_xasprintf("%s/%s", dir && *dir ? dir : "tests/fixtures", rel);
}

/* Whole fixture file (bytes, NUL-terminated).  Fails the test if missing.
 * Not inlined: gcc 12 reports a false -Wdangling-pointer when it inlines
 * this into a caller (cmocka's fail_msg is not marked noreturn). */
#define TU_NOINLINE __attribute__((noinline, unused))
static TU_NOINLINE char *
tu_read_fixture(const char *rel, size_t *len)
{
	char *path = tu_fixture_path(rel), *data = NULL;
	size_t n = 0;
	gw_err e;

	if (gw_read_file(path, 64u << 20, &data, &n, &e) != 0)
		fail_msg("%s", e.msg);
	free(path);
	if (len)
		*len = n;
	return data;
}

/* The fixture without its first "# source: ..." line: the original bytes
 * of the sample (see tests/fixtures/README.md). */
static TU_NOINLINE char *
tu_read_sample(const char *rel, size_t *len)
{
	size_t n;
	char *data = tu_read_fixture(rel, &n), *nl, *out;

	if (strncmp(data, "# source:", 9) != 0)
		fail_msg("%s: first line is not a '# source:' line", rel);
	nl = memchr(data, '\n', n);
	assert_non_null(nl);
	n -= (size_t)(nl + 1 - data);
	out = gw_xmalloc(n + 1);
	memcpy(out, nl + 1, n);
	out[n] = '\0';
	free(data);
	if (len)
		*len = n;
	return out;
}

/* The GPU table used by the tests ($GPUWIZ_TABLE, else data/gpus.ini). */
static inline const char *
tu_table_path(void)
{
	const char *p = getenv("GPUWIZ_TABLE");

	return p && *p ? p : "data/gpus.ini";
}

/* The group set-up and tear-down of a test file that works on the GPU
 * table (a file-scope `static gw_table table;`, gputable.h included):
 * TU_TABLE_GROUP(setup, teardown) defines both, for
 * cmocka_run_group_tests(tests, setup, teardown). */
#define TU_TABLE_GROUP(setup_fn, teardown_fn)                           \
	static int                                                      \
	setup_fn(void **state)                                          \
	{                                                               \
		gw_err e_;                                              \
                                                                        \
		(void)state;                                            \
		if (gw_table_load(&table, tu_table_path(), &e_) != 0)   \
			fail_msg("%s", e_.msg);                         \
		return 0;                                               \
	}                                                               \
	static int                                                      \
	teardown_fn(void **state)                                       \
	{                                                               \
		(void)state;                                            \
		gw_table_free(&table);                                  \
		return 0;                                               \
	}

/* A fresh empty directory under $TMPDIR for one test (malloc'ed). */
static inline char *
tu_tmpdir(void)
{
	const char *base = getenv("TMPDIR");
	char *tmpl = gw_xasprintf("%s/gwtest-XXXXXX", base && *base ? base : "/tmp");

	if (mkdtemp(tmpl) == NULL)
		fail_msg("mkdtemp failed");
	return tmpl;
}

/* rm -r path: a test's own temporary tree (nothing when it is gone). */
static inline void
tu_rm_tree(const char *path)
{
	struct stat st;

	if (lstat(path, &st) != 0)
		return;
	if (S_ISDIR(st.st_mode)) {
		DIR *d = opendir(path);
		struct dirent *de;

		while (d && (de = readdir(d)) != NULL) {
			char *sub;

			if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
				continue;
			sub = gw_xasprintf("%s/%s", path, de->d_name);
			tu_rm_tree(sub);
			free(sub);
		}
		if (d)
			closedir(d);
		rmdir(path);
	} else {
		unlink(path);
	}
}

/* Switch gettext to the build's zh_CN catalogue (GPUWIZ_LOCALEDIR, set by
 * the test harness) for a test of the translations; 0, or -1 when the
 * catalogue or the locale is missing (the caller skips).  Back with
 * setlocale(LC_ALL, "C"). */
static inline int
tu_use_zh_catalogue(void)
{
	const char *dir = getenv("GPUWIZ_LOCALEDIR");

	if (dir == NULL || setlocale(LC_ALL, "zh_CN.UTF-8") == NULL)
		return -1;
	unsetenv("LANGUAGE");
	bindtextdomain("gpuwiz", dir);
	bind_textdomain_codeset("gpuwiz", "UTF-8");
	textdomain("gpuwiz");
	return 0;
}

#endif
