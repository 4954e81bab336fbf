/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_gputable.c: the GPU table (data/gpus.ini) against the fact sheet it
 * is generated from, lookups, and the errors for broken tables. */
#include "testutil.h"
#include "gputable.h"

#include <sys/stat.h>
#include <unistd.h>

static gw_table table;

TU_TABLE_GROUP(setup, teardown)

/* ---- the fact sheet ---------------------------------------------------- */

/* One CSV record (RFC 4180 quoting, CRLF or LF) into fields; returns the
 * number of fields, 0 at the end.  Fields are malloc'ed. */
static int
csv_record(const char **pp, char **f, int maxf)
{
	const char *p = *pp;
	int n = 0;

	if (*p == '\0')
		return 0;
	for (;;) {
		gw_buf b;

		gw_buf_init(&b);
		if (*p == '"') {
			for (p++; *p; p++) {
				if (*p == '"' && p[1] == '"') {
					gw_buf_add(&b, "\"", 1);
					p++;
				} else if (*p == '"') {
					p++;
					break;
				} else {
					gw_buf_add(&b, p, 1);
				}
			}
		} else {
			while (*p && *p != ',' && *p != '\r' && *p != '\n')
				gw_buf_add(&b, p++, 1);
		}
		assert_true(n < maxf);
		f[n++] = gw_buf_steal(&b);
		if (*p == ',') {
			p++;
			continue;
		}
		if (*p == '\r')
			p++;
		if (*p == '\n')
			p++;
		break;
	}
	*pp = p;
	return n;
}

static void
free_fields(char **f, int n)
{
	while (n-- > 0)
		free(f[n]);
}

/* "unknown" / "256|32768" as the table holds it. */
static char *
bar1_text(const gw_gpu *g)
{
	gw_buf b;
	int i;

	gw_buf_init(&b);
	if (g->nbar1 == 0)
		gw_buf_puts(&b, "unknown");
	for (i = 0; i < g->nbar1; i++)
		gw_buf_printf(&b, "%s%lu", i ? "|" : "", g->bar1_mib[i]);
	return gw_buf_steal(&b);
}

/* The fact sheet the table is generated from: data/gpu_facts.csv of the
 * source tree ($GW_SRCDIR, else the current directory). */
static char *
read_fact_sheet(void)
{
	const char *top = getenv("GW_SRCDIR");
	char *path = gw_xasprintf("%s/data/gpu_facts.csv",
	                          top && *top ? top : ".");
	char *data = NULL;
	size_t n;
	gw_err e;

	if (gw_read_file(path, 1u << 20, &data, &n, &e) != 0)
		fail_msg("%s", e.msg);
	free(path);
	return data;
}

static void
test_every_csv_row_is_in_the_table(void **state)
{
	char *csv = read_fact_sheet();
	const char *p = csv;
	char *f[8];
	int n, rows = 0;
	size_t i;

	(void)state;
	n = csv_record(&p, f, 8);
	assert_int_equal(n, 6);
	assert_string_equal(f[0], "vendor_id");
	assert_string_equal(f[5], "source_notes");
	free_fields(f, n);

	while ((n = csv_record(&p, f, 8)) != 0) {
		unsigned long ven = strtoul(f[0], NULL, 16);
		unsigned long dev = strtoul(f[1], NULL, 16);
		const gw_gpu *hit = NULL;
		int nhit = 0;
		char *bar1;

		assert_int_equal(n, 6);
		rows++;
		/* name + source pick the row (A2 and A16 share id and name) */
		for (i = 0; i < table.n; i++) {
			const gw_gpu *g = &table.gpus[i];

			if (g->vendor_id == ven && g->device_id == dev &&
			    strcmp(g->name, f[2]) == 0 &&
			    strcmp(g->source, f[5]) == 0) {
				hit = g;
				nhit++;
			}
		}
		if (nhit != 1)
			fail_msg("CSV row %d (%s:%s %s): %d table rows match",
			         rows, f[0], f[1], f[2], nhit);
		if (strcmp(f[3], "unknown") == 0)
			assert_int_equal(hit->vram_gb, -1);
		else
			assert_int_equal(hit->vram_gb, atoi(f[3]));
		bar1 = bar1_text(hit);
		if (strcmp(bar1, f[4]) != 0)
			fail_msg("[%s] bar1 %s, CSV says %s", hit->id, bar1, f[4]);
		free(bar1);
		free_fields(f, n);
	}
	assert_true(rows > 0);
	assert_int_equal(table.n, (size_t)rows);
	assert_string_equal(table.path, tu_table_path());
	free(csv);
}

static void
test_ids_and_prefixes_are_well_formed(void **state)
{
	size_t i, j;

	(void)state;
	for (i = 0; i < table.n; i++) {
		const gw_gpu *g = &table.gpus[i];
		const char *c;

		for (c = g->id; *c; c++)
			assert_true((*c >= 'a' && *c <= 'z') ||
			            (*c >= '0' && *c <= '9') || *c == '-');
		if (g->vgpu_prefix) {
			assert_true(strncmp(g->vgpu_prefix, "grid_", 5) == 0 ||
			            strncmp(g->vgpu_prefix, "nvidia_", 7) == 0);
			assert_int_equal(g->vendor_id, 0x10de);
		}
		/* no GeForce, AMD or Intel board has vGPU profiles */
		if (strstr(g->name, "GeForce") || g->vendor_id != 0x10de)
			assert_null(g->vgpu_prefix);
		for (j = 0; j < i; j++)
			assert_string_not_equal(g->id, table.gpus[j].id);
	}
}

/* class and sriov on real rows: the wizard's GPU step filters by class,
 * and the plan's "gpu-sriov" follows sriov (NVIDIA vGPU on Ampere and
 * later runs on SR-IOV virtual functions; doc/design.md 15.3). */
