/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_escape.c: the escaping every gw_err message goes through (util.c),
 * seen through gw_str_escaped (no size limit) and gw_err_set (cut off at
 * the end of the message buffer): invalid UTF-8 in a message is escaped,
 * never echoed raw. */
#include "testutil.h"
#include "textesc.h"

/* in escaped as want; size 0: whole (gw_str_escaped), else as if size
 * bytes were left for it (NUL included): gw_err_set of in after enough
 * filler that only size bytes of the message buffer remain. */
static void
expect(const char *in, const char *want, size_t size)
{
	char got[2048], *t;
	gw_err e;
	size_t pad = sizeof e.msg - size;

	if (size >= 256) {
		t = gw_str_escaped(in);
		if (strcmp(t, want) != 0)
			fail_msg("escaped '%s', expected '%s'", t, want);
		free(t);
		return;
	}
	assert_true(size > 0 && strlen(in) < 64);
	memset(got, 'f', pad);
	strcpy(got + pad, in);
	gw_err_set(&e, "%s", got);
	assert_int_equal(strspn(e.msg, "f"), pad);
	if (strcmp(e.msg + pad, want) != 0)
		fail_msg("escaped '%s', expected '%s'", e.msg + pad, want);
}

static void
test_escape(void **state)
{
	(void)state;
	expect("plain ascii", "plain ascii", 256);
	expect("tab\tand\nnewline", "tab\tand\nnewline", 256);
	expect("中文 ok", "中文 ok", 256);
	expect("a\xff" "b", "a\\xFFb", 256);
	expect("\xc3\x28", "\\xC3(", 256);               /* cut sequence */
	expect("\xc0\xaf", "\\xC0\\xAF", 256);           /* overlong '/' */
	expect("\xe0\x80\xaf", "\\xE0\\x80\\xAF", 256);  /* overlong, 3 */
	expect("\xed\xa0\x80", "\\xED\\xA0\\x80", 256);  /* surrogate */
	expect("\xf4\x90\x80\x80", "\\xF4\\x90\\x80\\x80", 256); /* > 10FFFF */
	expect("\xf0\x9f\x98\x80", "\xf0\x9f\x98\x80", 256);     /* U+1F600 */
	expect("\x1b[2J\x7f\r", "\\x1B[2J\\x7F\\x0D", 256);    /* controls */
	expect("\xe4\xb8", "\\xE4\\xB8", 256);                 /* cut at end */
	expect("\xc2\x9b" "1m", "\\xC2\\x9B1m", 256);          /* C1 CSI */
	expect("\xc2\xa0", "\xc2\xa0", 256);                    /* U+00A0 */
	/* cut off: whole characters and whole escapes only */
	expect("ab中", "ab", 5);
	expect("ab中", "ab中", 6);
	expect("a\xff", "a", 5);
	expect("a\xff", "a\\xFF", 6);
	expect("x", "", 1);
}

static void
test_err_escaped(void **state)
{
	gw_err e;

	(void)state;
	gw_err_set(&e, "%s: bad value '%s'", "f.ini", "v\xfe\x1b]0;pwn\x07");
	assert_string_equal(e.msg, "f.ini: bad value 'v\\xFE\\x1B]0;pwn\\x07'");
	gw_err_set_ui(&e, "'%s'", "\xff");
	assert_string_equal(e.ui, "'\\xFF'");
	gw_err_set(&e, "%s", "中文");
	assert_string_equal(e.msg, "中文");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_escape),
		cmocka_unit_test(test_err_escaped),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
