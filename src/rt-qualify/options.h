/* SPDX-License-Identifier: GPL-2.0-or-later */
/* rt-qualify's configuration: filled by a parser without side effects. */
#ifndef RTQ_OPTIONS_H
#define RTQ_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>

#include "rt_affinity.h"
#include "rt_verdict.h"

#define RTQ_DEFAULT_DURATION_S 300   /* five minutes: the measurement of a first look */
#define RTQ_MIN_DURATION_S 3         /* one second at least for each measuring step */
#define RTQ_DEFAULT_MAX_LATENCY_US 100
#define RTQ_MAX_PCT_LIMITS 8

enum rtq_load { RTQ_LOAD_HACKBENCH, RTQ_LOAD_STRESS_NG, RTQ_LOAD_NONE };

struct rtq_config {
	const char *output;           /* -o: the result directory; NULL: named after host and time */
	uint64_t duration_s;          /* -D: the whole measurement, split among the steps */
	int64_t max_latency_us;       /* --max-latency */
	int npct;                     /* --max-percentile, as given (passed to the tools) */
	const char *pct[RTQ_MAX_PCT_LIMITS];
	enum rtq_load load;           /* --load */
	bool cpus_given;              /* --cpus: the measured CPUs */
	struct rt_cpulist cpus;
	bool setup_only;              /* --setup-only: the findings, nothing measured */
	const char *metrics;          /* --metrics: a Prometheus text file of the verdicts */
};

/* 0, RT_EXIT_USAGE, or -1 after --help/--version (exit 0). */
int rtq_parse_args(struct rtq_config *cfg, int argc, char *argv[]);

/* "hackbench", "stress-ng", "none". */
const char *rtq_load_name(enum rtq_load load);

#endif
