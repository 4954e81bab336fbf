/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_plan_vgpu.c: what the vGPUs of one VM must agree on
 * (src/core/plan_vgpu_checks.c; doc/design.md, section 15.3), on the real
 * GPU table and real Workstation .vmx samples with vGPU blocks appended
 * as the vSphere Client writes them. */

#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ >= 12
# pragma GCC diagnostic ignored "-Wdangling-pointer"
#endif

#include "testutil.h"
#include "plan.h"

#define LINUX_VMX "vmx/ws-hw11-ubuntu-shebang-utf8.vmx"       /* ubuntu-64 */
#define WIN_VMX   "vmx/ws-hw16-win10-efi-windows1252-crlf.vmx" /* windows9-64 */

static gw_table tbl;

static int
up(void **state)
{
	gw_err e;

	(void)state;
	return gw_table_load(&tbl, tu_table_path(), &e) == 0 ? 0 : -1;
}

static int
down(void **state)
{
	(void)state;
	gw_table_free(&tbl);
	return 0;
}

/* The plan for sample rel with the lines extra appended, --uvm as uvm,
 * --vgpu prof when not NULL. */
static void
plan_for(gw_plan *p, const char *rel, const char *extra, int uvm,
         const char *prof)
{
	char *data, *all;
	size_t n = 0;
	gw_answers a;
	gw_vmx *v = NULL;
	gw_err e;

	data = tu_read_sample(rel, &n);
	all = gw_xasprintf("%.*s%s", (int)n, data, extra);
	free(data);
	if (gw_vmx_parse(&v, all, strlen(all), rel, &e) != 0)
		fail_msg("%s", e.msg);
	free(all);
	gw_answers_init(&a);
	a.uvm = uvm;
	if (prof && gw_answers_add_gpu(&a, &tbl, prof, "--vgpu", &e) != 0)
		fail_msg("%s", e.msg);
	if (gw_plan_build(&a, &tbl, v, p, &e) != 0)
		fail_msg("plan: %s", e.msg);
	gw_answers_free(&a);
	gw_vmx_free(v);
}

static const gw_finding *
find(const gw_plan *p, const char *id)
{
	size_t i;

	for (i = 0; i < p->nfindings; i++)
		if (strcmp(p->findings[i].id, id) == 0)
			return &p->findings[i];
	return NULL;
}

#define TWO_24C \
	"pciPassthru0.present = \"TRUE\"\n" \
	"pciPassthru0.vgpu = \"nvidia_l40s-24c\"\n" \
	"pciPassthru1.present = \"TRUE\"\n" \
	"pciPassthru1.vgpu = \"nvidia_l40s-24c\"\n"
#define ONE_48C \
	"pciPassthru0.present = \"TRUE\"\n" \
	"pciPassthru0.vgpu = \"nvidia_l40s-48c\"\n"

