/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The lifecycle of a run's measuring workers, the same for cyclictest's
 * threads and the pair engine's threads or forked processes: spawn, wait
 * at a start gate until all are ready, run until the loops are done, a
 * break, a deadline or a signal, then stop, re-wake the sleepers and reap.
 *
 * Workers tell the main thread they finished with RT_SIGNAL_DONE, so the
 * main thread sleeps in sigtimedwait (see rt_signal) and never polls. The
 * structure may live in a shared mapping (fork mode): everything a worker
 * touches is in it.
 */
#ifndef RT_WORKER_H
#define RT_WORKER_H

#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>

#include "rt_gate.h"

/*
 * A measuring thread's stack. Measured on x86_64 (glibc 2.36, AVX-512, so
 * a large signal frame): the deepest byte cyclictest's thread writes, wake
 * signal included, is 8.0 KiB below the top of the block, 4.7 KiB of it
 * glibc's TLS and thread start. Locked memory is precious at hundreds of
 * threads, so the stack is 4 times that, and twice the depth is prefaulted.
 * Sanitizers need far more stack.
 */
#if defined(__SANITIZE_ADDRESS__)
#define RT_WORKER_STACK_BYTES (1024 * 1024)
#else
#define RT_WORKER_STACK_BYTES (32 * 1024)
#endif
#define RT_WORKER_STACK_PREFAULT_BYTES (16 * 1024)

/* Main loop cadences, the same in every tool. */
#define RT_LIVE_REFRESH_NS (100 * 1000 * 1000LL)  /* live display: 10 frames a second */
#define RT_VERBOSE_DRAIN_NS (10 * 1000 * 1000LL)  /* -v: keeps the rings far from full */
#define RT_WORKER_STOP_RETRY_NS (20 * 1000 * 1000LL) /* re-wake workers that missed it */
/* Fork mode: a dead worker process is noticed within this time (SIGCHLD at once). */
#define RT_WORKER_DEAD_POLL_NS (50 * 1000 * 1000LL)
/* Fork mode: a process still in its loop this long after the stop is killed. */
#define RT_WORKER_STOP_KILL_NS (500 * 1000 * 1000LL)

/* How a worker process ended, when not normally (fork mode). */
struct rt_worker_exit {
	pid_t pid;
	int code;            /* CLD_EXITED, CLD_KILLED or CLD_DUMPED */
	int status;          /* its exit status or signal */
	bool stop_killed;    /* killed by the main thread: it did not stop in time */
	bool in_loop;        /* it ended before leaving its loop */
};

struct rt_worker_slot {
	pthread_t thread;    /* main only */
	pid_t pid;           /* main only: fork mode */
	bool started;        /* main only */
	_Atomic bool done;   /* set by the worker when it leaves its loop */
	bool ended;          /* main only: fork mode, the process is seen dead */
	bool failed;         /* main only: it ended otherwise than by _exit(0) after its loop */
	bool reaped;         /* main only */
	struct rt_worker_exit exit; /* main only: valid when ended */
};

struct rt_workers {
	struct rt_gate gate;         /* nobody measures before all are ready */
	struct rt_gate leave;        /* workers that finished wait here until the stop */
	_Atomic int stop;            /* set by main, a break or an error: workers leave */
	_Atomic int finished;        /* workers that left their loop */
	_Atomic int break_index;     /* the worker that broke a limit first, -1 = none */
	_Atomic int64_t break_value;
	pid_t notify_tgid;           /* the main thread, told with RT_SIGNAL_DONE */
	_Atomic pid_t notify_tid;
	int n;
	bool processes;              /* fork mode */
	int started;                 /* main only: workers spawned */
	struct rt_worker_slot slot[];
};

/* Bytes of a struct rt_workers for n workers. */
size_t rt_workers_size(int n);

/*
 * Initialise w (of rt_workers_size(n) bytes) in the calling thread, which
 * becomes the one notified; shared: usable across fork(). 0 or -errno.
 */
