/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_samplehost.c: the sample hosts of data/hosts (src/samplehost.h).
 *
 * Each sample is opened into a scratch folder and run through the real
 * probes: gw_linux_checks() / gw_linux_gpus() on the linux ones' sysroot,
 * and for esxi-l40s the ESXi session helpers (src/runner.h) through a
 * local runner whose PATH starts with the sample's esxcli / vim-cmd
 * stand-ins.  Samples: $GPUWIZ_HOSTS_DIR, else $GW_SRCDIR/data/hosts, else
 * data/hosts.  A second set of tests writes broken host.ini files in a
 * temporary hosts folder and checks the errors.
 *
 * One program: this file holds the helpers, the listing tests, setup and
 * main; the other tests are in test_samplehost_linux.c,
 * test_samplehost_esxi.c and test_samplehost_bad.c.
 */
#include "samplehost_test.h"

gw_table table;
char *samples_dir;
gw_sample cur;

int
exists(const char *p)
{
	struct stat st;

	return lstat(p, &st) == 0;
}

char *
read_all(const char *path)
{
	char *data = NULL;
	size_t len;
	gw_err e;

	if (gw_read_file(path, 16u << 20, &data, &len, &e) != 0)
		fail_msg("%s", e.msg);
	return data;
}

char *
scratch_file(const gw_sample *s, const char *rel)
{
	char *p = gw_xasprintf("%s/%s", s->scratch, rel), *data = read_all(p);

	free(p);
	return data;
}

const gw_vm *
vm_of(const gw_vm_list *l, unsigned long vmid)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		if (l->vms[i].vmid == vmid)
			return &l->vms[i];
	fail_msg("no VM %lu", vmid);
	return NULL;
}

const gw_finding *
row(const gw_finding *rows, size_t n, const char *id)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strcmp(rows[i].id, id) == 0)
			return &rows[i];
	return NULL;
}

void
expect_row(const gw_finding *rows, size_t n, const char *id,
           gw_sev st)
{
	const gw_finding *r = row(rows, n, id);

	if (r == NULL)
		fail_msg("no %s row", id);
	if (r->sev != st)
		fail_msg("%s: %s, expected %s (%s)", id,
		         gw_sev_word(r->sev),
		         gw_sev_word(st), r->message);
}

const gw_gpu_bar *
bar(const gw_gpu_dev *g, int index)
{
	int i;

	for (i = 0; i < g->nbars; i++)
		if (g->bars[i].index == index)
			return &g->bars[i];
	return NULL;
}

void
open_ok(const char *name, gw_sample *s)
{
	gw_err e;

	if (gw_sample_open(name, s, &e) != 0)
		fail_msg("%s: %s", name, e.msg);
	assert_string_equal(s->name, name);
	assert_non_null(s->scratch);
	assert_true(strstr(s->scratch, "gpuwiz-sample.") != NULL);
}

void
close_removes(gw_sample *s)
{
	char *scratch = gw_xstrdup(s->scratch);

	assert_true(exists(scratch));
	gw_sample_close(s, 1);
	assert_false(exists(scratch));
	assert_null(s->scratch);
	free(scratch);
}

/* ---- listing ------------------------------------------------------------ */

static void
list_four_samples(void **state)
{
	gw_sample_info *l;
	size_t n, i;
	gw_err e;
	static const char *const names[] = { "amd-geforce-usb", "esxi-l40s",
	                                     "intel-2x-l40s",
	                                     "intel-iommu-off-kernel" };
	static const char *const kinds[] = { "linux", "esxi", "linux",
	                                     "linux" };

	(void)state;
	if (gw_sample_list(&l, &n, &e) != 0)
		fail_msg("%s", e.msg);
	assert_int_equal(n, 4);
	for (i = 0; i < n; i++) {
		/* the names only; the description when asked for */
		assert_string_equal(l[i].name, names[i]);
		assert_null(l[i].title);
		assert_null(l[i].kind);
		if (gw_sample_describe(&l[i], &e) != 0)
			fail_msg("%s", e.msg);
		assert_string_equal(l[i].kind, kinds[i]);
		assert_true(strlen(l[i].title) > 10);
	}
	assert_non_null(strstr(l[2].title, "L40S"));
	gw_sample_list_free(l, n);
}

