/* SPDX-License-Identifier: GPL-2.0-or-later */
/* deadline_test's configuration: filled by a parser without side effects. */
#ifndef DEADLINE_TEST_OPTIONS_H
#define DEADLINE_TEST_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>

#include "rt_affinity.h"
#include "rt_cli.h"

#define DL_MAX_THREADS 1024
#define DL_MAX_INTERVAL_US 4194304LL /* the kernel's default sched_deadline_period_max_us */
#define DL_MAX_RUN_PERCENT 1000      /* above 100: a deliberate overrun (a self-test) */

struct deadline_test_config {
	bool bind_last;           /* -b: the last allowed CPU */
	const char *cpus_arg;     /* -c as given, NULL: none */
	struct rt_cpulist cpus;   /* -c / -b: the threads' CPUs; count 0: not pinned */
	uint64_t interval_us;     /* -i: deadline (= period) of thread 0 */
	int percent;              /* -p: bandwidth asked for, of the CPUs, in % */
	int run_percent;          /* -P: share of the runtime the work takes, in % */
	int rt_prio;              /* -r: a SCHED_FIFO spinner at this priority, 0 = none */
	uint64_t step_us;         /* -s: added to the deadline per thread */
	int threads;              /* -t */
	uint64_t duration_s;      /* -D, default 10 (2.4's fixed run), 0: until a signal */
	uint64_t max_misses;      /* --max-misses: deadlines + periods that may be missed, 0 */
	struct rt_cli_common common; /* --json, --preflight, --no-preflight, --verdict */
};

/* 0, RT_EXIT_USAGE, or -1 after --help/--version (exit 0). */
int deadline_test_parse_args(struct deadline_test_config *cfg, int argc, char *argv[]);

#endif
