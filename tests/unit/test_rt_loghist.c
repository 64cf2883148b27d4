// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The lossless log-linear histogram: buckets tile the range, values below
 * 128 are exact, a bucket is at most 1% wide, percentiles are never below
 * the exact nearest-rank percentile of the stored samples and at most 1% +
 * 1 unit above it, and merging two histograms equals one of both samples.
 */
#include <stdint.h>
#include <stdlib.h>

#include "unit.h"

#include "rt_loghist.h"

#define NS_10S 10000000000LL

START_TEST(buckets_tile_the_range_without_gaps)
{
	ck_assert_int_le(sizeof(struct rt_loghist), 32 * 1024);
	for (size_t i = 0; i < RT_LOGHIST_BUCKETS - 1; i++) {
		int64_t lo = rt_loghist_bucket_low(i), hi = rt_loghist_bucket_high(i);

		ck_assert_int_le(lo, hi);
		ck_assert_uint_eq(rt_loghist_index(lo), i);
		ck_assert_uint_eq(rt_loghist_index(hi), i);
		ck_assert_int_eq(hi + 1, rt_loghist_bucket_low(i + 1));
		if (lo < RT_LOGHIST_EXACT)
			ck_assert_int_eq(lo, hi); /* exact below 128 */
		else
			ck_assert_int_le((hi - lo + 1) * 100, lo); /* at most 1% wide */
	}
	ck_assert_uint_lt(rt_loghist_index(NS_10S), RT_LOGHIST_BUCKETS - 1); /* 10 s in ns */
	ck_assert_uint_eq(rt_loghist_index(INT64_MAX), RT_LOGHIST_BUCKETS - 1);
	ck_assert_uint_eq(rt_loghist_index(-5), 0);
}
END_TEST

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

/* Exact nearest rank: the ceil(n * p / 100)-th smallest sample. */
static int64_t exact_percentile(const int64_t *sorted, uint64_t n, uint32_t pm)
{
	uint64_t rank = (n * pm + 999999) / 1000000;

	return sorted[(rank ? rank : 1) - 1];
}

static void check_against_exact(int64_t *v, uint64_t n)
{
	struct rt_loghist *h = malloc(sizeof(*h));
	int64_t got;

	ck_assert_ptr_nonnull(h);
	rt_loghist_init(h);
	for (uint64_t i = 0; i < n; i++)
		rt_loghist_add(h, v[i]);
	qsort(v, n, sizeof(*v), cmp_i64);
	rt_loghist_seal(h, v[n - 1]);
	ck_assert_uint_eq(h->count, n);
	ck_assert_int_eq(h->max, v[n - 1]);
	for (int k = 0; k < RT_LOGHIST_NPCT; k++) {
		int64_t want = exact_percentile(v, n, rt_loghist_pcts[k]);

		ck_assert(rt_loghist_percentile(h, rt_loghist_pcts[k], &got));
		ck_assert_msg(got >= want, "%s: %lld below the exact %lld", rt_loghist_pct_names[k],
			      (long long)got, (long long)want);
		ck_assert_msg(got <= want + want / 100 + 1, "%s: %lld too far above %lld",
			      rt_loghist_pct_names[k], (long long)got, (long long)want);
		if (want < RT_LOGHIST_EXACT)
			ck_assert_int_eq(got, want);
	}
	ck_assert(rt_loghist_percentile(h, RT_PERMYRIAD_100, &got));
	ck_assert_int_eq(got, v[n - 1]);
	free(h);
}

START_TEST(percentiles_match_exact_nearest_rank)
{
	uint64_t n = 200000;
	int64_t *v = malloc(n * sizeof(*v));

	ck_assert_ptr_nonnull(v);
	srandom(1234 + (unsigned)_i);
	for (uint64_t i = 0; i < n; i++) {
		/* Latency-like in us: a body near 60, a long tail, rare spikes past 10 s. */
		int64_t x = 40 + random() % 50;

		if (random() % 100 == 0)
			x += random() % 5000;
		if (random() % 10000 == 0)
			x += random() % 3000000;
		if (random() % 100000 == 0)
			x = 10000000 + random() % 5000000;
		v[i] = _i == 1 ? x * 1000 + random() % 1000 : x; /* us, then ns */
	}
	check_against_exact(v, n);
	free(v);
}
END_TEST

START_TEST(edge_cases_one_sample_all_equal_and_past_10s)
{
	int64_t one[1] = { 4321 };
	int64_t equal[1000], huge[3] = { NS_10S * 3, 5, NS_10S * 2 };
	struct rt_loghist h;
	int64_t got;

	check_against_exact(one, 1);
	for (int i = 0; i < 1000; i++)
		equal[i] = 777777;
	check_against_exact(equal, 1000);
	check_against_exact(huge, 3);
	rt_loghist_init(&h);
	ck_assert(!rt_loghist_percentile(&h, 500000, &got)); /* empty: no percentile */
	rt_loghist_add(&h, 7);
	rt_loghist_seal(&h, 7);
	ck_assert(!rt_loghist_percentile(&h, 0, &got));
	ck_assert(!rt_loghist_percentile(&h, RT_PERMYRIAD_100 + 1, &got));
	ck_assert(rt_loghist_percentile(&h, 1, &got) && got == 7);
}
END_TEST

START_TEST(merge_equals_one_run_of_both)
{
	struct rt_loghist *a = malloc(sizeof(*a)), *b = malloc(sizeof(*b)), *both = malloc(sizeof(*both));

	ck_assert(a && b && both);
	rt_loghist_init(a);
	rt_loghist_init(b);
	rt_loghist_init(both);
	int64_t max_a = 0, max_b = 0;

	srandom(99);
	for (int i = 0; i < 50000; i++) {
		int64_t x = random() % 100000, y = random() % 300;

		rt_loghist_add(a, x);
		rt_loghist_add(b, y);
		rt_loghist_add(both, x);
		rt_loghist_add(both, y);
		max_a = x > max_a ? x : max_a;
		max_b = y > max_b ? y : max_b;
	}
	rt_loghist_seal(a, max_a);
	rt_loghist_seal(b, max_b);
	rt_loghist_seal(both, max_a > max_b ? max_a : max_b);
	ck_assert_uint_eq(b->count, 50000);
	rt_loghist_merge(a, b);
	ck_assert_uint_eq(a->count, both->count);
	ck_assert_int_eq(a->max, both->max);
	for (size_t i = 0; i < RT_LOGHIST_BUCKETS; i++)
		ck_assert_uint_eq(a->bucket[i], both->bucket[i]);
	free(a);
	free(b);
	free(both);
}
END_TEST

Suite *unit_suite(void)
{
	Suite *s = suite_create("rt_loghist");
	TCase *tc = tcase_create("lossless_histogram");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, buckets_tile_the_range_without_gaps);
	tcase_add_loop_test(tc, percentiles_match_exact_nearest_rank, 0, 2);
	tcase_add_test(tc, edge_cases_one_sample_all_equal_and_past_10s);
	tcase_add_test(tc, merge_equals_one_run_of_both);
	suite_add_tcase(s, tc);
	return s;
}
