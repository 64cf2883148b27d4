/* SPDX-License-Identifier: GPL-2.0-or-later */
/* deadline_test's run: calibration, the SCHED_DEADLINE threads, the stop. */
#ifndef DEADLINE_TEST_RUN_H
#define DEADLINE_TEST_RUN_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "rt_mem.h"

#include "options.h"

/* What one period's work measured; 2.4's sched_data, times in us. */
struct dl_stats {
	uint64_t deadline_us;
	uint64_t loops;           /* per period */
	uint64_t missed_deadlines; /* the work ended after the period's deadline */
	uint64_t missed_periods;  /* periods skipped: started after the next one began */
	uint64_t total_adjust_us; /* a period began before it was expected */
	uint64_t nr_adjust;
	uint64_t max_time_us, min_time_us, total_time_us; /* start to end of the work */
	uint64_t nr_periods;
	uint64_t last_loops_us;   /* the loops alone, last period */
	uint64_t prime;           /* the highest prime found */
};

struct dl_thread {
	int index;
	pid_t tid;
	uint64_t runtime_us;
	struct dl_stats st;
	int setup_err;            /* -errno of sched_setattr / pinning, 0 */
	bool pin_failed;
	int vol, nonvol, migrate; /* from /proc/<tid>/sched, -1 unknown */
	int policy;               /* read back once SCHED_DEADLINE was set, -1 none */
	const struct deadline_test_config *cfg;
	struct dl_shared *shared;
} __attribute__((aligned(RT_CACHELINE)));

struct dl_calibration {
	uint64_t loops_per_ms;
	uint64_t overhead_us;
};

enum dl_hrtick { DL_HRTICK_NOT_NEEDED, DL_HRTICK_ON, DL_HRTICK_ENABLED, DL_HRTICK_UNAVAILABLE };

struct dl_result {
	struct dl_calibration cal;
	int percent_per_task;     /* p x CPUs / threads, at most 90 */
	unsigned nr_cpus;
	char cpus_text[256];      /* the CPUs of the run ("0-1") */
	enum dl_hrtick hrtick;
	int nthreads;
	struct dl_thread *threads;
	int stop_signal;          /* SIGINT or SIGTERM that ended the run, 0 */
	bool duration_over;
	bool started;             /* the threads ran */
	int64_t start_ns, elapsed_ns; /* CLOCK_MONOTONIC: the threads' run */
	int64_t rt_runtime_us, rt_period_us; /* admission control, -2 unknown */
};

/*
 * The whole run: calibration (2.4's lines on stdout), the threads, the wait
 * for the duration or a signal of `signals`, and the stop. Returns 0 or
 * RT_EXIT_FAILURE (the error printed). res->threads is allocated (free it).
 */
int deadline_test_run(const struct deadline_test_config *cfg, const sigset_t *signals,
		      struct dl_result *res);

#endif
