// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "rt_mem.h"
#include "rt_pair.h"
#include "rt_sched.h"
#include "rt_signal.h"
#include "rt_time.h"
#include "rt_worker.h"

/*
 * One shared mapping (it survives fork): the end of the warm-up, the
 * per-ring done flags, the participants, the worker lifecycle, then the
 * lossless histograms (faulted in by the participants that record).
 */
struct rt_pair {
	struct rt_pair_config cfg;
	int n;
	void *map;
	size_t map_bytes;
	_Atomic int64_t *warm_end_ns; /* CLOCK_MONOTONIC; 0 = no warm-up */
	_Atomic int *ring_done;     /* one per ring */
	struct rt_pair_part *parts; /* RT_CACHELINE aligned */
	struct rt_workers *w;
};

struct start_arg {
	struct rt_pair *p;
	int k;
};

static bool stopping(const struct rt_pair *p)
{
	return rt_workers_stopping(p->w);
}

/*
 * Sleep ns, in slices of RT_PAIR_SLEEP_SLICE_NS: the stop wakes a waiting
 * participant, not a sleeping one, and a run must end promptly even with
 * a 10 s interval or pmqtest's forced timeout.
 */
static void sleep_ns(const struct rt_pair *p, int64_t ns)
{
	struct timespec now, t;
	int64_t at, end;

	clock_gettime(CLOCK_MONOTONIC, &now);
	at = rt_time_to_ns(&now);
	end = at + ns;
	do {
		at = end - at > RT_PAIR_SLEEP_SLICE_NS ? at + RT_PAIR_SLEEP_SLICE_NS : end;
		t = rt_time_from_ns(at);
		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &t, NULL) == EINTR &&
		       !stopping(p))
			;
	} while (at < end && !stopping(p));
}

int rt_pair_count(const struct rt_pair *p)
{
	return p->n;
}

struct rt_pair_part *rt_pair_part(struct rt_pair *p, int k)
{
	return &p->parts[k];
}

void *rt_pair_mech_data(const struct rt_pair *p)
{
	return p->cfg.mech_data;
}

static size_t align_up(size_t n)
{
	return (n + RT_CACHELINE - 1) & ~(size_t)(RT_CACHELINE - 1);
}

