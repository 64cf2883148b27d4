// SPDX-License-Identifier: GPL-2.0-or-later
/* One worker's state: allocation by the worker, placement, samples, seal. */
#include <errno.h>
#include <stdlib.h>

#include "unit.h"

#include "rt_worker_state.h"

START_TEST(init_is_empty_and_never_started)
{
	struct rt_worker_state s;

	rt_worker_state_init(&s);
	ck_assert_int_eq(s.ran_policy, -1);
	ck_assert_int_eq(s.error, 0);
	ck_assert_int_eq(atomic_load(&s.tid), 0);
	ck_assert_ptr_null(s.loghist);
	ck_assert_ptr_null(s.window);
	ck_assert_uint_eq(s.hist.nbuckets, 0);
	ck_assert_uint_eq(s.stats.stats.count, 0);
	rt_worker_state_free(&s); /* nothing allocated: harmless */
}
END_TEST

START_TEST(alloc_feeds_every_member_and_seal_reports_them)
{
	struct rt_worker_state s;
	const struct rt_worker_buffers b = {
		.hist_buckets = 10, .ring_samples = 8, .loghist = true, .window = true,
	};
	struct rt_ring_sample r;
	struct rt_series series;

	rt_worker_state_init(&s);
	ck_assert_int_eq(rt_worker_state_alloc(&s, &b), 0);
	ck_assert_ptr_nonnull(s.loghist);
	ck_assert_ptr_nonnull(s.window);
	for (int64_t v = 0; v < 12; v++)
		rt_worker_state_add(&s, v, (uint64_t)v, 0);
	ck_assert_uint_eq(s.stats.stats.count, 12);
	ck_assert_uint_eq(s.hist.total, 10);
	ck_assert_uint_eq(s.hist.overflows, 2);
	ck_assert(!rt_ring_pop(&s.ring, &r)); /* the tool pushes its own ring samples */
	series = rt_worker_state_seal(&s, 7);
	ck_assert_uint_eq(series.stats.count, 12);
	ck_assert_int_eq(series.stats.max, 11);
	ck_assert_ptr_eq(series.hist, s.loghist);
	ck_assert_uint_eq(s.loghist->count, 12);
	ck_assert_int_eq(series.overruns, 7);
	rt_worker_state_free(&s);
	ck_assert_ptr_null(s.loghist);
	ck_assert_uint_eq(s.hist.nbuckets, 0);
}
END_TEST

START_TEST(placed_memory_is_initialised_not_freed)
{
	struct rt_worker_state s;
	struct rt_loghist *lh = calloc(1, sizeof(*lh));
	struct rt_window *w = calloc(1, sizeof(*w));
	const struct rt_worker_buffers b = { .loghist = true, .window = true };

	ck_assert_ptr_nonnull(lh);
	ck_assert_ptr_nonnull(w);
	rt_worker_state_init(&s);
	rt_worker_state_place(&s, lh, w);
	ck_assert_int_eq(rt_worker_state_alloc(&s, &b), 0);
	ck_assert_ptr_eq(s.loghist, lh);
	ck_assert_ptr_eq(s.window, w);
	rt_worker_state_add(&s, 5, 0, 0);
	rt_worker_state_seal(&s, -1);
	ck_assert_uint_eq(lh->count, 1);
	rt_worker_state_free(&s);
	ck_assert_ptr_eq(s.loghist, lh); /* the caller's */
	free(lh);
	free(w);
}
END_TEST

START_TEST(a_bad_ring_size_fails_and_frees_cleanly)
{
	struct rt_worker_state s;
	const struct rt_worker_buffers b = {
		.hist_buckets = 4, .ring_samples = RT_RING_MAX_SAMPLES + 1,
	};

	rt_worker_state_init(&s);
	ck_assert_int_eq(rt_worker_state_alloc(&s, &b), -EINVAL);
	rt_worker_state_fail(&s, EINVAL, "allocating");
	ck_assert_int_eq(s.error, EINVAL);
	rt_worker_state_free(&s);
}
END_TEST

Suite *unit_suite(void)
{
	Suite *s = suite_create("rt_worker_state");
	TCase *tc = tcase_create("worker_state");

	tcase_add_test(tc, init_is_empty_and_never_started);
	tcase_add_test(tc, alloc_feeds_every_member_and_seal_reports_them);
	tcase_add_test(tc, placed_memory_is_initialised_not_freed);
	tcase_add_test(tc, a_bad_ring_size_fails_and_frees_cleanly);
	suite_add_tcase(s, tc);
	return s;
}