static void
hosts_dir_lookup(void **state)
{
	char *saved = gw_xstrdup(getenv("GPUWIZ_HOSTS_DIR"));
	gw_sample_info *l;
	size_t n, i;
	gw_err e;

	(void)state;
	/* Without the variable: beside the program (this test's is not in
	 * BUILD/src, so none there) or installed, holding the samples; no
	 * path of the build is compiled in (doc/design.md, section 2.4), so none may be. */
	unsetenv("GPUWIZ_HOSTS_DIR");
	if (gw_sample_list(&l, &n, &e) == 0) {
		for (i = 0; i < n && strcmp(l[i].name, "intel-2x-l40s") != 0; i++)
			;
		assert_true(i < n);
		gw_sample_list_free(l, n);
	} else {
		assert_non_null(strstr(e.msg, "no sample hosts found (tried "));
	}
	/* Named but missing: kept, so that the error names it. */
	setenv("GPUWIZ_HOSTS_DIR", "/nonexistent/gpuwiz-hosts", 1);
	assert_int_equal(gw_sample_list(&l, &n, &e), -1);
	assert_null(l);
	assert_int_equal(n, 0);
	assert_non_null(strstr(e.msg, "/nonexistent/gpuwiz-hosts"));
	setenv("GPUWIZ_HOSTS_DIR", saved, 1);
	free(saved);
}

static void
unknown_names(void **state)
{
	static const char *const bad[] = { "nope", "", "../esxi-l40s",
	                                   ".hidden", "bin", "esxi-l40s/esxi" };
	gw_sample s;
	size_t i;
	gw_err e;

	(void)state;
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		memset(&s, 0x5a, sizeof s);
		assert_int_equal(gw_sample_open(bad[i], &s, &e), -1);
		assert_null(s.scratch);
		assert_null(s.name);
		assert_non_null(strstr(e.msg, "unknown sample host"));
		assert_non_null(strstr(e.msg, "intel-2x-l40s"));
		assert_non_null(strstr(e.msg, "esxi-l40s"));
	}
	assert_int_equal(gw_sample_open(NULL, &s, &e), -1);
	gw_sample_close(NULL, 1);
	gw_sample_close(&s, 1);   /* zeroed: harmless */
}


/* ---- setup -------------------------------------------------------------- */

static int
close_after(void **state)
{
	(void)state;
	gw_sample_close(&cur, 1);
	return 0;
}

static int
setup(void **state)
{
	const char *d = getenv("GPUWIZ_HOSTS_DIR"), *src = getenv("GW_SRCDIR");
	gw_err e;

	(void)state;
	if (d && *d)
		samples_dir = gw_xstrdup(d);
	else if (src && *src)
		samples_dir = gw_xasprintf("%s/data/hosts", src);
	else
		samples_dir = gw_xstrdup("data/hosts");
	setenv("GPUWIZ_HOSTS_DIR", samples_dir, 1);
	if (gw_table_load(&table, tu_table_path(), &e) != 0) {
		fprintf(stderr, "%s\n", e.msg);
		return -1;
	}
	return 0;
}

static int
teardown(void **state)
{
	(void)state;
	gw_table_free(&table);
	free(samples_dir);
	return 0;
}

int
main(void)
{
	const struct CMUnitTest t[] = {
		cmocka_unit_test(list_four_samples),
		cmocka_unit_test(hosts_dir_lookup),
		cmocka_unit_test(unknown_names),
		cmocka_unit_test_teardown(intel_2x_l40s, close_after),
		cmocka_unit_test_teardown(amd_geforce_usb, close_after),
		cmocka_unit_test_teardown(intel_iommu_off_kernel, close_after),
		cmocka_unit_test(close_keeps_scratch),
		cmocka_unit_test_teardown(esxi_l40s, close_after),
		cmocka_unit_test(esxi_storage_outputs_parse),
		cmocka_unit_test(broken_samples),
	};

	return cmocka_run_group_tests(t, setup, teardown);
}
