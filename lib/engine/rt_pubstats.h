/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Statistics a measuring thread updates and another thread reads while it
 * runs, without a lock the reader could hold: a sequence counter, odd while
 * an update is under way (seqlock). There is one writer, so it publishes
 * with plain stores (no read-modify-write, no lock prefix); readers retry
 * a copy that overlapped an update. Works in process-shared memory too.
 */
#ifndef RT_PUBSTATS_H
#define RT_PUBSTATS_H

#include <stdatomic.h>
#include <stdint.h>

#include "rt_stats.h"

struct rt_pubstats {
	_Atomic uint32_t seq;
	struct rt_stats stats; /* written only by the owner */
};

static inline void rt_pubstats_init(struct rt_pubstats *p)
{
	atomic_store(&p->seq, 0);
	rt_stats_init(&p->stats);
}

/* Owner only: add a sample and publish it. */
static inline void rt_pubstats_add(struct rt_pubstats *p, int64_t v)
{
	uint32_t seq = atomic_load_explicit(&p->seq, memory_order_relaxed);

	atomic_store_explicit(&p->seq, seq + 1, memory_order_relaxed);
	/* The odd count is visible before any field changes... */
	atomic_thread_fence(memory_order_release);
	rt_stats_add(&p->stats, v);
	/* ...and every field before the even one. */
	atomic_store_explicit(&p->seq, seq + 2, memory_order_release);
}

/* Any thread: a consistent copy. */
static inline void rt_pubstats_read(const struct rt_pubstats *p, struct rt_stats *out)
{
	uint32_t s1, s2;

	do {
		s1 = atomic_load_explicit(&p->seq, memory_order_acquire);
		*out = *(const volatile struct rt_stats *)&p->stats;
		atomic_thread_fence(memory_order_acquire);
		s2 = atomic_load_explicit(&p->seq, memory_order_relaxed);
	} while ((s1 & 1) || s1 != s2);
}

#endif
