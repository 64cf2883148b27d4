/* SPDX-License-Identifier: GPL-2.0-or-later */
/* rt-migrate-test's configuration: filled by a parser without side effects. */
#ifndef MIGRATE_OPTIONS_H
#define MIGRATE_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>

#include "rt_cli.h"

#define MIGRATE_MAX_PRIO 99          /* SCHED_FIFO's highest, the main thread's at most */
#define MIGRATE_MAX_LOOPS 1000000LL
#define MIGRATE_MAX_SAMPLES 16000000LL /* loops x tasks kept in memory (24 bytes each) */
#define MIGRATE_MAX_MS 3600000LL     /* -r, -s: one hour */
#define MIGRATE_MAX_MAXERR_US 3600000000LL

struct migrate_config {
	int nr_tasks;             /* NR_TASKS: allowed CPUs + 1 by default */
	int prio;                 /* -p: task 0's priority (2) */
	int64_t run_time_ms;      /* -r: each task's busy loop (20) */
	int64_t sleep_time_ms;    /* -s: main's sleep before and after the release (100) */
	int64_t maxerr_us;        /* -m (1000) */
	int64_t loops;            /* -l (50) */
	bool equal;               /* -e: tasks 1..N-2 at prio + 1 */
	bool check;               /* -c: stop at the first task out of order, the verdict */
	bool quiet;               /* -q: no progress bar */
	uint64_t duration_s;      /* -D, 0 = none (as 2.4) */
	struct rt_cli_common common; /* --json, --preflight, --no-preflight, --verdict */
};

/* 0, RT_EXIT_USAGE, or -1 after --help/--version (exit 0). */
int migrate_parse_args(struct migrate_config *cfg, int argc, char *argv[]);

/* Task i's priority (-e: tasks 1..N-2 share prio + 1); i == nr_tasks: main's. */
int migrate_task_prio(const struct migrate_config *cfg, int i);

#endif
