/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_plan_state.c: what the plan reads in a .vmx as an expert would
 * (decimal PCI ids, a memory limit below the reservation, a hardware
 * version without passthrough, a vTPM's keys) and the GPU counts as the
 * VM's end state (src/core/plan_devices.c pl_claim_present; doc/design.md,
 * sections 3 and 15.3-15.5), on the real GPU table and the .vmx fixtures
 * each test names (tests/fixtures/README.md gives their sources). */

#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ >= 12
# pragma GCC diagnostic ignored "-Wdangling-pointer"
#endif

#include "testutil.h"
#include "plan.h"

#define LINUX_VMX  "vmx/ws-hw11-ubuntu-shebang-utf8.vmx"
#define GOVC_DEC   "vmx/synthetic-govc-decimal-pci-ids.vmx"
#define HW4        "vmx/esx35-hw4-fedora11-libvirt-demo.vmx"
#define MEM_LIMIT  "vmx/synthetic-mem-limit-below-memsize.vmx"
#define VTPM_ONLY  "vmx/synthetic-vtpm-only-keysafe-plain-settings.vmx"
#define ENCRYPTED  "vmx/ws-fully-encrypted-vm-gbk-4337char-line-crlf.vmx"
#define SYSID      "65106d9a-406e-5fda-b7ab-b8ca3a63b8b4"

#include "plantest.h"

/* ---- 5a: decimal PCI ids ------------------------------------------------ */

static void
test_decimal_ids(void **state)
{
	gw_vmx *v = load(GOVC_DEC, NULL), *again = NULL;
	const gw_finding *f;
	gw_answers a;
	gw_plan p, p2;
	gw_err e;
	char *out;
	int changed;

	(void)state;
	answers(&a, NULL);
	if (gw_plan_build(&a, &tbl, v, &p, &e) != 0)
		fail_msg("%s", e.msg);
	/* 7684 = 0x1e04 (TU102, the table's RTX 2080 Ti), 4318 = 0x10de */
	assert_string_equal(written(&p, "pciPassthru0.deviceId"), "0x1e04");
	assert_string_equal(written(&p, "pciPassthru0.vendorId"), "0x10de");
	assert_string_equal(setting(&p, "pciPassthru0.deviceId")->old_value,
	                    "7684");
	f = finding(&p, "vmx-id-decimal");
	assert_non_null(f);
	assert_int_equal(f->sev, GW_SEV_WARN);
	/* one WARN per key, the vendorId's first */
	assert_non_null(strstr(f->message, "vendorId = \"4318\""));
	assert_non_null(strstr(f->message, "\"0x10de\""));
	f++;
	assert_string_equal(f->id, "vmx-id-decimal");
	assert_non_null(strstr(f->message, "deviceId = \"7684\""));
	assert_non_null(strstr(f->message, "\"0x1e04\""));
	assert_non_null(f->fix_ui);
	/* read as the GPU it is: counted, not "unknown" */
	assert_null(finding(&p, "gpu-unknown"));
	assert_int_equal(p.ngpus, 1);
	assert_non_null(p.gpus[0].gpu);
	assert_int_equal(p.gpus[0].device_id, 0x1e04);
	/* the fix written, the next plan has nothing to fix */
	out = applied(&p, v, &changed);
	assert_true(changed);
	assert_non_null(strstr(out, "pciPassthru0.deviceId = \"0x1e04\""));
	if (gw_vmx_parse(&again, out, strlen(out), "again", &e) != 0 ||
	    gw_plan_build(&a, &tbl, again, &p2, &e) != 0)
		fail_msg("%s", e.msg);
	assert_null(finding(&p2, "vmx-id-decimal"));
	free(applied(&p2, again, &changed));
	assert_false(changed);
	free(out);
	gw_plan_free(&p2);
	gw_vmx_free(again);
	gw_plan_free(&p);
	gw_answers_free(&a);
	gw_vmx_free(v);
}

