// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Percentile confidence intervals from order statistics: the ranks for
 * known cases (values from scipy.stats.binom; tests/cli/quantile-ci-scipy.sh
 * compares hundreds more), the fewest samples for an upper bound, the
 * interval read from the lossless histogram on synthetic data (bucket
 * sides), the estimate of further samples, and coverage: across 2000
 * simulated runs from a known distribution the interval holds the true
 * quantile in at least 93.5 % of them (95 % less the sampling error).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "unit.h"

#include "rt_quantile_ci.h"

static const struct {
	uint64_t n;
	uint32_t pm;
	unsigned conf;
	uint64_t l, u;
} known[] = {
	/* scipy: l = largest rank with binom.cdf(l - 1) <= 0.025, u = binom.ppf(0.975) + 1 */
	{ 100, 500000, 95, 40, 61 },
	{ 5, 500000, 95, 0, 6 },           /* no lower bound, none above either */
	{ 6, 500000, 95, 1, 6 },
	{ 1000, 999999, 95, 1000, 1001 },  /* p99.9999 of 1000: too few samples */
	{ 1000000, 999900, 95, 999880, 999920 },
	{ 1000000, 999990, 95, 999983, 999997 },
	{ 100000000, 500000, 95, 49990200, 50009801 },        /* approximation */
	{ 100000000000ULL, 999999, 95, 99999899380ULL, 99999900620ULL },
	{ 1000000, 999900, 99, 999873, 999926 },
};

START_TEST(ranks_match_scipy)
{
	uint64_t l = 7, u = 7;

	ck_assert_int_eq(rt_quantile_ci_ranks(known[_i].n, known[_i].pm, known[_i].conf, &l, &u),
			 0);
	ck_assert_uint_eq(l, known[_i].l);
	ck_assert_uint_eq(u, known[_i].u);
}
END_TEST

START_TEST(bad_arguments_are_einval)
{
	uint64_t l, u, n;

	ck_assert_int_eq(rt_quantile_ci_ranks(0, 999900, 95, &l, &u), -EINVAL);
	ck_assert_int_eq(rt_quantile_ci_ranks(10, 0, 95, &l, &u), -EINVAL);
	ck_assert_int_eq(rt_quantile_ci_ranks(10, RT_PERMYRIAD_100 + 1, 95, &l, &u), -EINVAL);
	ck_assert_int_eq(rt_quantile_ci_ranks(10, 999900, 100, &l, &u), -EINVAL);
	ck_assert_int_eq(rt_quantile_ci_ranks(RT_QUANTILE_CI_MAX_N + 1, 999900, 95, &l, &u),
			 -EINVAL);
	ck_assert_int_eq(rt_quantile_ci_min_samples(RT_PERMYRIAD_100, 95, &n), -EINVAL);
	/* p = 100 %: the maximum of the distribution, which no sample bounds */
	ck_assert_int_eq(rt_quantile_ci_ranks(1000, RT_PERMYRIAD_100, 95, &l, &u), 0);
	ck_assert_uint_gt(u, 1000);
}
END_TEST

/*
 * At the largest n, where doubles are integers one apart, the search ends
 * (a bisection in doubles never did: its midpoint rounded up to its top)
 * and the ranks lie within 2 sd of the mean, as 1.96 sd says they must.
 */
START_TEST(largest_n_ends_with_ranks_around_the_mean)
{
	static const uint32_t pms[] = { 1, 500000, 999900, 999999 };
	const uint64_t ns[] = { RT_QUANTILE_CI_MAX_N, RT_QUANTILE_CI_MAX_N - 1,
				RT_QUANTILE_CI_MAX_N / 2 + 1 };

	for (size_t i = 0; i < sizeof(ns) / sizeof(ns[0]); i++)
		for (size_t j = 0; j < sizeof(pms) / sizeof(pms[0]); j++) {
			double p = (double)pms[j] / RT_PERMYRIAD_100, n = (double)ns[i];
			double mean = n * p, sd = sqrt(n * p * (1 - p));
			uint64_t l, u;

			ck_assert_int_eq(rt_quantile_ci_ranks(ns[i], pms[j], 95, &l, &u), 0);
			ck_assert_uint_lt(l, u);
			ck_assert(fabs((double)l - (mean - 1.96 * sd)) <= 0.04 * sd + 2);
			ck_assert(fabs((double)u - (mean + 1.96 * sd)) <= 0.04 * sd + 2);
		}
}
END_TEST

