/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_textlist.c: the scrolling list of ui/textlist.c as the steps'
 * findings use it (doc/design.md, section 10: findings are never hidden): a label at
 * column 0 and the text after it, the "v" mark while lines are below and
 * "^" once scrolled, PgUp/PgDn taken only when there is something to
 * scroll that way, and "PgDn More" in the key help only then.  curses
 * draws on a vt100 screen whose output goes to /dev/null. */
#include "testutil.h"
#include "draw.h"
#include "textlist.h"

#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include "uiutil.h"

static void
test_label_marks_pages(void **state)
{
	ui_textlist t = { NULL, 0, 0, 0 };
	ui_key pgdn = { KEY_NPAGE, 0 }, pgup = { KEY_PPAGE, 0 };
	ui_key down = { KEY_DOWN, 0 };
	ui_keyhelp kh[4];
	ui_rect r = { 0, 0, 3, 30 };

	(void)state;
	erase();
	ui_tl_add_label(&t, "FAIL", 0, "the first finding", 0, 6, 30);
	ui_tl_add_label(&t, "WARN", 0, "one two three four five six seven eight nine ten eleven",
	                0, 6, 30);
	ui_tl_add(&t, "fix: tick it", 0, 6, 0, 30);
	assert_true(t.n >= 4);
	/* never drawn: nothing hidden yet, the keys are the step's */
	assert_false(ui_tl_more(&t));
	assert_int_equal(ui_tl_page_key(&t, pgdn), 0);
	ui_tl_draw(&t, r);
	assert_string_equal(tu_row(0, 0, 30), "FAIL  the first finding");
	assert_string_equal(tu_row(1, 0, 5), "WARN");
	/* a continuation row has no label */
	assert_string_equal(tu_row(2, 0, 5), "");
	assert_string_equal(tu_row(2, 29, 1), "v");
	assert_string_equal(tu_row(0, 29, 1), "");
	assert_true(ui_tl_more(&t));
	assert_int_equal(ui_tl_keys(&t, kh, 4), 1);
	assert_string_equal(kh[0].key, "PgDn");
	/* PgUp at the top and Down are not the list's */
	assert_int_equal(ui_tl_page_key(&t, pgup), 0);
	assert_int_equal(ui_tl_page_key(&t, down), 0);
	assert_int_equal(ui_tl_page_key(&t, pgdn), 1);
	erase();
	ui_tl_draw(&t, r);
	assert_string_equal(tu_row(0, 29, 1), "^");
	assert_false(ui_tl_more(&t));
	assert_int_equal(ui_tl_keys(&t, kh, 4), 0);
	assert_int_equal(ui_tl_page_key(&t, pgdn), 0);
	assert_string_equal(tu_row(t.n - 1 - t.top, 6, 20), "fix: tick it");
	assert_int_equal(ui_tl_page_key(&t, pgup), 1);
	assert_int_equal(t.top, 0);
	ui_tl_clear(&t);
	assert_int_equal(t.n, 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_label_marks_pages),
	};
	tu_curses c;
	int rc;

	if (tu_curses_open(&c) != 0)
		return 77;
	rc = cmocka_run_group_tests(tests, NULL, NULL);
	tu_curses_close(&c);
	return rc;
}
