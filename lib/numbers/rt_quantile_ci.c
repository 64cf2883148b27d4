// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>

#include "rt_gsl.h"
#include "rt_quantile_ci.h"

/* Binomial(n, p) with its moments, p the quantile's fraction. */
struct binom {
	double n, p, q;     /* q = 1 - p, computed exactly from the permyriad */
	double mean, sd;
	const struct rt_gsl *gsl;
};

/*
 * Where GSL cannot: its incomplete beta function is a continued fraction of
 * at most 512 terms, which does not converge near the mean once both shape
 * parameters are large (n * min(p, q) above about 10^5; e.g. n = 10^8 at
 * p = 50 %, n = 10^11 at p = 99.999 %). There the binomial has a standard
 * deviation of hundreds or more and its distribution function is taken from
 * the normal with continuity correction and the first Cornish-Fisher
 * (skewness) term: F(k) = Phi(w - g (w^2 - 1) / 6), w = (k + 0.5 - mean) /
 * sd, g = (q - p) / sd the skewness (Cornish and Fisher 1937; Johnson, Kemp
 * and Kotz, Univariate Discrete Distributions, 3rd ed., 3.6.1). The terms
 * left out shift a rank by O(1 / sd): under 0.05 ranks where it is used,
 * checked against scipy's exact binomial by tests/helpers/quantile_ci_check.py.
 */
#define RT_QCI_NORMAL_MIN_SD 20.0

/*
 * From 2^40 samples on GSL is not asked at all: its prefactor
 * exp(a ln x + b ln(1 - x) - ln B(a, b)) subtracts terms of 10^12 and more,
 * and the digits left are noise. Its own error estimate does not always
 * say so: on i386 (x87) it returned a value off by 61 million ranks at
 * n = 2^53 with a small error. There sd >= 1000 for every percentile we
 * accept (p >= 10^-6), where the approximation is off by under 0.001 ranks.
 */
#define RT_QCI_GSL_MAX_N 1099511627776.0 /* 2^40 */

static int approx_cdf(const struct binom *b, double k, double *out)
{
	double w, g;

	if (b->sd < RT_QCI_NORMAL_MIN_SD)
		return -EDOM;
	w = (k + 0.5 - b->mean) / b->sd;
	g = (b->q - b->p) / b->sd;
	*out = b->gsl->cdf_ugaussian_P(w - g * (w * w - 1.0) / 6.0);
	return 0;
}

/* P(B <= k) = I_q(n - k, k + 1) for 0 <= k < n (the regularized incomplete beta). */
static int binom_cdf(const struct binom *b, double k, double *out)
{
	gsl_sf_result r;
	int st;

	if (k < 0) {
		*out = 0;
		return 0;
	}
	if (k >= b->n) {
		*out = 1;
		return 0;
	}
	if (b->n >= RT_QCI_GSL_MAX_N)
		return approx_cdf(b, k, out);
	st = b->gsl->sf_beta_inc_e(b->n - k, k + 1, b->q, &r);
	if (st == GSL_SUCCESS && isfinite(r.val) && r.val >= 0 && r.val <= 1 && r.err < 1e-9) {
		*out = r.val;
		return 0;
	}
	return approx_cdf(b, k, out);
}

/*
 * The smallest k in [lo, hi] with P(B <= k) >= level (hi when none is
 * below it): F is non-decreasing in k. In integers: near 2^53 a double's
 * midpoint rounds up to hi, and a bisection in doubles never ended.
 */
static int search_cdf(const struct binom *b, int64_t lo, int64_t hi, double level, int64_t *k)
{
	while (lo < hi) {
		int64_t mid = lo + (hi - lo) / 2;
		double f;
		int err = binom_cdf(b, (double)mid, &f);

		if (err)
			return err;
		if (f >= level)
			hi = mid;
		else
			lo = mid + 1;
	}
	*k = lo;
	return 0;
}

