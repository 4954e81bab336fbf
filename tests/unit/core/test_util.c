/* test_util.c: errors, buffers, integer parsing and file helpers. */
#include "testutil.h"

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

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_uint),
		cmocka_unit_test(test_buf),
		cmocka_unit_test(test_trim_ieq),
		cmocka_unit_test(test_read_file_errors),
		cmocka_unit_test(test_write_atomic),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
