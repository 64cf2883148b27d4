/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * --records for oslat. The polling loop keeps only its bucket counters, so
 * the windows are built by the main thread: at every tick it adds what each
 * thread counted since the last tick (the counters only grow) to a window
 * it owns, then lets lib/rt_records close the windows that are due. The
 * loop pays nothing for it.
 */
#ifndef OSLAT_RECORDS_H
#define OSLAT_RECORDS_H

#include <stdbool.h>
#include <stdint.h>

#include "rt_env.h"
#include "rt_loghist.h"
#include "rt_metrics.h"
#include "rt_percentiles.h"
#include "rt_records.h"
#include "rt_report.h"
#include "rt_window.h"

#include "measure.h"
#include "options.h"

struct oslat_records {
	bool on;
	int n;
	int buckets;
	struct rt_records_set set;
	struct rt_window **windows;  /* one per thread, main's own */
	uint64_t *seen;              /* per thread: buckets counts already added */
	uint64_t *seen_extra;        /* per thread: ovf_extra_us already added */
	struct rt_loghist *seen_ovf; /* per thread: overflow histogram already added */
	struct rt_metrics_set metrics; /* --metrics: every window added up */
	bool metrics_on;
};

/* Before any output: open --records. Prints the error; RT_EXIT_FAILURE or 0. */
int oslat_records_open(struct oslat_records *r, const struct oslat_config *cfg);

/* The test starts: the run line and the first window. */
void oslat_records_start(struct oslat_records *r, const struct oslat_config *cfg,
			 const struct rt_report *rep, const struct rt_env *env,
			 const struct oslat_run *run);

/* Main thread, every tick. */
void oslat_records_poll(struct oslat_records *r, const struct oslat_run *run);

/* After the join: the last window and the totals. 0 or -errno. */
int oslat_records_finish(struct oslat_records *r, const struct oslat_run *run,
			 const struct rt_series *series);

/*
 * --metrics after the verdict (RT_METRICS_NO_VERDICT: none): the last
 * version of the file. Prints the error; RT_EXIT_FAILURE or 0.
 */
int oslat_records_metrics_finish(struct oslat_records *r, const struct oslat_config *cfg,
				 const struct rt_series *series, int verdict,
				 const struct rt_isolation *iso);

void oslat_records_close(struct oslat_records *r);

/*
 * Add to window half h the gaps counted since `seen` (updated): cnt holds
 * the current bucket counters (the last one the overflows, whose labels are
 * in ovf with extra their surplus). Pure: for the unit test too.
 */
void oslat_records_add(struct rt_window_half *h, int buckets, const uint64_t *cnt,
		       uint64_t *seen, const struct rt_loghist *ovf, struct rt_loghist *seen_ovf,
		       uint64_t extra, uint64_t *seen_extra, int64_t ovf_max_us);

#endif
