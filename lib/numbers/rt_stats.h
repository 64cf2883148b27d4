/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Running count/min/max/sum/last. An empty accumulator has count 0 and its
 * min/max are meaningless: callers test rt_stats_empty() before showing them,
 * so no placeholder numbers (1000000, -1000000, NaN) ever reach the user.
 */
#ifndef RT_STATS_H
#define RT_STATS_H

#include <stdbool.h>
#include <stdint.h>

struct rt_stats {
	uint64_t count;
	int64_t min;
	int64_t max;
	int64_t sum;
	int64_t last;
};

void rt_stats_init(struct rt_stats *s);

static inline void rt_stats_add(struct rt_stats *s, int64_t v)
{
	if (s->count == 0 || v < s->min)
		s->min = v;
	if (s->count == 0 || v > s->max)
		s->max = v;
	s->sum += v;
	s->last = v;
	s->count++;
}

static inline bool rt_stats_empty(const struct rt_stats *s)
{
	return s->count == 0;
}

/* Fold src into dst (for all-threads columns). */
void rt_stats_merge(struct rt_stats *dst, const struct rt_stats *src);

/* Integer average, truncated toward zero; 0 when empty. */
int64_t rt_stats_avg_int(const struct rt_stats *s);

/* Average as double; 0.0 when empty (never NaN). */
double rt_stats_avg(const struct rt_stats *s);

#endif
