/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What every measuring worker keeps, the same for cyclictest's threads and
 * the pair engine's participants: its id, how its set-up went, the policy
 * in force, its statistics and histograms, its --records window and its -v
 * ring. The tools embed it (in the pair engine, in the shared mapping: the
 * lossless histogram and the window are then placed in that mapping too),
 * so the measuring loop reaches every member without an indirection.
 */
#ifndef RT_WORKER_STATE_H
#define RT_WORKER_STATE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "rt_hist.h"
#include "rt_loghist.h"
#include "rt_percentiles.h"
#include "rt_pubstats.h"
#include "rt_ring.h"
#include "rt_window.h"

/*
 * The worker writes it; the main thread reads stats and ring while it runs,
 * the rest after the join. The hot members come first.
 */
struct rt_worker_state {
	struct rt_pubstats stats;   /* in the tool's report unit */
	struct rt_hist hist;        /* 2.4's histogram, no buckets when not asked for */
	struct rt_loghist *loghist; /* lossless histogram, NULL when not kept */
	struct rt_window *window;   /* --records: the open window, NULL without */
	_Atomic pid_t tid;          /* kernel thread id, 0 before start */
	int error;                  /* errno of a failed call, 0 = fine */
	const char *error_what;
	int ran_policy;             /* read back after set-up, -1 = never started */
	bool placed;                /* loghist and window are the caller's memory */
	struct rt_ring ring;        /* -v samples; head and tail on lines of their own */
};

/* What a worker allocates for itself, after it is pinned (its NUMA node). */
struct rt_worker_buffers {
	size_t hist_buckets;        /* 2.4's histogram (and its overflow log), 0 = none */
	uint64_t ring_samples;      /* ring capacity, 0 = no ring */
	bool loghist;
	bool window;
};

/* Empty state, nothing allocated, policy never read back. */
void rt_worker_state_init(struct rt_worker_state *s);

/*
 * Put the lossless histogram and the window in the caller's memory (a
 * shared mapping); rt_worker_state_alloc then only initialises them, and
 * rt_worker_state_free leaves them alone. Either may be NULL.
 */
void rt_worker_state_place(struct rt_worker_state *s, struct rt_loghist *loghist,
			   struct rt_window *window);

/*
 * In the worker: allocate, first-touch and prefault what b asks for, in the
 * order histogram, ring, lossless histogram, window. 0 or -errno; on an
 * error, rt_worker_state_free frees what was allocated.
 */
int rt_worker_state_alloc(struct rt_worker_state *s, const struct rt_worker_buffers *b);

/* After the join: free what the worker allocated (safe on an initialised state). */
void rt_worker_state_free(struct rt_worker_state *s);

/* A call failed in the worker: err is a positive errno. */
static inline void rt_worker_state_fail(struct rt_worker_state *s, int err, const char *what)
{
	s->error = err;
	s->error_what = what;
}

/*
 * In the measuring loop: one sample, taken at cycle number `cycle` (0-based),
 * with `overruns` periods missed so far. No allocation, no syscall.
 */
static inline void rt_worker_state_add(struct rt_worker_state *s, int64_t value, uint64_t cycle,
				       uint64_t overruns)
{
	rt_pubstats_add(&s->stats, value);
	if (s->hist.nbuckets)
		rt_hist_add(&s->hist, value, cycle);
	if (s->loghist)
		rt_loghist_add(s->loghist, value);
	if (s->window)
		rt_window_add(s->window, value, overruns);
}

/*
 * After the join: seal the lossless histogram at the maximum and return the
 * worker's series (overruns -1: the tool does not count them).
 */
struct rt_series rt_worker_state_seal(struct rt_worker_state *s, int64_t overruns);

#endif
