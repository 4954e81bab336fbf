/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_host.c: the host interface (src/host/host.h), each back end through
 * it: Linux on a fake sysroot (fakehost.h), the ESXi shell on the
 * esxi-l40s sample's stand-ins, a Linux sample, and opening from the
 * command line's options.  The vSphere back end runs against vcsim in
 * tests/cli/test_vsphere.sh and tests/e2e/test_tui_vsphere.sh. */
#include "testutil.h"
#include "host.h"

#include <sys/stat.h>

#include "fakehost.h"

static gw_table table;

TU_TABLE_GROUP(setup, teardown)

static int
exists(const char *p)
{
	struct stat st;

	return lstat(p, &st) == 0;
}

static const gw_finding *
row(const gw_host_probe *p, const char *id)
{
	size_t i;

	for (i = 0; i < p->nchecks; i++)
		if (strcmp(p->checks[i].id, id) == 0)
			return &p->checks[i];
	return NULL;
}

static void
test_linux(void **state)
{
	char *root = tu_tmpdir();
	fhost fh = { CPU_INTEL, "DMAR", "intel_iommu=on", 1 };
	fdev l40s = { "0000:41:00.0", 0x10de, 0x26b9, 0x030200, 0x10de, 0x1851,
	              GPU_BARS_ADA(64 * GiB), "25", "vfio-pci" };
	fdev bmc = { "0000:03:00.0", 0x1a03, 0x2000, 0x030000, 0x1a03, 0x2000,
	             { { B_MEM32, 16u << 20 } }, NULL, "ast" };
	gw_host_probe p;
	gw_host_vms v;
	gw_host *h;
	gw_err e;
	int reboot = 1;

	(void)state;
	add_host(root, &fh);
	add_dev(root, &l40s);
	add_dev(root, &bmc);
	h = gw_host_open_linux(root);
	assert_int_equal(gw_host_kind_of(h), GW_HOST_LINUX);
	assert_true(host_can(h, HOST_CHECKS | HOST_GPUS | HOST_SYSROOT));
	assert_false(host_can(h, HOST_VMS));
	assert_false(host_can(h, HOST_UPGRADE));
	assert_string_equal(gw_host_sysroot(h), root);
	assert_null(gw_host_scratch(h));

	gw_host_probe_all(h, &table, &p);
	assert_null(p.checks_error);
	assert_true(p.nchecks >= 6);
	assert_string_equal(p.checks[0].id, "cpu-virt");
	/* the BMC's display is left out */
	assert_int_equal(p.ngpus, 1);
	assert_string_equal(p.gpus[0].bdf, "0000:41:00.0");
	assert_non_null(p.gpus[0].row);
	assert_int_equal(p.vms.list.n, 0);
	gw_host_probe_free(&p);

	/* what a Linux root cannot do */
	assert_int_equal(gw_host_list_vms(h, &v, &e), -1);
	assert_non_null(strstr(e.msg, "linux"));
	assert_int_equal(gw_host_enable_gpu(h, 0, &reboot, &e), -1);
	assert_int_equal(reboot, 0);
	assert_int_equal(gw_host_gpu_passthru(h, 0), -1);
	gw_host_close(h);
	rm_tree(root);
}

