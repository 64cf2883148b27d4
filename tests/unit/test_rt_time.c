// SPDX-License-Identifier: GPL-2.0-or-later
#include "unit.h"

#include "rt_time.h"

START_TEST(diff_beyond_2147_seconds)
{
	struct timespec a = { .tv_sec = 3000, .tv_nsec = 5 };
	struct timespec b = { .tv_sec = 0, .tv_nsec = 10 };

	ck_assert_int_eq(rt_time_diff_ns(&a, &b), 3000LL * RT_NSEC_PER_SEC - 5);
	ck_assert_int_eq(rt_time_diff_ns(&b, &a), -(3000LL * RT_NSEC_PER_SEC - 5));
}
END_TEST

START_TEST(diff_with_borrow)
{
	struct timespec a = { .tv_sec = 10, .tv_nsec = 100 };
	struct timespec b = { .tv_sec = 9, .tv_nsec = 999999900 };

	ck_assert_int_eq(rt_time_diff_ns(&a, &b), 200);
}
END_TEST

static const struct {
	long sec, nsec;
	long long add;
	long want_sec, want_nsec;
} add_cases[] = {
	{ 0, 0, 1500, 0, 1500 },
	{ 0, 999999999, 1, 1, 0 },
	{ 1, 0, -1, 0, 999999999 },
	{ 5, 500, -2000000000LL, 3, 500 },
	{ 0, 0, 5000LL * RT_NSEC_PER_SEC, 5000, 0 },
	{ 2, 999999999, 999999999, 3, 999999998 },
};

START_TEST(add_ns_normalizes)
{
	struct timespec t = { .tv_sec = add_cases[_i].sec, .tv_nsec = add_cases[_i].nsec };

	rt_time_add_ns(&t, add_cases[_i].add);
	ck_assert_int_eq(t.tv_sec, add_cases[_i].want_sec);
	ck_assert_int_eq(t.tv_nsec, add_cases[_i].want_nsec);
}
END_TEST

START_TEST(from_ns_and_back)
{
	long long v[] = { 0, 1, -1, RT_NSEC_PER_SEC, -RT_NSEC_PER_SEC - 1, 4000LL * RT_NSEC_PER_SEC + 7 };

	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		struct timespec t = rt_time_from_ns(v[i]);

		ck_assert(t.tv_nsec >= 0 && t.tv_nsec < RT_NSEC_PER_SEC);
		ck_assert_int_eq(rt_time_to_ns(&t), v[i]);
	}
}
END_TEST

START_TEST(time_t_is_64_bit_on_every_target)
{
	struct timespec t = { .tv_sec = 4102444800LL, .tv_nsec = 0 }; /* 2100-01-01 */

	ck_assert_uint_eq(sizeof(time_t), 8);
	ck_assert_int_eq(rt_time_to_ns(&t), 4102444800LL * RT_NSEC_PER_SEC);
}
END_TEST

START_TEST(normalize_and_compare)
{
	/* tv_nsec is a long: 32 bits on i386 and armhf. */
	struct timespec a = { .tv_sec = 1, .tv_nsec = 1500000000L };
	struct timespec b = { .tv_sec = 2, .tv_nsec = 500000000L };
	struct timespec c = { .tv_sec = 3, .tv_nsec = -1 };
	struct timespec d = { .tv_sec = 3, .tv_nsec = 500000000L };

	rt_time_normalize(&a);
	ck_assert_int_eq(rt_time_cmp(&a, &b), 0);
	rt_time_normalize(&c);
	ck_assert_int_eq(c.tv_sec, 2);
	ck_assert_int_eq(c.tv_nsec, 999999999);
	ck_assert_int_gt(rt_time_cmp(&c, &b), 0);
	ck_assert_int_lt(rt_time_cmp(&c, &d), 0);
	ck_assert_int_gt(rt_time_cmp(&d, &c), 0);
}
END_TEST

Suite *unit_suite(void)
{
	Suite *s = suite_create("rt_time");
	TCase *tc = tcase_create("ns_arithmetic_64bit");

	tcase_add_test(tc, diff_beyond_2147_seconds);
	tcase_add_test(tc, diff_with_borrow);
	tcase_add_loop_test(tc, add_ns_normalizes, 0, sizeof(add_cases) / sizeof(add_cases[0]));
	tcase_add_test(tc, from_ns_and_back);
	tcase_add_test(tc, normalize_and_compare);
	tcase_add_test(tc, time_t_is_64_bit_on_every_target);
	suite_add_tcase(s, tc);
	return s;
}