static void
test_class_and_sriov(void **state)
{
	static const struct {
		const char *id;
		gw_gpu_class cls;
		int sriov;
	} rows[] = {
		{ "l40s", GW_CLASS_DATACENTER, 1 },          /* Ada */
		{ "a16", GW_CLASS_DATACENTER, 1 },           /* Ampere */
		{ "a2", GW_CLASS_DATACENTER, 1 },
		{ "a100-80g-pcie", GW_CLASS_DATACENTER, 1 },
		{ "h100-sxm", GW_CLASS_DATACENTER, 1 },      /* Hopper */
		{ "rtx-a6000", GW_CLASS_WORKSTATION, 1 },    /* Ampere, vGPU */
		{ "rtx-6000-ada", GW_CLASS_WORKSTATION, 1 },
		{ "rtx-a4000", GW_CLASS_WORKSTATION, 0 },    /* no vGPU types */
		{ "a10g", GW_CLASS_DATACENTER, 0 },          /* no vGPU types */
		{ "b200", GW_CLASS_DATACENTER, 0 },          /* no vGPU types */
		{ "t4", GW_CLASS_DATACENTER, 0 },            /* Turing */
		{ "v100-32g-pcie", GW_CLASS_DATACENTER, 0 }, /* Volta */
		{ "p40", GW_CLASS_DATACENTER, 0 },           /* Pascal */
		{ "rtx-3090", GW_CLASS_GEFORCE, 0 },         /* Ampere, GeForce */
		{ "rtx-4090", GW_CLASS_GEFORCE, 0 },
		{ "mi300x", GW_CLASS_DATACENTER, 0 },
		{ "flex-170", GW_CLASS_DATACENTER, 0 },
	};
	size_t i;
	int n[GW_NCLASSES] = { 0 }, nsriov = 0;

	(void)state;
	for (i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		gw_err e;
		const gw_gpu *g = gw_table_lookup(&table, rows[i].id, &e);

		if (g == NULL)
			fail_msg("%s", e.msg);
		if (g->cls != rows[i].cls || g->sriov != rows[i].sriov)
			fail_msg("[%s] class %d sriov %d, expected %d %d", g->id,
			         (int)g->cls, g->sriov, (int)rows[i].cls,
			         rows[i].sriov);
	}
	for (i = 0; i < table.n; i++) {
		const gw_gpu *g = &table.gpus[i];

		assert_true(g->cls > GW_CLASS_ANY && g->cls < GW_NCLASSES);
		n[g->cls]++;
		/* the name and the class agree */
		assert_int_equal(strstr(g->name, "GeForce") != NULL,
		                 g->cls == GW_CLASS_GEFORCE);
		/* SR-IOV only where the board has vGPU types */
		if (g->sriov) {
			assert_non_null(g->vgpu_prefix);
			nsriov++;
		}
	}
	assert_true(n[GW_CLASS_DATACENTER] > 0 && n[GW_CLASS_WORKSTATION] > 0 &&
	            n[GW_CLASS_GEFORCE] > 0 && nsriov > 0);
}

/* ---- lookups ----------------------------------------------------------- */

static const gw_gpu *
must_find(const char *spec)
{
	gw_err e;
	const gw_gpu *g = gw_table_lookup(&table, spec, &e);

	if (g == NULL)
		fail_msg("lookup '%s': %s", spec, e.msg);
	return g;
}

/* The error of a failing lookup (static buffer). */
static const char *
must_fail(const char *spec)
{
	static gw_err e;
	const gw_gpu *g;

	memset(&e, 0, sizeof e);
	g = gw_table_lookup(&table, spec, &e);
	if (g != NULL)
		fail_msg("lookup '%s' found [%s], expected an error", spec, g->id);
	assert_true(e.msg[0] != '\0');
	return e.msg;
}

static void
assert_contains(const char *hay, const char *needle)
{
	if (strstr(hay, needle) == NULL)
		fail_msg("'%s' does not contain '%s'", hay, needle);
}

static void
test_lookup_short_id(void **state)
{
	(void)state;
	assert_string_equal(must_find("l40s")->id, "l40s");
	assert_string_equal(must_find("L40S")->id, "l40s");
	assert_string_equal(must_find("  h100-sxm ")->id, "h100-sxm");
	assert_int_equal(must_find("A100-80G-PCIE")->device_id, 0x20b5);
	assert_string_equal(must_find("a16")->name, "GA107GL [A2 / A16]");
}

static void
test_lookup_pci(void **state)
{
	const char *msg;

	(void)state;
	assert_string_equal(must_find("10de:26b9")->id, "l40s");
	assert_string_equal(must_find("0x10DE:0x26B9")->id, "l40s");
	/* a subsystem that does not decide the model is ignored */
	assert_string_equal(must_find("10de:26b9:10de:1851")->id, "l40s");
	/* 25b6 is the A2 and the A16: the subsystem decides */
	msg = must_fail("10de:25b6");
	assert_contains(msg, "GPU '10de:25b6' is ambiguous: a2, a16");
	assert_contains(msg, "10de:25b6:10de:14a9");
	assert_string_equal(must_find("10de:25b6:10de:14a9")->id, "a16");
	assert_string_equal(must_find("10de:25b6:10de:157e")->id, "a2");
	msg = must_fail("10de:25b6:1234:5678");
	assert_contains(msg, "ambiguous: a2, a16");
	assert_contains(msg, "1234:5678");
	msg = must_fail("10de:ffff");
	assert_contains(msg, "unknown GPU '10de:ffff'");
	assert_contains(msg, tu_table_path());
}

static void
test_find_pci(void **state)
{
	int amb = -1;

	(void)state;
	assert_string_equal(gw_table_find_pci(&table, 0x10de, 0x20b5, 0, 0, &amb)->id,
	                    "a100-80g-pcie");
	assert_int_equal(amb, 0);
	assert_null(gw_table_find_pci(&table, 0x10de, 0x25b6, 0, 0, &amb));
	assert_int_equal(amb, 1);
	assert_string_equal(gw_table_find_pci(&table, 0x10de, 0x25b6, 0x10de,
	                                      0x14a9, &amb)->id, "a16");
	assert_int_equal(amb, 0);
	assert_null(gw_table_find_pci(&table, 0x10de, 0xfffe, 0, 0, &amb));
	assert_int_equal(amb, 0);
	assert_null(gw_table_find_pci(&table, 0x10de, 0x25b6, 0, 0, NULL));
}

