/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Distribution-free confidence intervals for a quantile, from order
 * statistics: of n independent samples, the number below the true
 * p-quantile xi_p is B ~ Binomial(n, p), so the l-th and u-th smallest
 * samples X_(l) <= xi_p <= X_(u) with probability P(l <= B <= u - 1),
 * whatever the distribution. The ranks are chosen with equal tails of at
 * most (1 - confidence) / 2 each:
 *   l = the largest rank with P(B <= l - 1) <= tail (0: no lower bound),
 *   u = the smallest rank with P(B <= u - 1) >= 1 - tail (u > n: the
 *       samples do not bound the quantile from above: too few samples).
 * The binomial distribution function comes from GSL (loaded when first
 * needed: rt_gsl.h); see the .c for where an approximation takes over.
 */
#ifndef RT_QUANTILE_CI_H
#define RT_QUANTILE_CI_H

#include <stdbool.h>
#include <stdint.h>

#include "rt_loghist.h"

/* The confidence every report uses, in percent. */
#define RT_QUANTILE_CI_CONFIDENCE_PCT 95

/* Largest n the functions accept (2^53: exact in a double). */
#define RT_QUANTILE_CI_MAX_N (UINT64_C(1) << 53)

/*
 * Ranks l and u (1-based) of the interval for the quantile
 * permyriad/10000 % of n samples at confidence_pct (1..99) percent.
 * 0, or -EINVAL (n 0 or above RT_QUANTILE_CI_MAX_N, permyriad not in
 * 1..RT_PERMYRIAD_100, confidence out of range), -EDOM (the
 * computation failed) or -ELIBACC (GSL cannot be loaded: rt_gsl.h).
 * *upper may be n + 1 or more: no upper bound.
 */
int rt_quantile_ci_ranks(uint64_t n, uint32_t permyriad, unsigned confidence_pct,
			 uint64_t *lower, uint64_t *upper);

/*
 * The smallest n whose upper rank exists (u <= n): the fewest samples that
 * can bound the quantile from above, i.e. prove "p-quantile <= X". It is
 * the smallest n with p^n <= tail. 0 or -EINVAL (also for p = 100 %, which
 * no number of samples bounds), -EDOM, -ERANGE (above RT_QUANTILE_CI_MAX_N),
 * -ELIBACC (libm, loaded with GSL, cannot be loaded: rt_gsl.h).
 */
int rt_quantile_ci_min_samples(uint32_t permyriad, unsigned confidence_pct, uint64_t *n);

/* A quantile and its interval, read from a lossless histogram. */
struct rt_pct_ci {
	int64_t value;        /* the point estimate, as rt_loghist_percentile() */
	int64_t low;          /* lower bound: the lowest value of the bucket of rank l; 0 if l == 0 */
	int64_t high;         /* upper bound, valid when has_high */
	bool has_high;        /* false: too few samples for an upper bound */
	uint64_t lower_rank, upper_rank;
	unsigned confidence_pct;
};

/*
 * The percentile permyriad/10000 of h with its interval: the value at rank
 * u is taken as the point percentile is (the upper bound of its bucket,
 * capped at the true maximum: never below the sample), the value at rank l
 * as the lowest value of its bucket (never above the sample), so the
 * interval is never narrower than the exact one of the samples.
 * 0, -ENODATA (h empty), or the errors of rt_quantile_ci_ranks().
 */
int rt_loghist_pct_ci(const struct rt_loghist *h, uint32_t permyriad, unsigned confidence_pct,
		      struct rt_pct_ci *out);

/*
 * How many more samples h's run needs for the interval of the quantile to
 * decide against limit (upper bound <= limit, or lower bound > limit),
 * assuming the further samples follow the distribution of those in h (the
 * fraction of samples whose bucket lies at or under the limit stays as it
 * is). 0 when it decides already; -ERANGE when no number of samples
 * decides (the limit sits on the quantile itself, within a bucket) or it
 * would take more than RT_QUANTILE_CI_MAX_N; -ENODATA, -EINVAL, -EDOM.
 */
int rt_loghist_ci_more_samples(const struct rt_loghist *h, uint32_t permyriad,
			       unsigned confidence_pct, int64_t limit, uint64_t *more);

#endif
