/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Lossless latency histogram, log-linear (HDR-style): every value below
 * RT_LOGHIST_EXACT is its own bucket; above, each power of two is split
 * into RT_LOGHIST_SUB buckets, so a bucket is at most 1/128 (0.8%) of its
 * values wide. It covers 0 to 2^RT_LOGHIST_TOP_BITS - 1 units (68 s in ns,
 * 19 h in us); larger values count in the last bucket, so no sample is
 * ever lost, and the true maximum is kept beside it.
 *
 * Constant memory (30 KiB), no allocation after init, and an update of a
 * few instructions: one count-leading-zeros, shifts, an increment.
 *
 * Two histograms of the same unit merge exactly by adding bucket counts:
 * the result is the histogram of one run that saw both runs' samples.
 */
#ifndef RT_LOGHIST_H
#define RT_LOGHIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define RT_LOGHIST_SUB_BITS 7
#define RT_LOGHIST_SUB (1 << RT_LOGHIST_SUB_BITS)  /* buckets per power of two */
#define RT_LOGHIST_EXACT RT_LOGHIST_SUB           /* values below: exact */
#define RT_LOGHIST_TOP_BITS 36                    /* covers 0 .. 2^36 - 1 */
#define RT_LOGHIST_BUCKETS \
	(RT_LOGHIST_EXACT + (RT_LOGHIST_TOP_BITS - RT_LOGHIST_SUB_BITS) * RT_LOGHIST_SUB)

struct rt_loghist {
	uint64_t count;                         /* set by rt_loghist_seal */
	int64_t max;                            /* true maximum, valid when count > 0 */
	uint64_t bucket[RT_LOGHIST_BUCKETS];
};

void rt_loghist_init(struct rt_loghist *h);

/* Bucket of value v (negative values, a clock step back, count as 0). */
static inline size_t rt_loghist_index(int64_t v)
{
	uint64_t u = v < 0 ? 0 : (uint64_t)v;
	unsigned e;

	if (u < RT_LOGHIST_EXACT)
		return (size_t)u;
	if (u >> RT_LOGHIST_TOP_BITS)
		return RT_LOGHIST_BUCKETS - 1;
	e = 63u - (unsigned)__builtin_clzll(u); /* 2^e <= u < 2^(e+1), e >= SUB_BITS */
	return RT_LOGHIST_EXACT + (size_t)(e - RT_LOGHIST_SUB_BITS) * RT_LOGHIST_SUB +
	       (size_t)((u >> (e - RT_LOGHIST_SUB_BITS)) - RT_LOGHIST_SUB);
}

/*
 * Measuring thread: count one sample, a bucket index and an increment (no
 * allocation, loop or division). Count and maximum are the ones the caller
 * keeps anyway (rt_stats): rt_loghist_seal() sets them after the run.
 */
static inline void rt_loghist_add(struct rt_loghist *h, int64_t v)
{
	h->bucket[rt_loghist_index(v)]++;
}

/*
 * After the last rt_loghist_add: count = the buckets' sum, max = the true
 * maximum of the samples (which a bucket bound only approximates).
 */
void rt_loghist_seal(struct rt_loghist *h, int64_t max);

/* Lowest and highest value of bucket i. */
int64_t rt_loghist_bucket_low(size_t i);
int64_t rt_loghist_bucket_high(size_t i);

/* dst += src (same unit): exact. */
void rt_loghist_merge(struct rt_loghist *dst, const struct rt_loghist *src);

/* Percentiles in units of 1/10000 percent, exact in integers: 99.9 -> 999000. */
#define RT_PERMYRIAD_100 1000000u

/*
 * The percentile permyriad/10000 (0 < permyriad <= RT_PERMYRIAD_100) by
 * nearest rank: the upper bound of the bucket that holds the
 * ceil(p/100 * count)-th smallest sample, capped at the true maximum; never
 * below the true percentile, at most one bucket width (1% + 1 unit) above
 * it. false when the histogram is empty or the percentile out of range.
 * Integer arithmetic only (no libm: every library mlockall locks costs RSS).
 */
bool rt_loghist_percentile(const struct rt_loghist *h, uint32_t permyriad, int64_t *out);

/* The percentiles every report shows, in order, and their JSON names. */
#define RT_LOGHIST_NPCT 7
extern const uint32_t rt_loghist_pcts[RT_LOGHIST_NPCT];
extern const char *const rt_loghist_pct_names[RT_LOGHIST_NPCT]; /* "p50", ... */

#endif
