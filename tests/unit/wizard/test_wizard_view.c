/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_wizard_view.c: the wizard as the screens see it, through wizard.h
 * only (the accessors of wizard_view.c; no wizard_int.h here). */
#include "testutil.h"
#include "wizard.h"
#include "emit.h"

#include <stdio.h>
#include <unistd.h>
#include "wizutil.h"

static gw_table table;

/* A plain start: nothing probed, no plan, nothing open or written. */
static void
test_fresh(void **state)
{
	gw_wizard *w = tu_wizard_fresh(&table);

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
	/* no host: the steps' own help */
	assert_string_equal(gw_wizard_step_help(w, GW_STEP_HOST),
	                    gw_step_help(GW_STEP_HOST));
	assert_string_equal(gw_wizard_step_help(w, GW_STEP_VM),
	                    gw_step_help(GW_STEP_VM));
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
	gw_wizard *w = tu_wizard_fresh(&table);
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
	gw_wizard *w = tu_wizard_fresh(&table);
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
	gw_wizard *w;
	const char *why = NULL;

	(void)state;
	setenv("GPUWIZ_SYSROOT", dir, 1);
	w = tu_wizard_fresh(&table);
	assert_int_equal(gw_wizard_set_mode(w, GW_MODE_LINUX, &why), 0);
	assert_true(gw_wizard_can(w, GW_CAN_PROBE));
	assert_false(gw_wizard_can(w, GW_CAN_ENABLE));
	assert_false(gw_wizard_can(w, GW_CAN_VMS));
	/* the Linux host's words on the host step, the step's own on the
	 * VM step */
	assert_string_not_equal(gw_wizard_step_help(w, GW_STEP_HOST),
	                        gw_step_help(GW_STEP_HOST));
	assert_non_null(strstr(gw_wizard_step_help(w, GW_STEP_HOST),
	                       "GPUWIZ_SYSROOT"));
	assert_string_equal(gw_wizard_step_help(w, GW_STEP_VM),
	                    gw_step_help(GW_STEP_VM));
	title = gw_wizard_checks_title(w);
	want = gw_xasprintf("Checks of this Linux host (%s):", dir);
	assert_string_equal(title, want);
	free(title);
	free(want);
	gw_wizard_delete(w);
	unsetenv("GPUWIZ_SYSROOT");
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

/* The MMIO field's text: 0 and garbage refused with the answer kept;
 * empty is the recommendation; below the rule is a question. */
static void
test_mmio_text(void **state)
{
	static const char *const bad[] = { "0", "00", "abc", "-5", "1.5",
	                                   "+8", "64GB", "0x40" };
	gw_wizard *w = tu_wizard_fresh(&table);
	uint64_t gb = 7;
	size_t i;
	gw_err e;

	(void)state;
	if (gw_wizard_add_gpu(w, gw_table_lookup(&table, "l40s", &e), NULL, 2,
	                      &e) != 0)
		fail_msg("%s", e.msg);
	assert_int_equal(gw_wizard_plan(w)->rule_gb, 256);
	assert_int_equal(gw_wizard_set_mmio_text(w, "300", 0, &gb, &e), 0);
	assert_true(gb == 300);
	assert_true(gw_wizard_answers(w)->a.mmio_gb == 300);
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		e.msg[0] = '\0';
		if (gw_wizard_set_mmio_text(w, bad[i], 0, &gb, &e) != -1)
			fail_msg("'%s' was taken", bad[i]);
		assert_true(gw_wizard_answers(w)->a.mmio_gb == 300);
		assert_non_null(strstr(e.msg, "empty the field (r) for the recommended size"));
		if (strcmp(bad[i], "0") != 0 && strcmp(bad[i], "00") != 0)
			assert_non_null(strstr(e.msg, bad[i]));
		else
			assert_non_null(strstr(e.msg, "0 GB is no window"));
	}
	/* too large: the plausibility limit */
	assert_int_equal(gw_wizard_set_mmio_text(w, "99999999999999999999999",
	                                         1, NULL, &e), -1);
	assert_non_null(strstr(e.msg, "not plausible"));
	assert_true(gw_wizard_answers(w)->a.mmio_gb == 300);
	/* below the rule: asked, nothing changed until confirmed */
	assert_int_equal(gw_wizard_set_mmio_text(w, "64", 0, &gb, &e),
	                 GW_MMIO_ASK);
	assert_non_null(strstr(e.msg, "below the rule"));
	assert_true(gw_wizard_answers(w)->a.mmio_gb == 300);
	assert_int_equal(gw_wizard_set_mmio_text(w, "64", 1, &gb, &e), 0);
	assert_true(gw_wizard_answers(w)->a.mmio_gb == 64);
	assert_true(gw_wizard_answers(w)->a.allow_below_rule);
	/* the same size again is not a new question */
	assert_int_equal(gw_wizard_set_mmio_text(w, " 64 ", 0, &gb, &e), 0);
	assert_true(gw_wizard_answers(w)->a.allow_below_rule);
	/* empty: back to the recommendation */
	assert_int_equal(gw_wizard_set_mmio_text(w, "  ", 0, &gb, &e), 0);
	assert_true(gb == 0);
	assert_true(gw_wizard_answers(w)->a.mmio_gb == 0);
	assert_false(gw_wizard_answers(w)->a.allow_below_rule);
	assert_int_equal(gw_wizard_plan(w)->mmio_gb, 256);
	assert_int_equal(gw_wizard_set_mmio_text(w, NULL, 0, NULL, &e), 0);
	gw_wizard_delete(w);
}