static void
test_esxi_sample(void **state)
{
	gw_host_probe p;
	gw_host_facts f;
	gw_power pw;
	gw_host *h;
	gw_vmx *v = NULL;
	char *where = NULL, *rel = NULL, *key = NULL, *scratch;
	gw_err e;
	int reboot = -1;

	(void)state;
	if (gw_host_open_sample("esxi-l40s", 0, &h, &e) != 0)
		fail_msg("%s", e.msg);
	assert_int_equal(gw_host_kind_of(h), GW_HOST_ESXI);
	assert_true(host_can(h, HOST_VMS | HOST_UPGRADE | HOST_RELOAD |
	                        HOST_PASSTHRU));
	assert_false(host_can(h, HOST_PICK));
	assert_non_null(strstr(gw_host_label(h), "esxi-l40s"));
	scratch = gw_xstrdup(gw_host_scratch(h));
	assert_true(exists(scratch));

	gw_host_probe_all(h, &table, &p);
	assert_int_equal(row(&p, "esxi-host")->sev, GW_SEV_PASS);
	assert_int_equal(row(&p, "esxi-system-id")->sev, GW_SEV_PASS);
	assert_int_equal(row(&p, "above-4g")->sev, GW_SEV_WARN);
	assert_int_equal(row(&p, "above-4g")->topic, GW_TOPIC_HOST);
	assert_int_equal(row(&p, "esxi-host")->topic, GW_TOPIC_HOST);
	assert_string_equal(p.facts.release, "8.0U2");
	assert_non_null(p.facts.system_id);
	assert_int_equal(p.ngpus, 2);
	assert_int_equal(p.vms.list.n, 3);
	/* in one esxcli vm process list (doc/design.md, section 15.6), not one by one */
	assert_non_null(p.vms.power);
	assert_int_equal(p.vms.power[0], GW_POWER_OFF);
	assert_int_equal(p.vms.power[1], GW_POWER_ON);
	assert_int_equal(p.vms.power[2], GW_POWER_OFF);
	assert_int_equal(gw_host_gpu_passthru(h, 0), 1);

	/* the facts alone */
	assert_int_equal(gw_host_facts_get(h, &f, &e), 0);
	assert_string_equal(f.release, "8.0U2");
	assert_string_equal(f.system_id, p.facts.system_id);
	gw_host_facts_free(&f);

	/* a VM: power, key, .vmx */
	assert_int_equal(gw_host_power(h, &p.vms.list.vms[1], &pw, &e), 0);
	assert_int_equal(pw, GW_POWER_ON);
	assert_int_equal(gw_host_power(h, &p.vms.list.vms[0], &pw, &e), 0);
	assert_int_equal(pw, GW_POWER_OFF);
	assert_int_equal(gw_host_read_vmx(h, &p.vms.list.vms[0], &v, &where,
	                                  &rel, &e), 0);
	assert_non_null(v);
	assert_non_null(strstr(where, "ubuntu-l40s.vmx"));
	/* the scratch copy goes at close: said as on the host (design 4.3) */
	assert_int_equal(strncmp(where, "/vmfs/volumes/", 14), 0);
	assert_null(strstr(where, "gpuwiz-sample."));
	assert_null(rel);
	assert_int_equal(gw_host_vm_key(h, &p.vms.list.vms[0], &key, &e), 0);
	assert_string_equal(key, where);

	/* never down */
	assert_int_equal(gw_host_upgrade(h, &p.vms.list.vms[0], 13, 13, &e), -1);

	/* enable the GPU not yet enabled */
	if (gw_host_enable_gpu(h, 1, &reboot, &e) != 0)
		fail_msg("%s", e.msg);
	assert_true(reboot == 0 || reboot == 1);
	assert_int_equal(gw_host_enable_gpu(h, 7, &reboot, &e), -1);

	gw_vmx_free(v);
	free(where);
	free(key);
	gw_host_probe_free(&p);
	gw_host_close(h);
	assert_false(exists(scratch));   /* not kept */
	free(scratch);
}

static void
test_linux_sample_kept(void **state)
{
	gw_host_probe p;
	gw_host *h;
	char *scratch;
	gw_err e;

	(void)state;
	if (gw_host_open_sample("intel-2x-l40s", 1, &h, &e) != 0)
		fail_msg("%s", e.msg);
	assert_int_equal(gw_host_kind_of(h), GW_HOST_LINUX);
	assert_non_null(gw_host_sysroot(h));
	scratch = gw_xstrdup(gw_host_scratch(h));
	gw_host_probe_all(h, &table, &p);
	assert_int_equal(p.ngpus, 2);
	gw_host_probe_free(&p);
	gw_host_close(h);
	assert_true(exists(scratch));   /* kept: it holds what was written */
	rm_tree(scratch);
	assert_int_equal(gw_host_open_sample("no-such-host", 0, &h, &e), -1);
	assert_null(h);
}

static void
test_open_spec(void **state)
{
	gw_host_spec s;
	gw_host *h;
	gw_err e;

	(void)state;
	memset(&s, 0, sizeof s);
	s.ssh = "root@esx01";
	s.sample = "esxi-l40s";
	assert_int_equal(gw_host_open(&s, &h, &e), -1);
	assert_non_null(strstr(e.msg, "exclude each other"));
	memset(&s, 0, sizeof s);
	s.sample = "esxi-l40s";
	s.sysroot = "/";
	assert_int_equal(gw_host_open(&s, &h, &e), -1);
	assert_non_null(strstr(e.msg, "--sysroot"));
	memset(&s, 0, sizeof s);
	s.url = "https://vc01/sdk";
#if GW_WITH_VSPHERE
	assert_int_equal(gw_host_spec_check(&s, &e), -1);
	assert_non_null(strstr(e.msg, "--user"));
	s.user = "u";
	s.thumbprint = "aa";
	s.insecure = 1;
	assert_int_equal(gw_host_spec_check(&s, &e), -1);
#else
	/* a build without the vSphere module: --url refused, one line */
	assert_int_equal(gw_host_spec_check(&s, &e), -1);
	assert_non_null(strstr(e.msg, "this build of gpuwiz has no vSphere module"));
#endif

	/* a Linux root where an ESXi host is needed, and back */
	memset(&s, 0, sizeof s);
	s.sysroot = "/";
	s.need = GW_HOST_NEED_ESXI;
	assert_int_equal(gw_host_open(&s, &h, &e), -1);
	assert_non_null(strstr(e.msg, "no ESXi host"));
	memset(&s, 0, sizeof s);
	s.sample = "esxi-l40s";
	s.need = GW_HOST_NEED_LINUX;
	assert_int_equal(gw_host_open(&s, &h, &e), -1);
	assert_non_null(strstr(e.msg, "Linux host"));
	s.need = GW_HOST_NEED_ANY;
	assert_int_equal(gw_host_open(&s, &h, &e), 0);
	assert_int_equal(gw_host_kind_of(h), GW_HOST_ESXI);
	gw_host_close(h);
	memset(&s, 0, sizeof s);
	assert_int_equal(gw_host_open(&s, &h, &e), 0);
	assert_int_equal(gw_host_kind_of(h), GW_HOST_LINUX);
	gw_host_close(h);
}

