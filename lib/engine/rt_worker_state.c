// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <string.h>

#include "rt_mem.h"
#include "rt_worker_state.h"

void rt_worker_state_init(struct rt_worker_state *s)
{
	memset(s, 0, sizeof(*s));
	atomic_store(&s->tid, 0);
	s->ran_policy = -1;
	rt_pubstats_init(&s->stats);
}

void rt_worker_state_place(struct rt_worker_state *s, struct rt_loghist *loghist,
			   struct rt_window *window)
{
	s->loghist = loghist;
	s->window = window;
	s->placed = true;
}

int rt_worker_state_alloc(struct rt_worker_state *s, const struct rt_worker_buffers *b)
{
	int err;

	if (b->hist_buckets && (err = rt_hist_init(&s->hist, b->hist_buckets, b->hist_buckets)))
		return err;
	if (b->ring_samples && (err = rt_ring_init(&s->ring, b->ring_samples)))
		return err;
	if (b->loghist) {
		if (!s->loghist)
			s->loghist = rt_mem_alloc_pages(sizeof(*s->loghist));
		if (!s->loghist)
			return -ENOMEM;
		rt_loghist_init(s->loghist); /* first touch: every page, on this node */
	}
	if (b->window) {
		if (!s->window)
			s->window = rt_mem_alloc_pages(sizeof(*s->window));
		if (!s->window)
			return -ENOMEM;
		rt_window_init(s->window);
	}
	return 0;
}

void rt_worker_state_free(struct rt_worker_state *s)
{
	rt_hist_free(&s->hist);
	rt_ring_free(&s->ring);
	if (!s->placed) {
		rt_mem_free_pages(s->loghist, sizeof(*s->loghist));
		rt_mem_free_pages(s->window, sizeof(*s->window));
		s->loghist = NULL;
		s->window = NULL;
	}
}

struct rt_series rt_worker_state_seal(struct rt_worker_state *s, int64_t overruns)
{
	if (s->loghist)
		rt_loghist_seal(s->loghist, s->stats.stats.max);
	return (struct rt_series){ s->stats.stats, s->loghist, overruns };
}
