// SPDX-License-Identifier: GPL-2.0-or-later
/* The -v sample ring: order, wrap-around, loss counted when full. */
#include <errno.h>

#include "unit.h"

#include "rt_ring.h"

START_TEST(capacity_rounds_up_to_a_power_of_two)
{
	struct rt_ring r;

	ck_assert_int_eq(rt_ring_init(&r, 1000), 0);
	ck_assert_uint_eq(r.cap, 1024);
	ck_assert_uint_eq(r.mask, 1023);
	rt_ring_free(&r);
	ck_assert_int_eq(rt_ring_init(&r, 1), 0);
	ck_assert_uint_eq(r.cap, 1);
	rt_ring_free(&r);
	ck_assert_int_eq(rt_ring_init(&r, 0), -EINVAL);
	ck_assert_int_eq(rt_ring_init(&r, RT_RING_MAX_SAMPLES + 1), -EINVAL);
}
END_TEST

START_TEST(pop_returns_samples_in_order_then_empty)
{
	struct rt_ring r;
	struct rt_ring_sample s;

	ck_assert_int_eq(rt_ring_init(&r, 8), 0);
	ck_assert(!rt_ring_pop(&r, &s));
	for (uint64_t i = 0; i < 5; i++)
		rt_ring_push(&r, i, (int64_t)i * 10 - 20);
	for (uint64_t i = 0; i < 5; i++) {
		ck_assert(rt_ring_pop(&r, &s));
		ck_assert_uint_eq(s.cycle, i);
		ck_assert_int_eq(s.value, (int64_t)i * 10 - 20);
	}
	ck_assert(!rt_ring_pop(&r, &s));
	ck_assert_uint_eq(atomic_load(&r.lost), 0);
	rt_ring_free(&r);
}
END_TEST

START_TEST(wraps_around_many_times_without_loss)
{
	struct rt_ring r;
	struct rt_ring_sample s;
	uint64_t next = 0;

	ck_assert_int_eq(rt_ring_init(&r, 4), 0);
	/* 1000 samples through 4 slots, 3 in flight at a time. */
	for (uint64_t i = 0; i < 1000; i++) {
		rt_ring_push(&r, i, (int64_t)i);
		if (i >= 2) {
			ck_assert(rt_ring_pop(&r, &s));
			ck_assert_uint_eq(s.cycle, next++);
		}
	}
	while (rt_ring_pop(&r, &s))
		ck_assert_uint_eq(s.cycle, next++);
	ck_assert_uint_eq(next, 1000);
	ck_assert_uint_eq(atomic_load(&r.lost), 0);
	rt_ring_free(&r);
}
END_TEST

START_TEST(full_ring_drops_and_counts_the_newest)
{
	struct rt_ring r;
	struct rt_ring_sample s;
	uint64_t n = 0;

	ck_assert_int_eq(rt_ring_init(&r, 8), 0);
	for (uint64_t i = 0; i < 20; i++)
		rt_ring_push(&r, i, 1);
	ck_assert_uint_eq(atomic_load(&r.lost), 12);
	while (rt_ring_pop(&r, &s))
		ck_assert_uint_eq(s.cycle, n++); /* the oldest 8 are kept, in order */
	ck_assert_uint_eq(n, 8);
	rt_ring_push(&r, 20, 1); /* room again after the drain */
	ck_assert(rt_ring_pop(&r, &s));
	ck_assert_uint_eq(s.cycle, 20);
	ck_assert_uint_eq(atomic_load(&r.lost), 12);
	rt_ring_free(&r);
}
END_TEST

START_TEST(producer_and_consumer_fields_on_separate_cache_lines)
{
	struct rt_ring r;
	uintptr_t head = (uintptr_t)&r.head, tail = (uintptr_t)&r.tail;

	ck_assert_uint_eq(head / RT_CACHELINE == tail / RT_CACHELINE, 0);
	ck_assert_uint_eq(head % RT_CACHELINE, 0);
	ck_assert_uint_eq(tail % RT_CACHELINE, 0);
}
END_TEST

Suite *unit_suite(void)
{
	Suite *s = suite_create("rt_ring");
	TCase *tc = tcase_create("spsc_ring");

	tcase_add_test(tc, capacity_rounds_up_to_a_power_of_two);
	tcase_add_test(tc, pop_returns_samples_in_order_then_empty);
	tcase_add_test(tc, wraps_around_many_times_without_loss);
	tcase_add_test(tc, full_ring_drops_and_counts_the_newest);
	tcase_add_test(tc, producer_and_consumer_fields_on_separate_cache_lines);
	suite_add_tcase(s, tc);
	return s;
}
