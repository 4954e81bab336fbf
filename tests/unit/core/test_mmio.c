/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_mmio.c: the MMIO rule, BAR packing and size parsing. */
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ >= 12
# pragma GCC diagnostic ignored "-Wdangling-pointer"   /* as test_plan.c */
#endif

#include "testutil.h"
#include "mmio.h"
#include "plan.h"
#include "answers.h"

static gw_table table;
TU_TABLE_GROUP(setup_table, teardown_table)

#define GiB (UINT64_C(1) << 30)
#define MiB (UINT64_C(1) << 20)

/* Independent reference for the rule, written the way KB 323402 says it:
 * walk the powers of two; a total that is one of them goes to the next;
 * otherwise stop at the first power above it and go one higher. */
static uint64_t
ref_rule(uint64_t total)
{
	uint64_t p;

	for (p = 1; p < total; p *= 2)
		;
	/* p == total: a power of two, take the next one (2p); p > total:
	 * p is the round-up, then one power higher (2p again) */
	return p * 2;
}

/* Second reference that shares no code path with the loop: counting bits. */
static uint64_t
ref_rule_bits(uint64_t total)
{
	int bits = 0;
	uint64_t t = total - 1;

	while (t) {
		bits++;
		t >>= 1;
	}
	/* bits = ceil(log2(total)) for total >= 2, 0 for 1 */
	return UINT64_C(1) << (bits + 1);
}

static void
test_rule_all_totals(void **state)
{
	uint64_t t, out;
	gw_err e;

	(void)state;
	for (t = 1; t <= GW_MMIO_MAX_TOTAL_GB; t++) {
		assert_int_equal(gw_mmio_rule(t, &out, &e), 0);
		if (out != ref_rule(t) || out != ref_rule_bits(t))
			fail_msg("rule(%llu) = %llu, expected %llu",
			         (unsigned long long)t, (unsigned long long)out,
			         (unsigned long long)ref_rule(t));
		/* properties: a power of two, strictly above the total, and
		 * at most four times it */
		assert_true(gw_is_pow2(out));
		assert_true(out > t);
		assert_true(out <= 4 * t);
	}
}

static void
test_rule_documented_examples(void **state)
{
	static const struct { uint64_t total, want; } ex[] = {
		{ 80, 256 },   /* 1 x A100 80 GB -> 128 -> 256 (KB, seed 000) */
		{ 48, 128 },   /* 2 x 24 GB = 48 -> 64 -> 128 (KB) */
		{ 64, 128 },   /* a power of two: the next */
		{ 1, 2 },
		{ 2, 4 },
		{ 3, 8 },
		{ 12, 32 },    /* RTX 3060 12 GB: 32, not seed 002's "2" */
		{ 16, 32 },    /* V100 16 / T4: NVIDIA table says 64 for V100-32 */
		{ 24, 64 },    /* A10/A30/L4: NVIDIA "MMIO space required" 64 */
		{ 40, 128 },   /* A100-40: NVIDIA 128 */
		{ 141, 512 },  /* H200: NVIDIA 512 */
		{ 160, 512 },  /* 2 x A100 80 */
		{ 72, 256 },   /* P40 24 + L40S 48 */
		{ 65536, 131072 },
	};
	size_t i;
	uint64_t out;
	gw_err e;

	(void)state;
	for (i = 0; i < sizeof ex / sizeof ex[0]; i++) {
		assert_int_equal(gw_mmio_rule(ex[i].total, &out, &e), 0);
		assert_int_equal(out, ex[i].want);
	}
}

static void
test_rule_limits(void **state)
{
	uint64_t out = 7;
	gw_err e;

	(void)state;
	e.msg[0] = '\0';
	assert_int_equal(gw_mmio_rule(0, &out, &e), -1);
	assert_non_null(strstr(e.msg, "out of range"));
	assert_int_equal(out, 7);
	assert_int_equal(gw_mmio_rule(GW_MMIO_MAX_TOTAL_GB + 1, &out, &e), -1);
	assert_non_null(strstr(e.msg, "65537"));
	assert_int_equal(gw_mmio_rule(UINT64_MAX, &out, &e), -1);
	assert_int_equal(gw_mmio_rule(UINT64_C(1) << 63, &out, &e), -1);
	assert_int_equal(out, 7);
	/* NULL error pointer is allowed */
	assert_int_equal(gw_mmio_rule(0, &out, NULL), -1);
}

