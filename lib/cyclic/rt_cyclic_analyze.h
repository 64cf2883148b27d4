/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * --analyze: a private trace of the measured CPUs while the run goes on;
 * when a thread notes a spike worse than any explained so far, the main
 * thread stops the trace, reads the window around it, explains it
 * (lib/rt_spike) and records again. Main thread only.
 */
#ifndef RT_CYCLIC_ANALYZE_H
#define RT_CYCLIC_ANALYZE_H

#include <limits.h>
#include <stdio.h>

#include "rt_json.h"
#include "rt_outside.h"
#include "rt_selfcheck.h"
#include "rt_spike.h"
#include "rt_output.h"

#include "rt_cyclic_config.h"
#include "rt_cyclic_measure.h"

struct ct_analysis {
	struct rt_output out;     /* the raw window file, committed at the end */
	bool out_open;
	char path[PATH_MAX];      /* its name, for the report */
	bool saved;               /* written and committed */
	char *raw;                /* the worst spike's window as text */
	size_t raw_len;
	const char *unit;
	bool active;              /* --analyze (the trace may serve --self-check alone) */
	bool consume;             /* read the trace as it goes (not with --self-check) */
	bool finishing;           /* the threads have stopped */
	/* the worst note not explained yet: its CPU's events are not all read */
	bool waiting;
	struct ct_spike_note wait_note;
	const struct ct_thread *wait_thread;
	struct rt_spike_history hist; /* what was read of the trace */
	int64_t rt_runtime_us, rt_period_us; /* kernel.sched_rt_*_us, -1 unknown */
	int64_t tick_ns;          /* the periodic tick, for ticks missed; 0 unknown */
	struct rt_outside_probe *outside; /* steal time and SMIs, sampled at each poll */
	/* policies of RT tasks seen switching in, asked while they lived */
	struct { int pid, policy; } policies[64];
	unsigned npolicies;
	bool self_checked;        /* --self-check: result holds the comparison */
	struct rt_selfcheck_result result;
};

/*
 * Open the output file and start the trace of the CPUs the threads use.
 * Prints the one-line error itself; RT_EXIT_FAILURE or 0.
 */
int cyclictest_analyze_open(struct ct_analysis *a, struct ct_run *run,
			    const struct cyclictest_config *cfg);

/* Explain the spikes the threads noted since the last call, if worse. */
void cyclictest_analyze_poll(struct ct_analysis *a, struct ct_run *run);

/*
 * After the threads stopped, before any output: the last notes explained
 * and the worst spike's window written to its file. 0 or -errno.
 */
int cyclictest_analyze_finish(struct ct_analysis *a, struct ct_run *run);

/* The "# Spike:" report. */
void cyclictest_analyze_print(const struct ct_analysis *a, const struct ct_run *run, FILE *out);

/* The "analysis" member of the JSON (null when nothing was explained). */
void cyclictest_analyze_json(const struct ct_analysis *a, const struct ct_run *run,
			     struct rt_json *j);

/*
 * --self-check, after the threads stopped: thread 0's samples against the
 * trace. RT_EXIT_FAILURE when it could not be done or too few agree.
 */
int cyclictest_self_check(struct ct_analysis *a, struct ct_run *run);

/* Once the threads have their ids: trace only thread 0's arming and returns. */
int cyclictest_self_check_filter(struct ct_run *run);

/* Remove the trace instance and any uncommitted file. */
void cyclictest_analyze_close(struct ct_analysis *a, struct ct_run *run);

#endif