static void
test_fractional(void **state)
{
	const gw_finding *f;
	gw_plan p;

	(void)state;
	plan_for(&p, LINUX_VMX, TWO_24C, 1, NULL);
	f = find(&p, "uvm-fractional");
	assert_non_null(f);
	assert_int_equal(f->sev, GW_SEV_WARN);
	assert_non_null(strstr(f->message, "nvidia_l40s-24c"));
	/* named once although two vGPUs use it */
	assert_null(strstr(strstr(f->message, "nvidia_l40s-24c") + 1,
	                   "nvidia_l40s-24c"));
	assert_non_null(f->fix_ui);
	assert_null(strstr(f->fix_ui, "--"));
	assert_null(find(&p, "uvm-windows"));
	gw_plan_free(&p);

	/* not asked for UVM: no WARN, and the suggestion to turn it on says
	 * that a whole-framebuffer profile comes first */
	plan_for(&p, LINUX_VMX, TWO_24C, 0, NULL);
	assert_null(find(&p, "uvm-fractional"));
	f = find(&p, "uvm-suggest");
	assert_non_null(f);
	assert_non_null(strstr(f->fix, "nvidia_l40s-24c has only a part"));
	assert_non_null(strstr(f->fix_ui, "1:1 profile"));
	assert_null(strstr(f->fix_ui, "--"));
	gw_plan_free(&p);
	plan_for(&p, LINUX_VMX, ONE_48C, 0, NULL);
	f = find(&p, "uvm-suggest");
	assert_non_null(f);
	assert_null(strstr(f->fix, "only a part"));
	gw_plan_free(&p);

	/* 1:1 and MIG-backed profiles hold a whole framebuffer */
	plan_for(&p, LINUX_VMX, ONE_48C, 1, NULL);
	assert_null(find(&p, "uvm-fractional"));
	gw_plan_free(&p);
	plan_for(&p, LINUX_VMX, "", 1, "grid_a100-3-20c");
	assert_null(find(&p, "uvm-fractional"));
	gw_plan_free(&p);
	plan_for(&p, LINUX_VMX, "", 1, "grid_a100-20c");
	f = find(&p, "uvm-fractional");
	assert_non_null(f);
	/* the fix names the board's whole-GPU C-series type */
	assert_non_null(strstr(f->fix, "grid_a100-40c"));
	gw_plan_free(&p);
	plan_for(&p, LINUX_VMX, TWO_24C, 1, NULL);
	assert_non_null(strstr(find(&p, "uvm-fractional")->fix,
	                       "nvidia_l40s-48c"));
	gw_plan_free(&p);
}

/* A plan without a .vmx: memory_mb, esxi as given. */
static void
plan_snip(gw_plan *p, const char *prof, long memory_mb, const char *esxi,
          int uvm)
{
	gw_answers a;
	gw_err e;

	gw_answers_init(&a);
	a.uvm = uvm;
	a.memory_mb = memory_mb;
	a.esxi_version = esxi ? gw_xstrdup(esxi) : NULL;
	if (gw_answers_add_gpu(&a, &tbl, prof, "--vgpu", &e) != 0)
		fail_msg("%s", e.msg);
	if (gw_plan_build(&a, &tbl, NULL, p, &e) != 0)
		fail_msg("plan: %s", e.msg);
	gw_answers_free(&a);
}

/* NVIDIA's MMIO table (AI Enterprise 6, Table 18: Tesla V100 all
 * variants 64 GB) over the rule's 32 for a 16 GB V100, in a VM with 32 GB
 * or more of memory (or memory unknown); below 32 GB the rule alone. */
static void
test_mmio_table(void **state)
{
	gw_plan p;

	(void)state;
	plan_snip(&p, "grid_v100x-16c", 65536, NULL, 0);
	assert_int_equal(p.rule_gb, 32);
	assert_int_equal(p.vgpu_table_gb, 64);
	assert_int_equal(p.rec_gb, 64);
	assert_int_equal(p.mmio_gb, 64);
	assert_non_null(find(&p, "mmio-vgpu-table"));
	gw_plan_free(&p);
	plan_snip(&p, "grid_v100x-16c", 0, NULL, 0);
	assert_int_equal(p.mmio_gb, 64);
	gw_plan_free(&p);
	plan_snip(&p, "grid_v100x-16c", 16384, NULL, 0);
	assert_int_equal(p.vgpu_table_gb, 0);
	assert_int_equal(p.mmio_gb, 32);
	assert_null(find(&p, "mmio-vgpu-table"));
	gw_plan_free(&p);
	/* the rule already gives NVIDIA's figure: H100 80 GB 256 = 256 */
	plan_snip(&p, "nvidia_h100xm-80c", 65536, NULL, 0);
	assert_int_equal(p.rule_gb, 256);
	assert_int_equal(p.vgpu_table_gb, 256);
	assert_int_equal(p.mmio_gb, 256);
	assert_null(find(&p, "mmio-vgpu-table"));
	gw_plan_free(&p);
	/* the L40S is not in NVIDIA's table: the rule */
	plan_snip(&p, "nvidia_l40s-48c", 65536, NULL, 0);
	assert_int_equal(p.vgpu_table_gb, 0);
	assert_int_equal(p.mmio_gb, 128);
	gw_plan_free(&p);
}

