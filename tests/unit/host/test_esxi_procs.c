/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_esxi_procs.c: `esxcli vm process list` (src/host/esxi_procs.c) on
 * the synthetic sample and on edge cases (names with blanks, brackets and
 * colons, missing fields, a VM listed twice, empty output), and the power
 * states of getallvms' VMs read from it (datastore name and UUID paths,
 * copies of a VM on two datastores, a running VM no listed one matches). */
#include "testutil.h"
#include "esxi.h"

#define SYN_PROCS "esxcli/synthetic-vm-process-list-esxi8-uuid-and-name-paths.txt"

static void
test_sample(void **state)
{
	gw_esxi_vm_proc_list l;
	char *text = tu_read_sample(SYN_PROCS, NULL);
	gw_err e;

	(void)state;
	assert_int_equal(gw_esxi_parse_vm_processes(text, "p", &l, &e), 0);
	assert_int_equal(l.n, 3);
	assert_string_equal(l.procs[0].name, "VMware vCenter Server Appliance");
	assert_int_equal(l.procs[0].world_id, 2102229);
	assert_int_equal(l.procs[0].line, 1);
	assert_string_equal(l.procs[1].name, "llm [L40S]: train");
	assert_string_equal(l.procs[1].display_name, "llm [L40S]: train");
	assert_string_equal(l.procs[1].config_file,
	                    "/vmfs/volumes/64647e47-f74861a3-54af-c84bd699819a/"
	                    "llm [L40S]: train/llm [L40S]: train.vmx");
	assert_string_equal(l.procs[2].config_file,
	                    "/vmfs/volumes/VM Store 2/web01/web01.vmx");
	gw_esxi_vm_proc_list_free(&l);
	free(text);
}

static void
test_empty(void **state)
{
	gw_esxi_vm_proc_list l;
	gw_err e;

	(void)state;
	assert_int_equal(gw_esxi_parse_vm_processes("", NULL, &l, &e), 0);
	assert_int_equal(l.n, 0);
	assert_int_equal(gw_esxi_parse_vm_processes("\n  \r\n", NULL, &l, &e), 0);
	assert_int_equal(l.n, 0);
	/* the prompt saved with it, and no VM */
	assert_int_equal(gw_esxi_parse_vm_processes(
		"[root@esx:~] esxcli vm process list\n", NULL, &l, &e), 0);
	assert_int_equal(l.n, 0);
	gw_esxi_vm_proc_list_free(&l);
}

/* Unindented (a copy from a web page), CRLF, unknown keys kept out. */
static void
test_variations(void **state)
{
	gw_esxi_vm_proc_list l;
	gw_err e;

	(void)state;
	assert_int_equal(gw_esxi_parse_vm_processes(
		"a b\r\nWorld ID: 7\r\nConfig File: /vmfs/volumes/ds/a b/a b.vmx\r\n"
		"   New Key: x\r\nUUID: 1\r\n"
		"c\n   Config File: /vmfs/volumes/ds/c/c.vmx", "p", &l, &e), 0);
	assert_int_equal(l.n, 2);
	assert_string_equal(l.procs[0].name, "a b");
	assert_int_equal(l.procs[0].world_id, 7);
	assert_null(l.procs[1].display_name);
	assert_int_equal(l.procs[1].world_id, 0);
	assert_int_equal(l.procs[1].line, 6);
	gw_esxi_vm_proc_list_free(&l);
}

static void
bad(const char *text, const char *want)
{
	gw_esxi_vm_proc_list l;
	gw_err e;

	e.msg[0] = '\0';
	assert_int_equal(gw_esxi_parse_vm_processes(text, "procs.txt", &l, &e),
	                 -1);
	assert_int_equal(l.n, 0);
	assert_null(l.procs);
	if (strstr(e.msg, want) == NULL)
		fail_msg("'%s' lacks '%s'", e.msg, want);
}

static void
test_errors(void **state)
{
	(void)state;
	bad("a\n   World ID: 1\n\nb\n   Config File: /vmfs/volumes/d/b/b.vmx\n",
	    "procs.txt:1: VM 'a' has no Config File line");
	bad("a\n   World ID: 1\n", "procs.txt:1: VM 'a' has no Config File");
	bad("a\n   World ID: x1\n", "procs.txt:2: World ID: expected a number");
	bad("a\n   Config File:\n", "procs.txt:2: Config File: empty");
	bad("a\n   Config File: /vmfs/volumes/d/a/a.vmx\n"
	    "   Config File: /vmfs/volumes/d/a/b.vmx\n",
	    "procs.txt:3: a second Config File line in the block of VM 'a'");
	bad("   World ID: 1\n", "procs.txt:1: expected a VM's name");
	bad("a\n   Config File: /vmfs/volumes/d/a/a.vmx\n"
	    "b\n   Config File: /vmfs/volumes/d/b/b.vmx\n"
	    "a again\n   Config File: /vmfs/volumes/d/a/a.vmx\n",
	    "procs.txt:5: VM 'a again' is listed twice (first at line 1)");
	bad("a\x1b[2J\n   Config File: /vmfs/volumes/d/a/a.vmx\n", "procs.txt:1");
}

/* A getallvms list from rows "ID NAME [DS] PATH" (the parser's own). */
static void
vms_of(gw_vm_list *vms, const char *rows)
{
	char *text = gw_xasprintf("Vmid Name File Guest OS Version Annotation\n%s",
	                          rows);
	gw_err e;

	if (gw_esxi_parse_getallvms(text, "vms", vms, &e) != 0)
		fail_msg("%s", e.msg);
	free(text);
}

