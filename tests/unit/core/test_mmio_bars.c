/* test_mmio_bars.c: the MMIO size from VRAM and BARs (mmio_bars.h), as
 * gpuwiz gpus shows it. */
#include "testutil.h"
#include "mmio_bars.h"

#define GiB (UINT64_C(1) << 30)
#define MiB (UINT64_C(1) << 20)

static void
test_bytes_gb(void **state)
{
	(void)state;
	assert_int_equal(gw_mmio_bytes_gb(0), 0);
	assert_int_equal(gw_mmio_bytes_gb(1), 1);
	assert_int_equal(gw_mmio_bytes_gb(32 * MiB), 1);
	assert_int_equal(gw_mmio_bytes_gb(GiB), 1);
	assert_int_equal(gw_mmio_bytes_gb(GiB + 1), 2);
	assert_int_equal(gw_mmio_bytes_gb(64 * GiB), 64);
}

static void
test_bars_gb(void **state)
{
	uint64_t bars[] = { 64 * GiB, 32 * MiB }, gb = 0;
	uint64_t small[] = { 16 * MiB };
	gw_err e;

	(void)state;
	assert_int_equal(gw_mmio_bars_gb(bars, 2, &gb, &e), 0);
	assert_int_equal(gb, 128);   /* 64 GiB + 32 MiB -> 128 GiB */
	assert_int_equal(gw_mmio_bars_gb(small, 1, &gb, &e), 0);
	assert_int_equal(gb, 1);
}

static void
test_size_of(void **state)
{
	uint64_t l40s[] = { 64 * GiB, 32 * MiB };
	uint64_t odd[] = { 3 * GiB };
	gw_mmio_size m;
	gw_err e;

	(void)state;
	/* nothing known */
	assert_int_equal(gw_mmio_size_of(0, NULL, 0, &m, &e), 0);
	assert_false(m.known);
	assert_int_equal(m.size_gb, 0);
	/* VRAM only: the rule */
	assert_int_equal(gw_mmio_size_of(48, NULL, 0, &m, &e), 0);
	assert_true(m.known);
	assert_int_equal(m.rule_gb, 128);
	assert_int_equal(m.bar_gb, 0);
	assert_int_equal(m.size_gb, 128);
	/* BARs only */
	assert_int_equal(gw_mmio_size_of(0, l40s, 2, &m, &e), 0);
	assert_true(m.known);
	assert_int_equal(m.rule_gb, 0);
	assert_int_equal(m.size_gb, 128);
	/* both: the larger wins */
	assert_int_equal(gw_mmio_size_of(24, l40s, 2, &m, &e), 0);
	assert_int_equal(m.rule_gb, 64);
	assert_int_equal(m.bar_gb, 128);
	assert_int_equal(m.size_gb, 128);
	/* refused inputs leave nothing known */
	assert_int_equal(gw_mmio_size_of(GW_MMIO_MAX_TOTAL_GB + 1, NULL, 0, &m,
	                                 &e), -1);
	assert_false(m.known);
	assert_true(strlen(e.msg) > 0);
	assert_int_equal(gw_mmio_size_of(8, odd, 1, &m, &e), -1);
	assert_false(m.known);
	assert_int_equal(m.rule_gb, 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bytes_gb),
		cmocka_unit_test(test_bars_gb),
		cmocka_unit_test(test_size_of),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