static void
test_pow2_helpers(void **state)
{
	(void)state;
	assert_false(gw_is_pow2(0));
	assert_true(gw_is_pow2(1));
	assert_true(gw_is_pow2(2));
	assert_false(gw_is_pow2(3));
	assert_true(gw_is_pow2(UINT64_C(1) << 63));
	assert_false(gw_is_pow2(UINT64_MAX));
	assert_int_equal(gw_pow2_ceil(1), 1);
	assert_int_equal(gw_pow2_ceil(3), 4);
	assert_int_equal(gw_pow2_ceil(64), 64);
	assert_int_equal(gw_pow2_ceil(65), 128);
	assert_true(gw_pow2_ceil(UINT64_C(1) << 63) == UINT64_C(1) << 63);
	assert_int_equal(gw_pow2_ceil((UINT64_C(1) << 63) + 1), 0);
	assert_int_equal(gw_pow2_ceil(UINT64_MAX), 0);
}

static void
test_bars(void **state)
{
	uint64_t out;
	gw_err e;
	/* L40S: BAR1 64 GiB (nvidia-smi, gpu_facts.csv) + BAR3 32 MiB
	 * (every NVIDIA lspci capture with a size) */
	uint64_t l40s[] = { 32 * MiB, 64 * GiB };
	/* 2 x H100 SXM: BAR1 128 GiB each + BAR3: 256 GiB + 64 MiB -> 512 */
	uint64_t h100x2[] = { 128 * GiB, 32 * MiB, 128 * GiB, 32 * MiB };
	/* P40 + L40S: 32 GiB + 64 GiB + 2 x 32 MiB = 96 GiB + 64 MiB -> 128 */
	uint64_t mixed[] = { 32 * GiB, 32 * MiB, 64 * GiB, 32 * MiB };
	/* one BAR exactly a power of two stays */
	uint64_t one[] = { 64 * GiB };
	/* zero sizes are ignored */
	uint64_t zeros[] = { 0, 16 * GiB, 0 };
	/* small BARs only */
	uint64_t small[] = { 16 * MiB, 32 * MiB };
	/* packing order matters: in the given order 1 MiB @0, 4 MiB @4 MiB
	 * (alignment), 1 MiB @8 MiB ends at 9 MiB -> 16 MiB; largest first
	 * ends at 6 MiB -> 8 MiB */
	uint64_t order[] = { MiB, 4 * MiB, MiB };

	(void)state;
	assert_int_equal(gw_mmio_bars(l40s, 2, &out, &e), 0);
	assert_true(out == 128 * GiB);
	assert_int_equal(gw_mmio_bars(h100x2, 4, &out, &e), 0);
	assert_true(out == 512 * GiB);
	assert_int_equal(gw_mmio_bars(mixed, 4, &out, &e), 0);
	assert_true(out == 128 * GiB);
	assert_int_equal(gw_mmio_bars(one, 1, &out, &e), 0);
	assert_true(out == 64 * GiB);
	assert_int_equal(gw_mmio_bars(zeros, 3, &out, &e), 0);
	assert_true(out == 16 * GiB);
	assert_int_equal(gw_mmio_bars(small, 2, &out, &e), 0);
	assert_true(out == 64 * MiB);
	assert_int_equal(gw_mmio_bars(order, 3, &out, &e), 0);
	assert_true(out == 8 * MiB);
	assert_int_equal(gw_mmio_bars(NULL, 0, &out, &e), 0);
	assert_true(out == 0);
	/* the input is not reordered */
	assert_true(l40s[0] == 32 * MiB && l40s[1] == 64 * GiB);
}