/* The hex id of a block and its decimal ids: one fixer, one finding each. */
static void
test_decimal_and_hex_id(void **state)
{
	gw_vmx *v = load(LINUX_VMX,
	                 "pciPassthru0.present = \"TRUE\"\n"
	                 "pciPassthru0.id = \"0000:42:00.0\"\n"
	                 "pciPassthru0.deviceId = \"9913\"\n"
	                 "pciPassthru0.vendorId = \"0x10de\"\n");
	gw_answers a;
	gw_plan p;
	gw_err e;

	(void)state;
	answers(&a, NULL);
	if (gw_plan_build(&a, &tbl, v, &p, &e) != 0)
		fail_msg("%s", e.msg);
	assert_string_equal(written(&p, "pciPassthru0.id"), "00000:066:00.0");
	assert_string_equal(written(&p, "pciPassthru0.deviceId"), "0x26b9");
	assert_null(written(&p, "pciPassthru0.vendorId"));
	assert_non_null(finding(&p, "vmx-id-hex"));
	assert_non_null(finding(&p, "vmx-id-decimal"));
	/* 9913 is the L40S: sized as one */
	assert_int_equal(p.total_vram_gb, 48);
	gw_plan_free(&p);
	gw_answers_free(&a);
	gw_vmx_free(v);
}

/* ---- 5b: a memory limit below the reservation ---------------------------- */

static void
test_mem_limit(void **state)
{
	static const char *const l40s[] = { "l40s", NULL };
	gw_vmx *v = load(MEM_LIMIT, NULL);
	const gw_finding *f;
	gw_answers a;
	gw_plan p;
	gw_err e;

	(void)state;
	answers(&a, l40s);
	if (gw_plan_build(&a, &tbl, v, &p, &e) != 0)
		fail_msg("%s", e.msg);
	assert_string_equal(written(&p, "sched.mem.min"), "131072");
	assert_string_equal(written(&p, "sched.mem.max"), "131072");
	assert_string_equal(setting(&p, "sched.mem.max")->old_value, "65536");
	assert_non_null(strstr(setting(&p, "sched.mem.max")->reason, "65536"));
	f = finding(&p, "memory-limit");
	assert_non_null(f);
	assert_int_equal(f->sev, GW_SEV_WARN);
	assert_non_null(strstr(f->message, "raises"));
	gw_plan_free(&p);

	/* --no-reserve: nothing memory is written, the limit neither; said */
	a.reserve = 0;
	if (gw_plan_build(&a, &tbl, v, &p, &e) != 0)
		fail_msg("%s", e.msg);
	assert_null(setting(&p, "sched.mem.max"));
	assert_null(setting(&p, "sched.mem.min"));
	f = finding(&p, "memory-limit");
	assert_non_null(f);
	assert_non_null(strstr(f->message, "not raised"));
	assert_non_null(finding(&p, "memory-not-reserved"));
	gw_plan_free(&p);
	gw_answers_free(&a);
	gw_vmx_free(v);

	/* a limit at or above memsize: nothing said, nothing written */
	v = load(LINUX_VMX, "sched.mem.max = \"999999\"\n");
	answers(&a, l40s);
	if (gw_plan_build(&a, &tbl, v, &p, &e) != 0)
		fail_msg("%s", e.msg);
	assert_null(setting(&p, "sched.mem.max"));
	assert_null(finding(&p, "memory-limit"));
	gw_plan_free(&p);
	gw_answers_free(&a);
	gw_vmx_free(v);
}

/* ---- 5c: no passthrough below hardware version 7 -------------------------- */