static void
test_lookup_vgpu_profile(void **state)
{
	const char *msg;
	char *p;

	(void)state;
	assert_string_equal(must_find("grid_h100xm-80c")->id, "h100-sxm");
	assert_string_equal(must_find("nvidia_h100xm-80c")->id, "h100-sxm");
	assert_string_equal(must_find("nvidia_h100-80c")->id, "h100-pcie");
	assert_string_equal(must_find("nvidia_h100l-94c")->id, "h100-nvl");
	assert_string_equal(must_find("grid_a100-40c")->id, "a100-40g-pcie");
	assert_string_equal(must_find("grid_a100-1-5c")->id, "a100-40g-pcie");
	assert_string_equal(must_find("grid_a100d-80c")->id, "a100-80g-pcie");
	assert_string_equal(must_find("GRID_A100DX-80C")->id, "a100-80g-sxm4");
	assert_string_equal(must_find("grid_a100x-40c")->id, "a100-40g-sxm4");
	assert_string_equal(must_find("grid_l40s-48c")->id, "l40s");
	assert_string_equal(must_find("nvidia_l40-48q")->id, "l40");
	assert_string_equal(must_find("grid_t4-16q")->id, "t4");
	assert_string_equal(must_find("grid_v100dx-32q")->id, "v100-32g-sxm2");
	assert_string_equal(must_find("nvidia_rtx6000-ada-48q")->id, "rtx-6000-ada");
	msg = must_fail("grid_zzz-1q");
	assert_contains(msg, "unknown vGPU profile 'grid_zzz-1q'");
	msg = must_fail("nvidia_l40s-big");
	assert_contains(msg, "vGPU profile 'nvidia_l40s-big' has no valid size and series");
	assert_contains(msg, "nvidia_l40s-48c");
	msg = must_fail("grid_l40s");
	assert_contains(msg, "has no valid size and series");
	msg = must_fail("grid_rtx-3090-24q");
	assert_contains(msg, "unknown vGPU profile");

	assert_true(gw_is_vgpu_profile("grid_a100-40c"));
	assert_true(gw_is_vgpu_profile("NVIDIA_L40S-48C"));
	assert_false(gw_is_vgpu_profile("grid_"));
	assert_false(gw_is_vgpu_profile("l40s"));
	assert_false(gw_is_vgpu_profile("gridl40s"));
	assert_false(gw_is_vgpu_profile(NULL));

	p = gw_gpu_vgpu_profile(must_find("h100-sxm"), "GRID_H100XM-80C");
	assert_string_equal(p, "nvidia_h100xm-80c");
	free(p);
	p = gw_gpu_vgpu_profile(must_find("a100-40g-pcie"), "grid_a100-1-5cme");
	assert_string_equal(p, "grid_a100-1-5cme");
	free(p);
	assert_null(gw_gpu_vgpu_profile(must_find("a100-40g-pcie"), "grid_a100d-80c"));
	assert_null(gw_gpu_vgpu_profile(must_find("rtx-3090"), "grid_a100-40c"));
}

static void
test_lookup_name(void **state)
{
	const char *msg;

	(void)state;
	/* whole name, bracket text, substring */
	assert_string_equal(must_find("AD102GL [L40S]")->id, "l40s");
	assert_string_equal(must_find("tesla t4")->id, "t4");
	assert_string_equal(must_find("GeForce RTX 3090")->id, "rtx-3090");
	assert_string_equal(must_find("RTX A6000")->id, "rtx-a6000");
	assert_string_equal(must_find("Instinct MI300X")->id, "mi300x");
	assert_string_equal(must_find("3090 Ti")->id, "rtx-3090-ti");
	/* the end of a model after its brand names that model, not the
	 * longer ones it begins (the Ti, the SUPER) */
	assert_string_equal(must_find("RTX 3090")->id, "rtx-3090");
	assert_string_equal(must_find("rtx 4080")->id, "rtx-4080");
	assert_string_equal(must_find("RTX 5090")->id, "rtx-5090");
	/* a bare substring shared by several names is ambiguous */
	msg = must_fail("RTX 309");
	assert_string_equal(msg, "GPU 'RTX 309' is ambiguous: rtx-3090, rtx-3090-ti (name one by its id)");
	msg = must_fail("rtx 3060");
	assert_contains(msg, "GPU 'rtx 3060' is ambiguous: rtx-3060, rtx-3060-2544, ");
	assert_null(strstr(msg, "rtx-3060-ti"));
	msg = must_fail("H200");
	assert_contains(msg, "GPU 'H200' is ambiguous: h200-sxm, h200-nvl");
	/* the same bracket text on several ids is ambiguous too */
	msg = must_fail("GeForce RTX 3060");
	assert_contains(msg, "ambiguous: rtx-3060, rtx-3060-2544, rtx-3060-ga104 ");
	msg = must_fail("GA100 [A100 PCIe 40GB]");
	assert_contains(msg, "ambiguous: a100-40g-pcie, a100-40g-pcie-20b1");
	/* the model part before the chip name: A100 is not the A30's GA100 */
	msg = must_fail("A100");
	assert_contains(msg, "ambiguous: a100-40g-pcie, a100-40g-pcie-20b1, a100-80g-pcie, a100-40g-sxm4, a100-80g-sxm4 (");
	msg = must_fail("GA102GL");
	assert_contains(msg, "ambiguous: a10, a10g, a10m, a40, rtx-a5000, rtx-a6000 (");
	/* many candidates are cut short */
	msg = must_fail("GeForce");
	assert_contains(msg, ", ... (");
	msg = must_fail("Voodoo 5 6000");
	assert_contains(msg, "unknown GPU 'Voodoo 5 6000' (not an id, PCI id, vGPU profile or model name in ");
	assert_contains(msg, tu_table_path());
	msg = must_fail("   ");
	assert_contains(msg, "no GPU given");
}

/* NVIDIA's vGPU types and MMIO figures as the real table has them
 * (data/vgpu_types.csv, data/vgpu_mmio.csv: NVIDIA AI Enterprise 6). */