static void
test_bars_errors(void **state)
{
	uint64_t out = 5;
	gw_err e;
	uint64_t notpow2[] = { 64 * GiB, 48 * GiB };
	uint64_t huge[] = { UINT64_C(1) << 63 };
	uint64_t max1[] = { GW_MMIO_MAX_WINDOW_GB * GiB };
	uint64_t over[] = { GW_MMIO_MAX_WINDOW_GB * GiB, 32 * MiB };
	uint64_t *many;
	size_t i;

	(void)state;
	assert_int_equal(gw_mmio_bars(notpow2, 2, &out, &e), -1);
	assert_non_null(strstr(e.msg, "not a power of two"));
	assert_int_equal(gw_mmio_bars(huge, 1, &out, &e), -1);
	assert_non_null(strstr(e.msg, "not plausible"));
	assert_int_equal(gw_mmio_bars(max1, 1, &out, &e), 0);
	assert_true(out == GW_MMIO_MAX_WINDOW_GB * GiB);
	out = 5;
	assert_int_equal(gw_mmio_bars(over, 2, &out, &e), -1);
	assert_int_equal(out, 5);
	/* many large BARs whose sum would wrap a uint64_t */
	many = gw_xcalloc(70000, sizeof *many);
	for (i = 0; i < 70000; i++)
		many[i] = UINT64_C(1) << 46;
	assert_int_equal(gw_mmio_bars(many, 70000, &out, &e), -1);
	assert_int_equal(out, 5);
	free(many);
	assert_int_equal(gw_mmio_bars(NULL, 3, &out, &e), -1);
}

static void
test_parse_gb_ok(void **state)
{
	static const struct { const char *s; uint64_t v; } ok[] = {
		{ "48", 48 }, { "1", 1 }, { "4096", 4096 }, { " 80 ", 80 },
		{ "48GB", 48 }, { "48gb", 48 }, { "48 GB", 48 }, { "48G", 48 },
		{ "48g", 48 }, { "048", 48 }, { "24Gb", 24 },
	};
	size_t i;
	uint64_t v;
	gw_err e;

	(void)state;
	for (i = 0; i < sizeof ok / sizeof ok[0]; i++) {
		v = 0;
		if (gw_parse_gb(ok[i].s, "--vram", GW_MMIO_MAX_GPU_GB, &v, &e))
			fail_msg("'%s': %s", ok[i].s, e.msg);
		assert_int_equal(v, ok[i].v);
	}
}

static void
test_parse_gb_errors(void **state)
{
	static const struct { const char *s, *want; } bad[] = {
		{ "", "--vram: empty value" },
		{ "   ", "--vram: empty value" },
		{ "0", "--vram: 0 GB is not a plausible size (expected 1..4096)" },
		{ "99999", "--vram: 99999 GB is not a plausible size "
		           "(expected 1..4096)" },
		{ "4097", "not a plausible size" },
		{ "184467440737095516160", "not a plausible size" },
		{ "-1", "--vram: '-1' is not a whole number of GB" },
		{ "+1", "not a whole number" },
		{ "1.5", "--vram: '1.5' is not a whole number of GB" },
		{ "abc", "not a whole number" },
		{ "0x30", "not a whole number" },
		{ "48MB", "not a whole number" },
		{ "48 TB", "not a whole number" },
		{ "48GBs", "not a whole number" },
		{ "GB", "not a whole number" },
		{ "4 8", "not a whole number" },
	};
	size_t i;
	uint64_t v = 7;
	gw_err e;

	(void)state;
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		e.msg[0] = '\0';
		if (gw_parse_gb(bad[i].s, "--vram", GW_MMIO_MAX_GPU_GB, &v, &e)
		    != -1)
			fail_msg("'%s' accepted", bad[i].s);
		if (strstr(e.msg, bad[i].want) == NULL)
			fail_msg("'%s': got '%s', want '%s'", bad[i].s, e.msg,
			         bad[i].want);
		assert_int_equal(v, 7);
	}
	/* NULL input, NULL field: still one line naming something */
	assert_int_equal(gw_parse_gb(NULL, NULL, 10, &v, &e), -1);
	assert_non_null(strstr(e.msg, "empty value"));
	/* a long value is cut in the message */
	{
		char longv[300];

		memset(longv, 'x', sizeof longv - 1);
		longv[sizeof longv - 1] = '\0';
		assert_int_equal(gw_parse_gb(longv, "[gpu] vram", 10, &v, &e),
		                 -1);
		assert_non_null(strstr(e.msg, "[gpu] vram: "));
		assert_true(strlen(e.msg) < 200);
	}
}

