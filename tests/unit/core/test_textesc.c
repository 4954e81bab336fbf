/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_textesc.c: textesc.h, the printers' escaping without a size limit
 * (src/core/util.c): controls, DEL, C1 and invalid bytes as \xNN, valid
 * UTF-8 kept, long text whole. */
#include "testutil.h"
#include "textesc.h"

static void
test_escaped(void **state)
{
	char *s;

	(void)state;
	s = gw_str_escaped("vm\033[2J\007\377\302\233\177 训练机\tok\n");
	assert_string_equal(s, "vm\\x1B[2J\\x07\\xFF\\xC2\\x9B\\x7F 训练机\tok\n");
	free(s);
	s = gw_str_escaped("");
	assert_string_equal(s, "");
	free(s);
}

/* Longer than any gw_err message, all bytes escaped: nothing cut. */
static void
test_long(void **state)
{
	enum { N = 5000 };
	char *in = gw_xmalloc(N + 1), *s;
	size_t i;

	(void)state;
	memset(in, '\377', N);
	in[N] = '\0';
	s = gw_str_escaped(in);
	assert_int_equal(strlen(s), 4 * N);
	for (i = 0; i < N; i++)
		assert_memory_equal(s + 4 * i, "\\xFF", 4);
	free(s);
	free(in);
}

static void
test_buf_and_file(void **state)
{
	gw_buf b;
	char *text = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	gw_buf_init(&b);
	gw_buf_puts(&b, "a ");
	gw_buf_put_escaped(&b, "\033]0;x\007");
	assert_string_equal(b.data, "a \\x1B]0;x\\x07");
	gw_buf_free(&b);
	f = open_memstream(&text, &len);
	assert_non_null(f);
	assert_true(gw_fprintf_escaped(f, "VMs on %s: %d\n", "h\377中", 2) >= 0);
	assert_true(gw_fputs_escaped("\302\233x", f) >= 0);
	fclose(f);
	assert_string_equal(text, "VMs on h\\xFF中: 2\n\\xC2\\x9Bx");
	free(text);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_escaped),
		cmocka_unit_test(test_long),
		cmocka_unit_test(test_buf_and_file),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
