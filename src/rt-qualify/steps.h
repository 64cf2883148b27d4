/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The plan of the steps and the command lines of the tools and the load,
 * each an argv built from rt-qualify's checked options (never a string
 * for a shell): hardware noise (hwlatdetect, or oslat standing in), then
 * cyclictest and oslat under the load.
 */
#ifndef RTQ_STEPS_H
#define RTQ_STEPS_H

#include "qualify.h"

#define RTQ_ARGV_MAX 48

/* cyclictest's -p: SCHED_FIFO 90, checked before the first step (oslat's 1 is below it).
 */
#define RTQ_CYCLICTEST_PRIO 90

struct rtq_argv {
	char *v[RTQ_ARGV_MAX + 1];
	int n;
	char store[8192];
	size_t used;
	bool overflow;
};

/* Names, tools, durations and notes of the steps; the records interval. */
void rtq_steps_plan(struct rtq_plan *p);

/* The command line of step i, run as path. 0 or -E2BIG. */
int rtq_step_argv(const struct rtq_plan *p, int i, const char *path, struct rtq_argv *a);

/* The load's command line for seconds, run as path. 0 or -E2BIG. */
int rtq_load_argv(const struct rtq_plan *p, const char *path, uint64_t seconds,
		  struct rtq_argv *a);

#endif
