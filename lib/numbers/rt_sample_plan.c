// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>

#include "rt_quantile_ci.h"
#include "rt_sample_plan.h"

int rt_sample_plan(uint32_t permyriad, unsigned confidence_pct, unsigned threads,
		   uint64_t interval_us, struct rt_sample_plan *out)
{
	uint64_t n;
	int err;

	if (threads == 0)
		return -EINVAL;
	err = rt_quantile_ci_min_samples(permyriad, confidence_pct, &n);
	if (err)
		return err;
	out->samples = n;
	out->per_thread = (n + threads - 1) / threads;
	if (interval_us && n > UINT64_MAX / interval_us)
		return -ERANGE;
	out->thread_us = n * interval_us;
	out->all_us = out->per_thread * interval_us;
	return 0;
}

int rt_sample_plan_more(const struct rt_loghist *h, uint32_t permyriad, unsigned confidence_pct,
			int64_t limit, uint64_t *more, uint64_t *needed)
{
	struct rt_sample_plan plan;
	uint64_t est = 0, floor_more;
	int err, est_err;

	if (h->count == 0)
		return -ENODATA;
	err = rt_sample_plan(permyriad, confidence_pct, 1, 0, &plan);
	if (err)
		return err;
	floor_more = plan.samples > h->count ? plan.samples - h->count : 0;
	est_err = rt_loghist_ci_more_samples(h, permyriad, confidence_pct, limit, &est);
	if (est_err && !floor_more)
		return est_err;
	if (est_err || est < floor_more)
		est = floor_more;
	*more = est;
	*needed = h->count + est;
	return 0;
}
