/* SPDX-License-Identifier: GPL-3.0-or-later */
/* fuzz_diagnose.c: the failure recogniser of gpuwiz diagnose
 * (src/core/diagnose*.c) over any bytes, as tests/unit/core/test_diagnose.c
 * calls it.  The quoted line of each finding holds no line break or
 * escape byte. */
#include "fuzz.h"
#include "diagnose.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	gw_diag_result r;
	size_t i;

	(void)gw_diagnose_text((const char *)data, size, &r);
	/* the quoted line is made printable: no terminal control reaches
	 * the report from a hostile log */
	for (i = 0; i < r.n; i++) {
		FZ_CHECK(r.findings[i].f.id != NULL);
		FZ_CHECK(r.findings[i].line != NULL);
		FZ_CHECK(strpbrk(r.findings[i].line, "\n\r\033") == NULL);
	}
	gw_diag_result_free(&r);
	return 0;
}
