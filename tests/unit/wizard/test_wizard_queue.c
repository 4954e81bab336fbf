/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_wizard_queue.c: the host changes the wizard queues (wizard.h,
 * wizard_queue.c) on the esxi-l40s sample host: e and u queue and take
 * back, nothing runs on the host until the write, the plan is made as if
 * they had run (the host counts, the target hardware version), the
 * review's lines and the write's question, the write runs them in order
 * (upgrade before the .vmx) with a report each, and a failure in the
 * middle writes no file and says what was done before it. */
#include "testutil.h"
#include "wizard_int.h"
#include "emit.h"

#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

static gw_table table;

TU_TABLE_GROUP(setup, teardown)

static char *
slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long n;

	if (f == NULL)
		return gw_xstrdup("");
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = gw_xcalloc(1, (size_t)n + 1);
	if (n > 0 && fread(buf, 1, (size_t)n, f) != (size_t)n)
		fail_msg("short read: %s", path);
	fclose(f);
	return buf;
}

/* SCRATCH/rel, read (malloc'ed). */
static char *
scratch_file(const gw_wizard *w, const char *rel)
{
	char *p = gw_xasprintf("%s/%s", w->scratch, rel), *s = slurp(p);

	free(p);
	return s;
}

static const gw_finding *
plan_finding(const gw_wizard *w, const char *id)
{
	size_t i;

	for (i = 0; w->have_plan && i < w->plan.nfindings; i++)
		if (strcmp(w->plan.findings[i].id, id) == 0)
			return &w->plan.findings[i];
	return NULL;
}

/* The row of detected GPU k. */
static const gw_finding *
gpu_row(const gw_wizard *w, size_t k)
{
	size_t i, n = 0;

	for (i = 0; i < w->nchecks; i++)
		if (strcmp(w->checks[i].id, "gpu-passthru") == 0 && n++ == k)
			return &w->checks[i];
	return NULL;
}

static void
note_step(void *ctx, size_t k, size_t n, const char *what)
{
	char *log = ctx, line[256];

	snprintf(line, sizeof line, "%zu/%zu %s\n", k, n, what);
	strncat(log, line, 2048 - strlen(log) - 1);
}

/* The sample, both L40S added, ubuntu-l40s (vmx-13, off) open. */
static void
sample_walk(gw_wizard *w)
{
	gw_err e;

	assert_int_equal(gw_wizard_init(w, &table, NULL, &e), 0);
	if (gw_wizard_use_sample(w, "esxi-l40s", &e) != 0)
		fail_msg("%s", e.msg);
	assert_int_equal(w->ndetected, 2);
	assert_int_equal(gw_wizard_add_detected(w, 0, &e), 0);
	assert_int_equal(gw_wizard_add_detected(w, 1, &e), 0);
	assert_int_equal(gw_wizard_esxi_open_vm(w, 0, &e), 0);
	assert_true(w->have_plan);
}

static void
test_enable_queued(void **state)
{
	gw_wizard w;
	gw_err e;
	char *pt, *now, *log;
	const gw_finding *r;

	(void)state;
	sample_walk(&w);
	pt = scratch_file(&w, "esxi/esxcli-hardware-pci-pcipassthru-list.txt");
	r = gpu_row(&w, 1);
	assert_int_equal(r->sev, GW_SEV_WARN);
	assert_int_equal(gw_wizard_detected_passthru(&w, 1), 0);
	/* two asked for, one with passthrough on */
	assert_non_null(plan_finding(&w, "gpu-count-host"));

	assert_int_equal(gw_wizard_esxi_enable(&w, 1, NULL, &e), 1);
	assert_int_equal(gw_wizard_enable_queued(&w, 1), 1);
	r = gpu_row(&w, 1);
	assert_int_equal(r->sev, GW_SEV_INFO);
	assert_non_null(strstr(r->title, "will be enabled when you write"));
	/* as if enabled: the GPU step and the plan's counts */
	assert_int_equal(gw_wizard_detected_passthru(&w, 1), 1);
	assert_null(plan_finding(&w, "gpu-count-host"));
	/* nothing changed on the stand-in yet */
	now = scratch_file(&w, "esxi/esxcli-hardware-pci-pcipassthru-list.txt");
	assert_string_equal(now, pt);
	free(now);
	log = scratch_file(&w, "commands.log");
	assert_null(strstr(log, "pcipassthru set"));
	free(log);
	/* a probe again keeps it queued and shown */
	gw_wizard_reprobe(&w);
	assert_int_equal(gpu_row(&w, 1)->sev, GW_SEV_INFO);
	assert_null(plan_finding(&w, "gpu-count-host"));

	/* e again: taken back, the host's row as it was */
	assert_int_equal(gw_wizard_esxi_enable(&w, 1, NULL, &e), 0);
	assert_int_equal(gw_wizard_enable_queued(&w, 1), 0);
	r = gpu_row(&w, 1);
	assert_int_equal(r->sev, GW_SEV_WARN);
	assert_non_null(strstr(r->message, "not enabled"));
	assert_int_equal(gw_wizard_detected_passthru(&w, 1), 0);
	assert_non_null(plan_finding(&w, "gpu-count-host"));
	assert_int_equal(w.sess.nqueue, 0);
	/* the one already on is refused */
	assert_int_equal(gw_wizard_esxi_enable(&w, 0, NULL, &e), -1);
	assert_int_equal(gw_wizard_esxi_enable(&w, 7, NULL, &e), -1);
	free(pt);
	tu_rm_tree(w.scratch);
	gw_wizard_free(&w);
}

