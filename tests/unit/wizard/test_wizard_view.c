/* test_wizard_view.c: the wizard as the screens see it, through wizard.h
 * only (the accessors of wizard_view.c; no wizard_int.h here). */
#include "testutil.h"
#include "wizard.h"

#include <stdio.h>
#include <unistd.h>

static gw_table table;

static gw_wizard *
fresh(void)
{
	gw_wizard_start st;
	gw_wizard *w;
	gw_err e;

	memset(&st, 0, sizeof st);
	w = gw_wizard_new(&table, &st, &e);
	if (w == NULL)
		fail_msg("%s", e.msg);
	return w;
}

/* A plain start: nothing probed, no plan, nothing open or written. */
static void
test_fresh(void **state)
{
	gw_wizard *w = fresh();

	(void)state;
	assert_ptr_equal(gw_wizard_table(w), &table);
	assert_int_equal(gw_wizard_step(w), GW_STEP_WELCOME);
	assert_true(gw_wizard_visited(w, GW_STEP_WELCOME));
	assert_false(gw_wizard_visited(w, GW_STEP_HOST));
	assert_false(gw_wizard_visited(w, GW_NSTEPS));
	assert_int_equal(gw_wizard_mode(w), GW_MODE_OFFLINE);
	assert_null(gw_wizard_plan(w));
	assert_non_null(gw_wizard_error(w, GW_ERR_PLAN));
	assert_null(gw_wizard_error(w, GW_ERR_WRITE));
	assert_null(gw_wizard_error(w, GW_ERR_VMX));
	assert_null(gw_wizard_vmx(w));
	assert_null(gw_wizard_result(w));
	assert_null(gw_wizard_scratch(w));
	assert_false(gw_wizard_is(w, GW_WIZ_DIRTY));
	assert_false(gw_wizard_is(w, GW_WIZ_WRITTEN));
	assert_false(gw_wizard_is(w, GW_WIZ_HOST_OVERRIDE));
	assert_false(gw_wizard_can(w, GW_CAN_PROBE));
	assert_false(gw_wizard_can(w, GW_CAN_ENABLE));
	assert_false(gw_wizard_can(w, GW_CAN_VMS));
	assert_int_equal(gw_wizard_reprobe(w), 0);
	assert_int_equal(gw_wizard_checks(w, NULL), 0);
	assert_int_equal(gw_wizard_detected(w, NULL), 0);
	assert_false(gw_wizard_detected_added(w, 0));
	assert_int_equal(gw_wizard_vms(w, NULL), 0);
	assert_int_equal(gw_wizard_vm_open(w), -1);
	assert_null(gw_wizard_vm_picked(w));
	assert_null(gw_wizard_vm_title(w));
	assert_string_equal(gw_wizard_host_label(w), "");
	assert_int_equal(gw_wizard_vm_devices(w, NULL, 0), 0);
	assert_null(gw_wizard_step_help(w, GW_STEP_HOST));
	assert_null(gw_wizard_step_help(w, GW_STEP_VM));
	assert_false(gw_wizard_host_ok(w, GW_HOST_IOMMU));
	gw_wizard_set_host_ok(w, GW_HOST_IOMMU, 1);
	assert_true(gw_wizard_host_ok(w, GW_HOST_IOMMU));
	assert_false(gw_wizard_host_ok(w, GW_NHOST));
	assert_false(gw_wizard_host_ok(w, -1));
	gw_wizard_delete(w);
	gw_wizard_delete(NULL);
}

/* A GPU: the plan is there, the answers hold it, the wizard is dirty. */
static void
test_plan_and_answers(void **state)
{
	gw_wizard *w = fresh();
	const gw_answers_file *af;
	gw_err e;

	(void)state;
	if (gw_wizard_add_gpu(w, gw_table_lookup(&table, "l40s", &e), NULL, 2,
	                      &e) != 0)
		fail_msg("%s", e.msg);
	assert_non_null(gw_wizard_plan(w));
	assert_null(gw_wizard_error(w, GW_ERR_PLAN));
	assert_true(gw_wizard_is(w, GW_WIZ_DIRTY));
	af = gw_wizard_answers(w);
	assert_int_equal(af->a.ngpus, 1);
	assert_int_equal(af->a.gpus[0].count, 2);
	assert_string_equal(af->out_dir, "gpuwiz-out");
	assert_int_equal(gw_wizard_plan(w)->total_vram_gb, 96);
	gw_wizard_delete(w);
}