/* The cell column where a summary line's value starts ("Label:   v"). */
static size_t
value_col(const char *line)
{
	const char *c = strchr(line, ':');

	assert_non_null(c);
	for (c++; *c == ' '; c++)
		;
	return (size_t)(c - line);
}

/* What the terminal gets on exit: nothing before a write; then the files,
 * the backup and the next commands; a change afterwards clears it. */
static void
test_exit_summary(void **state)
{
	static const char text[] =
		"config.version = \"8\"\n"
		"virtualHW.version = \"19\"\n"
		"firmware = \"efi\"\n"
		"memSize = \"65536\"\n";
	char *dir = tu_tmpdir(), *vmx = gw_xasprintf("%s/vm.vmx", dir);
	char *out = gw_xasprintf("%s/out", dir), *want, **v;
	gw_wizard *w = tu_wizard_fresh(&table);
	size_t n, col = 0, i;
	int nwritten = 0, nbackup = 0, nnext = 0, ncmd = 0;
	FILE *f = fopen(vmx, "w");
	gw_err e;

	(void)state;
	fputs(text, f);
	fclose(f);
	assert_null(gw_wizard_exit_summary(w));
	if (gw_wizard_add_gpu(w, gw_table_lookup(&table, "l40s", &e), NULL, 1,
	                      &e) != 0 || gw_wizard_open_vmx(w, vmx, &e) != 0 ||
	    gw_wizard_set_outdir(w, out, &e) != 0)
		fail_msg("%s", e.msg);
	gw_wizard_set_formats(w, GW_FMT_VMX | GW_FMT_BOSH);
	assert_null(gw_wizard_exit_summary(w));
	if (gw_wizard_write(w) != 0)
		fail_msg("%s", gw_wizard_error(w, GW_ERR_WRITE));
	v = gw_wizard_exit_summary(w);
	assert_non_null(v);
	for (n = 0; v[n]; n++) {
		if (strncmp(v[n], "Written:", 8) == 0 ||
		    strncmp(v[n], "Backup:", 7) == 0) {
			/* the values line up (labels padded in cells) */
			if (col == 0)
				col = value_col(v[n]);
			assert_int_equal(value_col(v[n]), col);
		}
		nwritten += strncmp(v[n], "Written:", 8) == 0;
		if (strncmp(v[n], "Backup:", 7) == 0) {
			nbackup++;
			assert_non_null(strstr(v[n], "vm.vmx."));
			assert_non_null(strstr(v[n], ".bak"));
		}
		nnext += strcmp(v[n], "Next steps:") == 0;
		ncmd += strncmp(v[n], " 1. ", 4) == 0;
	}
	assert_int_equal(nwritten, 3);     /* two snippets and the .vmx */
	assert_int_equal(nbackup, 1);
	assert_int_equal(nnext, 1);
	assert_int_equal(ncmd, 1);
	assert_true(col >= strlen("Unchanged:") + 1);
	want = gw_xasprintf("%s/gpuwiz.vmx.txt", out);
	for (i = 0; v[i] && strstr(v[i], want) == NULL; i++)
		;
	assert_non_null(v[i]);
	free(want);
	gw_strv_free(v);
	/* a change after writing: nothing current to report */
	assert_int_equal(gw_wizard_set_mmio_text(w, "512", 0, NULL, &e), 0);
	assert_null(gw_wizard_exit_summary(w));
	gw_wizard_delete(w);
	free(vmx);
	free(out);
	tu_rm_tree(dir);
	free(dir);
}