static void
test_hw_below_7(void **state)
{
	static const char *const l40s[] = { "l40s", NULL };
	gw_vmx *v = load(HW4, NULL);
	const gw_finding *f;
	gw_answers a;
	gw_plan p;
	gw_err e;

	(void)state;
	answers(&a, l40s);
	a.esxi_version = gw_xstrdup("8.0U2");
	if (gw_plan_build(&a, &tbl, v, &p, &e) != 0)
		fail_msg("%s", e.msg);
	f = finding(&p, "hw-no-passthrough");
	assert_non_null(f);
	assert_int_equal(f->sev, GW_SEV_ERROR);
	assert_non_null(strstr(f->message, "hardware version 4"));
	assert_non_null(strstr(f->fix, "vmx-21"));
	assert_non_null(f->fix_ui);
	assert_null(finding(&p, "hw-upgrade"));
	assert_true(gw_plan_has_errors(&p));
	gw_plan_free(&p);
	/* without the host's version: the upgrade still named */
	free(a.esxi_version);
	a.esxi_version = NULL;
	if (gw_plan_build(&a, &tbl, v, &p, &e) != 0)
		fail_msg("%s", e.msg);
	f = finding(&p, "hw-no-passthrough");
	assert_non_null(f);
	assert_non_null(strstr(f->fix, "vmsvc/upgrade"));
	assert_null(finding(&p, "hw-target-unknown"));
	gw_plan_free(&p);
	gw_answers_free(&a);
	gw_vmx_free(v);

	/* 7 itself takes passthrough: no such FAIL */
	v = load(LINUX_VMX, "virtualHW.version = \"7\"\n");
	answers(&a, l40s);
	if (gw_plan_build(&a, &tbl, v, &p, &e) != 0)
		fail_msg("%s", e.msg);
	assert_int_equal(p.hw_current, 7);
	assert_null(finding(&p, "hw-no-passthrough"));
	gw_plan_free(&p);
	gw_answers_free(&a);
	gw_vmx_free(v);
}

/* ---- 5d: a vTPM's keys are not an encrypted configuration ------------------ */

static void
test_vtpm_only(void **state)
{
	static const char *const l40s[] = { "l40s", NULL };
	gw_vmx *v = load(VTPM_ONLY, NULL);
	const gw_finding *f;
	gw_answers a;
	gw_plan p;
	gw_err e;

	(void)state;
	answers(&a, l40s);
	if (gw_plan_build(&a, &tbl, v, &p, &e) != 0)
		fail_msg("vTPM-only VM refused: %s", e.msg);
	assert_string_equal(written(&p, "sched.mem.min"), "32768");
	f = finding(&p, "vmx-vtpm-keys");
	assert_non_null(f);
	assert_int_equal(f->sev, GW_SEV_INFO);
	assert_non_null(strstr(f->message, "vTPM"));
	gw_plan_free(&p);
	gw_vmx_free(v);

	/* settings inside encryption.data: still refused */
	v = load(ENCRYPTED, NULL);
	assert_int_equal(gw_plan_build(&a, &tbl, v, &p, &e), -1);
	assert_non_null(strstr(e.msg, "encryption.data"));
	gw_vmx_free(v);
	gw_answers_free(&a);
}

/* ---- 6: the counts are what the VM ends with ------------------------------ */

#define TWO_48C \
	"pciPassthru0.present = \"TRUE\"\n" \
	"pciPassthru0.vgpu = \"nvidia_l40s-48c\"\n" \
	"pciPassthru1.present = \"TRUE\"\n" \
	"pciPassthru1.vgpu = \"nvidia_l40s-48c\"\n"
#define TWO_L40S_PT \
	"pciPassthru0.present = \"TRUE\"\n" \
	"pciPassthru0.id = \"00000:066:00.0\"\n" \
	"pciPassthru0.deviceId = \"0x26b9\"\n" \
	"pciPassthru0.vendorId = \"0x10de\"\n" \
	"pciPassthru0.systemId = \"" SYSID "\"\n" \
	"pciPassthru1.present = \"TRUE\"\n" \
	"pciPassthru1.id = \"00000:067:00.0\"\n" \
	"pciPassthru1.deviceId = \"0x26b9\"\n" \
	"pciPassthru1.vendorId = \"0x10de\"\n" \
	"pciPassthru1.systemId = \"" SYSID "\"\n"

