/* SPDX-License-Identifier: GPL-3.0-or-later */
/* fuzz_diagnose.c: the failure recogniser of gpuwiz diagnose
 * (src/core/diagnose*.c) over any bytes, as tests/unit/core/test_diagnose.c
 * calls it.  The quoted line of each finding holds no line break or
 * escape byte, and the input fed in chunks (gw_diag_scan_feed, the pieces'
 * sizes taken from the input's first byte) gives the same findings. */
#include "fuzz.h"
#include "diagnose.h"

static int
same_text(const char *a, const char *b)
{
	return (a == NULL && b == NULL) ||
	       (a != NULL && b != NULL && strcmp(a, b) == 0);
}

/* The input in pieces of 1 to 64 bytes (the first piece's size from the
 * first byte, each next one bigger by 7, wrapping): the same findings as
 * whole. */
static void
check_chunks(const uint8_t *data, size_t size, const gw_diag_result *w)
{
	gw_diag_scan *sc = gw_diag_scan_new();
	gw_diag_result r;
	size_t at = 0, step = size ? 1 + data[0] % 64 : 1, i;

	while (at < size) {
		size_t k = size - at < step ? size - at : step;

		gw_diag_scan_feed(sc, (const char *)data + at, k);
		at += k;
		step = 1 + (step + 7) % 64;
	}
	FZ_CHECK(gw_diag_scan_end(sc, NULL, &r) == (int)w->n);
	for (i = 0; i < r.n; i++) {
		FZ_CHECK(same_text(r.findings[i].f.id, w->findings[i].f.id));
		FZ_CHECK(same_text(r.findings[i].f.message,
		                   w->findings[i].f.message));
		FZ_CHECK(same_text(r.findings[i].f.fix, w->findings[i].f.fix));
		FZ_CHECK(same_text(r.findings[i].line, w->findings[i].line));
		FZ_CHECK(r.findings[i].lineno == w->findings[i].lineno);
		FZ_CHECK(r.findings[i].matches == w->findings[i].matches);
	}
	gw_diag_result_free(&r);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	gw_diag_result r;
	size_t i;

	(void)gw_diagnose_text((const char *)data, size, &r);
	check_chunks(data, size, &r);
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
