/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_draw.c: the drawing layer's cuts (ui/draw.c, ui/draw_audit.c):
 * text that does not fit ends with the sign, a wide character is never
 * split, a path wraps at its '/', and what is clipped without the sign is
 * named in the GPUWIZ_UI_AUDIT file.  curses draws on a vt100 screen
 * whose output goes to /dev/null; the cells are read back. */
#include "testutil.h"
#include "draw.h"

#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include "uiutil.h"

static char audit[64];

static void
test_sign(void **state)
{
	(void)state;
	erase();
	assert_int_equal(dw_put(0, 0, "pciPassthru", 10, A_NORMAL), 10);
	assert_string_equal(tu_row(0, 0, 20), "pciPassth\xe2\x80\xa6");
	/* what fits is drawn whole, without the sign */
	assert_int_equal(dw_put(1, 0, "vfio-pci", 10, A_NORMAL), 8);
	assert_string_equal(tu_row(1, 0, 20), "vfio-pci");
	/* trailing blanks are no cut */
	dw_put(2, 0, "abc      ", 4, A_NORMAL);
	assert_string_equal(tu_row(2, 0, 20), "abc");
}

/* 5 cells of CJK: two characters and the sign, never half a character */
static void
test_wide(void **state)
{
	(void)state;
	erase();
	assert_int_equal(dw_put(0, 0, "\xe4\xb8\xad\xe6\x96\x87\xe4\xb8\xad\xe6\x96\x87",
	                        6, A_NORMAL), 5);
	assert_string_equal(tu_row(0, 0, 20),
	                    "\xe4\xb8\xad\xe6\x96\x87\xe2\x80\xa6");
}

/* The edges of printable ASCII: a tab is a blank, DEL, a control
 * character and a stray byte are '?', one cell each; ' ' and '~' are
 * themselves. */
static void
test_controls(void **state)
{
	(void)state;
	erase();
	assert_int_equal(dw_cells("a\tb\x7f\x1f\x80~ z"), 9);
	assert_int_equal(dw_put(0, 0, "a\tb\x7f\x1f\x80~ z", 20, A_NORMAL), 9);
	assert_string_equal(tu_row(0, 0, 20), "a b???~ z");
	/* a wide character after ASCII keeps its two cells */
	assert_int_equal(dw_cells("x\xe4\xb8\xad"), 3);
}

static void
test_path_wraps_at_slash(void **state)
{
	char **l;
	size_t n;

	(void)state;
	n = dw_wrap("/vmfs/volumes/datastore1/ubuntu-l40s/ubuntu-l40s.vmx", 30, &l);
	assert_int_equal(n, 2);
	assert_string_equal(l[0], "/vmfs/volumes/datastore1/");
	assert_string_equal(l[1], "ubuntu-l40s/ubuntu-l40s.vmx");
	gw_strs_free(l, n);
}

static size_t
audit_lines(void)
{
	FILE *f = fopen(audit, "r");
	size_t n = 0;
	int c;

	if (f == NULL)
		return 0;
	while ((c = fgetc(f)) != EOF)
		n += c == '\n';
	fclose(f);
	return n;
}

static void
test_audit(void **state)
{
	(void)state;
	erase();
	dw_audit_where("step 3");
	dw_put(0, 0, "signed", 4, A_NORMAL);        /* "sig…": not noted */
	dw_wrap_put(1, 0, 20, 1, "one two three four five six seven",
	            A_NORMAL);                      /* last row signed */
	assert_int_equal(audit_lines(), 0);
	dw_put(2, 0, "abc", 1, A_NORMAL);           /* no room for the sign */
	assert_int_equal(audit_lines(), 1);
	dw_put(2, 0, "abc", 1, A_NORMAL);           /* the same: once */
	assert_int_equal(audit_lines(), 1);
	dw_wrap_put(3, 0, 20, 0, "no row at all", A_NORMAL);
	assert_int_equal(audit_lines(), 2);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sign),
		cmocka_unit_test(test_wide),
		cmocka_unit_test(test_controls),
		cmocka_unit_test(test_path_wraps_at_slash),
		cmocka_unit_test(test_audit),
	};
	tu_curses c;
	int rc;

	snprintf(audit, sizeof audit, "/tmp/gwaudit.%ld", (long)getpid());
	unlink(audit);
	setenv("GPUWIZ_UI_AUDIT", audit, 1);
	if (tu_curses_open(&c) != 0)
		return 77;
	rc = cmocka_run_group_tests(tests, NULL, NULL);
	tu_curses_close(&c);
	unlink(audit);
	return rc;
}
