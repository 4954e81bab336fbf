/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_plan_dynamic.c: Dynamic DirectPath I/O in the plan
 * (src/core/plan_devices.c dynamic_blocks, pl_dynamic; plan_scan.c
 * allowedDevices; doc/design.md, section 15.4): the block by PCI ids,
 * desired state (a second plan on the written .vmx changes nothing, a
 * dynamic block already there counts as the GPU), the refusals and the
 * hardware version, on the real GPU table and the fixture each test
 * names (tests/fixtures/README.md gives its source). */

#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ >= 12
# pragma GCC diagnostic ignored "-Wdangling-pointer"
#endif

#include "testutil.h"
#include "plan.h"

#define LINUX_VMX  "vmx/ws-hw11-ubuntu-shebang-utf8.vmx"
#define SYSID      "65106d9a-406e-5fda-b7ab-b8ca3a63b8b4"

#include "plantest.h"

/* Two L40S by their ids: two blocks of present + allowedDevices, no
 * id/systemId; the second plan on the written file changes nothing. */
static void
test_dynamic_blocks(void **state)
{
	gw_vmx *v = load(LINUX_VMX, "virtualHW.version = \"19\"\n"), *w = NULL;
	gw_answers a;
	gw_plan p, p2;
	gw_err e;
	char *out;
	int changed;
	size_t i;

	(void)state;
	answers(&a, (const char *const[]){ "l40s=2", NULL });
	a.dynamic = 1;
	if (gw_plan_build(&a, &tbl, v, &p, &e) != 0)
		fail_msg("%s", e.msg);
	assert_string_equal(written(&p, "pciPassthru0.present"), "TRUE");
	assert_string_equal(written(&p, "pciPassthru0.allowedDevices"),
	                    "0x10de:0x26b9");
	assert_string_equal(written(&p, "pciPassthru1.allowedDevices"),
	                    "0x10de:0x26b9");
	for (i = 0; i < p.nsettings; i++) {
		assert_null(strstr(p.settings[i].key, ".systemId"));
		assert_null(strstr(p.settings[i].key, ".id"));
		assert_null(strstr(p.settings[i].key, ".deviceId"));
	}
	assert_null(finding(&p, "devices-without-address"));
	assert_null(finding(&p, "device-directpath-limits"));
	assert_non_null(finding(&p, "dynamic-directpath"));
	assert_non_null(strstr(finding(&p, "dynamic-directpath")->message, "DRS"));
	assert_non_null(strstr(finding(&p, "dynamic-directpath")->message, "vMotion"));
	assert_string_equal(finding(&p, "dynamic-directpath")->source,
	                    setting(&p, "pciPassthru0.allowedDevices")->source);
	assert_int_equal(p.n_passthru, 2);
	out = applied(&p, v, &changed);
	assert_true(changed);
	if (gw_vmx_parse(&w, out, strlen(out), "written", &e) != 0)
		fail_msg("%s", e.msg);
	free(out);
	/* the same request again: the dynamic blocks count as the GPUs */
	if (gw_plan_build(&a, &tbl, w, &p2, &e) != 0)
		fail_msg("%s", e.msg);
	out = applied(&p2, w, &changed);
	assert_false(changed);
	free(out);
	assert_int_equal(p2.total_vram_gb, 2 * 48);
	gw_plan_free(&p2);
	/* and so does a fixed-passthrough plan of the same GPUs */
	a.dynamic = 0;
	if (gw_plan_build(&a, &tbl, w, &p2, &e) != 0)
		fail_msg("%s", e.msg);
	out = applied(&p2, w, &changed);
	assert_false(changed);
	free(out);
	gw_plan_free(&p2);
	gw_plan_free(&p);
	gw_answers_free(&a);
	gw_vmx_free(w);
	gw_vmx_free(v);
}

/* --dynamic with --bdf/--system-id, a GPU given only by size, or only
 * vGPUs: refused, one line naming --dynamic. */
