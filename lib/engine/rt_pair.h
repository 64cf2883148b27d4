/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The engine under signaltest, sigwaittest and ptsematest: rings of
 * participants (threads, or forked processes) that hand a token to the next
 * one. Before passing it, a participant stores the time in the receiver's
 * slot; a recording participant measures, on wakeup, how long the hand-over
 * took. A pair is a ring of two; signaltest is one ring of N.
 *
 * A tool supplies the hand-over mechanism (a signal, a mutex...) as four
 * small functions and reads the results from the participants.
 */
#ifndef RT_PAIR_H
#define RT_PAIR_H

#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "rt_mem.h"
#include "rt_trace.h"
#include "rt_worker.h"
#include "rt_worker_state.h"

struct rt_pair;

/* A participant's sleep sees a stop within this time. */
#define RT_PAIR_SLEEP_SLICE_NS 100000000LL

/* How the token moves; every function gets the participant's index. */
struct rt_pair_mech {
	/* In the participant, before the start gate (e.g. block its signal). */
	int (*participant_init)(struct rt_pair *p, int k);
	/*
	 * Block until the token reaches k; return early when woken for stop.
	 * wait and pass report a failure that no retry mends (the object is
	 * gone) with rt_pair_fail and return.
	 */
	void (*wait)(struct rt_pair *p, int k);
	/* Hand the token from `from` to `to`. */
	void (*pass)(struct rt_pair *p, int from, int to);
	/* Main thread at stop: unblock k if it waits (may be called repeatedly). */
	void (*wake)(struct rt_pair *p, int k);
};

/* Settings of one participant, fixed before the start. */
struct rt_pair_role {
	int cpu;          /* pin to this CPU, -1 = not pinned */
	int policy;       /* SCHED_* */
	int prio;
	int64_t delay_ns; /* sleep after receiving, before passing on */
	bool records;     /* measure the hand-over latency on wakeup */
};

/*
 * One participant, in memory shared with the main thread (and across fork).
 * Three groups on cache lines of their own: the fixed role, what the
 * participant writes itself, and the time its predecessor stores.
 */
struct rt_pair_part {
	struct rt_pair_role role;
	/* the participant's own: latency in us; the lossless histogram and
	 * the window are in the shared mapping; the ring only with verbose
	 * (threads only); no 2.4 histogram */
	_Alignas(RT_CACHELINE) struct rt_worker_state ws;
	pid_t tgid;                 /* its process */
	_Atomic int cur_cpu;        /* CPU of the last wakeup, -1 before */
	bool error_in_run;          /* ws.error came from the hand-over (rt_pair_fail), not the setup */
	_Atomic uint64_t sends;     /* tokens passed on */
	/* set by the predecessor before passing */
	_Alignas(RT_CACHELINE) _Atomic int64_t sent_ns;
};

struct rt_pair_config {
	int rings;                  /* number of rings (pairs) */
	int ring_size;              /* participants per ring (2 for a pair) */
	int starter;                /* position in the ring that sends first */
	int counter;                /* position whose sample count ends the ring */
	uint64_t loops;             /* samples of `counter`, 0 = endless */
	int64_t break_us;           /* stop when a latency exceeds it, 0 = off */
	struct rt_trace *trace;     /* stopped at a break when not NULL */
	unsigned pause_every;       /* starter sleeps pause_ns every N receives */
	int64_t pause_ns;
	bool processes;             /* fork instead of threads */
	bool lock_memory;           /* processes: mlockall in each (it is not inherited) */
	bool verbose;               /* keep every sample in the rings (not with processes) */
	bool loghist;               /* keep a lossless histogram per recording participant */
	bool windows;               /* and a --records window */
	int64_t warmup_ns;          /* drop what is measured this long after the start */
	uint64_t ring_samples;      /* capacity of each verbose ring */
	const struct rt_pair_mech *mech;
	void *mech_data;            /* the tool's, reached with rt_pair_mech_data() */
	/* May be NULL: called by rt_pair_start() once every participant waits
	 * at the gate, just before it opens (the isolation counters' start). */
	void (*at_gate)(void *ctx);
	void *at_gate_ctx;
};

/*
 * Create the engine with cfg->rings * cfg->ring_size participants whose
 * roles are filled in afterwards through rt_pair_part(). 0 or -errno.
 */
int rt_pair_create(struct rt_pair **out, const struct rt_pair_config *cfg);
void rt_pair_destroy(struct rt_pair *p);

int rt_pair_count(const struct rt_pair *p);
struct rt_pair_part *rt_pair_part(struct rt_pair *p, int k);
void *rt_pair_mech_data(const struct rt_pair *p);

/*
 * Start every participant and open the gate once all are ready. The
 * participants signal the calling thread with RT_SIGNAL_DONE when they
 * finish. 0 or -errno (some did not start: call rt_pair_stop anyway).
 */
int rt_pair_start(struct rt_pair *p);

/* All participants have left their loops (loops done, break, error). */
bool rt_pair_finished(struct rt_pair *p);

/* Participant k has left its loop. */
bool rt_pair_done(const struct rt_pair *p, int k);

/*
 * From the mechanism's wait or pass in participant k: the hand-over failed
 * for good with err (-errno) in `what` (a string literal). Sets the
 * participant's error (the first one stays) and stops the run: the
 * participant leaves its loop when wait or pass returns.
 */
void rt_pair_fail(struct rt_pair *p, int k, int err, const char *what);

/* Index of the participant that broke the limit, or -1; its latency. */
int rt_pair_break(const struct rt_pair *p, int64_t *value);

/*
 * Stop, wake and reap every participant (threads joined, children waited).
 * Processes: one that died is not waited for, one that does not stop
 * within RT_WORKER_STOP_KILL_NS is killed.
 */
void rt_pair_stop(struct rt_pair *p);

/*
 * Participant k (a process) ended otherwise than by leaving its loop and
 * exiting 0: died, killed, or killed at the stop; *how says how. After
 * rt_pair_stop; during the run a death ends the run within
 * RT_WORKER_DEAD_POLL_NS.
 */
bool rt_pair_failed(const struct rt_pair *p, int k, struct rt_worker_exit *how);

/*
 * The main thread's loop: sleep in sigwait on `signals` (see rt_signal_setup)
 * until every participant finished, duration_ns passed (0 = no limit) or
 * SIGINT/SIGTERM/SIGHUP came; call tick(ctx) every tick_ns (< 0: never).
 * Returns the signal that ended the run, or 0.
 */
int rt_pair_run(struct rt_pair *p, const sigset_t *signals, int64_t duration_ns,
		int64_t tick_ns, void (*tick)(void *ctx), void *ctx);

/* lib's own mechanism, by signal, is in rt_pair_signal.h. */

#endif
