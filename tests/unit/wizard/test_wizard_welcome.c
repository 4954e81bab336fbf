/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_wizard_welcome.c: what the welcome screen asks of the wizard
 * (wizard_welcome.c): the sample host in use and the modes' notes; the
 * rules the frame and the host step draw by (wizard_steps.c): the step
 * marks and the offline checklist's severity. */
#include "testutil.h"
#include "wizard.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static gw_table table;

static gw_wizard *
fresh(const char *sample)
{
	gw_wizard_start st;
	gw_wizard *w;
	gw_err e;

	memset(&st, 0, sizeof st);
	st.sample = sample;
	w = gw_wizard_new(&table, &st, &e);
	if (w == NULL)
		fail_msg("%s", e.msg);
	return w;
}

/* No sample: none named. */
static void
test_no_sample(void **state)
{
	gw_wizard *w = fresh(NULL);

	(void)state;
	assert_null(gw_wizard_sample_name(w));
	gw_wizard_delete(w);
}

/* --sample-host NAME names it; picking another names that one, whether
 * it is an ESXi sample (the attached host) or a Linux one (the root). */
static void
test_sample_name(void **state)
{
	gw_wizard *w = fresh("esxi-l40s");
	gw_err e;

	(void)state;
	assert_non_null(gw_wizard_sample_name(w));
	assert_string_equal(gw_wizard_sample_name(w), "esxi-l40s");
	assert_int_equal(gw_wizard_use_sample(w, "intel-2x-l40s", &e), 0);
	assert_string_equal(gw_wizard_sample_name(w), "intel-2x-l40s");
	assert_int_equal(gw_wizard_use_sample(w, "esxi-l40s", &e), 0);
	assert_string_equal(gw_wizard_sample_name(w), "esxi-l40s");
	assert_int_equal(gw_wizard_use_sample(w, "amd-geforce-usb", &e), 0);
	assert_string_equal(gw_wizard_sample_name(w), "amd-geforce-usb");
	gw_wizard_delete(w);
}

/* Only "Configure this Linux host" needs a note (it is not KVM); the
 * short one fits its 72 cells. */
static void
test_mode_notes(void **state)
{
	int m;

	(void)state;
	for (m = 0; m < GW_NMODES; m++) {
		const char *s = gw_wizard_mode_note((gw_mode)m, 0);

		if (m == GW_MODE_LINUX) {
			assert_non_null(s);
			assert_true(gw_text_cells(s) <= 72);
			assert_non_null(strstr(gw_wizard_mode_note((gw_mode)m, 1),
			                       "KVM"));
		} else {
			assert_null(s);
			assert_null(gw_wizard_mode_note((gw_mode)m, 1));
		}
	}
	assert_null(gw_wizard_mode_note(GW_NMODES, 0));
}

/* The offline checklist's severity is what the steps do with an item:
 * the IOMMU and above 4G FAIL until confirmed and one refusal names both;
 * SR-IOV is INFO while no vGPU needs it. */
static void
test_host_item_sev(void **state)
{
	gw_wizard *w = fresh(NULL);
	char why[1024];

	(void)state;
	assert_int_equal(gw_wizard_host_item_sev(w, GW_HOST_IOMMU), GW_SEV_ERROR);
	assert_int_equal(gw_wizard_host_item_sev(w, GW_HOST_ABOVE4G), GW_SEV_ERROR);
	assert_int_equal(gw_wizard_host_item_sev(w, GW_HOST_SRIOV), GW_SEV_INFO);
	assert_int_equal(gw_wizard_check_step(w, GW_STEP_HOST, why, sizeof why), -1);
	assert_non_null(strstr(why, gw_host_item_title(GW_HOST_IOMMU)));
	assert_non_null(strstr(why, gw_host_item_title(GW_HOST_ABOVE4G)));
	gw_wizard_set_host_ok(w, GW_HOST_IOMMU, 1);
	assert_int_equal(gw_wizard_host_item_sev(w, GW_HOST_IOMMU), GW_SEV_PASS);
	assert_int_equal(gw_wizard_check_step(w, GW_STEP_HOST, why, sizeof why), -1);
	assert_null(strstr(why, gw_host_item_title(GW_HOST_IOMMU)));
	assert_non_null(strstr(why, gw_host_item_title(GW_HOST_ABOVE4G)));
	gw_wizard_set_host_ok(w, GW_HOST_ABOVE4G, 1);
	assert_int_equal(gw_wizard_check_step(w, GW_STEP_HOST, why, sizeof why), 0);
	gw_wizard_delete(w);
}