static void
test_vgpu_types(void **state)
{
	const gw_gpu *l40s = gw_table_lookup(&table, "l40s", NULL);
	const gw_gpu *a100 = gw_table_lookup(&table, "a100-40g-pcie", NULL);
	const gw_gpu *v100 = gw_table_lookup(&table, "v100-16g-pcie", NULL);
	const gw_gpu *t4 = gw_table_lookup(&table, "t4", NULL);
	const gw_gpu *a40 = gw_table_lookup(&table, "a40", NULL);
	const gw_gpu *ada6k = gw_table_lookup(&table, "rtx-6000-ada", NULL);
	gw_vgpu_type vt;
	gw_err e;
	char *z;

	(void)state;
	assert_non_null(l40s);
	assert_non_null(a100);
	assert_int_equal(gw_vgpu_type_parse("nvidia_l40s-48c", &vt), 0);
	assert_int_equal(vt.size_gb, 48);
	assert_int_equal(vt.slices, 0);
	assert_int_equal(vt.series, 'c');
	assert_int_equal(gw_vgpu_type_parse("grid_a100-1-5cme", &vt), 0);
	assert_int_equal(vt.slices, 1);
	assert_int_equal(vt.size_gb, 5);
	assert_int_equal(gw_vgpu_type_parse("nvidia_rtx6000-ada-4q", &vt), 0);
	assert_int_equal(vt.size_gb, 4);
	assert_int_equal(vt.series, 'q');
	assert_int_equal(gw_vgpu_type_parse("nvidia_l40s-48", &vt), -1);
	assert_int_equal(gw_vgpu_type_parse("nvidia_l40s-c", &vt), -1);

	z = gw_gpu_vgpu_sizes(l40s, 'c', 0);
	assert_string_equal(z, "4, 6, 8, 12, 16, 24, 48");
	free(z);
	assert_null(gw_gpu_vgpu_sizes(l40s, 'c', 1));
	/* the Q-, B- and A-series rows of the L40S (vgpu_types.csv) */
	z = gw_gpu_vgpu_sizes(l40s, 'q', 0);
	assert_string_equal(z, "1, 2, 3, 4, 6, 8, 12, 16, 24, 48");
	free(z);
	z = gw_gpu_vgpu_sizes(l40s, 'b', 0);
	assert_string_equal(z, "1, 2, 3");
	free(z);
	assert_null(gw_gpu_vgpu_sizes(a100, 'q', 0));
	assert_int_equal(gw_gpu_vgpu_full_size(l40s, 'q'), 48);
	z = gw_gpu_vgpu_sizes(a100, 'c', 1);
	assert_string_equal(z, "1-5, 1-10, 2-10, 3-20, 4-20, 7-40");
	free(z);
	assert_int_equal(gw_gpu_vgpu_full_size(l40s, 'c'), 48);
	assert_int_equal(gw_gpu_vgpu_full_size(v100, 'c'), -1);

	assert_int_equal(gw_gpu_vgpu_check(l40s, "nvidia_l40s-24c", &e), 0);
	assert_int_equal(gw_gpu_vgpu_check(l40s, "nvidia_l40s-24q", &e), 0);
	assert_int_equal(gw_gpu_vgpu_check(l40s, "nvidia_l40s-47q", &e), -1);
	assert_non_null(strstr(e.msg, "creatable_vgpu_types"));
	assert_int_equal(gw_gpu_vgpu_check(l40s, "nvidia_l40s-47c", &e), -1);
	assert_non_null(strstr(e.msg, "4, 6, 8, 12, 16, 24, 48"));
	assert_int_equal(gw_gpu_vgpu_check(a100, "grid_a100-3-20c", &e), 0);
	assert_int_equal(gw_gpu_vgpu_check(a100, "grid_a100-3-40c", &e), -1);
	/* no list: not checked */
	assert_int_equal(gw_gpu_vgpu_check(v100, "grid_v100-7c", &e), 0);

	/* the Q- and A-series of the Turing, Volta and Ampere boards: the
	 * types of vgpuConfig.xml, driver 510.47.03 (data/vgpu_types.csv) */
	assert_non_null(t4);
	assert_non_null(a40);
	z = gw_gpu_vgpu_sizes(t4, 'q', 0);
	assert_string_equal(z, "1, 2, 4, 8, 16");
	free(z);
	z = gw_gpu_vgpu_sizes(a40, 'q', 0);
	assert_string_equal(z, "1, 2, 3, 4, 6, 8, 12, 16, 24, 48");
	free(z);
	z = gw_gpu_vgpu_sizes(v100, 'q', 0);
	assert_string_equal(z, "1, 2, 4, 8, 16");
	free(z);
	assert_int_equal(gw_gpu_vgpu_full_size(t4, 'q'), 16);
	assert_int_equal(gw_gpu_vgpu_check(t4, "grid_t4-16q", &e), 0);
	assert_int_equal(gw_gpu_vgpu_check(t4, "grid_t4-16a", &e), 0);
	assert_int_equal(gw_gpu_vgpu_check(t4, "grid_t4-3q", &e), -1);
	assert_non_null(strstr(e.msg, "Q-series sizes 1, 2, 4, 8, 16 "));
	assert_non_null(strstr(e.msg, "vgpuConfig.xml"));
	assert_int_equal(gw_gpu_vgpu_check(a40, "nvidia_a40-48q", &e), 0);
	assert_int_equal(gw_gpu_vgpu_check(a40, "nvidia_a40-5q", &e), -1);
	assert_int_equal(gw_gpu_vgpu_check(v100, "grid_v100-32q", &e), -1);
	/* the B-series of these boards has no row: not checked */
	assert_int_equal(gw_gpu_vgpu_check(t4, "grid_t4-2b", &e), 0);
	/* the RTX 6000 Ada's Q-series: creatable_vgpu_types, type ids
	 * 941-950 (an NVIDIA kernel doc's capture) */
	assert_non_null(ada6k);
	assert_int_equal(gw_gpu_vgpu_check(ada6k, "nvidia_rtx6000-ada-48q", &e), 0);
	assert_int_equal(gw_gpu_vgpu_check(ada6k, "nvidia_rtx6000-ada-5q", &e), -1);
	assert_non_null(strstr(e.msg, "1, 2, 3, 4, 6, 8, 12, 16, 24, 48"));
	/* the A100 boards: vgpuConfig.xml 510.47.03 lists C-series only, so
	 * a Q, A or B profile of any size is no type of theirs */
	assert_non_null(a100);
	assert_string_equal(a100->vgpu_no_series, "qab");
	assert_int_equal(gw_gpu_vgpu_check(a100, "grid_a100-40c", &e), 0);
	assert_int_equal(gw_gpu_vgpu_check(a100, "grid_a100-40q", &e), -1);
	assert_non_null(strstr(e.msg, "no Q-series vGPU types on it, only C-series, sizes 4, 5, 8, 10, 20, 40 "));
	assert_int_equal(gw_gpu_vgpu_check(a100, "grid_a100-2b", &e), -1);
	/* a board without the mark: a series it does not list stays unjudged */
	assert_string_equal(t4->vgpu_no_series, "");

	/* Table 18: Tesla V100 (all variants) 64, A100 40GB 128; the L40S
	 * is not in it */
	assert_int_equal(v100->vgpu_mmio_gb, 64);
	assert_int_equal(a100->vgpu_mmio_gb, 128);
	assert_int_equal(l40s->vgpu_mmio_gb, 0);
	assert_non_null(strstr(a100->vgpu_source, "Table 18"));
}

