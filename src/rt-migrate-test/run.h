/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * rt-migrate-test's run: NR_TASKS SCHED_FIFO threads released together each
 * iteration by the main thread (above them all), each busy-looping for the
 * run time and recording when it started and ended, relative to the release.
 * SIGINT, SIGTERM, SIGHUP and -D stop the run after the current iteration;
 * every thread is joined before hand-back.
 */
#ifndef MIGRATE_RUN_H
#define MIGRATE_RUN_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "check.h"
#include "options.h"

struct migrate_result {
	struct migrate_sample *samples; /* iteration-major: samples[it * nr_tasks + task] */
	int *prio;                      /* per task, the priority asked */
	pid_t *tid;                     /* per task, its thread id */
	int *policy;                    /* per task, the SCHED_* read back (-1: never ran) */
	int64_t iterations;             /* iterations completed */
	int stop_signal;                /* SIGINT, SIGTERM or SIGHUP that stopped it, 0 */
	bool duration_over;             /* -D ended it */
	bool out_of_order;              /* -c caught a task: error says which */
	struct migrate_order_error error;
};

/*
 * The whole run. signals: the set of rt_signal_setup(). Errors are printed;
 * returns RT_EXIT_OK or RT_EXIT_FAILURE (could not run). Free with
 * migrate_result_free() in either case.
 */
int migrate_run(const struct migrate_config *cfg, const sigset_t *signals,
		struct migrate_result *res);
void migrate_result_free(struct migrate_result *res);

#endif
