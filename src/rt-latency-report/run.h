/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The model of a run as rt-latency-report compares it: each thread's
 * percentiles with their confidence intervals and max, and all threads'.
 * Filled by load.c from any input; read by the outputs.
 */
#ifndef RLR_RUN_H
#define RLR_RUN_H

#include <stdbool.h>
#include <stdint.h>

/* The most threads a result may have (cyclictest -t). */
#define RLR_MAX_THREADS 4096

/* p50, p99, p99.9, p99.99 (as named in the JSON) and max. */
#define RLR_METRICS 5
extern const char *const rlr_metric_names[RLR_METRICS];

/* A percentile's 95 % confidence interval (rt_quantile_ci). */
struct rlr_ci {
	bool has;            /* false: not known (no histogram, no "percentiles_ci", max) */
	bool has_high;       /* false: too few samples for an upper bound */
	int64_t low, high;
};

struct rlr_series {
	bool has[RLR_METRICS];
	int64_t value[RLR_METRICS];
	struct rlr_ci ci[RLR_METRICS];
};

struct rlr_run {
	const char *path;
	char tool[64];       /* the command's name from "cmdline:" */
	bool text;           /* cyclictest's -h text, not JSON */
	bool ns;             /* cyclictest -N */
	bool partial;        /* stopped early or killed ("partial": true) */
	int nthreads;
	struct rlr_series *thread;
	struct rlr_series all;
};

void rlr_free(struct rlr_run *r);

#endif