/* gw_mmio_need_for: the one sizing the plan and "gpuwiz gpus" share. */
/* Bytes in whole GB, rounded up: how BAR needs are shown. */
static void
test_bytes_gb(void **state)
{
	(void)state;
	assert_int_equal(gw_mmio_bytes_gb(0), 0);
	assert_int_equal(gw_mmio_bytes_gb(1), 1);
	assert_int_equal(gw_mmio_bytes_gb((UINT64_C(32) << 20)), 1);
	assert_int_equal(gw_mmio_bytes_gb((UINT64_C(1) << 30)), 1);
	assert_int_equal(gw_mmio_bytes_gb((UINT64_C(1) << 30) + 1), 2);
	assert_int_equal(gw_mmio_bytes_gb(64 * (UINT64_C(1) << 30)), 64);
}

static void
test_need_for(void **state)
{
	const uint64_t gib = UINT64_C(1) << 30, mib = UINT64_C(1) << 20;
	/* 2 x H100 PCIe: BAR1 128 GiB + BAR3 32 MiB each */
	const uint64_t h100[] = { 128 * gib, 32 * mib, 128 * gib, 32 * mib };
	const uint64_t small[] = { 256 * mib, 32 * mib };
	const uint64_t odd[] = { 3 * mib };
	gw_mmio_need n;
	gw_err e;

	(void)state;
	assert_int_equal(gw_mmio_need_for(160, h100, 4, &n, &e), 0);
	assert_int_equal(n.rule_gb, 512);
	assert_int_equal(n.bar_gb, 512);   /* 256 GiB + 64 MiB -> 512 GiB */
	assert_int_equal(n.bar_end, 256 * gib + 64 * mib);
	assert_int_equal(n.mmio_gb, 512);

	/* the rule wins; a BAR need under 1 GiB counts as 1 GB */
	assert_int_equal(gw_mmio_need_for(48, small, 2, &n, &e), 0);
	assert_int_equal(n.rule_gb, 128);
	assert_int_equal(n.bar_gb, 1);
	assert_int_equal(n.mmio_gb, 128);

	/* no VRAM known: the BARs alone; no BARs: the rule alone */
	assert_int_equal(gw_mmio_need_for(0, h100, 2, &n, &e), 0);
	assert_int_equal(n.rule_gb, 0);
	assert_int_equal(n.bar_gb, 256);
	assert_int_equal(n.mmio_gb, 256);
	assert_int_equal(gw_mmio_need_for(80, NULL, 0, &n, &e), 0);
	assert_int_equal(n.bar_gb, 0);
	assert_int_equal(n.bar_end, 0);
	assert_int_equal(n.mmio_gb, 256);

	/* errors: the rule's first, then the BARs'; *out untouched */
	n.mmio_gb = 7;
	assert_int_equal(gw_mmio_need_for(GW_MMIO_MAX_TOTAL_GB + 1, odd, 1, &n,
	                                  &e), -1);
	assert_non_null(strstr(e.msg, "total framebuffer"));
	assert_int_equal(gw_mmio_need_for(48, odd, 1, &n, &e), -1);
	assert_non_null(strstr(e.msg, "power of two"));
	assert_int_equal(n.mmio_gb, 7);

	assert_int_equal(gw_mmio_bytes_gb(0), 0);
	assert_int_equal(gw_mmio_bytes_gb(1), 1);
	assert_int_equal(gw_mmio_bytes_gb(gib), 1);
	assert_int_equal(gw_mmio_bytes_gb(gib + 1), 2);
	assert_int_equal(gw_mmio_bytes_gb(64 * gib), 64);
}

/* gw_mmio_need_layout: largest first, each at a multiple of its size;
 * equal sizes keep their order; the tags follow their BARs. */
