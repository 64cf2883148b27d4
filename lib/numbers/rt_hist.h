/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Latency histogram with 1-unit buckets, an overflow count and a capped log
 * of the cycle numbers that overflowed; writes the rt-tests 2.4 text layout.
 */
#ifndef RT_HIST_H
#define RT_HIST_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "rt_stats.h"

struct rt_hist {
	uint64_t *buckets;    /* nbuckets counters, bucket i counts value i */
	size_t nbuckets;
	uint64_t total;       /* in-range samples */
	uint64_t overflows;   /* samples >= nbuckets */
	uint64_t *oflow_log;  /* cycle numbers of the first oflow_cap overflows */
	size_t oflow_cap;
	size_t oflow_logged;
};

/*
 * Allocate, zero and prefault; returns 0 or -ENOMEM / -EINVAL (nbuckets 0).
 * The calling thread touches the memory first (its NUMA node).
 */
int rt_hist_init(struct rt_hist *h, size_t nbuckets, size_t oflow_cap);
void rt_hist_free(struct rt_hist *h);

/*
 * Count one sample taken at cycle number `cycle` (0-based). Negative values
 * (a clock step backwards) land in bucket 0 rather than indexing outside.
 * No allocation, no syscall: safe in a measurement loop.
 */
static inline void rt_hist_add(struct rt_hist *h, int64_t value, uint64_t cycle)
{
	if (value < 0)
		value = 0;
	if ((uint64_t)value < h->nbuckets) {
		h->buckets[value]++;
		h->total++;
		return;
	}
	if (h->oflow_logged < h->oflow_cap)
		h->oflow_log[h->oflow_logged++] = cycle;
	h->overflows++;
}

/* Index of the first non-empty bucket at or after `from`, or nbuckets. */
size_t rt_hist_next_nonempty(const struct rt_hist *h, size_t from);

/* Overflows beyond the log's capacity ("# NNNNN others"). */
uint64_t rt_hist_unlogged(const struct rt_hist *h);

#define RT_HIST_SUM_COLUMN 0x1 /* -H: add an all-threads column (when n > 1) */

/*
 * One histogram report: n threads, each with its histogram and the
 * statistics of all its samples (in-range and overflow alike).
 */
struct rt_hist_set {
	size_t n;
	const struct rt_hist *hists;
	const struct rt_stats *stats;
	unsigned flags;
};

/*
 * Write the rt-tests 2.4 text histogram: "# Histogram", one row per bucket
 * (empty ones too), "# Total:", "# Min/Avg/Max Latencies:",
 * "# Histogram Overflows:", the overflow cycle lists and an empty line.
 * A thread without samples shows "-----" where a latency would stand.
 * Returns 0 or -EIO.
 */
int rt_hist_write(FILE *f, const struct rt_hist_set *set);

#endif
