// SPDX-License-Identifier: GPL-2.0-or-later
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>

#include "rt_cli.h"
#include "rt_opt.h"
#include "rt_prog.h"
#include "rt_quantile_ci.h"
#include "rt_sample_plan.h"

#include "plan.h"

#define PLAN_MAX_INTERVAL_US 3600000000LL /* an hour */
#define PLAN_MAX_THREADS 4096

/* "1 h 1 min 29 s", "6 min 9 s", "3.7 s" (rounded up to the second above a minute). */
static void print_duration(uint64_t us)
{
	uint64_t s = (us + 999999) / 1000000;

	if (s < 60) {
		printf("%.1f s", (double)us / 1e6);
		return;
	}
	if (s >= 86400)
		printf("%" PRIu64 " d ", s / 86400);
	if (s >= 3600)
		printf("%" PRIu64 " h ", s / 3600 % 24);
	printf("%" PRIu64 " min %" PRIu64 " s", s / 60 % 60, s % 60);
}

static void format_pct(uint32_t pm, char *buf, size_t len)
{
	int digits = 4;
	uint32_t frac = pm % 10000;

	if (!frac) {
		snprintf(buf, len, "%u", pm / 10000);
		return;
	}
	while (frac % 10 == 0) {
		frac /= 10;
		digits--;
	}
	snprintf(buf, len, "%u.%0*u", pm / 10000, digits, frac);
}

int rlr_plan(int argc, char *argv[])
{
	static const struct option opts[] = {
		{ "percentile", required_argument, NULL, 'p' },
		{ "confidence", required_argument, NULL, 'c' },
		{ "interval", required_argument, NULL, 'i' },
		{ "threads", required_argument, NULL, 't' },
		{ NULL, 0, NULL, 0 },
	};
	uint32_t pm = 0;
	int c, conf = RT_QUANTILE_CI_CONFIDENCE_PCT, threads = 1;
	long long interval = 1000;
	struct rt_sample_plan plan;
	char pct[16];
	int err;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":p:c:i:t:", opts, NULL)) != -1) {
		switch (c) {
		case 'p':
			if (rt_opt_parse_percentile(optarg, &pm) || pm == RT_PERMYRIAD_100)
				return rt_prog_usage_error("invalid --percentile '%s': must be above 0 "
							   "and below 100, at most 4 decimals",
							   optarg);
			break;
		case 'c':
			if (rt_opt_parse_int(optarg, 1, 99, &conf))
				return rt_prog_usage_error("invalid --confidence '%s': must be 1..99 "
							   "(percent)", optarg);
			break;
		case 'i':
			if (rt_opt_parse_ll(optarg, 1, PLAN_MAX_INTERVAL_US, &interval))
				return rt_prog_usage_error("invalid --interval '%s': must be 1..%lld "
							   "(us)", optarg, PLAN_MAX_INTERVAL_US);
			break;
		case 't':
			if (rt_opt_parse_int(optarg, 1, PLAN_MAX_THREADS, &threads))
				return rt_prog_usage_error("invalid --threads '%s': must be 1..%d",
							   optarg, PLAN_MAX_THREADS);
			break;
		default:
			return rt_cli_bad_option(argc, argv, c);
		}
	}
	if (!pm)
		return rt_prog_usage_error("plan needs --percentile P");
	if (optind < argc)
		return rt_prog_usage_error("plan takes no files: '%s'", argv[optind]);
	/* The one computation (lib) the verdicts' "need N more samples" use too. */
	err = rt_sample_plan(pm, (unsigned)conf, (unsigned)threads, (uint64_t)interval, &plan);
	if (err) {
		rt_prog_error_errno(-err, "cannot plan p%s at %d %%", optarg ? optarg : "", conf);
		return RT_EXIT_FAILURE;
	}
	format_pct(pm, pct, sizeof(pct));
	printf("Percentile: p%s, %d %% confidence\n", pct, conf);
	printf("Samples: %" PRIu64 " (the fewest whose %d %% confidence interval has an upper "
	       "bound, so that a claim can be proven)\n", plan.samples, conf);
	printf("Each thread's claim: %" PRIu64 " samples per thread, ", plan.samples);
	print_duration(plan.thread_us);
	printf(" at %lld us\n", interval);
	printf("The claim on all %d threads together: %" PRIu64 " samples per thread, ", threads,
	       plan.per_thread);
	print_duration(plan.all_us);
	printf(" at %lld us\n", interval);
	return RT_EXIT_OK;
}