static void
power_of(const char *rows, const char *procs, gw_power *pw)
{
	gw_vm_list vms;
	gw_esxi_vm_proc_list l;
	gw_err e;

	vms_of(&vms, rows);
	if (gw_esxi_parse_vm_processes(procs, "procs", &l, &e) != 0)
		fail_msg("%s", e.msg);
	gw_esxi_vms_power(&vms, &l, pw);
	gw_esxi_vm_proc_list_free(&l);
	gw_vm_list_free(&vms);
}

#define ROW(id, n, ds) id "  " n "  [" ds "] " n "/" n ".vmx  otherGuest  vmx-13\n"
#define PROC(n, vol) n "\n   World ID: 1\n   Config File: /vmfs/volumes/" vol "/" n "/" n ".vmx\n"
#define UUID_A "64647e47-f74861a3-54af-c84bd699819a"

static void
test_power_match(void **state)
{
	gw_power pw[4];

	(void)state;
	/* by UUID (the usual form) and by name; not listed: off */
	power_of(ROW("1", "a", "datastore1") ROW("2", "b b", "datastore1")
	         ROW("3", "c [x]", "VM Store 2"),
	         PROC("b b", UUID_A) PROC("c [x]", "VM Store 2"), pw);
	assert_int_equal(pw[0], GW_POWER_OFF);
	assert_int_equal(pw[1], GW_POWER_ON);
	assert_int_equal(pw[2], GW_POWER_ON);
	/* none running */
	power_of(ROW("1", "a", "ds"), "", pw);
	assert_int_equal(pw[0], GW_POWER_OFF);
}

/* The same path on two datastores: by name it is told, by UUID not. */
static void
test_power_copies(void **state)
{
	gw_power pw[3];

	(void)state;
	power_of(ROW("1", "w", "ds1") ROW("2", "w", "ds2") ROW("3", "z", "ds1"),
	         PROC("w", "ds2"), pw);
	assert_int_equal(pw[0], GW_POWER_OFF);
	assert_int_equal(pw[1], GW_POWER_ON);
	assert_int_equal(pw[2], GW_POWER_OFF);
	power_of(ROW("1", "w", "ds1") ROW("2", "w", "ds2") ROW("3", "z", "ds1"),
	         PROC("w", UUID_A), pw);
	assert_int_equal(pw[0], GW_POWER_UNKNOWN);
	assert_int_equal(pw[1], GW_POWER_UNKNOWN);
	assert_int_equal(pw[2], GW_POWER_OFF);
	/* one copy running under its name, one under a UUID: the first is
	 * told, the other cannot be */
	power_of(ROW("1", "w", "ds1") ROW("2", "w", "ds2"),
	         PROC("w", "ds1") PROC("w", UUID_A), pw);
	assert_int_equal(pw[0], GW_POWER_ON);
	assert_int_equal(pw[1], GW_POWER_UNKNOWN);
}

/* A running VM that matches none listed: nobody is known off. */
static void
test_power_stray(void **state)
{
	gw_power pw[2];

	(void)state;
	power_of(ROW("1", "a", "ds") ROW("2", "b", "ds"),
	         PROC("a", UUID_A) PROC("elsewhere", UUID_A), pw);
	assert_int_equal(pw[0], GW_POWER_ON);
	assert_int_equal(pw[1], GW_POWER_UNKNOWN);
	power_of(ROW("1", "a", "ds") ROW("2", "b", "ds"),
	         "a\n   Config File: /tmp/a/a.vmx\n", pw);
	assert_int_equal(pw[0], GW_POWER_UNKNOWN);
	assert_int_equal(pw[1], GW_POWER_UNKNOWN);
	/* a known datastore name with a path none of its VMs has */
	power_of(ROW("1", "a", "ds1") ROW("2", "b", "ds2"),
	         PROC("a", "ds2"), pw);
	assert_int_equal(pw[0], GW_POWER_UNKNOWN);
	assert_int_equal(pw[1], GW_POWER_UNKNOWN);
}

/* Many VMs: every other one running, all told (and no quadratic work). */
static void
test_power_many(void **state)
{
	enum { N = 5000 };
	gw_buf rows, procs;
	gw_vm_list vms;
	gw_esxi_vm_proc_list l;
	gw_power *pw = gw_xcalloc(N, sizeof *pw);
	gw_err e;
	int i;

	(void)state;
	gw_buf_init(&rows);
	gw_buf_init(&procs);
	gw_buf_puts(&rows, "Vmid Name File Guest OS Version Annotation\n");
	for (i = 0; i < N; i++) {
		gw_buf_printf(&rows, "%d  vm%d  [ds] vm%d/vm%d.vmx  g  vmx-13\n",
		              i + 1, i, i, i);
		if (i % 2)
			gw_buf_printf(&procs, "vm%d\n   Config File: /vmfs/volumes/"
			              UUID_A "/vm%d/vm%d.vmx\n", i, i, i);
	}
	assert_int_equal(gw_esxi_parse_getallvms(rows.data, "v", &vms, &e), 0);
	assert_int_equal(gw_esxi_parse_vm_processes(procs.data, "p", &l, &e), 0);
	gw_esxi_vms_power(&vms, &l, pw);
	for (i = 0; i < N; i++)
		assert_int_equal(pw[i], i % 2 ? GW_POWER_ON
		                              : GW_POWER_OFF);
	gw_esxi_vm_proc_list_free(&l);
	gw_vm_list_free(&vms);
	gw_buf_free(&rows);
	gw_buf_free(&procs);
	free(pw);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sample),
		cmocka_unit_test(test_empty),
		cmocka_unit_test(test_variations),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_power_match),
		cmocka_unit_test(test_power_copies),
		cmocka_unit_test(test_power_stray),
		cmocka_unit_test(test_power_many),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