static bool args_ok(uint32_t permyriad, unsigned confidence_pct)
{
	return permyriad >= 1 && permyriad <= RT_PERMYRIAD_100 && confidence_pct >= 1 &&
	       confidence_pct <= 99;
}

static int ranks(const struct rt_gsl *gsl, uint64_t n, uint32_t permyriad,
		 unsigned confidence_pct, uint64_t *lower, uint64_t *upper)
{
	double tail = (100.0 - confidence_pct) / 200.0, reach, low, high;
	int64_t lo, hi, k;
	struct binom b;
	int err;

	if (n == 0 || n > RT_QUANTILE_CI_MAX_N || !args_ok(permyriad, confidence_pct))
		return -EINVAL;
	b.gsl = gsl;
	b.n = (double)n;
	b.q = (double)(RT_PERMYRIAD_100 - permyriad) / RT_PERMYRIAD_100;
	b.p = (double)permyriad / RT_PERMYRIAD_100;
	b.mean = b.n - b.n * b.q;
	b.sd = gsl->sqrt(b.n * b.p * b.q);
	/*
	 * Beyond 50 sd + 100 of the mean a binomial tail is below 1e-60
	 * (Bernstein's inequality): search only there, where GSL is at ease.
	 */
	reach = 50 * b.sd + 100;
	/* Both within [-1, n], n <= 2^53: exact in a double and an int64_t. */
	low = gsl->floor(b.mean - reach);
	high = gsl->ceil(b.mean + reach);
	lo = low > -1 ? (int64_t)low : -1;
	hi = high < b.n ? (int64_t)high : (int64_t)b.n;
	/* l - 1 = the largest k with F(k) <= tail: one below the smallest with F(k) > tail. */
	err = search_cdf(&b, lo, hi, gsl->nextafter(tail, 1), &k);
	if (err)
		return err;
	*lower = (uint64_t)k; /* (k - 1) + 1; k >= 0 since F(-1) = 0 */
	err = search_cdf(&b, lo, hi, 1 - tail, &k);
	if (err)
		return err;
	*upper = (uint64_t)k + 1;
	return 0;
}

int rt_quantile_ci_ranks(uint64_t n, uint32_t permyriad, unsigned confidence_pct,
			 uint64_t *lower, uint64_t *upper)
{
	const struct rt_gsl *gsl = rt_gsl_load(NULL);
	gsl_error_handler_t *old;
	int err;

	if (!gsl)
		return -ELIBACC;
	/* GSL reports errors to a handler that aborts by default: off while we compute. */
	old = gsl->set_error_handler_off();
	err = ranks(gsl, n, permyriad, confidence_pct, lower, upper);
	gsl->set_error_handler(old);
	return err;
}

int rt_quantile_ci_min_samples(uint32_t permyriad, unsigned confidence_pct, uint64_t *out)
{
	const struct rt_gsl *gsl;
	double tail = (100.0 - confidence_pct) / 200.0, lp, n, log_tail;

	if (!args_ok(permyriad, confidence_pct) || permyriad == RT_PERMYRIAD_100)
		return -EINVAL;
	if (!(gsl = rt_gsl_load(NULL)))
		return -ELIBACC;
	/* u <= n iff F(n - 1) = 1 - p^n >= 1 - tail iff n log p <= log tail. */
	lp = gsl->log1p(-(double)(RT_PERMYRIAD_100 - permyriad) / RT_PERMYRIAD_100);
	log_tail = gsl->log(tail);
	n = gsl->ceil(log_tail / lp);
	if (!(n >= 1) || n > (double)RT_QUANTILE_CI_MAX_N)
		return -ERANGE;
	/* Rounding: step to the exact boundary. */
	while (n > 1 && (n - 1) * lp <= log_tail)
		n--;
	while (n * lp > log_tail)
		n++;
	*out = (uint64_t)n;
	return 0;
}