int rt_workers_init(struct rt_workers *w, int n, bool shared);
void rt_workers_destroy(struct rt_workers *w);
/* A set of n in private memory (threads only), in *out: 0 or a negative errno. */
int rt_workers_new(struct rt_workers **out, int n);
/* Destroy and free a set from rt_workers_new and clear *w; a NULL *w is fine. */
void rt_workers_free(struct rt_workers **w);

/* Start worker i as a thread (attr may be NULL) or a process. 0 or -errno. */
int rt_workers_spawn_thread(struct rt_workers *w, int i, const pthread_attr_t *attr,
			    void *(*fn)(void *), void *arg);
int rt_workers_spawn_process(struct rt_workers *w, int i, void (*fn)(void *), void *arg);

/*
 * Fork mode, main thread: see which worker processes have died (without
 * reaping them, so their pids stay theirs until rt_workers_stop); a death
 * that is a failure requests the stop. Returns the number of failed ones.
 */
int rt_workers_check_dead(struct rt_workers *w);

/* Worker i ended as a failure (fork mode); *how says how. */
bool rt_workers_failed(const struct rt_workers *w, int i, struct rt_worker_exit *how);

/* Thread attributes with the worker stack size. 0 or -errno. */
int rt_workers_attr_init(pthread_attr_t *attr);

/* --- in a worker */

static inline bool rt_workers_stopping(const struct rt_workers *w)
{
	return atomic_load_explicit(&w->stop, memory_order_relaxed) != 0;
}

/* Ready: wait at the gate until the main thread opens it. */
void rt_workers_arrive(struct rt_workers *w);

/*
 * Left the loop: mark worker i done and tell the main thread; then wait
 * until rt_workers_stop(), so that the main thread can still read the
 * worker's /proc/TID files (its context switches) after the run.
 */
void rt_workers_finish(struct rt_workers *w, int i);

/*
 * Worker i broke a limit with value: true for the first one only, which
 * then stops whatever it must (a trace) and calls rt_workers_request_stop.
 */
bool rt_workers_claim_break(struct rt_workers *w, int i, int64_t value);

/* --- in the main thread (request_stop: anywhere) */

void rt_workers_request_stop(struct rt_workers *w);

/* Wait until every started worker is at the gate; then the caller may set
 * up a common start and open the gate. */
void rt_workers_wait_ready(struct rt_workers *w);
void rt_workers_open(struct rt_workers *w);

/* Index of the worker that broke a limit and its value, or -1. */
int rt_workers_break(const struct rt_workers *w, int64_t *value);

/* Every started worker left its loop, or a stop was requested. */
bool rt_workers_over(const struct rt_workers *w);

struct rt_workers_loop {
	const sigset_t *signals;  /* from rt_signal_setup */
	clockid_t clock;          /* of the deadline */
	int64_t deadline_ns;      /* absolute, in clock; < 0: none */
	int64_t tick_ns;          /* < 0: no ticks */
	/* Optional: a shorter wait for this round (e.g. before the first sample). */
	int64_t (*next_wait)(void *ctx, int64_t wait_ns);
	/* Optional: after every wake-up that does not end the run; sig 0 = tick. */
	void (*on_wake)(void *ctx, int sig);
	void *ctx;
};

/*
 * The main thread's loop: sleep in sigtimedwait until the workers are over,
 * the deadline passed or SIGINT/SIGTERM/SIGHUP came. Returns that signal or 0.
 * Fork mode: a worker process that dies ends the run within
 * RT_WORKER_DEAD_POLL_NS (at once when SIGCHLD is in the signals).
 */
int rt_workers_run(struct rt_workers *w, const struct rt_workers_loop *loop);

/*
 * Stop every worker: set stop, open the gate, call wake(ctx, i) for each
 * one still in its loop until all are out (every RT_WORKER_STOP_RETRY_NS;
 * drain(ctx) after each round, may be NULL), then join or reap them.
 * Fork mode: a dead process is not waited for, and one still in its loop
 * after RT_WORKER_STOP_KILL_NS is killed (both then count as failed).
 */
void rt_workers_stop(struct rt_workers *w, void (*wake)(void *ctx, int i),
		     void (*drain)(void *ctx), void *ctx);

#endif