static void
test_layout(void **state)
{
	/* the order test of test_bars: 1 MiB, 4 MiB, 1 MiB */
	gw_mmio_bar b[] = { { MiB, 9, 10 }, { 4 * MiB, 9, 11 },
	                    { MiB, 9, 12 }, { 0, 9, 13 } };
	/* 2 x L40S given GPU by GPU: BAR1, BAR3, BAR1, BAR3 */
	gw_mmio_bar l[] = { { 64 * GiB, 0, 0 }, { 32 * MiB, 0, 1 },
	                    { 64 * GiB, 0, 2 }, { 32 * MiB, 0, 3 } };
	gw_mmio_bar bad[] = { { 64 * GiB, 0, 0 }, { 48 * GiB, 0, 1 } };
	gw_mmio_need n;
	size_t i;
	gw_err e;

	(void)state;
	assert_int_equal(gw_mmio_need_layout(0, b, 4, &n, &e), 0);
	assert_true(n.bar_end == 6 * MiB);
	assert_true(n.bar_gb == 1 && n.rule_gb == 0 && n.mmio_gb == 1);
	assert_true(b[0].size == 4 * MiB && b[0].offset == 0 && b[0].tag == 11);
	assert_true(b[1].size == MiB && b[1].offset == 4 * MiB && b[1].tag == 10);
	assert_true(b[2].size == MiB && b[2].offset == 5 * MiB && b[2].tag == 12);
	assert_true(b[3].size == 0 && b[3].offset == 0 && b[3].tag == 13);

	assert_int_equal(gw_mmio_need_layout(96, l, 4, &n, &e), 0);
	assert_true(n.bar_end == 128 * GiB + 64 * MiB);
	assert_true(n.bar_gb == 256 && n.rule_gb == 256);
	assert_true(l[0].tag == 0 && l[0].offset == 0);
	assert_true(l[1].tag == 2 && l[1].offset == 64 * GiB);
	assert_true(l[2].tag == 1 && l[2].offset == 128 * GiB);
	assert_true(l[3].tag == 3 && l[3].offset == 128 * GiB + 32 * MiB);
	/* natural alignment, no overlap */
	for (i = 0; i < 4; i++) {
		assert_true(l[i].offset % l[i].size == 0);
		if (i > 0)
			assert_true(l[i].offset >= l[i - 1].offset + l[i - 1].size);
	}

	/* refused: nothing changed */
	n.bar_end = 7;
	assert_int_equal(gw_mmio_need_layout(96, bad, 2, &n, &e), -1);
	assert_non_null(strstr(e.msg, "not a power of two"));
	assert_true(n.bar_end == 7 && bad[0].tag == 0 &&
	            bad[1].size == 48 * GiB);
	assert_int_equal(gw_mmio_need_layout(80, NULL, 0, &n, &e), 0);
	assert_true(n.bar_end == 0 && n.mmio_gb == 256);
}

/* BAR sizes as the operator gives them ("--vram 16/16G"). */
static void
test_parse_bar_size(void **state)
{
	static const struct { const char *s; uint64_t v; } ok[] = {
		{ "256M", 256 * MiB }, { "256m", 256 * MiB },
		{ "256MB", 256 * MiB }, { "256 MiB", 256 * MiB },
		{ "16G", 16 * GiB }, { " 16 GiB ", 16 * GiB }, { "16gb", 16 * GiB },
		{ "1M", MiB }, { "1024M", GiB }, { "131072G", 131072 * GiB },
	};
	static const char *const bad[] = {
		"", "  ", "16", "256", "16T", "16K", "G", "-16G", "1.5G",
		"0G", "24G", "48G", "100M", "0x10G", "16GG", "262144G",
		"99999999999999999999999G",
	};
	uint64_t v;
	size_t i;
	char buf[24];
	gw_err e;

	(void)state;
	for (i = 0; i < sizeof ok / sizeof ok[0]; i++) {
		v = 0;
		if (gw_parse_bar_size(ok[i].s, "BAR1", &v, &e) != 0)
			fail_msg("'%s': %s", ok[i].s, e.msg);
		assert_true(v == ok[i].v);
	}
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		v = 5;
		e.msg[0] = '\0';
		if (gw_parse_bar_size(bad[i], "BAR1", &v, &e) == 0)
			fail_msg("'%s' accepted", bad[i]);
		assert_true(v == 5);
		assert_true(strncmp(e.msg, "BAR1: ", 6) == 0);
	}
	gw_fmt_bar_size(16 * GiB, buf, sizeof buf);
	assert_string_equal(buf, "16G");
	gw_fmt_bar_size(256 * MiB, buf, sizeof buf);
	assert_string_equal(buf, "256M");
	gw_fmt_bar_size(GiB + 512 * MiB, buf, sizeof buf);
	assert_string_equal(buf, "1536M");
}

