/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_idset.c: the id set of src/core/idset.h: new and repeated keys,
 * the first value kept, growth past many sizes, keys that differ only in
 * high bits, and a miss on an empty set. */
#include "testutil.h"
#include "idset.h"

#include <stdlib.h>

static void
test_put_get(void **state)
{
	gw_idset s;
	const size_t *v;

	(void)state;
	gw_idset_init(&s);
	assert_null(gw_idset_get(&s, 7));
	assert_null(gw_idset_put(&s, 7, 0));
	assert_null(gw_idset_put(&s, 0, 1));
	/* a repeat: the first value, unchanged */
	v = gw_idset_put(&s, 7, 9);
	assert_non_null(v);
	assert_int_equal(*v, 0);
	assert_int_equal(*gw_idset_get(&s, 7), 0);
	assert_int_equal(*gw_idset_get(&s, 0), 1);
	assert_int_equal(s.n, 2);
	/* keys apart only in the high bits (a PCI domain) */
	assert_null(gw_idset_put(&s, (uint64_t)1 << 32 | 7, 2));
	assert_int_equal(*gw_idset_get(&s, (uint64_t)1 << 32 | 7), 2);
	assert_null(gw_idset_get(&s, (uint64_t)2 << 32 | 7));
	gw_idset_free(&s);
	assert_null(gw_idset_get(&s, 7));
}

static void
test_many(void **state)
{
	gw_idset s;
	uint64_t k;

	(void)state;
	gw_idset_init(&s);
	/* 70,000 keys: many growths; packed PCI addresses, every function */
	for (k = 0; k < 70000; k++)
		assert_null(gw_idset_put(&s, k << 8 | (k & 7), (size_t)k));
	assert_int_equal(s.n, 70000);
	assert_true(s.cap >= 2 * s.n);
	for (k = 0; k < 70000; k += 997) {
		assert_int_equal(*gw_idset_get(&s, k << 8 | (k & 7)), (size_t)k);
		assert_null(gw_idset_get(&s, k << 8 | ((k + 1) & 7) | 0x80));
	}
	for (k = 0; k < 70000; k += 4999)
		assert_int_equal(*gw_idset_put(&s, k << 8 | (k & 7), 1), (size_t)k);
	assert_int_equal(s.n, 70000);
	gw_idset_free(&s);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_put_get),
		cmocka_unit_test(test_many),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