/* The plan of specs on the fixture with extra appended, written; then
 * the same answers again on the result: nothing to change. */
static void
twice(const char *extra, const char *const *specs, uint64_t total_gb,
      int n_vgpu)
{
	gw_vmx *v = load(LINUX_VMX, extra), *again = NULL;
	gw_answers a;
	gw_plan p;
	gw_err e;
	char *out, *out2;
	int changed;

	answers(&a, specs);
	if (gw_plan_build(&a, &tbl, v, &p, &e) != 0)
		fail_msg("%s", e.msg);
	assert_int_equal(p.total_vram_gb, total_gb);
	assert_int_equal(p.n_vgpu, n_vgpu);
	out = applied(&p, v, &changed);
	gw_plan_free(&p);
	if (gw_vmx_parse(&again, out, strlen(out), "again", &e) != 0 ||
	    gw_plan_build(&a, &tbl, again, &p, &e) != 0)
		fail_msg("%s", e.msg);
	/* the second run: the same GPUs, nothing new, byte for byte */
	assert_int_equal(p.total_vram_gb, total_gb);
	assert_int_equal(p.n_vgpu, 0);
	assert_int_equal(p.n_passthru, 0);
	out2 = applied(&p, again, &changed);
	assert_false(changed);
	assert_string_equal(out, out2);
	free(out);
	free(out2);
	gw_plan_free(&p);
	gw_answers_free(&a);
	gw_vmx_free(v);
	gw_vmx_free(again);
}

static void
test_vgpu_twice(void **state)
{
	static const char *const two[] = { "nvidia_l40s-48c=2", NULL };
	static const char *const grid[] = { "grid_l40s-48c=2", NULL };

	(void)state;
	/* none in the VM: two added, MMIO for 96 GB */
	twice("", two, 96, 2);
	/* both in the VM already: none added, 96 GB (not 192) */
	twice(TWO_48C, two, 96, 0);
	/* the typed spelling counts the ESXi one */
	twice(TWO_48C, grid, 96, 0);
	/* one of two in the VM: one added */
	twice("pciPassthru0.present = \"TRUE\"\n"
	      "pciPassthru0.vgpu = \"nvidia_l40s-48c\"\n", two, 96, 1);
}

static void
test_passthrough_counts(void **state)
{
	static const char *const two[] = { "l40s=2", NULL };
	gw_vmx *v = load(LINUX_VMX, TWO_L40S_PT);
	gw_answers a;
	gw_plan p;
	gw_err e;

	(void)state;
	/* both attached: counted once, no "without address" WARN */
	twice(TWO_L40S_PT, two, 96, 0);
	answers(&a, two);
	if (gw_plan_build(&a, &tbl, v, &p, &e) != 0)
		fail_msg("%s", e.msg);
	assert_null(finding(&p, "devices-without-address"));
	assert_int_equal(p.n_passthru, 0);
	gw_plan_free(&p);
	gw_answers_free(&a);
	gw_vmx_free(v);

	/* one attached, two asked: one more, without an address */
	v = load(LINUX_VMX, "pciPassthru0.present = \"TRUE\"\n"
	         "pciPassthru0.deviceId = \"0x26b9\"\n"
	         "pciPassthru0.vendorId = \"0x10de\"\n");
	answers(&a, two);
	if (gw_plan_build(&a, &tbl, v, &p, &e) != 0)
		fail_msg("%s", e.msg);
	assert_int_equal(p.total_vram_gb, 96);
	assert_int_equal(p.n_passthru, 1);
	assert_non_null(strstr(finding(&p, "devices-without-address")->message,
	                       "1 passthrough"));
	gw_plan_free(&p);
	gw_answers_free(&a);
	gw_vmx_free(v);

	/* another model in the VM stays and counts: l40s + a100 */
	v = load(LINUX_VMX, TWO_L40S_PT);
	{
		static const char *const mix[] = { "l40s=2", "a100-80g-pcie",
		                                   NULL };

		answers(&a, mix);
	}
	if (gw_plan_build(&a, &tbl, v, &p, &e) != 0)
		fail_msg("%s", e.msg);
	assert_int_equal(p.total_vram_gb, 96 + 80);
	assert_int_equal(p.n_passthru, 1);
	gw_plan_free(&p);
	gw_answers_free(&a);
	gw_vmx_free(v);
}

