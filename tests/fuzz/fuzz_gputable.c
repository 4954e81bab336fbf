/* SPDX-License-Identifier: GPL-3.0-or-later */
/* fuzz_gputable.c: the GPU table (data/gpus.ini: src/core/gputable.c,
 * gputable_scan.c, read through iniparser), as tests/unit/core/
 * test_gputable.c calls it: the input is written to a scratch file
 * (iniparser reads files only) and loaded with gw_table_load.  A table
 * that loads is then looked up the ways gpuwiz does (gputable_lookup.c).
 * Invariants: every row is found by its short id, by its PCI id with its
 * subsystem (without one when it has none and no other row shares the id);
 * each of its vGPU types, as a profile, maps back to the row and is
 * accepted by gw_gpu_vgpu_check. */
#include "fuzz.h"

static void
fz_row(const gw_table *t, const gw_gpu *g)
{
	const gw_gpu *f;
	int amb = 0;
	gw_err e;

	FZ_CHECK(gw_table_lookup(t, g->id, &e) == g);
	f = gw_table_find_pci(t, g->vendor_id, g->device_id, g->subsys_vendor,
	                      g->subsys_device, &amb);
	if (g->subsys_vendor != 0 || g->subsys_device != 0)
		FZ_CHECK(f == g);
	else
		FZ_CHECK(f == g || (f == NULL && amb == 1));
	(void)gw_gpu_bar1_max_mib(g);
	for (size_t i = 0; g->vgpu_prefix && i < g->nvgpu_types; i++) {
		char *prof = gw_xasprintf("%s-%s", g->vgpu_prefix,
		                          g->vgpu_types[i]);
		char *esx = gw_gpu_vgpu_profile(g, prof);
		gw_vgpu_type vt;

		FZ_CHECK(esx != NULL);
		FZ_CHECK(gw_vgpu_type_parse(prof, &vt) == 0);
		if (gw_gpu_vgpu_check(g, prof, &e) != 0) {
			fprintf(stderr, "[%s] lists %s, refused: %s\n", g->id,
			        prof, e.msg);
			abort();
		}
		free(gw_gpu_vgpu_sizes(g, vt.series, vt.slices > 0));
		(void)gw_gpu_vgpu_full_size(g, vt.series);
		free(esx);
		free(prof);
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fz_scratch_write("gpus.ini", data, size);
	gw_table t;
	gw_err e;

	e.msg[0] = '\0';
	if (gw_table_load(&t, path, &e) == 0) {
		FZ_CHECK(t.n > 0);
		for (size_t i = 0; i < t.n; i++)
			fz_row(&t, &t.gpus[i]);
	} else {
		FZ_CHECK(e.msg[0] != '\0');
	}
	gw_table_free(&t);
	return 0;
}
