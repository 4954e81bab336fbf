/* fuzz_util.c: the GPU table for the targets that compare with it. */
#include "fuzz.h"

#ifndef GW_FUZZ_TABLE
#define GW_FUZZ_TABLE "data/gpus.ini"
#endif

static gw_table fz_tab;
static int fz_tab_state;    /* 0 not tried, 1 loaded, -1 failed */

static void
fz_table_free(void)
{
	gw_table_free(&fz_tab);
}

const gw_table *
fz_table(void)
{
	const char *p = getenv("GPUWIZ_TABLE");
	gw_err e;

	if (fz_tab_state == 0) {
		if (p == NULL || *p == '\0')
			p = GW_FUZZ_TABLE;
		if (gw_table_load(&fz_tab, p, &e) != 0) {
			fprintf(stderr, "fuzz: %s\n", e.msg);
			fz_tab_state = -1;
		} else {
			fz_tab_state = 1;
			atexit(fz_table_free);
		}
	}
	return fz_tab_state == 1 ? &fz_tab : NULL;
}
