/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A result file read back (with json-c): what rt-latency-report needs of
 * our JSON, or of rt-tests 2.4's (which has no percentiles).
 */
#ifndef RLR_LOAD_H
#define RLR_LOAD_H

#include <stdbool.h>
#include <stdint.h>

#include "rt_loghist.h"

/* p50, p99, p99.9, p99.99 (as named in the JSON) and max. */
#define RLR_METRICS 5
extern const char *const rlr_metric_names[RLR_METRICS];

struct rlr_series {
	bool has[RLR_METRICS];
	int64_t value[RLR_METRICS];
};

struct rlr_run {
	const char *path;
	char tool[64];       /* the command's name from "cmdline:" */
	bool ns;             /* cyclictest -N */
	int nthreads;
	struct rlr_series *thread;
	struct rlr_series all;
};

/*
 * Read path: 0; 1 with a one-line error printed (unreadable, not JSON) or
 * 2 (JSON, but not a result of ours or of rt-tests 2.4).
 */
int rlr_load(struct rlr_run *r, const char *path);
void rlr_free(struct rlr_run *r);

#endif
