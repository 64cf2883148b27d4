/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Everything oslat prints, in the rt-tests 2.4 formats, from final results. */
#ifndef OSLAT_REPORT_H
#define OSLAT_REPORT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "rt_env.h"
#include "rt_loghist.h"
#include "rt_percentiles.h"
#include "rt_report.h"
#include "rt_stats.h"
#include "rt_verdict.h"

#include "options.h"

/* One polling thread's final numbers, all gaps as 2.4's labels (us, no bias). */
struct oslat_result {
	int cpu;
	uint32_t mhz;
	const uint64_t *buckets;   /* the -b counters, the last one with the overflows */
	struct rt_stats stats;     /* count, min, max, sum of the labels */
	double duration_s;
	const struct rt_loghist *hist; /* every gap's label, sealed; NULL: not kept */
	int ran_policy;
};

/* What the summary and the JSON need beside the results. */
struct oslat_summary {
	int n;
	const struct oslat_result *res;
	int buckets;
	int bias_us;
	bool zero_omit;
};

/* The header block, from "Total runtime:" to "Pre-heat for N seconds...". */
void oslat_print_header(FILE *out, const struct oslat_config *cfg, int preheaters,
			uint64_t preheat_s);

/* The table, from "        Core:" to the blank line after "Duration:". */
void oslat_print_summary(FILE *out, const struct oslat_summary *s);

/* The average 2.4 prints: the mean label plus the bias. */
double oslat_average(const struct oslat_result *r, int bias_us);

/* What the verdict and the percentiles read (malloc'd, n entries). */
struct rt_series *oslat_series(const struct oslat_summary *s);

/* The --json document. verdict NULL when no limit was given. 0 or -errno. */
int oslat_write_json(FILE *out, const struct oslat_summary *s, const struct rt_report *rep,
		     int return_code, const struct rt_series *series,
		     const struct rt_verdict *verdict, const struct rt_env *env,
		     void (*extra)(struct rt_json *j, void *ctx), void *ctx);

#endif