int rt_pair_create(struct rt_pair **out, const struct rt_pair_config *cfg)
{
	struct rt_pair *p;
	size_t done_at, parts_at, workers_at, hists_at, windows_at;
	int n = cfg->rings * cfg->ring_size, err;

	if (cfg->rings < 1 || cfg->ring_size < 2 || cfg->starter < 0 ||
	    cfg->starter >= cfg->ring_size || cfg->counter < 0 || cfg->counter >= cfg->ring_size ||
	    !cfg->mech || (cfg->verbose && cfg->processes))
		return -EINVAL;
	p = calloc(1, sizeof(*p));
	if (!p)
		return -ENOMEM;
	p->cfg = *cfg;
	p->n = n;
	done_at = align_up(sizeof(*p->warm_end_ns));
	parts_at = align_up(done_at + (size_t)cfg->rings * sizeof(p->ring_done[0]));
	workers_at = align_up(parts_at + (size_t)n * sizeof(*p->parts));
	hists_at = align_up(workers_at + rt_workers_size(n));
	windows_at = align_up(hists_at + (cfg->loghist ? (size_t)n * sizeof(struct rt_loghist) : 0));
	p->map_bytes = windows_at + (cfg->windows ? (size_t)n * sizeof(struct rt_window) : 0);
	p->map = mmap(NULL, p->map_bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (p->map == MAP_FAILED) {
		free(p);
		return -ENOMEM;
	}
	p->warm_end_ns = p->map;
	p->ring_done = (_Atomic int *)((char *)p->map + done_at);
	p->parts = (struct rt_pair_part *)((char *)p->map + parts_at);
	p->w = (struct rt_workers *)((char *)p->map + workers_at);
	if ((err = rt_workers_init(p->w, n, cfg->processes))) {
		munmap(p->map, p->map_bytes);
		free(p);
		return err;
	}
	for (int k = 0; k < n; k++) {
		struct rt_pair_part *pt = &p->parts[k];

		pt->role.cpu = -1;
		atomic_store(&pt->cur_cpu, -1);
		rt_worker_state_init(&pt->ws);
		rt_worker_state_place(&pt->ws,
				      cfg->loghist ? (struct rt_loghist *)((char *)p->map + hists_at) + k
						   : NULL,
				      cfg->windows ? (struct rt_window *)((char *)p->map + windows_at) + k
						   : NULL);
	}
	*out = p;
	return 0;
}

void rt_pair_destroy(struct rt_pair *p)
{
	if (!p)
		return;
	for (int k = 0; k < p->n; k++)
		rt_worker_state_free(&p->parts[k].ws);
	rt_workers_destroy(p->w);
	munmap(p->map, p->map_bytes);
	free(p);
}

static void hit_break(struct rt_pair *p, int k, int64_t value)
{
	if (!rt_workers_claim_break(p->w, k, value))
		return;
	if (p->cfg.trace)
		rt_trace_stop(p->cfg.trace);
	rt_workers_request_stop(p->w);
}

/* Own policy, priority and CPU: the same code for threads and processes. */
static int apply_role(struct rt_pair_part *pt)
{
	int err = rt_sched_set(0, pt->role.policy, pt->role.prio);

	if (err) {
		pt->ws.error_what = "sched_setscheduler";
		return err;
	}
	if (pt->role.cpu >= 0) {
		cpu_set_t set;

		CPU_ZERO(&set);
		CPU_SET(pt->role.cpu, &set);
		if (sched_setaffinity(0, sizeof(set), &set) < 0) {
			pt->ws.error_what = "sched_setaffinity";
			return -errno;
		}
	}
	return 0;
}

/* The measuring loop of one side: one piece, so the hot path is read (and kept) whole. */
static void participant(struct rt_pair *p, int k)
{
	const struct rt_pair_config *cfg = &p->cfg;
	struct rt_pair_part *pt = &p->parts[k];
	int ring = k / cfg->ring_size, pos = k % cfg->ring_size;
	int next = ring * cfg->ring_size + (pos + 1) % cfg->ring_size;
	bool token = pos == cfg->starter;
	uint64_t received = 0;
	int64_t warm_end;
	int err = 0;

	atomic_store(&pt->ws.tid, rt_sched_gettid());
	pt->tgid = getpid();
	/* A forked participant has none of its parent's memory locks. */
	if (cfg->processes && cfg->lock_memory && (err = rt_mem_lock_all()))
		pt->ws.error_what = "mlockall";
	if (!err)
		err = apply_role(pt);
	if (!err)
		pt->ws.ran_policy = rt_sched_policy_in_force();
	if (!err && cfg->mech->participant_init)
		err = cfg->mech->participant_init(p, k);
	/* After pinning: the ring, and the pages of the lossless histogram and
	 * window that only this participant touches, on its node. Only the ring
	 * is allocated: the rest is in the shared mapping, so cannot fail. */
	if (!err) {
		const struct rt_worker_buffers b = {
			.ring_samples = cfg->verbose ? cfg->ring_samples : 0,
			.loghist = pt->ws.loghist && pt->role.records,
			.window = pt->ws.window && pt->role.records,
		};

		if ((err = rt_worker_state_alloc(&pt->ws, &b)))
			pt->ws.error_what = "allocating the sample ring";
	}
	if (err) {
		rt_worker_state_fail(&pt->ws, -err,
				     pt->ws.error_what ? pt->ws.error_what : "participant setup");
		rt_workers_request_stop(p->w);
	}
	rt_mem_prefault_stack(RT_WORKER_STACK_PREFAULT_BYTES);
	rt_workers_arrive(p->w);
	warm_end = atomic_load(p->warm_end_ns); /* set before the gate opened */

	while (!stopping(p)) {
		struct timespec now;

		if (!token) {
			cfg->mech->wait(p, k);
			if (stopping(p))
				break;
			if (atomic_load(&p->ring_done[ring])) {
				cfg->mech->pass(p, k, next); /* let the next one see it too */
				break;
			}
			clock_gettime(CLOCK_MONOTONIC, &now);
			atomic_store_explicit(&pt->cur_cpu, sched_getcpu(), memory_order_relaxed);
			received++;
			if (pt->role.records && rt_time_to_ns(&now) >= warm_end) {
				int64_t us = (rt_time_to_ns(&now) -
					      atomic_load_explicit(&pt->sent_ns, memory_order_acquire)) / 1000;

				rt_worker_state_add(&pt->ws, us, pt->ws.stats.stats.count, 0);
				if (cfg->verbose)
					rt_ring_push(&pt->ws.ring, pt->ws.stats.stats.count - 1, us);
				if (cfg->break_us && us > cfg->break_us) {
					hit_break(p, k, us);
					break;
				}
				if (pos == cfg->counter && cfg->loops &&
				    pt->ws.stats.stats.count >= cfg->loops) {
					atomic_store(&p->ring_done[ring], 1);
					cfg->mech->pass(p, k, next);
					break;
				}
			}
			if (pt->role.delay_ns)
				sleep_ns(p, pt->role.delay_ns);
			if (pos == cfg->starter && cfg->pause_every && received % cfg->pause_every == 0)
				sleep_ns(p, cfg->pause_ns);
			if (stopping(p))
				break;
		}
		token = false;
		clock_gettime(CLOCK_MONOTONIC, &now);
		atomic_store_explicit(&p->parts[next].sent_ns, rt_time_to_ns(&now),
				      memory_order_release);
		atomic_fetch_add_explicit(&pt->sends, 1, memory_order_relaxed);
		cfg->mech->pass(p, k, next);
	}
	rt_workers_finish(p->w, k);
}

static void *thread_main(void *arg)
{
	struct start_arg a = *(struct start_arg *)arg;

	free(arg);
	participant(a.p, a.k);
	return NULL;
}

static void process_main(void *arg)
{
	struct start_arg *a = arg;

	participant(a->p, a->k);
}

static int start_one(struct rt_pair *p, int k)
{
	struct start_arg *a, local = { p, k };
	int err;

	if (p->cfg.processes)
		return rt_workers_spawn_process(p->w, k, process_main, &local);
	a = malloc(sizeof(*a));
	if (!a)
		return -ENOMEM;
	*a = local;
	if ((err = rt_workers_spawn_thread(p->w, k, NULL, thread_main, a)))
		free(a);
	return err;
}

int rt_pair_start(struct rt_pair *p)
{
	int err = 0;

	for (int k = 0; k < p->n && !err; k++)
		err = start_one(p, k);
	if (err)
		rt_workers_request_stop(p->w);
	rt_workers_wait_ready(p->w);
	if (p->cfg.warmup_ns > 0) {
		struct timespec now;

		clock_gettime(CLOCK_MONOTONIC, &now);
		atomic_store(p->warm_end_ns, rt_time_to_ns(&now) + p->cfg.warmup_ns);
	}
	if (p->cfg.at_gate)
		p->cfg.at_gate(p->cfg.at_gate_ctx);
	rt_workers_open(p->w);
	return err;
}

bool rt_pair_finished(struct rt_pair *p)
{
	return rt_workers_over(p->w);
}

bool rt_pair_done(const struct rt_pair *p, int k)
{
	return atomic_load(&p->w->slot[k].done);
}

void rt_pair_fail(struct rt_pair *p, int k, int err, const char *what)
{
	struct rt_pair_part *pt = &p->parts[k];

	if (!pt->ws.error) {
		pt->ws.error = -err;
		pt->ws.error_what = what;
		pt->error_in_run = true;
	}
	rt_workers_request_stop(p->w);
}

int rt_pair_break(const struct rt_pair *p, int64_t *value)
{
	return rt_workers_break(p->w, value);
}

static void wake_part(void *ctx, int k)
{
	struct rt_pair *p = ctx;

	p->cfg.mech->wake(p, k);
}

void rt_pair_stop(struct rt_pair *p)
{
	rt_workers_stop(p->w, wake_part, NULL, p);
}

bool rt_pair_failed(const struct rt_pair *p, int k, struct rt_worker_exit *how)
{
	return rt_workers_failed(p->w, k, how);
}

struct tick_ctx {
	void (*tick)(void *ctx);
	void *ctx;
};

static void on_wake(void *ctx, int sig)
{
	struct tick_ctx *t = ctx;

	if (sig == 0 && t->tick)
		t->tick(t->ctx);
}

int rt_pair_run(struct rt_pair *p, const sigset_t *signals, int64_t duration_ns,
		int64_t tick_ns, void (*tick)(void *ctx), void *ctx)
{
	struct tick_ctx t = { tick, ctx };
	struct rt_workers_loop loop = {
		.signals = signals,
		.clock = CLOCK_MONOTONIC,
		.deadline_ns = -1,
		.tick_ns = tick_ns,
		.on_wake = on_wake,
		.ctx = &t,
	};
	struct timespec now;

	if (duration_ns > 0) {
		clock_gettime(CLOCK_MONOTONIC, &now);
		loop.deadline_ns = rt_time_to_ns(&now) + duration_ns;
	}
	return rt_workers_run(p->w, &loop);
}