/* The review's summary (wizard_summary.c): five lines, host, GPUs, VM,
 * MMIO, outputs, the values lined up; they follow the answers.  The
 * snippets come from the emitters and nothing is written. */
static void
test_summary(void **state)
{
	static const char text[] =
		"config.version = \"8\"\n"
		"virtualHW.version = \"19\"\n"
		"memSize = \"65536\"\n";
	char *dir = tu_tmpdir(), *vmx = gw_xasprintf("%s/vm.vmx", dir);
	char *out = gw_xasprintf("%s/out", dir), **v, *snip;
	gw_wizard *w = tu_wizard_fresh(&table);
	FILE *f = fopen(vmx, "w");
	size_t n;
	gw_err e;

	(void)state;
	fputs(text, f);
	fclose(f);
	v = gw_wizard_summary(w);
	for (n = 0; v[n]; n++)
		assert_int_equal(value_col(v[n]), value_col(v[0]));
	assert_int_equal(n, 5);
	assert_string_equal(v[0], "Host:    offline (no host)");
	assert_string_equal(v[1], "GPUs:    none chosen");
	assert_string_equal(v[2], "VM:      none: snippets only");
	assert_string_equal(v[3], "MMIO:    no plan yet");
	/* a VM's .vmx: the lines to paste */
	assert_non_null(strstr(v[4], "vmx in gpuwiz-out"));
	assert_null(strstr(v[4], "bosh"));
	gw_strv_free(v);
	e.msg[0] = '\0';
	assert_null(gw_wizard_snippet(w, GW_FMT_BOSH, &e));
	assert_true(e.msg[0] != '\0');

	if (gw_wizard_add_gpu(w, gw_table_lookup(&table, "l40s", &e), NULL, 2,
	                      &e) != 0 || gw_wizard_set_outdir(w, out, &e) != 0)
		fail_msg("%s", e.msg);
	v = gw_wizard_summary(w);
	assert_string_equal(v[1], "GPUs:    2 x l40s");
	assert_non_null(strstr(v[3], " GB (the recommendation)"));
	/* two GPUs: the NCCL script is among the outputs */
	assert_non_null(strstr(v[4], "vmx, nccl_check.py in "));
	assert_non_null(strstr(v[4], out));
	assert_null(strstr(v[4], ".vmx is patched"));
	gw_strv_free(v);

	if (gw_wizard_open_vmx(w, vmx, &e) != 0 ||
	    gw_wizard_set_mmio_text(w, "1024", 0, NULL, &e) != 0)
		fail_msg("%s", e.msg);
	v = gw_wizard_summary(w);
	assert_non_null(strstr(v[2], "vmx-19, "));
	assert_non_null(strstr(v[2], "vm.vmx"));
	assert_non_null(strstr(v[3], "1024 GB (your size; the rule gives "));
	/* the .vmx open is the output: patched, no lines besides */
	assert_string_equal(v[4], "Outputs: the .vmx is patched");
	gw_strv_free(v);
	gw_wizard_set_formats(w, GW_FMT_VMX | GW_FMT_BOSH);
	v = gw_wizard_summary(w);
	assert_non_null(strstr(v[4], "Outputs: the .vmx is patched; vmx, bosh"));
	gw_strv_free(v);

	/* the snippets: the emitters' text, nothing written */
	snip = gw_wizard_snippet(w, GW_FMT_BOSH, &e);
	assert_non_null(snip);
	assert_non_null(strstr(snip, "vm_extensions"));
	assert_non_null(strstr(snip, gw_wizard_plan(w)->name));
	free(snip);
	snip = gw_wizard_snippet(w, GW_FMT_TILE, &e);
	assert_non_null(snip);
	assert_non_null(strstr(snip, "size for 64bit MMIO"));
	assert_non_null(strstr(snip, "0x26B9"));
	free(snip);
	assert_int_equal(access(out, F_OK), -1);
	gw_wizard_delete(w);
	unlink(vmx);
	rmdir(dir);
	free(vmx);
	free(out);
	free(dir);
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
		cmocka_unit_test(test_mmio_text),
		cmocka_unit_test(test_exit_summary),
		cmocka_unit_test(test_summary),
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
