/* SPDX-License-Identifier: GPL-3.0-or-later */
/* fuzz_vsupdates.c: the WaitForUpdatesEx answers that gpuwiz reads while
 * it follows its tasks (src/host/vs_task_parse.c: gw_vs_parse_task_updates,
 * through vs_parse_answer in vs_xml.c, the same code as vs_tasks.c's
 * wait_once), as tests/unit/host/test_vsphere_tasks.c calls it, once
 * without and once with a version from an earlier answer.  The seeds are
 * the vcsim and synthetic WaitForUpdatesEx answers and task infos of
 * tests/fixtures/vsphere.  Invariants: every update names its task; a state
 * is -1 (not in the update) or 0..3; a progress -1 or 0..100. */
#include "fuzz.h"
#include "vs_seams.h"

static void
fz_updates(const char *s, size_t len, const char *old)
{
	gw_vs_task_update *ups = NULL;
	char *version = old ? gw_xstrdup(old) : NULL;
	size_t n = 0;
	int truncated = -1;
	gw_err e;

	if (gw_vs_parse_task_updates(s, len, &ups, &n, &version, &truncated,
	                             &e) == 0) {
		FZ_CHECK(truncated == 0 || truncated == 1);
		FZ_CHECK(n == 0 || ups != NULL);
		for (size_t i = 0; i < n; i++) {
			FZ_CHECK(ups[i].task != NULL && ups[i].task[0] != '\0');
			FZ_CHECK(ups[i].state >= -1 && ups[i].state <= 3);
			FZ_CHECK(ups[i].progress >= -1 && ups[i].progress <= 100);
			FZ_CHECK(ups[i].left == 0 || ups[i].left == 1);
		}
	} else {
		FZ_CHECK(n == 0 && ups == NULL);
	}
	gw_vs_task_updates_free(ups, n);
	free(version);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *s = (const char *)data;

	fz_updates(s, size, NULL);
	fz_updates(s, size, "7");
	return 0;
}