/* ---- the plan's BARs on the real table (data/gpus.ini) ---------------- */

static void
plan_of(const char *devices, const char *vram, const gw_vmx *v, gw_plan *p)
{
	gw_answers a;
	gw_err e;

	gw_answers_init(&a);
	if (devices && gw_answers_add_gpu(&a, &table, devices, "--gpu", &e) != 0)
		fail_msg("%s", e.msg);
	if (vram && gw_answers_add_vram(&a, vram, "--vram", &e) != 0)
		fail_msg("%s", e.msg);
	memset(p, 0, sizeof *p);
	if (gw_plan_build(&a, &table, v, p, &e) != 0)
		fail_msg("plan: %s", e.msg);
	gw_answers_free(&a);
}

/* Every BAR naturally aligned, in offset order, none overlapping, the
 * last ending at bar_end, all inside the recommended window. */
static void
check_packed(const gw_plan *p)
{
	size_t i;

	for (i = 0; i < p->nbars; i++) {
		const gw_plan_bar *b = &p->bars[i];

		assert_true(gw_is_pow2(b->size));
		assert_true(b->offset % b->size == 0);
		assert_true(b->gpu < p->ngpus);
		if (i > 0)
			assert_true(b->offset >= p->bars[i - 1].offset +
			                          p->bars[i - 1].size);
	}
	if (p->nbars) {
		const gw_plan_bar *l = &p->bars[p->nbars - 1];

		assert_true(l->offset + l->size == p->bar_end);
		assert_true(p->bar_end <= (p->rec_gb << 30));
	}
}

/* A100 80GB (SXM4, BAR1 131072 MiB in the table): BAR1 128 GiB at 0, BAR3
 * 32 MiB right after it at 128 GiB; the end is past 128 GiB, so the
 * window is 256 GB, as the rule says for 80 GB (domain: 80 -> 128 ->
 * 256). */
static void
test_plan_bars_a100(void **state)
{
	gw_plan p;

	(void)state;
	plan_of("a100-80g-sxm4", NULL, NULL, &p);
	check_packed(&p);
	assert_int_equal(p.nbars, 2);
	assert_int_equal(p.bars[0].bar, 1);
	assert_true(p.bars[0].size == 128 * GiB && p.bars[0].offset == 0);
	assert_int_equal(p.bars[1].bar, 3);
	assert_true(p.bars[1].size == 32 * MiB &&
	            p.bars[1].offset == 128 * GiB);
	assert_true(p.bar_end == 128 * GiB + 32 * MiB);
	assert_int_equal(p.bar_gb, 256);
	assert_int_equal(p.rule_gb, 256);
	assert_int_equal(p.rec_gb, 256);
	assert_int_equal(p.mmio_gb, 256);
	gw_plan_free(&p);

	/* H100 SXM5: the same 128 GiB BAR1, 256 GB */
	plan_of("h100-sxm", NULL, NULL, &p);
	check_packed(&p);
	assert_true(p.bars[0].size == 128 * GiB && p.bar_end == 128 * GiB + 32 * MiB);
	assert_int_equal(p.rec_gb, 256);
	gw_plan_free(&p);

	/* the A100 80GB PCIe: the table has no BAR1, nothing placed, the rule
	 * alone */
	plan_of("a100-80g-pcie", NULL, NULL, &p);
	assert_int_equal(p.nbars, 0);
	assert_true(p.bar_end == 0);
	assert_int_equal(p.rec_gb, 256);
	gw_plan_free(&p);
}

/* Two L40S (BAR1 64 GiB each): both BAR1s first, at 0 and 64 GiB, then
 * both BAR3s at 128 GiB; tags name the GPU of the group. */