START_TEST(fewest_samples_for_an_upper_bound)
{
	static const struct { uint32_t pm; uint64_t n; } t[] = {
		{ 999000, 3688 }, { 999900, 36887 }, { 999990, 368887 }, { 999999, 3688878 },
		{ 500000, 6 },
	};
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		uint64_t n, l, u;

		ck_assert_int_eq(rt_quantile_ci_min_samples(t[i].pm, 95, &n), 0);
		ck_assert_uint_eq(n, t[i].n);
		/* the definition: the upper rank exists at n, not at n - 1 */
		ck_assert_int_eq(rt_quantile_ci_ranks(n, t[i].pm, 95, &l, &u), 0);
		ck_assert_uint_le(u, n);
		ck_assert_int_eq(rt_quantile_ci_ranks(n - 1, t[i].pm, 95, &l, &u), 0);
		ck_assert_uint_gt(u, n - 1);
	}
}
END_TEST

static struct rt_loghist *hist_new(void)
{
	struct rt_loghist *h = malloc(sizeof(*h));

	ck_assert_ptr_nonnull(h);
	rt_loghist_init(h);
	return h;
}

/* 999800 samples of base, then base + 1 .. base + 200 once each: rank r > 999800 is base + r - 999800. */
static struct rt_loghist *ramp(int64_t base)
{
	struct rt_loghist *h = hist_new();

	h->bucket[rt_loghist_index(base)] += 999800;
	for (int64_t v = base + 1; v <= base + 200; v++)
		rt_loghist_add(h, v);
	rt_loghist_seal(h, base + 200);
	return h;
}

START_TEST(interval_from_the_histogram)
{
	struct rt_loghist *h = ramp(20);
	struct rt_pct_ci ci;

	/* p99.99 of 1e6: ranks 999880 and 999920, exact buckets below 256 */
	ck_assert_int_eq(rt_loghist_pct_ci(h, 999900, 95, &ci), 0);
	ck_assert_int_eq(ci.value, 120);
	ck_assert_int_eq(ci.low, 100);
	ck_assert(ci.has_high);
	ck_assert_int_eq(ci.high, 140);
	ck_assert_uint_eq(ci.lower_rank, 999880);
	ck_assert_uint_eq(ci.upper_rank, 999920);
	free(h);

	/* Above 512 a bucket is 4 wide (1024 on: 8): the lower bound takes the
	 * bucket's lowest value, the upper its highest (capped at the max). */
	h = ramp(1000);
	ck_assert_int_eq(rt_loghist_pct_ci(h, 999900, 95, &ci), 0);
	ck_assert_int_eq(ci.value, 1103);  /* 1100 in [1096, 1103] */
	ck_assert_int_eq(ci.low, 1080);    /* 1080 in [1080, 1087] */
	ck_assert_int_eq(ci.high, 1127);   /* 1120 in [1120, 1127] */
	/* p99.9999: rank 999999 -> 1199 in [1192, 1199]; u = 1e6 + 1: too few */
	ck_assert_int_eq(rt_loghist_pct_ci(h, 999999, 95, &ci), 0);
	ck_assert_int_eq(ci.value, 1199);
	ck_assert(!ci.has_high);
	ck_assert_uint_eq(ci.upper_rank, 1000001);
	/* p99.999: l = 999983 -> 1183 in [1176, 1183]; u = 999997 -> 1197 in [1192, 1199] */
	ck_assert_int_eq(rt_loghist_pct_ci(h, 999990, 95, &ci), 0);
	ck_assert(ci.has_high);
	ck_assert_int_eq(ci.low, 1176);
	ck_assert_int_eq(ci.high, 1199);
	free(h);

	h = hist_new();
	ck_assert_int_eq(rt_loghist_pct_ci(h, 999900, 95, &ci), -ENODATA);
	/* 3 samples: p50 has no lower bound (0) and no upper bound */
	rt_loghist_add(h, 7);
	rt_loghist_add(h, 8);
	rt_loghist_add(h, 9);
	rt_loghist_seal(h, 9);
	ck_assert_int_eq(rt_loghist_pct_ci(h, 500000, 95, &ci), 0);
	ck_assert_int_eq(ci.value, 8);
	ck_assert_uint_eq(ci.lower_rank, 0);
	ck_assert_int_eq(ci.low, 0);
	ck_assert(!ci.has_high);
	free(h);
}
END_TEST

