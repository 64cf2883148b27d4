/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cyclicdeadline's options: parsed into the config cyclictest's engine takes. */
#ifndef CYCLICDEADLINE_OPTIONS_H
#define CYCLICDEADLINE_OPTIONS_H

#include <stdbool.h>

#include "rt_affinity.h"
#include "rt_cyclic_config.h"

#define CD_MAX_THREADS 1024
#define CD_MIN_INTERVAL_US 2        /* a runtime of at least 1 us */
#define CD_MAX_INTERVAL_US 1000000
#define CD_MAX_STEP_US 1000000
#define CD_RUNTIME_PCT 60           /* of each interval, with no more threads than CPUs */
#define CD_OVERCOMMIT_PCT 80        /* CPUs x this / threads, with more */

struct cyclicdeadline_config {
	struct cyclictest_config ct;   /* what the engine runs */
	bool threads_given;            /* -t, or a bare -a after it */
	bool affinity_given;           /* -a / -c */
	bool affinity_bare;            /* -a without CPUSET: threads = CPUs */
	struct rt_cpulist cpus;        /* -a CPUSET */
	const char *cpus_arg;
	unsigned nr_cpus;              /* the CPUs of the run (the allowed ones) */
	bool all_cpus;                 /* prints "Using all CPUS" */
};

void cyclicdeadline_config_init(struct cyclicdeadline_config *cfg);

/*
 * Parse argv. Only stores values. RT_EXIT_USAGE after the one-line error,
 * -1 after --help / --version, else 0.
 */
int cyclicdeadline_parse_args(struct cyclicdeadline_config *cfg, int argc, char *argv[]);

/*
 * Cross-option rules and what follows from the CPUs: threads for a bare -a,
 * the runtime share. RT_EXIT_USAGE, RT_EXIT_FAILURE (a proper subset of the
 * CPUs: refused with one line) or 0.
 */
int cyclicdeadline_config_check(struct cyclicdeadline_config *cfg);

/* Thread n's runtime, in us. */
int64_t cyclicdeadline_runtime_us(const struct cyclicdeadline_config *cfg, int n);

#endif
