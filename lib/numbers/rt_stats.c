// SPDX-License-Identifier: GPL-2.0-or-later
#include <string.h>

#include "rt_stats.h"

void rt_stats_init(struct rt_stats *s)
{
	memset(s, 0, sizeof(*s));
}

void rt_stats_merge(struct rt_stats *dst, const struct rt_stats *src)
{
	if (src->count == 0)
		return;
	if (dst->count == 0 || src->min < dst->min)
		dst->min = src->min;
	if (dst->count == 0 || src->max > dst->max)
		dst->max = src->max;
	dst->sum += src->sum;
	dst->last = src->last;
	dst->count += src->count;
}

int64_t rt_stats_avg_int(const struct rt_stats *s)
{
	if (s->count == 0)
		return 0;
	return s->sum / (int64_t)s->count;
}

double rt_stats_avg(const struct rt_stats *s)
{
	if (s->count == 0)
		return 0.0;
	return (double)s->sum / (double)s->count;
}
