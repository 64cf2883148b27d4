// SPDX-License-Identifier: GPL-2.0-or-later
#include <inttypes.h>
#include <stdio.h>

#include "check.h"

/* The nearest task before i whose priority is below task i's, or -1. */
static int lower_neighbour(const int *prio, int i)
{
	for (int j = i - 1; j >= 0; j--)
		if (prio[j] < prio[i])
			return j;
	return -1;
}

static bool waited(const struct migrate_sample *hi, const struct migrate_sample *lo,
		   int64_t maxerr_us)
{
	if (hi->start_us - lo->start_us <= maxerr_us)
		return false;
	return hi->loops < lo->loops || hi->start_us > lo->end_us ||
	       hi->end_us - lo->end_us > maxerr_us;
}

bool migrate_check_iteration(const struct migrate_sample *s, const int *prio, int n,
			     int64_t maxerr_us, int64_t iteration,
			     struct migrate_order_error *err)
{
	for (int i = 1; i < n; i++) {
		int j = lower_neighbour(prio, i);

		if (j < 0 || !waited(&s[i], &s[j], maxerr_us))
			continue;
		*err = (struct migrate_order_error){
			.iteration = iteration, .task = i, .prio = prio[i],
			.lower_task = j, .lower_prio = prio[j],
			.late_us = s[i].start_us - s[j].start_us,
			.end_late_us = s[i].end_us - s[j].end_us,
			.loops = s[i].loops, .lower_loops = s[j].loops,
		};
		return false;
	}
	return true;
}

void migrate_order_error_format(const struct migrate_order_error *e, int64_t maxerr_us,
				char *buf, unsigned len)
{
	snprintf(buf, len, "iteration %" PRId64 ": task %d (prio %d) started %" PRId64
		 " us after task %d (prio %d), which ran first (maxerr %" PRId64 " us; "
		 "loops %" PRIu64 " vs %" PRIu64 ", ended %" PRId64 " us later)",
		 e->iteration, e->task, e->prio, e->late_us, e->lower_task, e->lower_prio,
		 maxerr_us, e->loops, e->lower_loops, e->end_late_us);
}