/* The step marks: none on the current step and those ahead, a tick on
 * a step passed, "!" on a host check left with FAIL rows (overridden). */
static void
test_step_marks(void **state)
{
	gw_wizard *w = fresh(NULL);
	char why[1024];
	int s;

	(void)state;
	for (s = 0; s < GW_NSTEPS; s++)
		assert_int_equal(gw_wizard_step_mark(w, (gw_step)s), GW_MARK_NONE);
	assert_int_equal(gw_wizard_next(w, why, sizeof why), 0);
	assert_int_equal(gw_wizard_step_mark(w, GW_STEP_WELCOME), GW_MARK_PASS);
	assert_int_equal(gw_wizard_step_mark(w, GW_STEP_HOST), GW_MARK_NONE);
	gw_wizard_set_host_ok(w, GW_HOST_IOMMU, 1);
	gw_wizard_set_host_ok(w, GW_HOST_ABOVE4G, 1);
	assert_int_equal(gw_wizard_next(w, why, sizeof why), 0);
	assert_int_equal(gw_wizard_step_mark(w, GW_STEP_HOST), GW_MARK_PASS);
	assert_int_equal(gw_wizard_step_mark(w, GW_STEP_GPU), GW_MARK_NONE);
	/* a step that does not pass any more */
	gw_wizard_set_host_ok(w, GW_HOST_IOMMU, 0);
	assert_int_equal(gw_wizard_step_mark(w, GW_STEP_HOST), GW_MARK_WARN);
	/* back on the host step: its own mark is none, the GPU step's too */
	assert_int_equal(gw_wizard_back(w), 0);
	assert_int_equal(gw_wizard_step_mark(w, GW_STEP_HOST), GW_MARK_NONE);
	assert_int_equal(gw_wizard_step_mark(w, GW_STEP_GPU), GW_MARK_NONE);
	gw_wizard_delete(w);

	/* a sample whose host check FAILs, gone on from with o */
	w = fresh("intel-iommu-off-kernel");
	assert_int_equal(gw_wizard_next(w, why, sizeof why), 0);
	assert_non_null(gw_wizard_host_fail(w));
	assert_int_equal(gw_wizard_next(w, why, sizeof why), -1);
	gw_wizard_set_host_override(w, 1);
	assert_int_equal(gw_wizard_next(w, why, sizeof why), 0);
	assert_int_equal(gw_wizard_step_mark(w, GW_STEP_WELCOME), GW_MARK_PASS);
	assert_int_equal(gw_wizard_step_mark(w, GW_STEP_HOST), GW_MARK_WARN);
	gw_wizard_delete(w);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_no_sample),
		cmocka_unit_test(test_sample_name),
		cmocka_unit_test(test_mode_notes),
		cmocka_unit_test(test_host_item_sev),
		cmocka_unit_test(test_step_marks),
	};
	char tmpl[] = "/tmp/gwwelcome.XXXXXX", *cmd;
	gw_err e;
	int rc;

	/* the samples' scratch directories go here, removed at the end */
	if (mkdtemp(tmpl) == NULL)
		return 1;
	setenv("TMPDIR", tmpl, 1);
	if (gw_table_load(&table, tu_table_path(), &e) != 0) {
		fprintf(stderr, "%s\n", e.msg);
		return 1;
	}
	rc = cmocka_run_group_tests(tests, NULL, NULL);
	gw_table_free(&table);
	cmd = gw_xasprintf("rm -rf '%s'", tmpl);
	if (system(cmd) != 0)
		rc = 1;
	free(cmd);
	return rc;
}