static void
test_dynamic_refusals(void **state)
{
	gw_vmx *v = load(LINUX_VMX, NULL);
	gw_answers a;
	gw_plan p;
	gw_err e;

	(void)state;
	answers(&a, (const char *const[]){ "l40s", NULL });
	a.dynamic = 1;
	assert_int_equal(gw_answers_add_bdf(&a, "0000:3b:00.0", "--bdf", &e), 0);
	assert_int_equal(gw_answers_set_system_id(&a, SYSID, NULL, &e), 0);
	assert_int_equal(gw_plan_build(&a, &tbl, v, &p, &e), -1);
	assert_non_null(strstr(e.msg, "--dynamic"));
	assert_non_null(strstr(e.msg, "--bdf"));
	gw_answers_free(&a);

	gw_answers_init(&a);
	assert_int_equal(gw_answers_add_vram(&a, "48", "--vram", &e), 0);
	a.dynamic = 1;
	assert_int_equal(gw_plan_build(&a, &tbl, v, &p, &e), -1);
	assert_non_null(strstr(e.msg, "--dynamic"));
	gw_answers_free(&a);

	answers(&a, (const char *const[]){ "grid_l40s-48c", NULL });
	a.dynamic = 1;
	assert_int_equal(gw_plan_build(&a, &tbl, v, &p, &e), -1);
	assert_non_null(strstr(e.msg, "passthrough"));
	gw_answers_free(&a);
	gw_vmx_free(v);
}

/* A host release older than vSphere 7 cannot run it: an ERROR; a VM
 * below 17 on a host that runs 17 gets the hardware rule's upgrade. */
static void
test_dynamic_hw(void **state)
{
	gw_vmx *v = load(LINUX_VMX, NULL);
	gw_answers a;
	gw_plan p;
	gw_err e;

	(void)state;
	answers(&a, (const char *const[]){ "l40s", NULL });
	a.dynamic = 1;
	a.esxi_version = gw_xstrdup("6.7U3");
	if (gw_plan_build(&a, &tbl, v, &p, &e) != 0)
		fail_msg("%s", e.msg);
	assert_non_null(finding(&p, "dynamic-esxi"));
	assert_int_equal(finding(&p, "dynamic-esxi")->sev, GW_SEV_ERROR);
	assert_true(gw_plan_has_errors(&p));
	gw_plan_free(&p);
	free(a.esxi_version);
	a.esxi_version = gw_xstrdup("8.0U2");
	if (gw_plan_build(&a, &tbl, v, &p, &e) != 0)
		fail_msg("%s", e.msg);
	assert_null(finding(&p, "dynamic-esxi"));
	assert_non_null(finding(&p, "hw-upgrade"));
	assert_int_equal(finding(&p, "hw-upgrade")->sev, GW_SEV_WARN);
	assert_non_null(strstr(finding(&p, "hw-upgrade")->message, "17"));
	gw_plan_free(&p);
	gw_answers_free(&a);
	gw_vmx_free(v);
}

/* A fixed device beside the dynamic ones pins the VM: a WARN. */
static void
test_dynamic_beside_fixed(void **state)
{
	gw_vmx *v = load(LINUX_VMX,
	                 "virtualHW.version = \"19\"\n"
	                 "pciPassthru0.present = \"TRUE\"\n"
	                 "pciPassthru0.id = \"00000:059:00.0\"\n"
	                 "pciPassthru0.deviceId = \"0x26b9\"\n"
	                 "pciPassthru0.vendorId = \"0x10de\"\n"
	                 "pciPassthru0.systemId = \"" SYSID "\"\n");
	gw_answers a;
	gw_plan p;
	gw_err e;

	(void)state;
	answers(&a, (const char *const[]){ "l40s=2", NULL });
	a.dynamic = 1;
	if (gw_plan_build(&a, &tbl, v, &p, &e) != 0)
		fail_msg("%s", e.msg);
	assert_string_equal(written(&p, "pciPassthru1.allowedDevices"),
	                    "0x10de:0x26b9");
	assert_null(setting(&p, "pciPassthru2.allowedDevices"));
	assert_non_null(finding(&p, "dynamic-fixed-device"));
	assert_non_null(strstr(finding(&p, "dynamic-fixed-device")->message,
	                       "pciPassthru0"));
	gw_plan_free(&p);
	gw_answers_free(&a);
	gw_vmx_free(v);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dynamic_blocks),
		cmocka_unit_test(test_dynamic_refusals),
		cmocka_unit_test(test_dynamic_hw),
		cmocka_unit_test(test_dynamic_beside_fixed),
	};

	return cmocka_run_group_tests(tests, up, down);
}