static void
test_upgrade_and_write(void **state)
{
	gw_wizard w;
	gw_err e;
	char **v, *q, *log, *vmx, steps[2048] = "";
	size_t i;
	int found;

	(void)state;
	sample_walk(&w);
	assert_int_equal(w.plan.hw_current, 13);
	assert_non_null(plan_finding(&w, "hw-upgrade"));
	assert_int_equal(gw_wizard_esxi_upgrade_target(&w), 21);

	/* u: queued, the plan for vmx-21, the finding it resolves gone */
	assert_int_equal(gw_wizard_esxi_upgrade(&w, &e), 1);
	assert_int_equal(gw_wizard_upgrade_queued(&w), 21);
	assert_int_equal(w.plan.hw_current, 21);
	assert_null(plan_finding(&w, "hw-upgrade"));
	v = gw_wizard_summary(&w);
	for (found = 0, i = 0; v[i]; i++)
		found |= strstr(v[i], "vmx-13 -> vmx-21 (upgrade queued)") != NULL;
	assert_true(found);
	gw_strv_free(v);
	/* u again: back to vmx-13; once more: queued */
	assert_int_equal(gw_wizard_esxi_upgrade(&w, &e), 0);
	assert_int_equal(w.plan.hw_current, 13);
	assert_non_null(plan_finding(&w, "hw-upgrade"));
	assert_int_equal(gw_wizard_esxi_upgrade(&w, &e), 1);
	assert_int_equal(gw_wizard_esxi_enable(&w, 1, NULL, &e), 1);

	/* the review: in the order they run, each with its command */
	v = gw_wizard_host_changes(&w);
	assert_non_null(v[3]);
	assert_null(v[4]);
	assert_non_null(strstr(v[0], "Upgrade VM ubuntu-l40s from vmx-13 to vmx-21"));
	assert_string_equal(v[1], "vim-cmd vmsvc/upgrade 1 vmx-21");
	assert_non_null(strstr(v[2], "Enable passthrough on 0000:5e:00.0"));
	assert_string_equal(v[3], "esxcli hardware pci pcipassthru set -d 0000:5e:00.0 -e true -a");
	gw_strv_free(v);
	q = gw_wizard_confirm_text(&w);
	assert_non_null(q);
	assert_non_null(strstr(q, "Write the changes to the host and the files? This cannot be undone on the host."));
	assert_non_null(strstr(q, "\n1. Upgrade VM ubuntu-l40s"));
	assert_non_null(strstr(q, "\n2. Enable passthrough on 0000:5e:00.0"));
	assert_non_null(strstr(q, "\n3. Write the .vmx and the files"));
	free(q);
	log = scratch_file(&w, "commands.log");
	assert_null(strstr(log, "vmsvc/upgrade"));
	assert_null(strstr(log, "pcipassthru set"));
	free(log);

	/* the write: the queue in order, each reported, then the files */
	gw_wizard_set_write_steps(&w, note_step, steps);
	assert_int_equal(gw_wizard_write(&w), 0);
	assert_string_equal(steps, "1/3 Upgrading the VM's hardware version...\n"
	                           "2/3 Enabling passthrough on 0000:5e:00.0...\n"
	                           "3/3 Writing the .vmx and the files...\n");
	assert_int_equal(gw_wizard_host_changed(&w), 2);
	assert_null(gw_wizard_confirm_text(&w));
	log = scratch_file(&w, "commands.log");
	assert_non_null(strstr(log, "vim-cmd vmsvc/upgrade 1 vmx-21\n"));
	assert_non_null(strstr(log, "pcipassthru set -d 0000:5e:00.0 -e true -a\n"));
	assert_true(strstr(log, "vmsvc/upgrade 1") < strstr(log, "pcipassthru set"));
	assert_true(strstr(log, "pcipassthru set") < strstr(log, "vmsvc/reload 1"));
	free(log);
	vmx = scratch_file(&w, "volumes/datastore1/ubuntu-l40s/ubuntu-l40s.vmx");
	assert_non_null(strstr(vmx, "virtualHW.version = \"21\""));
	assert_non_null(strstr(vmx, "pciPassthru0.id = \"00000:059:00.0\""));
	assert_non_null(strstr(vmx, "pciPassthru1.id = \"00000:094:00.0\""));
	assert_non_null(strstr(vmx, "pciPassthru.64bitMMIOSizeGB = \"256\""));
	free(vmx);
	/* the backup was taken before the upgrade: the file as it was */
	assert_non_null(w.result.backup);
	assert_int_equal(strncmp(w.result.backup, w.scratch, strlen(w.scratch)), 0);
	vmx = scratch_file(&w, w.result.backup + strlen(w.scratch) + 1);
	assert_non_null(strstr(vmx, "virtualHW.version = \"13\""));
	assert_null(strstr(vmx, "pciPassthru0.id"));
	free(vmx);
	/* the summary printed on exit starts with them */
	v = gw_wizard_exit_summary(&w);
	assert_string_equal(v[0], "Upgrade VM ubuntu-l40s from vmx-13 to vmx-21 (done)");
	/* the sample host lists the device as passthrough now (-a): no reboot */
	assert_string_equal(v[1], "Enable passthrough on 0000:5e:00.0 (done; no reboot needed: the host lists the device as given to passthrough now)");
	gw_strv_free(v);
	/* the row says it is done; no reboot on the stand-in (-a) */
	assert_int_equal(gw_wizard_enable_queued(&w, 1), 2);
	assert_int_equal(gpu_row(&w, 1)->sev, GW_SEV_PASS);
	v = gw_wizard_next_commands(&w);
	for (found = 0, i = 0; v[i]; i++)
		found |= strstr(v[i], "Reboot the host") != NULL;
	assert_false(found);
	gw_strv_free(v);
	/* a host that reports a reboot: the first next step */
	w.sess.queue[1].reboot = 1;
	v = gw_wizard_next_commands(&w);
	assert_non_null(strstr(v[0], "Reboot the host"));
	assert_non_null(strstr(v[0], "0000:5e:00.0"));
	gw_strv_free(v);
	tu_rm_tree(w.scratch);
	gw_wizard_free(&w);
}