/* Sizes NVIDIA does not list are refused with the valid ones. */
static void
test_sizes(void **state)
{
	gw_answers a;
	gw_err e;

	(void)state;
	gw_answers_init(&a);
	assert_int_equal(gw_answers_add_gpu(&a, &tbl, "nvidia_l40s-47c",
	                                    "--vgpu", &e), -1);
	assert_non_null(strstr(e.msg, "nvidia_l40s-47c"));
	assert_non_null(strstr(e.msg, "4, 6, 8, 12, 16, 24, 48"));
	assert_int_equal(gw_answers_add_gpu(&a, &tbl, "grid_a100-2-30c",
	                                    "--vgpu", &e), -1);
	assert_non_null(strstr(e.msg, "1-5, 1-10, 2-10, 3-20, 4-20, 7-40"));
	/* no MIG on an L40S */
	assert_int_equal(gw_answers_add_gpu(&a, &tbl, "nvidia_l40s-1-10c",
	                                    "--vgpu", &e), -1);
	assert_int_equal(gw_answers_add_gpu(&a, &tbl, "nvidia_l40s-48c",
	                                    "--vgpu", &e), 0);
	assert_int_equal(gw_answers_add_gpu(&a, &tbl, "grid_a100-1-5cme",
	                                    "--vgpu", &e), 0);
	/* Q-, B- and A-series sizes of the L40S (data/vgpu_types.csv): each
	 * judged against the row of its own series, with that row's source */
	assert_int_equal(gw_answers_add_gpu(&a, &tbl, "nvidia_l40s-24q",
	                                    "--vgpu", &e), 0);
	assert_int_equal(gw_answers_add_gpu(&a, &tbl, "nvidia_l40s-1q",
	                                    "--vgpu", &e), 0);
	assert_int_equal(gw_answers_add_gpu(&a, &tbl, "nvidia_l40s-4a",
	                                    "--vgpu", &e), 0);
	assert_int_equal(gw_answers_add_gpu(&a, &tbl, "nvidia_l40s-3b",
	                                    "--vgpu", &e), 0);
	assert_int_equal(gw_answers_add_gpu(&a, &tbl, "nvidia_l40s-47q",
	                                    "--vgpu", &e), -1);
	assert_non_null(strstr(e.msg, "Q-series"));
	assert_non_null(strstr(e.msg, "1, 2, 3, 4, 6, 8, 12, 16, 24, 48"));
	assert_non_null(strstr(e.msg, "creatable_vgpu_types"));
	assert_int_equal(gw_answers_add_gpu(&a, &tbl, "nvidia_l40s-4b",
	                                    "--vgpu", &e), -1);
	assert_non_null(strstr(e.msg, "B-series sizes 1, 2, 3 "));
	assert_int_equal(gw_answers_add_gpu(&a, &tbl, "nvidia_l40s-5a",
	                                    "--vgpu", &e), -1);
	assert_non_null(strstr(e.msg, "A-series"));
	/* the C-series refusal keeps NVIDIA AI Enterprise as its source */
	assert_int_equal(gw_answers_add_gpu(&a, &tbl, "nvidia_l40s-2c",
	                                    "--vgpu", &e), -1);
	assert_non_null(strstr(e.msg, "AI Enterprise"));
	assert_null(strstr(e.msg, "creatable_vgpu_types"));
	/* a board without a row for the series (the L4's Q-series: no whole
	 * list found): not known, not refused */
	assert_int_equal(gw_answers_add_gpu(&a, &tbl, "nvidia_l4-5q",
	                                    "--vgpu", &e), 0);
	/* the A40's and T4's Q-series (vgpuConfig.xml, driver 510.47.03) */
	assert_int_equal(gw_answers_add_gpu(&a, &tbl, "nvidia_a40-47q",
	                                    "--vgpu", &e), -1);
	assert_non_null(strstr(e.msg, "Q-series sizes 1, 2, 3, 4, 6, 8, 12, 16, 24, 48 "));
	assert_non_null(strstr(e.msg, "vgpuConfig.xml"));
	assert_int_equal(gw_answers_add_gpu(&a, &tbl, "nvidia_a40-48q",
	                                    "--vgpu", &e), 0);
	assert_int_equal(gw_answers_add_gpu(&a, &tbl, "grid_t4-3q",
	                                    "--vgpu", &e), -1);
	assert_non_null(strstr(e.msg, "1, 2, 4, 8, 16"));
	assert_int_equal(gw_answers_add_gpu(&a, &tbl, "grid_t4-16q",
	                                    "--vgpu", &e), 0);
	gw_answers_free(&a);
}