/* A BDF given for a GPU already at another address: the named one is
 * added, and the VM would end with more than asked: refused. */
static void
test_fewer_than_the_vm_has(void **state)
{
	static const char *const one[] = { "nvidia_l40s-48c", NULL };
	static const char *const pt1[] = { "l40s", NULL };
	gw_vmx *v = load(LINUX_VMX, TWO_48C);
	gw_answers a;
	gw_plan p;
	gw_err e;
	size_t i;

	(void)state;
	answers(&a, one);
	assert_int_equal(gw_plan_build(&a, &tbl, v, &p, &e), -1);
	assert_non_null(strstr(e.msg, "already has 2"));
	assert_non_null(strstr(e.msg, "pciPassthru0, pciPassthru1"));
	assert_non_null(strstr(e.msg, "remove pciPassthru1"));
	assert_non_null(strstr(e.ui, "Selected for this VM"));
	assert_null(strstr(e.ui, "--"));
	gw_answers_free(&a);
	gw_vmx_free(v);

	v = load(LINUX_VMX, TWO_L40S_PT);
	answers(&a, pt1);
	assert_int_equal(gw_plan_build(&a, &tbl, v, &p, &e), -1);
	assert_non_null(strstr(e.msg, "l40s: the VM already has 2"));
	gw_answers_free(&a);

	/* the BDFs name which ones: both named, none extra */
	answers(&a, (const char *const[]){ "l40s=2", NULL });
	assert_int_equal(gw_answers_add_bdf(&a, "0000:43:00.0", "--bdf", &e), 0);
	assert_int_equal(gw_answers_add_bdf(&a, "0000:42:00.0", "--bdf", &e), 0);
	assert_int_equal(gw_answers_set_system_id(&a, SYSID, NULL, &e), 0);
	if (gw_plan_build(&a, &tbl, v, &p, &e) != 0)
		fail_msg("%s", e.msg);
	assert_int_equal(p.total_vram_gb, 96);
	assert_null(written(&p, "pciPassthru2.present"));
	gw_plan_free(&p);
	gw_answers_free(&a);

	/* every GPU asked for named by its address: that device is added,
	 * the two of the VM at other addresses stay, and a second run on
	 * the result changes nothing */
	answers(&a, (const char *const[]){ "l40s", NULL });
	assert_int_equal(gw_answers_add_bdf(&a, "0000:44:00.0", "--bdf", &e), 0);
	assert_int_equal(gw_answers_set_system_id(&a, SYSID, NULL, &e), 0);
	if (gw_plan_build(&a, &tbl, v, &p, &e) != 0)
		fail_msg("%s", e.msg);
	assert_int_equal(p.n_passthru, 1);
	assert_int_equal(p.total_vram_gb, 3 * 48);
	assert_string_equal(written(&p, "pciPassthru2.id"), "00000:068:00.0");
	{
		gw_vmx *again = NULL;
		char *out;
		int changed;

		out = applied(&p, v, &changed);
		assert_true(changed);
		gw_plan_free(&p);
		if (gw_vmx_parse(&again, out, strlen(out), "again", &e) != 0 ||
		    gw_plan_build(&a, &tbl, again, &p, &e) != 0)
			fail_msg("%s", e.msg);
		assert_int_equal(p.n_passthru, 0);
		free(applied(&p, again, &changed));
		assert_false(changed);
		gw_vmx_free(again);
		free(out);
	}
	gw_plan_free(&p);
	gw_answers_free(&a);

	/* one BDF of a third card: the VM would have three, two asked */
	answers(&a, (const char *const[]){ "l40s=2", NULL });
	assert_int_equal(gw_answers_add_bdf(&a, "0000:44:00.0", "--bdf", &e), 0);
	assert_int_equal(gw_answers_set_system_id(&a, SYSID, NULL, &e), 0);
	assert_int_equal(gw_plan_build(&a, &tbl, v, &p, &e), -1);
	assert_non_null(strstr(e.msg, "remove pciPassthru1"));
	gw_answers_free(&a);

	/* the vSphere pick's form: the VM's own addresses, then a free one
	 * (gw_vs_pick_devices): both of the VM count, one is added */
	answers(&a, (const char *const[]){ "l40s=3", NULL });
	assert_int_equal(gw_answers_add_bdf(&a, "0000:42:00.0", "--bdf", &e), 0);
	assert_int_equal(gw_answers_add_bdf(&a, "0000:43:00.0", "--bdf", &e), 0);
	assert_int_equal(gw_answers_add_bdf(&a, "0000:44:00.0", "--bdf", &e), 0);
	assert_int_equal(gw_answers_set_system_id(&a, SYSID, NULL, &e), 0);
	if (gw_plan_build(&a, &tbl, v, &p, &e) != 0)
		fail_msg("%s", e.msg);
	assert_int_equal(p.total_vram_gb, 3 * 48);
	assert_int_equal(p.n_passthru, 1);
	for (i = 0; i < p.ngpus; i++)
		if (p.gpus[i].existing)
			assert_int_equal(p.gpus[i].counted, p.gpus[i].count);
	gw_plan_free(&p);
	gw_answers_free(&a);
	gw_vmx_free(v);
}

