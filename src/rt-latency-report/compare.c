// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * compare: p50, p99, p99.9, p99.99 and max of every thread and of all
 * threads, base against run; FAIL (exit 3) when any got worse by more than
 * the tolerance. Comment lines then say which percentiles changed beyond
 * their 95 % confidence intervals (the two intervals disjoint), and with
 * --significant only such changes fail.
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "rt_cli.h"
#include "rt_opt.h"
#include "rt_prog.h"
#include "rt_quantile_ci.h"

#include "compare.h"
#include "load.h"

#define RLR_DEFAULT_TOLERANCE_PCT 10
#define RLR_MAX_TOLERANCE_PCT 100000

/* What the two intervals of one percentile say of its change. */
enum rlr_sig { RLR_SIG_NONE, RLR_SIG_OVERLAP, RLR_SIG_WORSE, RLR_SIG_BETTER };

/* The counts behind the comment lines and the verdict. */
struct tally {
	int worse;       /* worse beyond the tolerance */
	int both;        /* ... and beyond the intervals */
	int sig[4];      /* percentile rows by enum rlr_sig */
};

/* The change of a metric in percent. */
static double change_of(const struct rlr_series *b, const struct rlr_series *r, int metric)
{
	int64_t old = b->value[metric], new = r->value[metric];

	/* Against at least one unit: a base of 0 would make any change infinite. */
	/* In doubles: new - old of two int64 may not fit one. */
	return ((double)new - (double)old) * 100.0 / (double)(old > 1 ? old : 1);
}

/* Whether a metric both have got worse by more than the tolerance. */
static bool worse_by(const struct rlr_series *b, const struct rlr_series *r, int metric,
		     long long tol)
{
	return b->has[metric] && r->has[metric] && change_of(b, r, metric) > (double)tol;
}

/* One row; returns whether it is worse beyond the tolerance. */
static bool row(const char *who, int metric, const struct rlr_series *b,
		const struct rlr_series *r, long long tol)
{
	int64_t old = b->value[metric], new = r->value[metric];
	double change = change_of(b, r, metric);
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
	worse = worse_by(b, r, metric, tol);
	printf("%-6s %-7s %10" PRId64 " %10" PRId64 " %+8.1f%%%s\n", who, rlr_metric_names[metric],
	       old, new, change, worse ? "  worse" : "");
	return worse;
}

/*
 * Disjoint intervals: the run's lower bound above the base's upper one
 * (worse), or its upper bound under the base's lower one (better). An
 * open upper bound (too few samples) overlaps everything above its low.
 */
static enum rlr_sig significance(const struct rlr_series *b, const struct rlr_series *r, int m)
{
	const struct rlr_ci *x = &b->ci[m], *y = &r->ci[m];

	if (m == RLR_METRICS - 1 || !b->has[m] || !r->has[m] || !x->has || !y->has)
		return RLR_SIG_NONE;
	if (x->has_high && y->low > x->high)
		return RLR_SIG_WORSE;
	if (y->has_high && y->high < x->low)
		return RLR_SIG_BETTER;
	return RLR_SIG_OVERLAP;
}

/* "52 us (95 % CI 48-61)", "52 us (95 % CI 48-?)" when no upper bound. */
static void value_ci(const struct rlr_series *s, int m, const char *unit)
{
	printf("%" PRId64 " %s (%d %% CI %" PRId64 "-", s->value[m], unit,
	       RT_QUANTILE_CI_CONFIDENCE_PCT, s->ci[m].low);
	if (s->ci[m].has_high)
		printf("%" PRId64 ")", s->ci[m].high);
	else
		printf("?)");
}

/* The row's comment line when its intervals are disjoint; counts it. */
static void sig_line(const char *who, int m, const struct rlr_series *b,
		     const struct rlr_series *r, const char *unit, bool tol_worse, struct tally *t)
{
	enum rlr_sig sig = significance(b, r, m);

	if (m < RLR_METRICS - 1)
		t->sig[sig]++;
	t->both += tol_worse && sig == RLR_SIG_WORSE;
	if (sig != RLR_SIG_WORSE && sig != RLR_SIG_BETTER)
		return;
	printf("# %s %s: %s beyond the %d %% intervals: ", who, rlr_metric_names[m],
	       sig == RLR_SIG_WORSE ? "worse" : "better", RT_QUANTILE_CI_CONFIDENCE_PCT);
	value_ci(b, m, unit);
	printf(" -> ");
	value_ci(r, m, unit);
	putchar('\n');
}