/* The devices already in an open .vmx: present pciPassthruN only, in the
 * order of N, their keys as written. */
static void
test_vm_devices(void **state)
{
	static const char text[] =
		".encoding = \"UTF-8\"\n"
		"virtualHW.version = \"19\"\n"
		"memSize = \"65536\"\n"
		"pciPassthru3.present = \"TRUE\"\n"
		"pciPassthru3.vgpu = \"grid_l40s-48c\"\n"
		"pciPassthru1.present = \"FALSE\"\n"
		"pciPassthru1.vendorId = \"0x10de\"\n"
		"pciPassthru0.present = \"TRUE\"\n"
		"pciPassthru0.vendorId = \"0x10de\"\n"
		"pciPassthru0.deviceId = \"0x26b9\"\n";
	char *dir = tu_tmpdir(), *path = gw_xasprintf("%s/vm.vmx", dir);
	gw_vm_device d[4];
	gw_wizard *w = fresh();
	FILE *f = fopen(path, "w");
	gw_err e;

	(void)state;
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	if (gw_wizard_open_vmx(w, path, &e) != 0)
		fail_msg("%s", e.msg);
	assert_non_null(gw_wizard_vmx(w));
	assert_string_equal(gw_vmx_get(gw_wizard_vmx(w), "memsize"), "65536");
	assert_int_equal(gw_wizard_vm_devices(w, d, 4), 2);
	assert_int_equal(d[0].n, 0);
	assert_null(d[0].vgpu);
	assert_string_equal(d[0].vendor_id, "0x10de");
	assert_string_equal(d[0].device_id, "0x26b9");
	assert_int_equal(d[1].n, 3);
	assert_string_equal(d[1].vgpu, "grid_l40s-48c");
	assert_null(d[1].vendor_id);
	/* the count, with room for one */
	memset(d, 0, sizeof d);
	assert_int_equal(gw_wizard_vm_devices(w, d, 1), 2);
	assert_int_equal(d[0].n, 0);
	assert_int_equal(d[1].n, 0);
	/* no .vmx: none */
	if (gw_wizard_open_vmx(w, NULL, &e) != 0)
		fail_msg("%s", e.msg);
	assert_int_equal(gw_wizard_vm_devices(w, d, 4), 0);
	gw_wizard_delete(w);
	unlink(path);
	rmdir(dir);
	free(path);
	free(dir);
}

/* This Linux host: probed, so the host step has its own words. */
static void
test_linux_words(void **state)
{
	char *dir = tu_tmpdir(), *title, *want;
	gw_wizard *w = fresh();
	const char *why = NULL;

	(void)state;
	gw_wizard_set_sysroot(w, dir);
	assert_int_equal(gw_wizard_set_mode(w, GW_MODE_LINUX, &why), 0);
	assert_true(gw_wizard_can(w, GW_CAN_PROBE));
	assert_false(gw_wizard_can(w, GW_CAN_ENABLE));
	assert_false(gw_wizard_can(w, GW_CAN_VMS));
	assert_non_null(gw_wizard_step_help(w, GW_STEP_HOST));
	assert_null(gw_wizard_step_help(w, GW_STEP_VM));
	title = gw_wizard_checks_title(w);
	want = gw_xasprintf("Checks of this Linux host (%s):", dir);
	assert_string_equal(title, want);
	free(title);
	free(want);
	gw_wizard_delete(w);
	rmdir(dir);
	free(dir);
}

/* An answers file that cannot be loaded: no wizard, e says why. */
static void
test_new_fails(void **state)
{
	gw_wizard_start st;
	gw_err e;

	(void)state;
	memset(&st, 0, sizeof st);
	st.answers = "/nonexistent/answers.ini";
	e.msg[0] = '\0';
	assert_null(gw_wizard_new(&table, &st, &e));
	assert_true(e.msg[0] != '\0');
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fresh),
		cmocka_unit_test(test_plan_and_answers),
		cmocka_unit_test(test_vm_devices),
		cmocka_unit_test(test_linux_words),
		cmocka_unit_test(test_new_fails),
	};

	gw_err e;
	int rc;

	/* one table for every test */
	if (gw_table_load(&table, tu_table_path(), &e) != 0) {
		fprintf(stderr, "%s\n", e.msg);
		return 1;
	}
	rc = cmocka_run_group_tests(tests, NULL, NULL);
	gw_table_free(&table);
	return rc;
}