static void
test_failure_in_the_middle(void **state)
{
	gw_wizard w;
	gw_err e;
	char *log, *vmx, *before, *p, steps[2048] = "";
	FILE *f;

	(void)state;
	sample_walk(&w);
	assert_int_equal(gw_wizard_esxi_enable(&w, 1, NULL, &e), 1);
	assert_int_equal(gw_wizard_esxi_upgrade(&w, &e), 1);
	before = scratch_file(&w, "volumes/datastore1/ubuntu-l40s/ubuntu-l40s.vmx");
	/* the VM is powered on behind the wizard's back: the upgrade fails */
	p = gw_xasprintf("%s/esxi/vim-cmd-vmsvc-power.getstate-1.txt", w.scratch);
	f = fopen(p, "w");
	assert_non_null(f);
	fputs("Retrieved runtime info\nPowered on\n", f);
	fclose(f);
	free(p);
	gw_wizard_set_write_steps(&w, note_step, steps);
	assert_int_equal(gw_wizard_write(&w), -1);
	assert_false(w.written);
	assert_non_null(strstr(w.write_error, "Upgrade VM ubuntu-l40s from vmx-13 to vmx-21 failed"));
	assert_non_null(strstr(w.write_error, "Done before it: Enable passthrough on 0000:5e:00.0"));
	assert_non_null(strstr(w.write_error, "No file was written"));
	assert_string_equal(steps, "1/3 Enabling passthrough on 0000:5e:00.0...\n"
	                           "2/3 Upgrading the VM's hardware version...\n");
	assert_int_equal(gw_wizard_host_changed(&w), 1);
	log = scratch_file(&w, "commands.log");
	assert_non_null(strstr(log, "pcipassthru set -d 0000:5e:00.0"));
	assert_null(strstr(log, "vmsvc/reload"));
	free(log);
	/* nothing half-written: the .vmx as it was, no snippet */
	vmx = scratch_file(&w, "volumes/datastore1/ubuntu-l40s/ubuntu-l40s.vmx");
	assert_string_equal(vmx, before);
	free(vmx);
	p = gw_xasprintf("%s/gpuwiz-out/gpuwiz.vmx.txt", w.scratch);
	assert_int_equal(access(p, F_OK), -1);
	free(p);
	free(before);
	tu_rm_tree(w.scratch);
	gw_wizard_free(&w);
}

/* Offline: no host, no change, no question. */
static void
test_offline(void **state)
{
	gw_wizard w;
	gw_err e;
	char **v;

	(void)state;
	assert_int_equal(gw_wizard_init(&w, &table, NULL, &e), 0);
	v = gw_wizard_host_changes(&w);
	assert_null(v[0]);
	gw_strv_free(v);
	assert_null(gw_wizard_confirm_text(&w));
	assert_int_equal(gw_wizard_upgrade_queued(&w), 0);
	assert_int_equal(gw_wizard_esxi_enable(&w, 0, NULL, &e), -1);
	assert_int_equal(gw_wizard_esxi_upgrade(&w, &e), -1);
	gw_wizard_free(&w);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_enable_queued),
		cmocka_unit_test(test_upgrade_and_write),
		cmocka_unit_test(test_failure_in_the_middle),
		cmocka_unit_test(test_offline),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