/* Passthrough and vGPU of one GPU model in one VM (TKGI: "you can use
 * only one of them"): a FAIL naming both, whether both are asked for or
 * the passthrough device is already in the .vmx. */
static void
test_passthrough_mixed(void **state)
{
	const gw_finding *f;
	gw_answers a;
	gw_plan p;
	gw_err e;

	(void)state;
	gw_answers_init(&a);
	if (gw_answers_add_gpu(&a, &tbl, "l40s", "--gpu", &e) != 0 ||
	    gw_answers_add_gpu(&a, &tbl, "nvidia_l40s-24c", "--vgpu", &e) != 0)
		fail_msg("%s", e.msg);
	if (gw_plan_build(&a, &tbl, NULL, &p, &e) != 0)
		fail_msg("plan: %s", e.msg);
	f = find(&p, "vgpu-profile-passthrough");
	assert_non_null(f);
	assert_int_equal(f->sev, GW_SEV_ERROR);
	assert_non_null(strstr(f->message, "l40s"));
	assert_non_null(strstr(f->message, "nvidia_l40s-24c"));
	assert_non_null(strstr(f->message, "you can use only one of them"));
	assert_non_null(strstr(f->source, "Tanzu Kubernetes Grid Integrated"));
	assert_null(strstr(f->fix_ui, "--"));
	assert_true(gw_plan_has_errors(&p));
	gw_plan_free(&p);
	gw_answers_free(&a);

	/* another model passed through beside the vGPU: allowed */
	gw_answers_init(&a);
	if (gw_answers_add_gpu(&a, &tbl, "a100-80g-pcie", "--gpu", &e) != 0 ||
	    gw_answers_add_gpu(&a, &tbl, "nvidia_l40s-24c", "--vgpu", &e) != 0)
		fail_msg("%s", e.msg);
	if (gw_plan_build(&a, &tbl, NULL, &p, &e) != 0)
		fail_msg("plan: %s", e.msg);
	assert_null(find(&p, "vgpu-profile-passthrough"));
	gw_plan_free(&p);
	gw_answers_free(&a);

	/* an L40S passed through in the .vmx, a vGPU of it asked for */
	plan_for(&p, LINUX_VMX,
	         "pciPassthru0.present = \"TRUE\"\n"
	         "pciPassthru0.id = \"00000:059:00.0\"\n"
	         "pciPassthru0.vendorId = \"0x10de\"\n"
	         "pciPassthru0.deviceId = \"0x26b9\"\n", 0, "nvidia_l40s-48c");
	f = find(&p, "vgpu-profile-passthrough");
	assert_non_null(f);
	assert_non_null(strstr(f->message, "nvidia_l40s-48c"));
	gw_plan_free(&p);
	/* the passthrough L40S alone: nothing */
	plan_for(&p, LINUX_VMX,
	         "pciPassthru0.present = \"TRUE\"\n"
	         "pciPassthru0.id = \"00000:059:00.0\"\n"
	         "pciPassthru0.vendorId = \"0x10de\"\n"
	         "pciPassthru0.deviceId = \"0x26b9\"\n", 0, NULL);
	assert_null(find(&p, "vgpu-profile-passthrough"));
	gw_plan_free(&p);
}

/* A- and B-series run no CUDA; several vGPUs by the ESXi release; the
 * A100 P2P warning only for time-sliced vGPUs. */
