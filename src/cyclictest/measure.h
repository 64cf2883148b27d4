/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The measurement threads and what they share with the main thread. A
 * thread owns its statistics, histogram, sample ring and spike list; the
 * main thread reads the statistics through a sequence counter while the run
 * goes on and everything else after the join.
 */
#ifndef CYCLICTEST_MEASURE_H
#define CYCLICTEST_MEASURE_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "rt_gate.h"
#include "rt_hist.h"
#include "rt_pubstats.h"
#include "rt_ring.h"
#include "rt_stats.h"
#include "rt_trace.h"

#include "options.h"

struct ct_spike {
	int64_t value; /* report unit */
	int64_t ts_us; /* clock time of the wakeup */
};

struct ct_run;

struct ct_thread {
	/* set before the thread starts, read-only afterwards */
	int index;
	int cpu;             /* pinned CPU, -1 = not pinned */
	int policy;
	int prio;
	int64_t interval_ns;
	const struct cyclictest_config *cfg;
	struct ct_run *run;
	pthread_t pthread;
	bool created;
	_Atomic bool done;   /* left the loop */

	/* published to the display while the thread runs */
	_Atomic pid_t tid;
	struct rt_pubstats pub;

	/* the thread's own, read by main only after the join */
	struct rt_hist hist;
	struct rt_ring ring;   /* -v samples */
	struct ct_spike *spikes;
	uint64_t spike_cap;
	uint64_t spike_count; /* all spikes seen, may exceed spike_cap */
	int error;            /* errno of a failed timer call, 0 = fine */
	const char *error_what;
	int ran_policy;       /* read back after set-up, -1 = never started */

	/* the main thread's own: -o reduction state and SMI counter base */
	uint64_t osc_n;
	int64_t osc_max;
	uint64_t osc_max_cycle;
	uint64_t smi_start;
	uint64_t smi_count;
};

struct ct_run {
	_Atomic int stop;             /* set by main (or a break): threads leave */
	_Atomic int finished;         /* threads that have left their loop */
	pthread_t main_thread;        /* told with RT_SIGNAL_DONE when one finishes */
	struct rt_gate gate;          /* nobody measures before all are ready */
	struct timespec start_ts;     /* common base for -A / --secaligned */
	struct timespec end_ts;       /* -D: start_ts + duration (cfg->clock) */
	bool has_end;                 /* -D given: threads stop at end_ts */
	_Atomic int break_thread;     /* -b: index of the thread that broke, -1 = none */
	_Atomic int64_t break_value;  /* its latency, report unit */
	pid_t break_tid;
	struct rt_trace trace;        /* -b: tracefs files, fds -1 when unused */
	int nthreads;
	struct ct_thread *threads;
	int loadavg_fd;               /* main thread: /proc/loadavg for the display */
};

/* Thread entry point. */
void *cyclictest_measure(void *arg);


#endif