/* The VM's devices that count towards a GPU asked for are marked so
 * (gw_plan_gpu.counted: the wizard lists them in the GPU's row, not again
 * beside it); others of the VM are not. */
static void
test_counted(void **state)
{
	gw_vmx *v = load(LINUX_VMX, TWO_L40S_PT);
	const gw_plan_gpu *g = NULL;
	gw_answers a;
	gw_plan p;
	gw_err e;
	size_t i;

	(void)state;
	/* three asked for: both of the VM count, one added */
	answers(&a, (const char *const[]){ "l40s=3", NULL });
	if (gw_plan_build(&a, &tbl, v, &p, &e) != 0)
		fail_msg("%s", e.msg);
	for (i = 0; i < p.ngpus; i++)
		if (p.gpus[i].existing)
			g = &p.gpus[i];
	assert_non_null(g);
	assert_int_equal(g->count, 2);
	assert_int_equal(g->counted, 2);
	assert_int_equal(p.n_passthru, 1);
	gw_plan_free(&p);
	gw_answers_free(&a);

	/* another model asked for: the L40S stay beside it */
	answers(&a, (const char *const[]){ "a40", NULL });
	if (gw_plan_build(&a, &tbl, v, &p, &e) != 0)
		fail_msg("%s", e.msg);
	for (i = 0, g = NULL; i < p.ngpus; i++)
		if (p.gpus[i].existing)
			g = &p.gpus[i];
	assert_non_null(g);
	assert_int_equal(g->count, 2);
	assert_int_equal(g->counted, 0);
	gw_plan_free(&p);
	gw_answers_free(&a);
	gw_vmx_free(v);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_decimal_ids),
		cmocka_unit_test(test_decimal_and_hex_id),
		cmocka_unit_test(test_mem_limit),
		cmocka_unit_test(test_hw_below_7),
		cmocka_unit_test(test_vtpm_only),
		cmocka_unit_test(test_vgpu_twice),
		cmocka_unit_test(test_passthrough_counts),
		cmocka_unit_test(test_fewer_than_the_vm_has),
		cmocka_unit_test(test_counted),
	};

	return cmocka_run_group_tests(tests, up, down);
}
