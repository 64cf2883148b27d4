/* SPDX-License-Identifier: GPL-2.0-or-later */
/* rt-migrate-test's output: 2.4's table and task blocks, the verdict, the JSON. */
#ifndef MIGRATE_REPORT_H
#define MIGRATE_REPORT_H

#include <stdio.h>
#include <sys/types.h>

#include "rt_env.h"
#include "rt_report.h"
#include "rt_verdict.h"

#include "options.h"
#include "run.h"

/* A task's start offsets (us) over the iterations, as 2.4 sums them. */
struct migrate_task_stats {
	int64_t min_us, max_us, total_us, avg_us;
	int64_t end_min_us, end_max_us;
	uint64_t loops_min, loops_max, loops_total;
};

void migrate_task_stats(const struct migrate_result *res, int nr_tasks, int task,
			struct migrate_task_stats *st);

/*
 * 2.4's stdout: the per-iteration table, "Parent pid: P", the per-task
 * blocks, " Passed!"/" Failed!" with -c.
 */
void migrate_print(FILE *f, const struct migrate_config *cfg, const struct migrate_result *res,
		   pid_t parent);

/*
 * The verdict (rt_verdict_free after): every iteration's order checked (the
 * evidence), the first task out of order fails it; a signal: partial.
 */
void migrate_judge(struct rt_verdict *v, const struct migrate_config *cfg,
		   const struct migrate_result *res);

/* The JSON document (2.4's header and keys, then ours). 0 or -errno. */
int migrate_write_json(FILE *f, const struct rt_report *rep, int return_code,
		       const struct migrate_config *cfg, const struct migrate_result *res,
		       const struct rt_verdict *v, const struct rt_env *env);

#endif