static void
test_plan_bars_two_l40s(void **state)
{
	gw_plan p;

	(void)state;
	plan_of("l40s=2", NULL, NULL, &p);
	check_packed(&p);
	assert_int_equal(p.nbars, 4);
	assert_true(p.bars[0].bar == 1 && p.bars[0].copy == 0 &&
	            p.bars[0].offset == 0);
	assert_true(p.bars[1].bar == 1 && p.bars[1].copy == 1 &&
	            p.bars[1].offset == 64 * GiB);
	assert_true(p.bars[2].bar == 3 && p.bars[2].copy == 0 &&
	            p.bars[2].offset == 128 * GiB);
	assert_true(p.bars[3].bar == 3 && p.bars[3].copy == 1 &&
	            p.bars[3].offset == 128 * GiB + 32 * MiB);
	assert_int_equal(p.bar_gb, 256);
	assert_int_equal(p.rec_gb, 256);   /* 96 -> 128 -> 256 by the rule too */
	gw_plan_free(&p);
}

/* RTX 3060: 12 GB -> 32 by the rule (domain: not seed 002's "2"); the
 * GA104 variant's BAR1 is 256 MiB: tiny BARs in a large window. */
static void
test_plan_bars_rtx3060(void **state)
{
	gw_plan p;

	(void)state;
	plan_of("rtx-3060", NULL, NULL, &p);
	assert_int_equal(p.nbars, 0);
	assert_int_equal(p.rec_gb, 32);
	gw_plan_free(&p);
	plan_of("rtx-3060-ga104", NULL, NULL, &p);
	check_packed(&p);
	assert_int_equal(p.nbars, 2);
	assert_true(p.bars[0].size == 256 * MiB && p.bars[1].offset == 256 * MiB);
	assert_true(p.bar_end == 288 * MiB);
	assert_int_equal(p.bar_gb, 1);
	assert_int_equal(p.rec_gb, 32);
	gw_plan_free(&p);
}

/* A GPU already in the .vmx (the P40 of the fragment, BAR1 32 GiB) is
 * placed with the one added (an L40S, 64 GiB), largest first. */
static void
test_plan_bars_existing(void **state)
{
	gw_plan p;
	gw_vmx *v = NULL;
	char *data;
	size_t n = 0;
	gw_err e;

	(void)state;
	data = tu_read_sample("vmx/HANDWRITTEN-FRAGMENT-esxi8-tesla-p40-"
	                      "pcipassthru0-block-with-comments.vmx", &n);
	if (gw_vmx_parse(&v, data, n, "p40", &e) != 0)
		fail_msg("%s", e.msg);
	free(data);
	plan_of("l40s", NULL, v, &p);
	check_packed(&p);
	assert_int_equal(p.nbars, 4);
	assert_true(p.bars[0].size == 64 * GiB &&
	            !p.gpus[p.bars[0].gpu].existing);
	assert_true(p.bars[1].size == 32 * GiB && p.bars[1].offset == 64 * GiB &&
	            p.gpus[p.bars[1].gpu].existing);
	assert_true(p.bar_end == 96 * GiB + 64 * MiB);
	assert_int_equal(p.rec_gb, 256);    /* 24 + 48 = 72 -> 128 -> 256 */
	gw_plan_free(&p);
	gw_vmx_free(v);
}

/* A GPU whose size the table does not know (an RTX 5060 Ti, sold with
 * 8 GB and with 16 GB under one PCI id; here 16 GB): by size alone
 * the rule (16, a power of two -> 32); with its BAR1 given (16 GiB with
 * Resizable BAR) it is placed with a 32 MiB BAR3; the spec round-trips. */