static void
test_series_release(void **state)
{
	const gw_finding *f;
	gw_plan p;

	(void)state;
	plan_snip(&p, "nvidia_l40s-2b", 0, "8.0U2", 0);
	f = find(&p, "vgpu-profile-series");
	assert_non_null(f);
	assert_int_equal(f->sev, GW_SEV_ERROR);
	assert_non_null(strstr(f->fix, "nvidia_l40s-<GB>c"));
	gw_plan_free(&p);
	plan_snip(&p, "nvidia_l40s-24q", 0, "8.0U2", 0);
	assert_null(find(&p, "vgpu-profile-series"));
	gw_plan_free(&p);

	plan_snip(&p, "nvidia_l40s-24c=2", 0, "7.0U3", 0);
	f = find(&p, "vgpu-profile-multi-vsphere7");
	assert_non_null(f);
	assert_int_equal(f->sev, GW_SEV_ERROR);
	gw_plan_free(&p);
	plan_snip(&p, "nvidia_l40s-24c=2", 0, NULL, 0);
	f = find(&p, "vgpu-profile-multi-esxi");
	assert_non_null(f);
	assert_int_equal(f->sev, GW_SEV_WARN);
	gw_plan_free(&p);
	plan_snip(&p, "nvidia_l40s-24c=2", 0, "8.0U2", 0);
	assert_null(find(&p, "vgpu-profile-multi-esxi"));
	assert_null(find(&p, "vgpu-profile-multi-vsphere7"));
	gw_plan_free(&p);
	/* whole-GPU C-series: fine on 7.x */
	plan_snip(&p, "nvidia_l40s-48c=2", 0, "7.0U3", 0);
	assert_null(find(&p, "vgpu-profile-multi-vsphere7"));
	gw_plan_free(&p);

	plan_snip(&p, "grid_a100-40c=2", 0, "8.0U2", 1);
	assert_non_null(find(&p, "uvm-a100-p2p"));
	gw_plan_free(&p);
	plan_snip(&p, "grid_a100-3-20c=2", 0, "8.0U2", 1);
	assert_null(find(&p, "uvm-a100-p2p"));
	gw_plan_free(&p);
}

/* The synthetic fixture: a 32-bit guest (guestOS "ubuntu") with vGPUs. */
static void
test_guest_32bit(void **state)
{
	const gw_finding *f;
	gw_plan p;

	(void)state;
	plan_for(&p, "vmx/synthetic-vgpu-l40s-24c-x2-ubuntu32.vmx", "", 0,
	         NULL);
	f = find(&p, "vgpu-guest-32bit");
	assert_non_null(f);
	assert_int_equal(f->sev, GW_SEV_ERROR);
	assert_non_null(strstr(f->message, "guestOS = ubuntu"));
	gw_plan_free(&p);
	plan_for(&p, LINUX_VMX, TWO_24C, 0, NULL);
	assert_null(find(&p, "vgpu-guest-32bit"));
	gw_plan_free(&p);
}

static void
test_windows(void **state)
{
	const gw_finding *f;
	gw_plan p;

	(void)state;
	plan_for(&p, WIN_VMX, ONE_48C, 1, NULL);
	f = find(&p, "uvm-windows");
	assert_non_null(f);
	assert_int_equal(f->sev, GW_SEV_WARN);
	assert_non_null(strstr(f->message, "windows9-64"));
	gw_plan_free(&p);
	plan_for(&p, WIN_VMX, ONE_48C, 0, NULL);
	assert_null(find(&p, "uvm-windows"));
	gw_plan_free(&p);
	/* the prettyName alone says Windows too */
	plan_for(&p, LINUX_VMX, ONE_48C "guestOS = \"other\"\n"
	         "guestOS.detailed.data = \"prettyName='Microsoft Windows "
	         "Server 2022'\"\n", 1, NULL);
	assert_non_null(find(&p, "uvm-windows"));
	gw_plan_free(&p);
}

