/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * How many samples a percentile claim needs: the one computation behind
 * `rt-latency-report plan` and every INCONCLUSIVE verdict's "need N more
 * samples". A claim "p-quantile <= X" can be proven only once the
 * distribution-free interval (rt_quantile_ci) has an upper bound, i.e. from
 * rt_quantile_ci_min_samples() samples on.
 */
#ifndef RT_SAMPLE_PLAN_H
#define RT_SAMPLE_PLAN_H

#include <stdint.h>

#include "rt_loghist.h"

struct rt_sample_plan {
	uint64_t samples;     /* each thread's own claim: the fewest samples that prove one */
	uint64_t per_thread;  /* the claim on all threads together: samples per thread */
	uint64_t thread_us;   /* samples at interval_us: how long each thread's claim takes */
	uint64_t all_us;      /* per_thread at interval_us */
};

/*
 * Plan the percentile permyriad/10000 % at confidence_pct (1..99) percent
 * for threads (>= 1) threads sampling every interval_us (0: no durations).
 * 0, or the errors of rt_quantile_ci_min_samples() (-EINVAL also for
 * threads 0), -ERANGE when a duration overflows.
 */
int rt_sample_plan(uint32_t permyriad, unsigned confidence_pct, unsigned threads,
		   uint64_t interval_us, struct rt_sample_plan *out);

/*
 * For a percentile whose interval holds limit (INCONCLUSIVE): how many
 * more samples h's run needs, and how many in all. Below the plan's count
 * (rt_sample_plan) it is at least the plan's count minus h's; past it, the
 * estimate of rt_loghist_ci_more_samples() (the further samples distributed
 * as h's). 0, or -ENODATA (h empty), -ERANGE (no number of samples decides),
 * -EINVAL, -EDOM, -ELIBACC.
 */
int rt_sample_plan_more(const struct rt_loghist *h, uint32_t permyriad, unsigned confidence_pct,
			int64_t limit, uint64_t *more, uint64_t *needed);

#endif
