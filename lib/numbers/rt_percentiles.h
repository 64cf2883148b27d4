/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The tail of a run's results, beyond rt-tests 2.4: percentiles from the
 * lossless histogram and overruns, as text lines in the style of the
 * histogram footer and as JSON, plus the histogram itself in a form other
 * programs merge exactly. Writers only: they print to the FILE or JSON
 * stream the tool hands them.
 */
#ifndef RT_PERCENTILES_H
#define RT_PERCENTILES_H

#include <stdint.h>
#include <stdio.h>

#include "rt_json.h"
#include "rt_loghist.h"
#include "rt_stats.h"

/* One measured series (a cyclictest thread, a pair's receiver). */
struct rt_series {
	struct rt_stats stats;
	const struct rt_loghist *hist;  /* NULL: not kept in this run */
	int64_t overruns;               /* -1: the tool does not count them */
};

/*
 * "# P50 Latencies: 00012 00015" and so on for every percentile of
 * rt_loghist_pcts: one column per series, "-----" for a series without
 * samples. (The maximum is in the summary and the histogram footer, whose
 * "# Max Latencies:" line must stay the only one of that name.)
 */
void rt_percentiles_write_text(FILE *f, const struct rt_series *s, int n);

/*
 * After those lines: each series' percentiles with their distribution-free
 * 95 % confidence intervals (rt_quantile_ci), one line each, series i
 * being the i-th column above:
 * "# T: 0 p99.99 52 us (95 % CI 48-61)", or, when the samples do not bound
 * the percentile from above, "# T: 0 p99.9999 80 us (95 % CI 48-?: too few
 * samples, 3688878 needed)". Nothing for a series without samples. unit is
 * "us" or "ns".
 */
void rt_percentiles_write_ci_text(FILE *f, const struct rt_series *s, int n, const char *unit);

/* "# Overruns: 00000 00003". */
void rt_overruns_write_text(FILE *f, const struct rt_series *s, int n);

/*
 * "key": {"p50": v, ..., "p99.9999": v}, null for each when h is empty,
 * then beside it "key_ci": {"p50": {"low": L, "high": H, "confidence": 95},
 * ...}: the distribution-free confidence intervals, "high" null when the
 * samples do not bound the percentile from above, each null when h is
 * empty.
 */
void rt_percentiles_write_json(struct rt_json *j, const char *key, const struct rt_loghist *h);

/*
 * "key": the percentiles of all n series together (their histograms
 * added). -ENOMEM (the members written as null) or 0.
 */
int rt_percentiles_write_json_total(struct rt_json *j, const char *key, const struct rt_series *s,
				    int n);

/*
 * "key": the histogram in its mergeable form (documented in cyclictest(8)):
 * {"layout": "log-linear", "exact_below": 128, "sub_buckets": 128,
 *  "count": N, "max": M, "buckets": {"LOW": COUNT, ...}}, one member per
 * non-empty bucket keyed by the lowest value it holds.
 */
void rt_loghist_write_json(struct rt_json *j, const char *key, const struct rt_loghist *h);

#endif
