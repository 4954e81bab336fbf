/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_draw_controls.c: host text on the screens (doc/design.md, section 5.3:
 * never echoed raw): dw_put (ui/draw.c), which every screen draws through, shows ESC,
 * BEL, C1 controls and invalid UTF-8 as '?' and keeps valid UTF-8, so
 * ncurses never gets a control byte from a VM's or a device's name. */
#include "testutil.h"
#include "draw.h"

#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include "uiutil.h"

static void
test_controls(void **state)
{
	(void)state;
	erase();
	/* ESC [ 2 J, BEL, \xff, U+009B (CSI), DEL, then a Chinese name */
	assert_int_equal(dw_put(0, 0, "vm\033[2J\007\377\302\233\177 训练机",
	                        40, A_NORMAL), 17);
	assert_string_equal(tu_row(0, 0, 40), "vm?[2J???? 训练机");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_controls),
	};
	tu_curses c;
	int rc;

	if (tu_curses_open(&c) != 0)
		return 77;
	rc = cmocka_run_group_tests(tests, NULL, NULL);
	tu_curses_close(&c);
	return rc;
}
