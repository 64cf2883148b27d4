/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * HRTICK_DL in debugfs sched/features: runtimes below 2 ms are enforced
 * exactly only with it. Enabled for the run and put back afterwards (2.4
 * left it on).
 */
#ifndef RT_HRTICK_H
#define RT_HRTICK_H

#include <stdbool.h>

struct rt_hrtick {
	char path[512];       /* the features file, "" when not found */
	char restore[32];     /* what to write back at the end, "" nothing */
};

/*
 * Make sure HRTICK_DL (or HRTICK on old kernels) is on. Returns 1 when it
 * was on already, 2 when it was switched on (s->restore set), 0 when it
 * cannot be (no debugfs, not writable).
 */
int rt_hrtick_enable(struct rt_hrtick *s);

/* The same on the features file at path (debugfs sched/features, or a test's file). */
int rt_hrtick_enable_file(struct rt_hrtick *s, const char *path);

/* Write back what rt_hrtick_enable() changed. */
void rt_hrtick_restore(struct rt_hrtick *s);

#endif