static void
test_sizes(void **state)
{
	const gw_gpu *g;

	(void)state;
	assert_int_equal(must_find("10de:20b5")->vram_gb, 80);
	assert_int_equal(must_find("a10m")->vram_gb, -1);
	assert_int_equal(must_find("a10m")->nbar1, 0);
	assert_int_equal(gw_gpu_bar1_max_mib(must_find("a10m")), 0);
	g = must_find("rtx-3090");
	assert_int_equal(g->nbar1, 2);
	assert_int_equal(g->bar1_mib[0], 256);
	assert_int_equal(g->bar1_mib[1], 32768);
	assert_int_equal(gw_gpu_bar1_max_mib(g), 32768);
	assert_int_equal(gw_gpu_bar1_max_mib(must_find("h200-sxm")), 262144);
	assert_int_equal(gw_gpu_bar1_max_mib(NULL), 0);
	g = must_find("a2");
	assert_int_equal(g->subsys_vendor, 0x10de);
	assert_int_equal(g->subsys_device, 0x157e);
	assert_int_equal(must_find("l40s")->subsys_vendor, 0);
}

/* ---- default path ------------------------------------------------------ */

static void
test_default_path(void **state)
{
	const char *env = getenv("GPUWIZ_TABLE");
	char *saved = env ? gw_xstrdup(env) : NULL;
	char *p;
	gw_err e;
	struct stat st;

	(void)state;
	setenv("GPUWIZ_TABLE", "/nonexistent/gpus.ini", 1);
	p = gw_table_default_path(&e);
	assert_string_equal(p, "/nonexistent/gpus.ini");
	free(p);

	unsetenv("GPUWIZ_TABLE");
	memset(&e, 0, sizeof e);
	p = gw_table_default_path(&e);
	if (p != NULL) {
		assert_int_equal(stat(p, &st), 0);
		assert_true(S_ISREG(st.st_mode));
		free(p);
	} else {
		assert_contains(e.msg, "no GPU table found (tried ");
		assert_contains(e.msg, "gpus.ini");
	}
	if (saved) {
		setenv("GPUWIZ_TABLE", saved, 1);
		free(saved);
	}
}

/* ---- broken tables ----------------------------------------------------- */

#define GOOD_L40S \
	"[l40s]\n" \
	"name        = \"AD102GL [L40S]\"\n" \
	"vendor_id   = 0x10de\n" \
	"device_id   = 0x26b9\n" \
	"vram_gb     = 48\n" \
	"bar1_mib    = 65536\n" \
	"vgpu_prefix = nvidia_l40s\n" \
	"class       = datacenter\n" \
	"sriov       = yes\n" \
	"source      = \"test\"\n"

static char *
write_tmp(const char *dir, const char *name, const char *data, size_t len)
{
	char *path = gw_xasprintf("%s/%s", dir, name);
	FILE *f = fopen(path, "wb");

	assert_non_null(f);
	assert_int_equal(fwrite(data, 1, len, f), len);
	assert_int_equal(fclose(f), 0);
	return path;
}

/* needle with its first "%s" replaced by path (malloc'ed). */
static char *
with_path(const char *needle, const char *path)
{
	const char *at = strstr(needle, "%s");

	if (at == NULL)
		return gw_xstrdup(needle);
	return gw_xasprintf("%.*s%s%s", (int)(at - needle), needle, path, at + 2);
}

/* Load text as a table; expect failure with each of the needles (the
 * first %s in n1 is the path). */
static void
expect_error(const char *dir, const char *text, const char *n1,
             const char *n2)
{
	char *path = write_tmp(dir, "t.ini", text, strlen(text));
	char *want;
	gw_table t;
	gw_err e;

	memset(&e, 0, sizeof e);
	if (gw_table_load(&t, path, &e) == 0)
		fail_msg("table loaded, expected '%s':\n%s", n1, text);
	assert_int_equal(t.n, 0);
	assert_null(t.gpus);
	gw_table_free(&t);
	assert_null(strchr(e.msg, '\n'));
	want = with_path(n1, path);
	assert_contains(e.msg, want);
	free(want);
	if (n2)
		assert_contains(e.msg, n2);
	unlink(path);
	free(path);
}

