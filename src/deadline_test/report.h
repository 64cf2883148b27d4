/* SPDX-License-Identifier: GPL-2.0-or-later */
/* deadline_test's output: 2.4's per-thread blocks, the totals, the verdict, the JSON. */
#ifndef DEADLINE_TEST_REPORT_H
#define DEADLINE_TEST_REPORT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "rt_env.h"
#include "rt_report.h"
#include "rt_verdict.h"

#include "options.h"
#include "run.h"

struct dl_totals {
	uint64_t missed_deadlines, missed_periods, nr_periods;
	int idle_threads;         /* threads that never completed a period */
};

/* The threads' sums. */
struct dl_totals deadline_test_totals(const struct dl_thread *threads, int n);

/*
 * The verdict (rt_verdict_free() it): the periods run are the evidence; FAIL
 * when the missed deadlines and missed periods together are more than
 * --max-misses (0 by default), or a thread completed no period in a run
 * that ended as asked; a signal before -D's end makes it partial, and a
 * thread with no period then INCONCLUSIVE. 0 or -ENOMEM (the verdict is
 * FAIL then).
 */
int deadline_test_judge(struct rt_verdict *v, const struct deadline_test_config *cfg,
			const struct dl_result *res, const struct dl_totals *tot);

/* 2.4's block for one thread ("\n[tid]\nmissed deadlines  = ..."). */
void deadline_test_print_thread(FILE *f, const struct dl_thread *t);

/* Ours, after 2.4's lines, when a verdict was asked for: "# Missed deadlines: ...", the verdict. */
void deadline_test_print_verdict(FILE *f, const struct dl_result *res, const struct dl_totals *tot,
				 const struct rt_verdict *v);

int deadline_test_write_json(FILE *f, const struct rt_report *rep, int return_code,
			     const struct deadline_test_config *cfg, const struct dl_result *res,
			     const struct dl_totals *tot, const struct rt_verdict *v,
			     const struct rt_env *env);

#endif
