// SPDX-License-Identifier: GPL-2.0-or-later
#include "rt_window.h"

void rt_window_init(struct rt_window *w)
{
	atomic_store(&w->cur, 0);
	atomic_store(&w->busy, 0);
	rt_window_clear(w, 0);
	rt_window_clear(w, 1);
}

unsigned rt_window_switch(struct rt_window *w)
{
	unsigned old = atomic_load(&w->cur) & 1;

	atomic_store(&w->cur, old ^ 1);
	return old;
}

bool rt_window_quiet(struct rt_window *w)
{
	return atomic_load(&w->busy) == 0;
}

struct rt_window_half *rt_window_take(struct rt_window *w, unsigned i)
{
	struct rt_window_half *h = &w->half[i & 1];

	/* The thread's stores to the half happened before its busy = 0. */
	atomic_thread_fence(memory_order_acquire);
	rt_loghist_seal(&h->hist, h->stats.max);
	return h;
}

void rt_window_clear(struct rt_window *w, unsigned i)
{
	struct rt_window_half *h = &w->half[i & 1];

	rt_stats_init(&h->stats);
	rt_loghist_init(&h->hist);
	h->overruns_total = 0;
	h->has_overruns = false;
}