static void
test_broken_tables(void **state)
{
	static const char good[] =
		GOOD_L40S "\n[a2]\nname = 'GA107GL [A2 / A16]'\n"
		"vendor_id = 0x10de\ndevice_id = 0x25b6\n"
		"subsys_id = 0x10de:0x157e\nvram_gb = unknown\n"
		"bar1_mib = 256|16384\nclass = datacenter\nsriov = no\n"
		"source = 'says \"A2\"; see #4 (x)'\n";
	char *dir = tu_tmpdir();
	char *path, *msg;
	char garbage[4096];
	gw_table t;
	gw_err e;
	size_t i;

	(void)state;
	/* missing file */
	path = gw_xasprintf("%s/missing.ini", dir);
	assert_int_equal(gw_table_load(&t, path, &e), -1);
	msg = gw_xasprintf("%s: cannot open: No such file or directory", path);
	assert_string_equal(e.msg, msg);
	free(msg);
	free(path);
	gw_table_free(&t);

	/* a directory */
	assert_int_equal(gw_table_load(&t, dir, &e), -1);
	assert_contains(e.msg, dir);
	assert_contains(e.msg, "is a directory");

	/* empty file, comments only */
	expect_error(dir, "", "%s: no GPUs in the table", NULL);
	expect_error(dir, "# nothing\n; here\n\n", "%s: no GPUs in the table", NULL);

	/* binary garbage, with and without NUL bytes */
	for (i = 0; i < sizeof garbage; i++)
		garbage[i] = (char)((i * 2654435761u) >> 13);
	path = write_tmp(dir, "bin.ini", garbage, sizeof garbage);
	assert_int_equal(gw_table_load(&t, path, &e), -1);
	assert_contains(e.msg, path);
	assert_contains(e.msg, "binary data");
	unlink(path);
	free(path);
	for (i = 0; i < sizeof garbage - 1; i++)
		garbage[i] = (char)(0x80 | (i * 7));
	garbage[sizeof garbage - 1] = '\0';
	expect_error(dir, garbage, "%s:1: line too long", NULL);

	/* syntax error: the line is named */
	expect_error(dir, GOOD_L40S "\n[l4]\nthis is not ini\n",
	             "%s:13: syntax error, expected 'key = value'",
	             "got 'this is not ini'");
	expect_error(dir, "# ok\n[a\n", "%s:2: syntax error", NULL);
	expect_error(dir, "[x]\n\x1b[31mred\n", "%s:2: syntax error", "got '?[31mred'");

	/* fields */
	expect_error(dir,
	             "[l40s]\nname = \"AD102GL [L40S]\"\nvendor_id = 0x10de\n"
	             "device_id = 0xzz\nvram_gb = 48\nbar1_mib = unknown\nsource = x\n",
	             "%s:4: [l40s] device_id: '0xzz' is not a PCI device id", NULL);
	expect_error(dir,
	             "[l40s]\nname = x\nvendor_id = 0x10de0\ndevice_id = 1\n"
	             "vram_gb = 48\nbar1_mib = unknown\nsource = x\n",
	             "%s:3: [l40s] vendor_id: '0x10de0'", NULL);
	expect_error(dir,
	             "[l40s]\nvendor_id = 0x10de\ndevice_id = 0x26b9\n"
	             "vram_gb = 48\nbar1_mib = unknown\nsource = x\n",
	             "%s:1: [l40s] has no name", NULL);
	expect_error(dir,
	             "[l40s]\nname = x\ndevice_id = 0x26b9\n"
	             "vram_gb = 48\nbar1_mib = unknown\nsource = x\n",
	             "%s:1: [l40s] has no vendor_id", NULL);
	expect_error(dir,
	             "[l40s]\nname = x\nvendor_id = 0x10de\ndevice_id = 0x26b9\n"
	             "vram_gb = 48GB\nbar1_mib = unknown\nsource = x\n",
	             "%s:5: [l40s] vram_gb: '48GB'", "'unknown'");
	expect_error(dir,
	             "[l40s]\nname = x\nvendor_id = 0x10de\ndevice_id = 0x26b9\n"
	             "vram_gb = 48\nbar1_mib = 65536|256\nsource = x\n",
	             "%s:6: [l40s] bar1_mib: '65536|256'", NULL);
	expect_error(dir,
	             "[l40s]\nname = x\nvendor_id = 0x10de\ndevice_id = 0x26b9\n"
	             "vram_gb = 48\nbar1_mib = 6000\nsource = x\n",
	             "%s:6: [l40s] bar1_mib: '6000'", NULL);
	expect_error(dir,
	             "[l40s]\nname = x\nvendor_id = 0x10de\ndevice_id = 0x26b9\n"
	             "vram_gb = 48\nbar1_mib = 256\nsource = x\nsubsys_id = 10de\n",
	             "%s:8: [l40s] subsys_id: '10de'", NULL);
	expect_error(dir,
	             "[l40s]\nname = x\nvendor_id = 0x10de\ndevice_id = 0x26b9\n"
	             "vram_gb = 48\nbar1_mib = 256\nsource = x\nvgpu_prefix = l40s\n",
	             "%s:8: [l40s] vgpu_prefix: 'l40s'", NULL);
	expect_error(dir,
	             "[l40s]\nname = x\nvendor_id = 0x10de\ndevice_id = 0x26b9\n"
	             "vram_gb = 48\nbar1_mib = 256\nsource = x\nvram = 48\n",
	             "%s:8: [l40s] unknown key 'vram'", NULL);
	/* class and sriov */
#define NO_KIND "[l40s]\nname = x\nvendor_id = 0x10de\ndevice_id = 0x26b9\n" \
	"vram_gb = 48\nbar1_mib = 256\nsource = x\n"
	expect_error(dir, NO_KIND, "%s:1: [l40s] has no class",
	             "datacenter, workstation or geforce");
	expect_error(dir, NO_KIND "class = server\n",
	             "%s:8: [l40s] class: 'server' is not a GPU class", NULL);
	expect_error(dir, NO_KIND "class = geforce\n",
	             "%s:1: [l40s] has no sriov (expected yes or no)", NULL);
	expect_error(dir, NO_KIND "class = geforce\nsriov = true\n",
	             "%s:9: [l40s] sriov: 'true' is not yes or no", NULL);
	expect_error(dir, NO_KIND "class = geforce\nsriov = yes\n",
	             "%s:9: [l40s] sriov: 'yes' without a vgpu_prefix", NULL);
	/* the vGPU keys: only with a prefix, well formed, with a source */
	expect_error(dir, NO_KIND "vgpu_mmio_gb = 64\nvgpu_source = s\n",
	             "%s:8: [l40s] vgpu_mmio_gb without a vgpu_prefix", NULL);
	expect_error(dir, NO_KIND "vgpu_prefix = nvidia_l40s\n"
	             "vgpu_types = \"4c 47\"\nvgpu_source = s\n",
	             "%s:9: [l40s] vgpu_types: '47' is not a vGPU type ending",
	             NULL);
	/* an entry the lookups would not find as spelt: a zero slice
	 * count, a leading zero, an upper-case series */
	expect_error(dir, NO_KIND "vgpu_prefix = nvidia_l40s\n"
	             "vgpu_types = \"4c 0-18c\"\nvgpu_source = s\n",
	             "%s:9: [l40s] vgpu_types: '0-18c' is not a vGPU type ending",
	             NULL);
	expect_error(dir, NO_KIND "vgpu_prefix = nvidia_l40s\n"
	             "vgpu_types = \"048c\"\nvgpu_source = s\n",
	             "%s:9: [l40s] vgpu_types: '048c' is not a vGPU type ending",
	             NULL);
	expect_error(dir, NO_KIND "vgpu_prefix = nvidia_l40s\n"
	             "vgpu_types = \"48C\"\nvgpu_source = s\n",
	             "%s:9: [l40s] vgpu_types: '48C' is not a vGPU type ending",
	             NULL);
	expect_error(dir, NO_KIND "vgpu_prefix = nvidia_l40s\n"
	             "vgpu_mmio_gb = 0\nvgpu_source = s\n",
	             "%s:9: [l40s] vgpu_mmio_gb: '0' is not a size in GB", NULL);
	expect_error(dir, NO_KIND "vgpu_prefix = nvidia_l40s\n"
	             "vgpu_types = \"4c 48c\"\n",
	             "%s:9: [l40s] vgpu_types without a vgpu_source", NULL);
#undef NO_KIND
	expect_error(dir, "[L 40]\nname = x\n",
	             "%s:1: [l 40] is not a valid GPU id", NULL);

	/* what iniparser would accept silently */
	expect_error(dir, "name = x\n" GOOD_L40S,
	             "%s:1: 'name' is outside any [section]", NULL);
	expect_error(dir, GOOD_L40S "\n[L40S]\nname = y\n",
	             "%s:12: duplicate section [l40s] (first at line 1)", NULL);
	expect_error(dir, GOOD_L40S "name = again\n",
	             "%s:11: [l40s] name is set twice (first at line 2)", NULL);
	expect_error(dir, GOOD_L40S "\n" "[l40s-copy]\nname = y\nvendor_id = 0x10de\n"
	             "device_id = 0x26b9\nvram_gb = 48\nbar1_mib = 256\nsource = z\n"
	             "class = datacenter\nsriov = no\n",
	             "%s:12: [l40s-copy] has the same PCI id 10de:26b9 as [l40s]", NULL);
	expect_error(dir, GOOD_L40S "\n" "[other]\nname = y\nvendor_id = 0x10de\n"
	             "device_id = 0x26ba\nvram_gb = 48\nbar1_mib = 256\nsource = z\n"
	             "vgpu_prefix = grid_l40s\nclass = datacenter\nsriov = yes\n",
	             "%s:19: [other] vgpu_prefix: 'grid_l40s' names the same board as [l40s]",
	             NULL);

	/* and a good one, with values iniparser must keep intact */
	path = write_tmp(dir, "ok.ini", good, strlen(good));
	if (gw_table_load(&t, path, &e) != 0)
		fail_msg("%s", e.msg);
	assert_int_equal(t.n, 2);
	assert_string_equal(t.gpus[1].source, "says \"A2\"; see #4 (x)");
	assert_int_equal(t.gpus[1].vram_gb, -1);
	assert_int_equal(gw_gpu_bar1_max_mib(&t.gpus[1]), 16384);
	gw_table_free(&t);
	gw_table_free(&t);   /* twice is harmless */
	unlink(path);
	free(path);

	/* CRLF line ends and no final newline read the same */
	{
		gw_buf b;

		gw_buf_init(&b);
		for (i = 0; good[i]; i++) {
			if (good[i] == '\n')
				gw_buf_add(&b, "\r", 1);
			gw_buf_add(&b, &good[i], 1);
		}
		b.len -= 2;   /* drop the last CRLF */
		path = write_tmp(dir, "crlf.ini", b.data, b.len);
		gw_buf_free(&b);
		if (gw_table_load(&t, path, &e) != 0)
			fail_msg("%s", e.msg);
		assert_int_equal(t.n, 2);
		assert_string_equal(t.gpus[0].name, "AD102GL [L40S]");
		assert_string_equal(t.gpus[1].source, "says \"A2\"; see #4 (x)");
		gw_table_free(&t);
		unlink(path);
		free(path);
	}

	assert_int_equal(rmdir(dir), 0);
	free(dir);
}

