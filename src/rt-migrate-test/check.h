/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * rt-migrate-test's check (-c), pure logic: in one iteration, did a task
 * start (more than maxerr) after a task of lower priority, while that one
 * was running? Judged on the timestamps the tasks recorded, relative to
 * their common release.
 */
#ifndef MIGRATE_CHECK_H
#define MIGRATE_CHECK_H

#include <stdbool.h>
#include <stdint.h>

/* What one task recorded in one iteration. */
struct migrate_sample {
	int64_t start_us;  /* from the release to its first instruction */
	int64_t end_us;    /* from the release to the end of its busy loop */
	uint64_t loops;    /* busy-loop rounds: the CPU it really got */
};

/* The first task found out of order. */
struct migrate_order_error {
	int64_t iteration;
	int task;          /* the higher-priority task that waited */
	int prio;
	int lower_task;    /* the lower-priority task that ran first */
	int lower_prio;
	int64_t late_us;   /* task's start minus lower_task's start */
	int64_t end_late_us; /* task's end minus lower_task's end */
	uint64_t loops, lower_loops;
};

/*
 * Check one iteration of n tasks (prio[i]: task i's priority, the samples
 * in task order). A task is compared with the nearest task before it of a
 * strictly lower priority (equal priorities, -e, are not ordered). It is
 * out of order when it started more than maxerr_us after that one and, as
 * evidence that it really waited, it did fewer loops, or it started after
 * the other had ended, or it ended more than maxerr_us after it.
 * Returns true when in order; otherwise fills *err (iteration as given).
 */
bool migrate_check_iteration(const struct migrate_sample *s, const int *prio, int n,
			     int64_t maxerr_us, int64_t iteration,
			     struct migrate_order_error *err);

/* "iteration 3: task 2 (prio 4) started 1523 us after task 1 (prio 3) ..." */
void migrate_order_error_format(const struct migrate_order_error *e, int64_t maxerr_us,
				char *buf, unsigned len);

#endif
