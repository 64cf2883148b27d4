/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The measurement threads and what they share with the main thread. A
 * thread owns its statistics, histogram, sample ring and spike list, and
 * allocates them itself after it is pinned (so they live on its NUMA node);
 * the main thread reads the statistics through a sequence counter and the
 * ring while the run goes on, everything else after the join.
 */
#ifndef RT_CYCLIC_MEASURE_H
#define RT_CYCLIC_MEASURE_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "rt_stats.h"
#include "rt_trace.h"
#include "rt_worker.h"
#include "rt_worker_state.h"

#include "rt_cyclic_config.h"

struct ct_spike {
	int64_t value; /* report unit */
	int64_t ts_us; /* clock time of the wakeup */
};

struct ct_run;
struct rt_tracer;
struct rt_spike_report;

/*
 * --analyze: the thread's worst spike above the threshold, written by the
 * measuring thread (a sequence counter, odd while it writes) and taken by
 * the main thread when pending is set.
 */
struct ct_spike_note {
	_Atomic uint32_t seq;
	_Atomic bool pending;
	int64_t value;       /* report unit */
	int64_t due_ns;      /* expected wakeup, measuring clock */
	int64_t woke_ns;
	int cpu;
};

/*
 * One measuring thread. Three groups on cache lines of their own: what is
 * fixed before the start, what the measuring thread writes per sample, and
 * what the main thread writes while the run goes on (-o, --smi).
 */
struct ct_thread {
	/* set before the thread starts, read-only afterwards */
	int index;
	int cpu;             /* pinned CPU, -1 = not pinned */
	int policy;
	int prio;
	int64_t interval_ns;
	int64_t runtime_ns;  /* CT_TIMER_DEADLINE: SCHED_DEADLINE runtime */
	uint64_t ring_cap;   /* -v samples the ring holds */
	const struct cyclictest_config *cfg;
	struct ct_run *run;

	/* the measuring thread's own; main reads ws.stats and ws.ring while it
	 * runs, the rest after the join. Allocated by the thread itself. */
	_Alignas(RT_CACHELINE) struct rt_worker_state ws;
	uint64_t overruns;    /* periods missed by waking a whole interval late */
	struct timespec warm_end; /* --warmup: this thread's samples due by it are dropped */
	struct ct_spike_note note;
	struct ct_spike *spikes;
	uint64_t spike_cap;
	uint64_t spike_count; /* all spikes seen, may exceed spike_cap */

	/* the main thread's own: -o reduction state and SMI counter base */
	_Alignas(RT_CACHELINE) uint64_t osc_n;
	int64_t osc_max;
	uint64_t osc_max_cycle;
	uint64_t smi_start;
	uint64_t smi_count;
};

struct ct_run {
	struct rt_workers *workers;   /* lifecycle: gate, stop, done, break */
	struct timespec start_ts;     /* common base for -A / --secaligned */
	struct timespec end_ts;       /* -D: start_ts + duration (cfg->clock) */
	bool has_end;                 /* -D given: threads stop at end_ts */
	struct timespec warm_end_ts;  /* --warmup: samples before it are dropped */
	bool has_warmup;
	pid_t break_tid;              /* -b: the thread that broke */
	struct rt_trace trace;        /* -b: tracefs files, fds -1 when unused */
	int trace_err;                /* -b: the failed tracefs write at the break, -errno */
	const char *trace_err_what;   /* its file */
	int nthreads;
	struct ct_thread *threads;    /* RT_CACHELINE aligned */
	int loadavg_fd;               /* main thread: /proc/loadavg for the display */
	/* --analyze, main thread only */
	struct rt_tracer *tracer;
	int64_t trace_offset_ns;      /* trace clock (mono) minus the measuring clock */
	struct rt_spike_report *spike; /* the worst spike explained so far, or NULL */
};

/* Thread entry point. */
void *cyclictest_measure(void *arg);

#endif
