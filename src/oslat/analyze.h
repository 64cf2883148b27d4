/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * --analyze: a private trace (lib/rt_tracer) of the polled CPUs while the
 * run goes on. A thread notes a gap of at least the threshold (its slow
 * path; the worst one while main has not taken it); every tick the main
 * thread reads the trace and names what held that CPU during the gap
 * with lib's spike model (rt_spike), the evidence of outside causes
 * (rt_outside) with it.
 */
#ifndef OSLAT_ANALYZE_H
#define OSLAT_ANALYZE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "rt_json.h"
#include "rt_spike.h"

#include "measure.h"
#include "options.h"

#define OSLAT_GAP_BLOCKERS 4      /* named per gap, longest first */
#define OSLAT_MAX_GAPS 64         /* explained gaps kept for the report */

struct oslat_gap {
	int cpu;
	int64_t gap_us;               /* its label */
	int64_t from_ns, to_ns;       /* CLOCK_MONOTONIC */
	size_t nblockers;
	struct rt_blocker blockers[OSLAT_GAP_BLOCKERS];
	int64_t traced_ns;            /* time the named and unnamed blockers cover */
	bool complete;                /* the trace covers the whole gap */
	struct rt_spike_report report; /* lib's analysis of it, as cyclictest's spikes */
};

/*
 * What held cpu between from_ns and to_ns against the polling task tid:
 * lib's spike model (rt_spike) with a thread runnable throughout, so
 * hard IRQs, softirqs, tasks that could hold the CPU against it, RT
 * throttling, idle exits and time no interrupt reached the CPU. Pure but
 * for the tick period.
 */
void oslat_gap_explain(const struct rt_ev *ev, size_t n, int cpu, int tid, int64_t from_ns,
		       int64_t to_ns, struct oslat_gap *g);

/* The "# Gap:" lines: the blockers, then the headline when one is named. */
void oslat_gap_write_text(FILE *f, const struct oslat_gap *g);

struct oslat_analysis;

/* Start the trace of the polled CPUs. Prints the error; RT_EXIT_FAILURE or 0. */
int oslat_analyze_open(struct oslat_analysis **out, struct oslat_run *run,
		       const struct oslat_config *cfg);
void oslat_analyze_poll(struct oslat_analysis *a, struct oslat_run *run);
/* After the join: the last notes. 0, or RT_EXIT_FAILURE with the error printed. */
int oslat_analyze_finish(struct oslat_analysis *a, struct oslat_run *run);
void oslat_analyze_print(const struct oslat_analysis *a, const struct oslat_run *run, FILE *out);
void oslat_analyze_json(const struct oslat_analysis *a, const struct oslat_run *run,
			struct rt_json *j);
void oslat_analyze_close(struct oslat_analysis *a);

#endif
