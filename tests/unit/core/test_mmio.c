/* test_mmio.c: the MMIO rule, BAR packing and size parsing. */
#include "testutil.h"
#include "mmio.h"

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
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
