// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * compare: p50, p99, p99.9, p99.99 and max of every thread and of all
 * threads, base against run; FAIL (exit 3) when any got worse by more than
 * the tolerance.
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "rt_cli.h"
#include "rt_opt.h"
#include "rt_prog.h"

#include "compare.h"
#include "load.h"

#define RLR_DEFAULT_TOLERANCE_PCT 10
#define RLR_MAX_TOLERANCE_PCT 100000

/* One row; returns whether it is worse beyond the tolerance. */
static bool row(const char *who, int metric, const struct rlr_series *b,
		const struct rlr_series *r, long long tol)
{
	int64_t old = b->value[metric], new = r->value[metric];
	/* Against at least one unit: a base of 0 would make any change infinite. */
	/* In doubles: new - old of two int64 may not fit one. */
	double change = ((double)new - (double)old) * 100.0 / (double)(old > 1 ? old : 1);
	bool worse;

	if (!b->has[metric] || !r->has[metric]) {
		char bs[24] = "-", rs[24] = "-";

		if (b->has[metric])
			snprintf(bs, sizeof(bs), "%" PRId64, old);
		if (r->has[metric])
			snprintf(rs, sizeof(rs), "%" PRId64, new);
		printf("%-6s %-7s %10s %10s %9s\n", who, rlr_metric_names[metric], bs, rs, "n/a");
		return false;
	}
	worse = change > (double)tol;
	printf("%-6s %-7s %10" PRId64 " %10" PRId64 " %+8.1f%%%s\n", who, rlr_metric_names[metric],
	       old, new, change, worse ? "  worse" : "");
	return worse;
}

int rlr_compare(int argc, char *argv[])
{
	static const struct option opts[] = {
		{ "tolerance", required_argument, NULL, 't' },
		{ NULL, 0, NULL, 0 },
	};
	struct rlr_run base, run;
	long long tol = RLR_DEFAULT_TOLERANCE_PCT;
	int c, rc, worse = 0, n;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":", opts, NULL)) != -1) {
		if (c != 't')
			return rt_cli_bad_option(argc, argv, c);
		if (rt_cli_number("tolerance", optarg, 0, RLR_MAX_TOLERANCE_PCT, "%", &tol))
			return RT_EXIT_USAGE;
	}
	if (argc - optind != 2)
		return rt_prog_usage_error("compare needs two files: BASE.json RUN.json");
	if ((rc = rlr_load(&base, argv[optind])))
		return rc == 2 ? RT_EXIT_USAGE : RT_EXIT_FAILURE;
	if ((rc = rlr_load(&run, argv[optind + 1]))) {
		rlr_free(&base);
		return rc == 2 ? RT_EXIT_USAGE : RT_EXIT_FAILURE;
	}
	if (strcmp(base.tool, run.tool) != 0 || base.ns != run.ns) {
		rt_prog_usage_error("'%s' (%s, %s) and '%s' (%s, %s) are not results of the same tool "
				    "in the same unit", base.path, base.tool, base.ns ? "ns" : "us",
				    run.path, run.tool, run.ns ? "ns" : "us");
		rlr_free(&base);
		rlr_free(&run);
		return RT_EXIT_USAGE;
	}
	n = base.nthreads < run.nthreads ? base.nthreads : run.nthreads;
	printf("# rt-latency-report compare: %s -> %s (%s, %s, tolerance %lld%%)\n", base.path,
	       run.path, base.tool, base.ns ? "ns" : "us", tol);
	if (base.nthreads != run.nthreads)
		printf("# threads: %d in the base, %d in the run; the first %d compared\n",
		       base.nthreads, run.nthreads, n);
	printf("%-6s %-7s %10s %10s %9s\n", "thread", "metric", "base", "run", "change");
	for (int i = 0; i < n; i++) {
		char who[16];

		snprintf(who, sizeof(who), "%d", i);
		for (int m = 0; m < RLR_METRICS; m++)
			worse += row(who, m, &base.thread[i], &run.thread[i], tol);
	}
	for (int m = 0; m < RLR_METRICS; m++)
		worse += row("all", m, &base.all, &run.all, tol);
	if (worse)
		printf("# Verdict: FAIL (%d value(s) worse by more than %lld%%)\n", worse, tol);
	else
		printf("# Verdict: PASS\n");
	rlr_free(&base);
	rlr_free(&run);
	return worse ? RT_EXIT_VERDICT : RT_EXIT_OK;
}
