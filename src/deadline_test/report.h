/* SPDX-License-Identifier: GPL-2.0-or-later */
/* deadline_test's output: 2.4's per-thread blocks, the totals, the verdict, the JSON. */
#ifndef DEADLINE_TEST_REPORT_H
#define DEADLINE_TEST_REPORT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "rt_env.h"
#include "rt_report.h"

#include "options.h"
#include "run.h"

struct dl_totals {
	uint64_t missed_deadlines, missed_periods, nr_periods;
	int idle_threads;         /* threads that never completed a period */
	bool pass;
};

/* Sum the threads and judge: FAIL when more than --max-misses were missed or a thread never ran. */
struct dl_totals deadline_test_judge(const struct deadline_test_config *cfg,
				     const struct dl_thread *threads, int n);

/* 2.4's block for one thread ("\n[tid]\nmissed deadlines  = ..."). */
void deadline_test_print_thread(FILE *f, const struct dl_thread *t);

/* Ours, after 2.4's lines: "# Missed deadlines: ..." and the verdict lines. */
void deadline_test_print_verdict(FILE *f, const struct deadline_test_config *cfg,
				 const struct dl_result *res, const struct dl_totals *tot);

int deadline_test_write_json(FILE *f, const struct rt_report *rep, int return_code,
			     const struct deadline_test_config *cfg, const struct dl_result *res,
			     const struct dl_totals *tot, const struct rt_env *env);

#endif