START_TEST(more_samples_estimate)
{
	struct rt_loghist *h = hist_new();
	uint64_t more;

	for (int64_t v = 1; v <= 1000; v++)
		rt_loghist_add(h, v);
	rt_loghist_seal(h, 1000);
	/* Every sample is under 2000: it takes the 36887 samples an upper rank needs. */
	ck_assert_int_eq(rt_loghist_ci_more_samples(h, 999900, 95, 2000, &more), 0);
	ck_assert_uint_eq(more, 36887 - 1000);
	/* Every sample is over 0: the lower bound already is, FAIL is proven. */
	ck_assert_int_eq(rt_loghist_ci_more_samples(h, 999900, 95, 0, &more), 0);
	ck_assert_uint_eq(more, 0);
	/* p50 against 800: 80 % of the samples are under it, 1000 decide already. */
	ck_assert_int_eq(rt_loghist_ci_more_samples(h, 500000, 95, 800, &more), 0);
	ck_assert_uint_eq(more, 0);
	/* p50 against 520 (52 %; buckets 4 wide there): more samples, a finite number. */
	ck_assert_int_eq(rt_loghist_ci_more_samples(h, 500000, 95, 520, &more), 0);
	ck_assert_uint_gt(more, 0);
	ck_assert_uint_lt(more, 100000);
	free(h);
}
END_TEST

/* splitmix64: a fixed, portable stream of uniform numbers. */
static uint64_t next_u64(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static double uniform01(uint64_t *s)
{
	return ((double)(next_u64(s) >> 11) + 0.5) / 9007199254740992.0; /* (0, 1) */
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

static const struct { uint32_t pm; uint64_t n; } coverage_cases[] = {
	{ 500000, 1000 }, { 990000, 5000 }, { 999000, 10000 },
};

/*
 * 2000 runs of n samples, exponential with mean 50000 (in ns: a latency
 * tail), kept as integers: the true p-quantile of floor(X) is
 * floor(-50000 ln(1 - p)). The exact interval of the sorted samples and
 * the histogram's must both hold it in >= 93.5 % of the runs; the exact
 * one, whose coverage is P(l <= B < u) itself, must also not be wider
 * than it should (<= 98.5 %).
 */
START_TEST(coverage_of_the_true_quantile)
{
	const int runs = 2000;
	uint32_t pm = coverage_cases[_i].pm;
	uint64_t n = coverage_cases[_i].n, l, u, seed = 0x5eed0000u + (uint64_t)_i;
	double p = pm / 1e6;
	int64_t truth = (int64_t)floor(-50000.0 * log(1 - p));
	int64_t *x = malloc(n * sizeof(*x));
	struct rt_loghist *h = hist_new();
	int exact_hits = 0, hist_hits = 0;
	struct rt_pct_ci ci;

	ck_assert_ptr_nonnull(x);
	ck_assert_int_eq(rt_quantile_ci_ranks(n, pm, 95, &l, &u), 0);
	ck_assert_uint_le(u, n);
	for (int r = 0; r < runs; r++) {
		int64_t max = 0;

		rt_loghist_init(h);
		for (uint64_t i = 0; i < n; i++) {
			x[i] = (int64_t)floor(-50000.0 * log(uniform01(&seed)));
			rt_loghist_add(h, x[i]);
			max = x[i] > max ? x[i] : max;
		}
		rt_loghist_seal(h, max);
		qsort(x, n, sizeof(*x), cmp_i64);
		exact_hits += (l == 0 || x[l - 1] <= truth) && truth <= x[u - 1];
		ck_assert_int_eq(rt_loghist_pct_ci(h, pm, 95, &ci), 0);
		ck_assert(ci.has_high);
		ck_assert_int_le(ci.low, l ? x[l - 1] : 0);
		ck_assert_int_ge(ci.high, x[u - 1]);
		hist_hits += ci.low <= truth && truth <= ci.high;
	}
	ck_assert_msg(exact_hits * 1000 >= runs * 935, "exact coverage %d of %d", exact_hits, runs);
	ck_assert_msg(exact_hits * 1000 <= runs * 985, "exact coverage %d of %d", exact_hits, runs);
	ck_assert_msg(hist_hits * 1000 >= runs * 935, "histogram coverage %d of %d", hist_hits, runs);
	if (getenv("RT_QCI_VERBOSE"))
		fprintf(stderr, "p=%u n=%" PRIu64 ": exact %d, histogram %d of %d\n", pm, n,
			exact_hits, hist_hits, runs);
	free(x);
	free(h);
}
END_TEST

Suite *unit_suite(void)
{
	Suite *s = suite_create("rt_quantile_ci");
	TCase *tc = tcase_create("quantile_ci");

	tcase_set_timeout(tc, 60);
	UNIT_LOOP(tc, ranks_match_scipy, known);
	tcase_add_test(tc, bad_arguments_are_einval);
	tcase_add_test(tc, largest_n_ends_with_ranks_around_the_mean);
	tcase_add_test(tc, fewest_samples_for_an_upper_bound);
	tcase_add_test(tc, interval_from_the_histogram);
	tcase_add_test(tc, more_samples_estimate);
	UNIT_LOOP(tc, coverage_of_the_true_quantile, coverage_cases);
	suite_add_tcase(s, tc);
	return s;
}