/* A table of many rows, so that it spans several of iniparser's runs of
 * sections (gt_ini_load) and the index holds more than a few: row i is
 * [gNNN], PCI id 10de:(0x1000 + i), board bNNN; rows 100 and 101 share
 * 10de:2000 and are told apart by their subsystems.  Each row is 11
 * lines; row i's header is at line 11 * i + 1. */
#define MANY_ROWS 300
#define MANY_LINE(i) (11 * (i) + 1)

static void
many_row(gw_buf *b, size_t i)
{
	unsigned dev = i == 100 || i == 101 ? 0x2000 : 0x1000 + (unsigned)i;

	gw_buf_printf(b, "[g%03zu]\nname = \"Board [B%03zu]\"\n"
	              "vendor_id = 0x10de\ndevice_id = 0x%04x\n%s"
	              "vram_gb = 16\nbar1_mib = 256\nsource = s\n"
	              "vgpu_prefix = nvidia_b%03zu\nclass = datacenter\n"
	              "sriov = no\n",
	              i, i, dev,
	              i == 100 ? "subsys_id = 0x10de:0x0100\n" :
	              i == 101 ? "subsys_id = 0x10de:0x0101\n" : "",
	              i);
	/* rows 100 and 101 have a line more: no blank line after them */
	if (i != 100 && i != 101)
		gw_buf_puts(b, "\n");
}