static void
test_mixed(void **state)
{
	const gw_finding *f;
	gw_plan p;

	(void)state;
	/* another board: FAIL */
	plan_for(&p, LINUX_VMX, TWO_24C, 0, "grid_a100-40c");
	f = find(&p, "vgpu-mixed-board");
	assert_non_null(f);
	assert_int_equal(f->sev, GW_SEV_ERROR);
	assert_non_null(strstr(f->fix, "--vgpu nvidia_l40s-24c"));
	assert_null(strstr(f->fix_ui, "--"));
	assert_true(gw_plan_has_errors(&p));
	gw_plan_free(&p);
	/* another series on the same board: FAIL */
	plan_for(&p, LINUX_VMX, TWO_24C, 0, "nvidia_l40s-24q");
	assert_non_null(find(&p, "vgpu-mixed-board"));
	gw_plan_free(&p);
	/* the same board and series, another size: WARN */
	plan_for(&p, LINUX_VMX, TWO_24C, 0, "nvidia_l40s-48c");
	assert_null(find(&p, "vgpu-mixed-board"));
	f = find(&p, "vgpu-mixed-size");
	assert_non_null(f);
	assert_int_equal(f->sev, GW_SEV_WARN);
	gw_plan_free(&p);
	/* two different profiles already in the .vmx */
	plan_for(&p, LINUX_VMX, ONE_48C "pciPassthru1.present = \"TRUE\"\n"
	         "pciPassthru1.vgpu = \"nvidia_l40s-24c\"\n", 0, NULL);
	assert_non_null(find(&p, "vgpu-mixed-size"));
	gw_plan_free(&p);
	/* the VM's own profile again, as many as it has: nothing */
	plan_for(&p, LINUX_VMX, TWO_24C, 0, "nvidia_l40s-24c=2");
	assert_null(find(&p, "vgpu-mixed-size"));
	assert_null(find(&p, "vgpu-mixed-board"));
	gw_plan_free(&p);
}

static void
test_wrong_key(void **state)
{
	const gw_finding *f;
	const gw_setting *s = NULL;
	gw_plan p;
	size_t i;

	(void)state;
	plan_for(&p, LINUX_VMX, ONE_48C
	         "pciPassthru0.cfg.parameter = \"enable_uvm=1\"\n", 1, NULL);
	f = find(&p, "uvm-wrong-key");
	assert_non_null(f);
	assert_int_equal(f->sev, GW_SEV_WARN);
	assert_non_null(strstr(f->message,
	                       "pciPassthru0.cfg.enable_uvm = \"1\""));
	assert_non_null(strstr(f->fix, "by hand"));
	for (i = 0; i < p.nsettings; i++)
		if (gw_strieq(p.settings[i].key, "pciPassthru0.cfg.enable_uvm"))
			s = &p.settings[i];
	assert_non_null(s);
	assert_string_equal(s->value, "1");
	gw_plan_free(&p);
	/* without --uvm: still flagged, the fix says to turn it on */
	plan_for(&p, LINUX_VMX, ONE_48C
	         "PCIPASSTHRU0.CFG.PARAMETER = \"enable_uvm=1\"\n", 0, NULL);
	f = find(&p, "uvm-wrong-key");
	assert_non_null(f);
	assert_non_null(strstr(f->fix, "--uvm"));
	assert_null(strstr(f->fix_ui, "--"));
	gw_plan_free(&p);
	/* another plugin parameter is not this finding */
	plan_for(&p, LINUX_VMX, ONE_48C
	         "pciPassthru0.cfg.parameter = \"frame_rate_limiter=0\"\n", 0,
	         NULL);
	assert_null(find(&p, "uvm-wrong-key"));
	gw_plan_free(&p);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fractional),
		cmocka_unit_test(test_windows),
		cmocka_unit_test(test_mixed),
		cmocka_unit_test(test_wrong_key),
		cmocka_unit_test(test_mmio_table),
		cmocka_unit_test(test_sizes),
		cmocka_unit_test(test_series_release),
		cmocka_unit_test(test_guest_32bit),
		cmocka_unit_test(test_passthrough_mixed),
	};

	return cmocka_run_group_tests(tests, up, down);
}