/* Live, when GW_VCSIM_URL is set (vcsim-gpuwiz, as for test_vsphere):
 * the vSphere back end through the interface: rows, GPUs, VMs with
 * their power, the device pick, and a powered-on VM refused. */
static void
test_vsphere_live(void **state)
{
	const char *url = getenv("GW_VCSIM_URL");
	gw_host_spec s;
	gw_host_probe p;
	gw_answers a;
	gw_plan plan;
	gw_host_write res;
	gw_host *h;
	gw_vmx *v = NULL;
	char *where = NULL, *rel = NULL, *picked = NULL;
	long on = -1, off = -1;
	size_t i;
	gw_err e;

	(void)state;
	if (url == NULL || *url == '\0')
		skip();
	memset(&s, 0, sizeof s);
	s.url = url;
	s.user = getenv("GW_VCSIM_USER");
	s.password = getenv("GW_VCSIM_PASS");
	s.thumbprint = getenv("GW_VCSIM_THUMB");
	if (gw_host_open(&s, &h, &e) != 0)
		fail_msg("%s", e.msg);
	assert_int_equal(gw_host_kind_of(h), GW_HOST_VSPHERE);
	assert_true(host_can(h, HOST_PICK | HOST_UPGRADE | HOST_VMS));
	assert_false(host_can(h, HOST_RELOAD));
	assert_non_null(gw_host_vs(h));
	gw_host_probe_all(h, &table, &p);
	assert_null(p.checks_error);
	assert_non_null(row(&p, "vsphere-server"));
	assert_true(p.ngpus > 0);
	assert_true(p.vms.list.n > 0);
	assert_non_null(p.vms.power);
	for (i = 0; i < p.vms.list.n; i++) {
		if (p.vms.power[i] == GW_POWER_ON && on < 0)
			on = (long)i;
		if (p.vms.power[i] == GW_POWER_OFF && off < 0)
			off = (long)i;
	}
	assert_true(off >= 0);
	assert_int_equal(gw_host_read_vmx(h, &p.vms.list.vms[off], &v, &where,
	                                  &rel, &e), 0);
	assert_string_equal(where, p.vms.list.vms[off].name);
	gw_vmx_free(v);
	free(where);
	free(rel);
	if (on >= 0) {
		gw_answers_init(&a);
		assert_int_equal(gw_answers_add_gpu(&a, &table, "l40s", "--gpu", &e), 0);
		if (gw_host_pick(h, &p.vms.list.vms[on], &a, &picked, NULL, &e) != 0)
			fail_msg("%s", e.msg);
		assert_int_equal(gw_host_read_vmx(h, &p.vms.list.vms[on], &v,
		                                  &where, &rel, &e), 0);
		assert_int_equal(gw_plan_build(&a, &table, v, &plan, &e), 0);
		assert_int_equal(gw_host_write_vmx(h, &p.vms.list.vms[on], where,
		                                   &plan, v, v, NULL, 0, &res, &e), -1);
		assert_non_null(strstr(e.msg, "not powered off"));
		gw_host_write_free(&res);
		gw_plan_free(&plan);
		gw_vmx_free(v);
		free(where);
		free(rel);
		free(picked);
		gw_answers_free(&a);
	}
	gw_host_probe_free(&p);
	gw_host_close(h);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_linux),
		cmocka_unit_test(test_esxi_sample),
		cmocka_unit_test(test_linux_sample_kept),
		cmocka_unit_test(test_open_spec),
		cmocka_unit_test(test_vsphere_live),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
