/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_wizard_fixui.c: advice inside the wizard speaks of the wizard
 * (doc/design.md, section 10): no fix the screens show
 * (gw_wizard_finding_fix: fix_ui, else fix) names a command-line flag.
 * Walks the check rows of every sample host and the findings of plans
 * built on them and offline, with the GPU choices and options that make
 * the plan speak (passthrough, vGPU profiles, unknown framebuffer, more
 * GPUs than the host has, UVM and P2P on and off), and the reason the
 * screens give when there is no plan (a host PCI address without the
 * system id, more addresses than GPUs, one paired with a size-only GPU). */

/* GCC 12 misreports -Wdangling-pointer in testutil.h's tu_read_sample()
 * once inlined (see test_plan.c); silenced for this file only. */
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ >= 12
# pragma GCC diagnostic ignored "-Wdangling-pointer"
#endif

#include "testutil.h"
#include "wizard_int.h"

#include <sys/stat.h>
#include <unistd.h>

static gw_table table;
static int nseen;   /* findings and rows looked at */
static int nbad;    /* of them, fixes naming a flag */

TU_TABLE_GROUP(setup, teardown)

/* A flag: " --" followed by a letter (not an em dash written "--"). */
static int
names_flag(const char *s)
{
	const char *p;

	for (p = s ? strstr(s, "--") : NULL; p; p = strstr(p + 2, "--"))
		if ((p == s || p[-1] == ' ' || p[-1] == '(' || p[-1] == '"') &&
		    p[2] >= 'a' && p[2] <= 'z')
			return 1;
	return 0;
}

static void
look(const char *where, const gw_finding *f, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		const char *fix = gw_wizard_finding_fix(&f[i]);

		nseen++;
		if (names_flag(fix)) {
			print_error("%s: %s: fix names a flag: %s\n", where,
			            f[i].id, fix);
			nbad++;
		}
		if (names_flag(f[i].message)) {
			print_error("%s: %s: message names a flag: %s\n",
			            where, f[i].id, f[i].message);
			nbad++;
		}
	}
}

static void
look_plan(const gw_wizard *w, const char *where)
{
	const gw_plan *p = gw_wizard_plan(w);
	const gw_finding *c;
	size_t n = gw_wizard_checks(w, &c);

	const char *why = gw_wizard_error(w, GW_ERR_PLAN);

	look(where, c, n);
	if (p)
		look(where, p->findings, p->nfindings);
	/* why there is no plan: the VM step's advice shows it */
	nseen++;
	if (names_flag(why)) {
		print_error("%s: no plan: the reason names a flag: %s\n",
		            where, why);
		nbad++;
	}
}

static const gw_gpu *
gpu(const char *id)
{
	gw_err e;
	const gw_gpu *g = gw_table_lookup(&table, id, &e);

	if (g == NULL)
		fail_msg("%s", e.msg);
	return g;
}

/* The GPU choices, one at a time (the previous ones removed). */
static void
choices(gw_wizard *w, const char *where)
{
	static const struct { const char *id, *profile; int count; } c[] = {
		{ "l40s", NULL, 1 }, { "l40s", NULL, 8 },
		{ "l40s", "nvidia_l40s-24c", 1 }, { "a10m", NULL, 1 },
		{ "a100-40g-pcie", "grid_a100-40c", 2 }, { "t4", "grid_t4-16c", 1 },
		{ "a100-40g-pcie", NULL, 2 }, { NULL, NULL, 1 },
	};
	size_t i;
	int uvm, p2p;
	gw_err e;

	for (i = 0; i < sizeof c / sizeof c[0]; i++) {
		while (gw_wizard_answers(w)->a.ngpus > 0)
			gw_wizard_remove_gpu(w, 0);
		if (c[i].id)
			(void)gw_wizard_add_gpu(w, gpu(c[i].id), c[i].profile,
			                        c[i].count, &e);
		else
			(void)gw_wizard_add_vram(w, 24, 1, &e);
		for (uvm = 0; uvm < 2; uvm++)
			for (p2p = 0; p2p < 2; p2p++) {
				gw_wizard_set_uvm(w, uvm);
				gw_wizard_set_p2p(w, p2p);
				look_plan(w, where);
			}
	}
	if (gw_wizard_detected(w, NULL) > 0 &&
	    gw_wizard_add_detected(w, 0, &e) == 0)
		look_plan(w, where);
}

static void
test_offline(void **state)
{
	static const char *vmx[] = {
		"vmx/ws-win10-efi-windows1251.vmx",
		"vmx/ws-hw21-ubuntu-cp949-guestinfo-detailed-longline.vmx",
		"vmx/ws-hw11-ubuntu-shebang-utf8.vmx",
	};
	char *dir = tu_tmpdir();
	size_t i;

	(void)state;
	for (i = 0; i < sizeof vmx / sizeof vmx[0]; i++) {
		gw_wizard w;
		gw_err e;
		size_t len;
		char *data = tu_read_sample(vmx[i], &len);
		char *p = gw_xasprintf("%s/vm%zu.vmx", dir, i);
		FILE *f = fopen(p, "wb");

		assert_non_null(f);
		assert_int_equal(fwrite(data, 1, len, f), len);
		assert_int_equal(fclose(f), 0);
		free(data);
		assert_int_equal(gw_wizard_init(&w, &table, NULL, &e), 0);
		choices(&w, "offline, no .vmx");
		assert_int_equal(gw_wizard_open_vmx(&w, p, &e), 0);
		(void)gw_wizard_add_bdf(&w, "0000:3b:00.0", &e);
		choices(&w, vmx[i]);
		gw_wizard_free(&w);
		free(p);
	}
	tu_rm_tree(dir);
	free(dir);
	assert_true(nseen > 0);
	assert_int_equal(nbad, 0);
}

static void
test_samples(void **state)
{
	static const char *names[] = {
		"esxi-l40s", "intel-2x-l40s", "amd-geforce-usb",
		"intel-iommu-off-kernel",
	};
	size_t i;
	long vm;

	(void)state;
	for (i = 0; i < sizeof names / sizeof names[0]; i++) {
		gw_wizard w;
		gw_err e;

		assert_int_equal(gw_wizard_init(&w, &table, NULL, &e), 0);
		if (gw_wizard_use_sample(&w, names[i], &e) != 0)
			fail_msg("%s: %s", names[i], e.msg);
		assert_true(gw_wizard_checks(&w, NULL) > 0);
		look_plan(&w, names[i]);
		choices(&w, names[i]);
		for (vm = 0; gw_wizard_can(&w, GW_CAN_VMS) &&
		     vm < (long)gw_wizard_vms(&w, NULL); vm++)
			if (gw_wizard_esxi_open_vm(&w, vm, &e) == 0)
				choices(&w, names[i]);
		if (w.scratch)
			tu_rm_tree(w.scratch);
		gw_wizard_free(&w);
	}
	assert_int_equal(nbad, 0);
}

/* The check itself: a flag is found, an em dash or a path is not. */
static void
test_names_flag(void **state)
{
	(void)state;
	assert_true(names_flag("use --uvm"));
	assert_true(names_flag("(--bdf and --system-id)"));
	assert_false(names_flag("tick \"Unified memory\" on the Options step"));
	assert_false(names_flag("a -- b"));
	assert_false(names_flag(NULL));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_names_flag),
		cmocka_unit_test(test_offline),
		cmocka_unit_test(test_samples),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