/* Bucket that holds the rank-th smallest sample (1 <= rank <= count). */
static size_t bucket_of_rank(const struct rt_loghist *h, uint64_t rank)
{
	uint64_t seen = 0;

	for (size_t i = 0; i < RT_LOGHIST_BUCKETS; i++) {
		seen += h->bucket[i];
		if (seen >= rank)
			return i;
	}
	return RT_LOGHIST_BUCKETS - 1;
}

int rt_loghist_pct_ci(const struct rt_loghist *h, uint32_t permyriad, unsigned confidence_pct,
		      struct rt_pct_ci *out)
{
	int err;

	if (h->count == 0)
		return -ENODATA;
	if (!rt_loghist_percentile(h, permyriad, &out->value))
		return -EINVAL;
	err = rt_quantile_ci_ranks(h->count, permyriad, confidence_pct, &out->lower_rank,
				   &out->upper_rank);
	if (err)
		return err;
	out->confidence_pct = confidence_pct;
	out->low = out->lower_rank ? rt_loghist_bucket_low(bucket_of_rank(h, out->lower_rank)) : 0;
	out->has_high = out->upper_rank <= h->count;
	out->high = 0;
	if (out->has_high) {
		int64_t hi = rt_loghist_bucket_high(bucket_of_rank(h, out->upper_rank));

		out->high = hi < h->max ? hi : h->max;
	}
	return 0;
}

/* Does the interval decide with n2 samples distributed as h's (below, at_most counts)? */
static int decides(const struct rt_gsl *gsl, uint64_t n, uint64_t n2, uint32_t permyriad,
		   unsigned confidence_pct, uint64_t at_most, uint64_t low_at_most, bool *yes)
{
	double scale = (double)n2 / (double)n;
	uint64_t l, u;
	int err = rt_quantile_ci_ranks(n2, permyriad, confidence_pct, &l, &u);

	if (err)
		return err;
	/* PASS: the value at rank u is <= limit; FAIL: the one at rank l is over it. */
	*yes = (u <= n2 && (double)u <= gsl->floor((double)at_most * scale)) ||
	       (double)l > gsl->floor((double)low_at_most * scale);
	return 0;
}

int rt_loghist_ci_more_samples(const struct rt_loghist *h, uint32_t permyriad,
			       unsigned confidence_pct, int64_t limit, uint64_t *more)
{
	const struct rt_gsl *gsl = rt_gsl_load(NULL);
	uint64_t at_most = 0, low_at_most = 0, n = h->count, lo, hi;
	bool yes;
	int err;

	if (n == 0)
		return -ENODATA;
	if (!gsl)
		return -ELIBACC;
	/* Samples whose reported value (bucket top capped at max, or bucket low) is <= limit. */
	for (size_t i = 0; i < RT_LOGHIST_BUCKETS; i++) {
		int64_t top = rt_loghist_bucket_high(i);

		if ((top < h->max ? top : h->max) <= limit)
			at_most += h->bucket[i];
		if (rt_loghist_bucket_low(i) <= limit)
			low_at_most += h->bucket[i];
	}
	if ((err = decides(gsl, n, n, permyriad, confidence_pct, at_most, low_at_most, &yes)))
		return err;
	if (yes) {
		*more = 0;
		return 0;
	}
	/* Double until it decides, then bisect: the interval narrows as n grows. */
	for (hi = n;;) {
		if (hi > RT_QUANTILE_CI_MAX_N / 2)
			return -ERANGE;
		hi *= 2;
		if ((err = decides(gsl, n, hi, permyriad, confidence_pct, at_most, low_at_most, &yes)))
			return err;
		if (yes)
			break;
	}
	lo = hi / 2; /* does not decide */
	while (hi - lo > 1) {
		uint64_t mid = lo + (hi - lo) / 2;

		if ((err = decides(gsl, n, mid, permyriad, confidence_pct, at_most, low_at_most, &yes)))
			return err;
		if (yes)
			hi = mid;
		else
			lo = mid;
	}
	*more = hi - n;
	return 0;
}
