/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A measuring thread's current interval-records window (--records): the
 * statistics and a lossless histogram of the samples since the last window
 * ended, in two halves. The thread adds to the half the main thread names;
 * the main thread switches halves at a window's end, waits until the thread
 * is out of the old one, reads it and clears it. Constant memory for any
 * run length; nothing on the measuring thread but a few stores per sample.
 *
 * The switch is Dekker's handshake: the thread raises busy, then reads the
 * half; the main thread switches, then reads busy (all sequentially
 * consistent). Either the main thread sees busy and waits for it to drop,
 * or the thread sees the new half.
 */
#ifndef RT_WINDOW_H
#define RT_WINDOW_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "rt_loghist.h"
#include "rt_stats.h"

struct rt_window_half {
	struct rt_stats stats;
	uint64_t overruns_total; /* the thread's overrun count at its last sample here */
	bool has_overruns;
	struct rt_loghist hist;
};

struct rt_window {
	_Atomic uint32_t cur;   /* the half the thread adds to; main writes it */
	_Atomic uint32_t busy;  /* the thread is adding a sample */
	struct rt_window_half half[2];
};

/* Both halves empty, half 0 current. */
void rt_window_init(struct rt_window *w);

/* Measuring thread: one kept sample, and its cumulative overrun count. */
static inline void rt_window_add(struct rt_window *w, int64_t v, uint64_t overruns_total)
{
	struct rt_window_half *h;

	atomic_store(&w->busy, 1);
	h = &w->half[atomic_load(&w->cur) & 1];
	rt_stats_add(&h->stats, v);
	rt_loghist_add(&h->hist, v);
	h->overruns_total = overruns_total;
	h->has_overruns = true;
	atomic_store_explicit(&w->busy, 0, memory_order_release);
}

/* Main thread: the thread adds to the other half from now on; returns the old one's index. */
unsigned rt_window_switch(struct rt_window *w);

/* Main thread: the thread has left half i (false: ask again soon). */
bool rt_window_quiet(struct rt_window *w);

/* Main thread, once quiet: seal half i's histogram (for its percentiles). */
struct rt_window_half *rt_window_take(struct rt_window *w, unsigned i);

/* Main thread: half i empty again for a later window. */
void rt_window_clear(struct rt_window *w, unsigned i);

#endif
