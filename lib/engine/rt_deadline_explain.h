/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Why the kernel refused sched_setattr(SCHED_DEADLINE), in one line that
 * says what to change: EPERM (no CAP_SYS_NICE, a container, affinity
 * short of the root domain, sched_rt_runtime_us 0, a cgroup), EBUSY
 * (bandwidth: asked, admitted, free, held by others), EINVAL (the
 * parameters against sched_deadline_period_min_us/max_us), E2BIG. Used by
 * deadline_test and cyclicdeadline. Formats only: the tool prints.
 */
#ifndef RT_DEADLINE_EXPLAIN_H
#define RT_DEADLINE_EXPLAIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rt_affinity.h"

struct rt_deadline_refusal {
	int err;                 /* sched_setattr's negative errno */
	int thread;              /* the refused thread's index */
	uint64_t runtime_us;     /* its parameters (deadline = period) */
	uint64_t deadline_us;
	int nthreads;            /* the run's threads */
	uint64_t asked_bw;       /* all of them, in RT_DEADLINE_BW_UNIT */
	unsigned nr_cpus;        /* the CPUs admission counts */
	int64_t rt_runtime_us;   /* sched_rt_runtime_us, below -1: unknown */
	int64_t rt_period_us;
	/* the tool pins its threads to these CPUs (NULL or empty: it does not) */
	const struct rt_cpulist *pinned;
	const char *pin_what;    /* how the line names the pinning: "-c/-b pins the threads" */
	const char *pin_fix;     /* and its remedy's tail: " (deadline_test creates none)" */
	const char *bw_fix;      /* EBUSY's remedy: "lower -p or -t" */
	const char *param_fix;   /* EINVAL's remedy: "change -i, -s or -p" */
};

/* The one line (no newline, no program name) for r into buf. */
void rt_deadline_explain(char *buf, size_t len, const struct rt_deadline_refusal *r);

/*
 * EPERM when the process has no CAP_SYS_NICE or runs in a user namespace
 * (a container): the line into buf and true; false when neither holds.
 * With force, the no-CAP_SYS_NICE line in any case.
 */
bool rt_deadline_explain_caps(char *buf, size_t len, bool force);

#endif
