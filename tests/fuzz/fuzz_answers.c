/* SPDX-License-Identifier: GPL-3.0-or-later */
/* fuzz_answers.c: the answers file (src/core/answers.c, read through
 * src/core/ini.c and iniparser), as tests/unit/core/test_answers.c calls
 * it: the input is written to a file in a scratch directory (iniparser
 * reads files only) and loaded against the GPU table.  Invariant: what
 * loads saves (gw_answers_save, the wizard's "save answers") to a file
 * that loads again. */
#include "fuzz.h"
#include "answers.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const gw_table *t = fz_table();
	gw_answers_file af, again;
	const char *fz_in, *fz_out;
	gw_err e;

	if (t == NULL)
		return 0;
	fz_in = fz_scratch_write("a.ini", data, size);
	fz_out = fz_scratch_path("saved.ini");
	if (gw_answers_load(&af, fz_in, t, &e) == 0) {
		FZ_CHECK(gw_answers_save(&af, fz_out, &e) == 0);
		if (gw_answers_load(&again, fz_out, t, &e) != 0) {
			fprintf(stderr, "saved answers do not load: %s\n", e.msg);
			abort();
		}
		gw_answers_file_free(&again);
	}
	gw_answers_file_free(&af);
	return 0;
}
