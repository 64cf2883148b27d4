/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cyclictest --records: the run line, a window line per thread every
 * --records-interval (written by the main thread from the threads' window
 * halves, see rt_window.h), and the total line at the end.
 */
#ifndef CYCLICTEST_RECORDS_H
#define CYCLICTEST_RECORDS_H

#include <stdbool.h>
#include <stdint.h>

#include "rt_env.h"
#include "rt_percentiles.h"
#include "rt_records.h"
#include "rt_report.h"

#include "measure.h"

struct ct_records {
	struct rt_records rec;
	bool open;
	bool pending;             /* halves switched, waiting for the threads to leave */
	unsigned cur;             /* the half the threads add to */
	unsigned old;             /* the half to read when pending */
	int64_t pending_end_ns;   /* the end of that window */
	uint64_t *overruns_seen;  /* per thread: its overrun count at the last window */
	int error;                /* first write error, reported at the end */
};

/* Before the measurement: open the file (error printed). 0 or RT_EXIT_FAILURE. */
int cyclictest_records_open(struct ct_records *cr, const struct cyclictest_config *cfg, int nthreads);

/* The threads are about to start: the first window opens, the run line is written. */
void cyclictest_records_start(struct ct_records *cr, const struct ct_run *run,
			      const struct rt_report *rep, const struct rt_env *env);

/* Main thread, at every tick: close a window that is due. */
void cyclictest_records_poll(struct ct_records *cr, struct ct_run *run);

/* After the join: the last (partial) window and the totals. 0 or RT_EXIT_FAILURE. */
int cyclictest_records_finish(struct ct_records *cr, struct ct_run *run,
			      const struct rt_series *series);

void cyclictest_records_close(struct ct_records *cr);

#endif
