/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_vsphere_tasks.c: the WaitForUpdatesEx answers gpuwiz follows its
 * tasks with (vs_tasks.c, doc/design.md 4.5), captured from vcsim-gpuwiz
 * and shaped after vCenter's. */
#include "vsphere_test.h"

static const gw_vs_task_update *
update_of(const gw_vs_task_update *ups, size_t n, const char *task)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(ups[i].task, task) == 0)
			return &ups[i];
	fail_msg("no update for %s", task);
	return NULL;
}

/* A fixture parsed: its updates in *ups, their count returned. */
static size_t
parse_fixture(const char *rel, gw_vs_task_update **ups, char **version,
              int *truncated)
{
	gw_err e;
	size_t len, n;
	char *x = xml_fixture(rel, &len);

	if (gw_vs_parse_task_updates(x, len, ups, &n, version, truncated, &e) != 0)
		fail_msg("%s: %s", rel, e.msg);
	free(x);
	return n;
}

/* The first answer: every recent task enters with its state. */
void
test_task_updates_enter(void **state)
{
	gw_vs_task_update *ups;
	const gw_vs_task_update *u;
	char *version = NULL;
	int truncated = -1;
	size_t n;

	(void)state;
	n = parse_fixture("vcsim-gpuwiz-wait-for-updates-enter.xml", &ups,
	                  &version, &truncated);
	assert_int_equal(n, 16);
	assert_string_equal(version, "-");
	assert_int_equal(truncated, 0);
	u = update_of(ups, n, "task-8");
	assert_int_equal(u->state, 2);
	assert_int_equal(u->left, 0);
	assert_null(u->fault_type);
	assert_null(u->fault_message);
	u = update_of(ups, n, "task-63");
	assert_int_equal(u->state, 1);
	assert_int_equal(u->progress, -1);
	gw_vs_task_updates_free(ups, n);
	free(version);
}

/* A task ends in error: the fault's type and localizedMessage. */
void
test_task_updates_error(void **state)
{
	gw_vs_task_update *ups;
	const gw_vs_task_update *u;
	char *version = gw_xstrdup("old");
	int truncated;
	size_t n;

	(void)state;
	n = parse_fixture("vcsim-gpuwiz-wait-for-updates-modify-error.xml", &ups,
	                  &version, &truncated);
	assert_int_equal(n, 2);
	assert_string_equal(version, "-");
	u = update_of(ups, n, "task-62");
	assert_int_equal(u->state, 2);
	assert_null(u->fault_type);
	u = update_of(ups, n, "task-63");
	assert_int_equal(u->state, 3);
	assert_string_equal(u->fault_type, "SystemError");
	assert_string_equal(u->fault_message,
	                    "A general system error occurred: vcsim-gpuwiz injected fault for VM VM1 (-fail-vm)");
	gw_vs_task_updates_free(ups, n);
	free(version);
}

/* maxWaitSeconds passed: no returnval, nothing new, the version kept. */
void
test_task_updates_timeout(void **state)
{
	gw_vs_task_update *ups;
	char *version = gw_xstrdup("7");
	int truncated;
	size_t n;

	(void)state;
	n = parse_fixture("vcsim-gpuwiz-wait-for-updates-timeout.xml", &ups,
	                  &version, &truncated);
	assert_int_equal(n, 0);
	assert_null(ups);
	assert_int_equal(truncated, 0);
	assert_string_equal(version, "7");
	free(version);
}

/* vCenter's shape: a numeric version, truncated, progress, a task leaving
 * recentTask, an error change without a state, an object without obj. */
void
test_task_updates_leave_truncated(void **state)
{
	gw_vs_task_update *ups;
	const gw_vs_task_update *u;
	char *version = NULL;
	int truncated;
	size_t n;

	(void)state;
	n = parse_fixture("synthetic-wait-for-updates-leave-truncated.xml", &ups,
	                  &version, &truncated);
	assert_int_equal(n, 3);     /* the one without obj is dropped */
	assert_string_equal(version, "17");
	assert_int_equal(truncated, 1);
	u = update_of(ups, n, "task-1201");
	assert_int_equal(u->state, 1);
	assert_int_equal(u->progress, 40);
	u = update_of(ups, n, "task-1187");
	assert_int_equal(u->left, 1);
	assert_int_equal(u->state, -1);
	u = update_of(ups, n, "task-1202");
	assert_int_equal(u->state, -1);
	assert_string_equal(u->fault_type, "GenericVmConfigFault");
	assert_non_null(strstr(u->fault_message, "not available for passthrough"));
	gw_vs_task_updates_free(ups, n);
	free(version);
}

/* Not an answer of WaitForUpdatesEx: a fault, another method's. */
void
test_task_updates_refused(void **state)
{
	gw_vs_task_update *ups;
	char *x, *version = NULL;
	size_t len, n;
	int truncated;
	gw_err e;

	(void)state;
	x = xml_fixture("vcsim-login-invalid-login-fault.xml", &len);
	assert_int_equal(gw_vs_parse_task_updates(x, len, &ups, &n, &version,
	                                          &truncated, &e), -1);
	assert_int_equal(n, 0);
	assert_true(e.msg[0] != '\0');
	free(x);
	assert_int_equal(gw_vs_parse_task_updates("<x", 2, &ups, &n, &version,
	                                          &truncated, &e), -1);
	assert_null(version);
}