/* The many-row table, with line `line` (from 1) replaced by repl when
 * repl is not NULL. */
static char *
many_table(int line, const char *repl)
{
	gw_buf b, out;
	size_t i;
	int n = 0;
	const char *p, *nl;

	gw_buf_init(&b);
	for (i = 0; i < MANY_ROWS; i++)
		many_row(&b, i);
	if (repl == NULL)
		return gw_buf_steal(&b);
	gw_buf_init(&out);
	for (p = b.data; *p; p = nl + 1) {
		nl = strchr(p, '\n');
		if (++n == line)
			gw_buf_printf(&out, "%s\n", repl);
		else
			gw_buf_add(&out, p, (size_t)(nl - p + 1));
	}
	gw_buf_free(&b);
	return gw_buf_steal(&out);
}

static void
test_index_many_rows(void **state)
{
	char *dir = tu_tmpdir(), *text, *path, *spec;
	gw_table t;
	gw_err e;
	size_t i;
	int amb;

	(void)state;
	text = many_table(0, NULL);
	path = write_tmp(dir, "many.ini", text, strlen(text));
	free(text);
	if (gw_table_load(&t, path, &e) != 0)
		fail_msg("%s", e.msg);
	assert_int_equal(t.n, MANY_ROWS);
	for (i = 0; i < MANY_ROWS; i++) {
		char id[16];

		/* the table's order */
		snprintf(id, sizeof id, "g%03zu", i);
		assert_string_equal(t.gpus[i].id, id);
		/* by id, any case */
		id[0] = 'G';
		assert_ptr_equal(gw_table_lookup(&t, id, &e), &t.gpus[i]);
		/* by vGPU profile */
		spec = gw_xasprintf("NVIDIA_b%03zu-4c", i);
		assert_ptr_equal(gw_table_lookup(&t, spec, &e), &t.gpus[i]);
		free(spec);
		if (i == 100 || i == 101)
			continue;
		/* by PCI id */
		spec = gw_xasprintf("10de:%04zx", 0x1000 + i);
		assert_ptr_equal(gw_table_lookup(&t, spec, &e), &t.gpus[i]);
		free(spec);
		assert_ptr_equal(gw_table_find_pci(&t, 0x10de, 0x1000 + (unsigned)i,
		                                   0, 0, NULL), &t.gpus[i]);
	}
	/* one PCI id, two rows: the subsystem decides */
	assert_ptr_equal(gw_table_find_pci(&t, 0x10de, 0x2000, 0x10de, 0x0101,
	                                   &amb), &t.gpus[101]);
	assert_null(gw_table_find_pci(&t, 0x10de, 0x2000, 0, 0, &amb));
	assert_int_equal(amb, 1);
	assert_null(gw_table_lookup(&t, "10de:2000", &e));
	assert_contains(e.msg, "GPU '10de:2000' is ambiguous: g100, g101");
	assert_ptr_equal(gw_table_lookup(&t, "10de:2000:10de:0100", &e),
	                 &t.gpus[100]);
	/* unknown */
	assert_null(gw_table_find_pci(&t, 0x10de, 0x0fff, 0, 0, &amb));
	assert_int_equal(amb, 0);
	assert_null(gw_table_lookup(&t, "g300", &e));
	assert_null(gw_table_lookup(&t, "nvidia_b300-4c", &e));
	assert_contains(e.msg, "unknown vGPU profile 'nvidia_b300-4c'");
	gw_table_free(&t);
	unlink(path);
	free(path);

	/* errors far into the table name their line, in a later run of
	 * sections than the first */
	text = many_table(MANY_LINE(250) + 2, "this is not ini");
	expect_error(dir, text, "%s:2753: syntax error", "got 'this is not ini'");
	free(text);
	/* a repeated section: both lines named */
	text = many_table(MANY_LINE(280), "[G007]");
	expect_error(dir, text,
	             "%s:3081: duplicate section [g007] (first at line 78)",
	             NULL);
	free(text);
	/* ... but a syntax error anywhere comes first */
	{
		char *t2 = many_table(MANY_LINE(280), "[g007]");
		char *t3 = gw_xasprintf("%sbroken line\n", t2);

		expect_error(dir, t3, "%s:3301: syntax error", NULL);
		free(t3);
		free(t2);
	}
	/* a key set twice in a late section */
	text = many_table(MANY_LINE(290) + 1, "vram_gb = 16");
	expect_error(dir, text,
	             "%s:3195: [g290] vram_gb is set twice (first at line 3192)",
	             NULL);
	free(text);
	/* the same PCI id: the later row's line, the earlier row's id */
	text = many_table(MANY_LINE(270) + 3, "device_id = 0x1005");
	expect_error(dir, text,
	             "%s:2971: [g270] has the same PCI id 10de:1005 as [g005]",
	             NULL);
	free(text);
	/* the same board: the later row's vgpu_prefix line */
	text = many_table(MANY_LINE(260) + 7, "vgpu_prefix = grid_b003");
	expect_error(dir, text,
	             "%s:2868: [g260] vgpu_prefix: 'grid_b003' names the same board as [g003] (nvidia_b003)",
	             NULL);
	free(text);
	assert_int_equal(rmdir(dir), 0);
	free(dir);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_csv_row_is_in_the_table),
		cmocka_unit_test(test_ids_and_prefixes_are_well_formed),
		cmocka_unit_test(test_class_and_sriov),
		cmocka_unit_test(test_lookup_short_id),
		cmocka_unit_test(test_lookup_pci),
		cmocka_unit_test(test_find_pci),
		cmocka_unit_test(test_lookup_vgpu_profile),
		cmocka_unit_test(test_lookup_name),
		cmocka_unit_test(test_sizes),
		cmocka_unit_test(test_vgpu_types),
		cmocka_unit_test(test_default_path),
		cmocka_unit_test(test_broken_tables),
		cmocka_unit_test(test_index_many_rows),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