static void
test_plan_bars_given(void **state)
{
	gw_plan p;
	char *s;

	(void)state;
	plan_of(NULL, "16", NULL, &p);
	assert_int_equal(p.nbars, 0);
	assert_int_equal(p.rec_gb, 32);
	gw_plan_free(&p);
	plan_of(NULL, "16/16G", NULL, &p);
	check_packed(&p);
	assert_int_equal(p.nbars, 2);
	assert_true(p.bars[0].size == 16 * GiB && p.bars[1].size == 32 * MiB);
	assert_int_equal(p.bar_gb, 32);
	assert_int_equal(p.rec_gb, 32);
	gw_plan_free(&p);
	/* a BAR1 of 32 GiB for 16 GB: the BARs (32 GiB + 32 MiB -> 64) win */
	plan_of(NULL, "16/32G=1", NULL, &p);
	assert_int_equal(p.rule_gb, 32);
	assert_int_equal(p.bar_gb, 64);
	assert_int_equal(p.mmio_gb, 64);
	gw_plan_free(&p);
	s = gw_vram_spec(16, 16 * GiB, 2);
	assert_string_equal(s, "16/16G=2");
	free(s);
	s = gw_vram_spec(12, 0, 1);
	assert_string_equal(s, "12=1");
	free(s);
}

static void
test_vram_bar1_errors(void **state)
{
	static const char *const bad[] = { "16/16", "16/24G", "16/", "/16G",
	                                   "16/16G=0", "x/16G" };
	gw_answers a;
	size_t i;
	gw_err e;

	(void)state;
	gw_answers_init(&a);
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		e.msg[0] = '\0';
		if (gw_answers_add_vram(&a, bad[i], "--vram", &e) == 0)
			fail_msg("'%s' accepted", bad[i]);
		assert_true(strncmp(e.msg, "--vram: ", 8) == 0);
	}
	assert_int_equal(a.ngpus, 0);
	gw_answers_free(&a);
}

/* [gpu] vram keeps a BAR1 through save and load ("16/16G=1"). */
static void
test_answers_bar1(void **state)
{
	char *dir = tu_tmpdir(), *p = gw_xasprintf("%s/a.ini", dir);
	char *p2 = gw_xasprintf("%s/saved.ini", dir), *text;
	gw_answers_file af, af2;
	size_t len = 0;
	FILE *f;
	gw_err e;

	(void)state;
	f = fopen(p, "w");
	assert_non_null(f);
	fputs("[gpu]\nvram = 16/16G, 24\n[output]\ndir = out\nformats = vmx\n", f);
	fclose(f);
	if (gw_answers_load(&af, p, &table, &e) != 0)
		fail_msg("%s", e.msg);
	assert_int_equal(af.a.ngpus, 2);
	assert_true(af.a.gpus[0].bar1_bytes == 16 * GiB);
	assert_true(af.a.gpus[1].bar1_bytes == 0);
	assert_int_equal(gw_answers_save(&af, p2, &e), 0);
	text = NULL;
	assert_int_equal(gw_read_file(p2, 1 << 20, &text, &len, &e), 0);
	assert_non_null(strstr(text, "vram = 16/16G=1, 24=1\n"));
	assert_int_equal(gw_answers_load(&af2, p2, &table, &e), 0);
	assert_true(af2.a.gpus[0].bar1_bytes == 16 * GiB &&
	            af2.a.gpus[0].vram_gb == 16);
	gw_answers_file_free(&af);
	gw_answers_file_free(&af2);
	free(text);
	tu_rm_tree(dir);
	free(p);
	free(p2);
	free(dir);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rule_all_totals),
		cmocka_unit_test(test_rule_documented_examples),
		cmocka_unit_test(test_rule_limits),
		cmocka_unit_test(test_pow2_helpers),
		cmocka_unit_test(test_bars),
		cmocka_unit_test(test_bars_errors),
		cmocka_unit_test(test_parse_gb_ok),
		cmocka_unit_test(test_parse_gb_errors),
		cmocka_unit_test(test_bytes_gb),
		cmocka_unit_test(test_need_for),
		cmocka_unit_test(test_layout),
		cmocka_unit_test(test_parse_bar_size),
		cmocka_unit_test(test_plan_bars_a100),
		cmocka_unit_test(test_plan_bars_two_l40s),
		cmocka_unit_test(test_plan_bars_rtx3060),
		cmocka_unit_test(test_plan_bars_existing),
		cmocka_unit_test(test_plan_bars_given),
		cmocka_unit_test(test_vram_bar1_errors),
		cmocka_unit_test(test_answers_bar1),
	};

	return cmocka_run_group_tests(tests, setup_table, teardown_table);
}