/*
 * The last line and the exit status: FAIL when a value is worse; a run
 * stopped early (or a base that did) with nothing worse is INCONCLUSIVE,
 * never a complete PASS.
 */
static int print_verdict(int fails, bool significant, long long tol, const struct rlr_run *base,
			 const struct rlr_run *run)
{
	if (fails && significant)
		printf("# Verdict: FAIL (%d value(s) worse by more than %lld%% and beyond their "
		       "%d %% intervals)\n", fails, tol, RT_QUANTILE_CI_CONFIDENCE_PCT);
	else if (fails)
		printf("# Verdict: FAIL (%d value(s) worse by more than %lld%%)\n", fails, tol);
	else if (base->partial || run->partial)
		printf("# Verdict: INCONCLUSIVE (no value worse, but %s stopped early)\n",
		       run->partial ? run->path : base->path);
	else
		printf("# Verdict: PASS\n");
	return fails ? RT_EXIT_FAIL : base->partial || run->partial ? RT_EXIT_INCONCLUSIVE : RT_EXIT_OK;
}

/* compare's options and its two files (left at argv[optind]): 0 or the exit status. */
static int parse_compare(int argc, char *argv[], long long *tol, bool *significant)
{
	static const struct option opts[] = {
		{ "tolerance", required_argument, NULL, 't' },
		{ "significant", no_argument, NULL, 's' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":", opts, NULL)) != -1) {
		if (c == 's')
			*significant = true;
		else if (c != 't')
			return rt_cli_bad_option(argc, argv, c);
		else if (rt_cli_number("tolerance", optarg, 0, RLR_MAX_TOLERANCE_PCT, "%", tol))
			return RT_EXIT_USAGE;
	}
	if (argc - optind != 2)
		return rt_prog_usage_error("compare needs two files: BASE.json RUN.json");
	return 0;
}

int rlr_compare(int argc, char *argv[])
{
	struct rlr_run base, run;
	struct tally t = { 0 };
	long long tol = RLR_DEFAULT_TOLERANCE_PCT;
	int rc, n, fails;
	bool significant = false;

	if ((rc = parse_compare(argc, argv, &tol, &significant)))
		return rc;
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
	/* A run stopped early or killed is never read as a complete one. */
	for (int k = 0; k < 2; k++)
		if ((k ? &run : &base)->partial)
			printf("# %s: PARTIAL: the run stopped early (killed?); its figures cover the "
			       "time measured only\n", (k ? &run : &base)->path);
	printf("%-6s %-7s %10s %10s %9s\n", "thread", "metric", "base", "run", "change");
	/* The rows first (their layout is parsed), the interval comments after them. */
	for (int i = 0; i < n; i++) {
		char who[16];

		snprintf(who, sizeof(who), "%d", i);
		for (int m = 0; m < RLR_METRICS; m++)
			t.worse += row(who, m, &base.thread[i], &run.thread[i], tol);
	}
	for (int m = 0; m < RLR_METRICS; m++)
		t.worse += row("all", m, &base.all, &run.all, tol);
	for (int i = 0; i < n; i++) {
		char who[24];

		snprintf(who, sizeof(who), "thread %d", i);
		for (int m = 0; m < RLR_METRICS; m++)
			sig_line(who, m, &base.thread[i], &run.thread[i], base.ns ? "ns" : "us",
				 worse_by(&base.thread[i], &run.thread[i], m, tol), &t);
	}
	for (int m = 0; m < RLR_METRICS; m++)
		sig_line("all threads", m, &base.all, &run.all, base.ns ? "ns" : "us",
			 worse_by(&base.all, &run.all, m, tol), &t);
	printf("# Percentiles beyond their %d %% intervals: %d worse, %d better (%d overlap, "
	       "%d without an interval)\n", RT_QUANTILE_CI_CONFIDENCE_PCT, t.sig[RLR_SIG_WORSE],
	       t.sig[RLR_SIG_BETTER], t.sig[RLR_SIG_OVERLAP], t.sig[RLR_SIG_NONE]);
	fails = significant ? t.both : t.worse;
	if (significant && t.worse > t.both)
		printf("# --significant: %d value(s) worse by more than %lld%% not counted: their "
		       "intervals overlap or are not known\n", t.worse - t.both, tol);
	rc = print_verdict(fails, significant, tol, &base, &run);
	rlr_free(&base);
	rlr_free(&run);
	return rc;
}
