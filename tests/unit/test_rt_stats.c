// SPDX-License-Identifier: GPL-2.0-or-later
#include <math.h>
#include "unit.h"

#include "rt_stats.h"

START_TEST(empty_has_no_invented_numbers)
{
	struct rt_stats s;

	rt_stats_init(&s);
	ck_assert(rt_stats_empty(&s));
	ck_assert_uint_eq(s.count, 0);
	ck_assert_int_eq(rt_stats_avg_int(&s), 0);
	ck_assert(!isnan(rt_stats_avg(&s)));
	ck_assert(rt_stats_avg(&s) == 0.0);
}
END_TEST

START_TEST(min_max_sum_last)
{
	struct rt_stats s;
	int64_t v[] = { 50, 7, 300, 42 };

	rt_stats_init(&s);
	for (size_t i = 0; i < 4; i++)
		rt_stats_add(&s, v[i]);
	ck_assert_uint_eq(s.count, 4);
	ck_assert_int_eq(s.min, 7);
	ck_assert_int_eq(s.max, 300);
	ck_assert_int_eq(s.sum, 399);
	ck_assert_int_eq(s.last, 42);
	ck_assert_int_eq(rt_stats_avg_int(&s), 99);
	ck_assert_double_eq_tol(rt_stats_avg(&s), 99.75, 1e-9);
}
END_TEST

START_TEST(first_sample_sets_min_and_max)
{
	struct rt_stats s;

	rt_stats_init(&s);
	rt_stats_add(&s, 2000000); /* above any sentinel an old tool would use */
	ck_assert_int_eq(s.min, 2000000);
	ck_assert_int_eq(s.max, 2000000);
	rt_stats_init(&s);
	rt_stats_add(&s, -5);
	ck_assert_int_eq(s.max, -5);
}
END_TEST

START_TEST(merge_skips_empty)
{
	struct rt_stats a, b, e;

	rt_stats_init(&a);
	rt_stats_init(&b);
	rt_stats_init(&e);
	rt_stats_add(&a, 10);
	rt_stats_add(&b, 3);
	rt_stats_add(&b, 30);
	rt_stats_merge(&a, &e);
	ck_assert_uint_eq(a.count, 1);
	rt_stats_merge(&a, &b);
	ck_assert_uint_eq(a.count, 3);
	ck_assert_int_eq(a.min, 3);
	ck_assert_int_eq(a.max, 30);
	rt_stats_merge(&e, &b);
	ck_assert_int_eq(e.min, 3);
	ck_assert_int_eq(e.max, 30);
}
END_TEST

Suite *unit_suite(void)
{
	Suite *s = suite_create("rt_stats");
	TCase *tc = tcase_create("accumulator");

	tcase_add_test(tc, empty_has_no_invented_numbers);
	tcase_add_test(tc, min_max_sum_last);
	tcase_add_test(tc, first_sample_sets_min_and_max);
	tcase_add_test(tc, merge_skips_empty);
	suite_add_tcase(s, tc);
	return s;
}
