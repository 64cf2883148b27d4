/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Verdicts: the limits a user sets (--max-latency, --max-percentile,
 * --max-overruns), judged against every series after the run. A series
 * without samples never passes. The tools exit with RT_EXIT_VERDICT when
 * the verdict is FAIL or INCONCLUSIVE.
 *
 * A percentile limit is judged on the percentile's distribution-free 95 %
 * confidence interval (rt_quantile_ci) by default: PASS when its upper
 * bound is at most the limit, FAIL when its lower bound is over it,
 * otherwise INCONCLUSIVE (a broken entry with inconclusive set). With
 * pct_point (--percentile-claim=point) it is judged on the point estimate
 * alone, as before the intervals.
 */
#ifndef RT_VERDICT_H
#define RT_VERDICT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "rt_json.h"
#include "rt_percentiles.h"

#define RT_VERDICT_MAX_PCT_LIMITS 16

struct rt_pct_limit {
	uint32_t permyriad;   /* the percentile in 1/10000 % (99.9 -> 999000) */
	int64_t bound;
};

/* What the user allows; values in the run's unit (us, ns with -N). */
struct rt_limits {
	int64_t max_latency;  /* -1 = no limit */
	int64_t max_overruns; /* -1 = no limit */
	bool pct_point;       /* judge percentiles on the point estimate, not the interval */
	int npct;
	struct rt_pct_limit pct[RT_VERDICT_MAX_PCT_LIMITS];
};

void rt_limits_init(struct rt_limits *l);
bool rt_limits_any(const struct rt_limits *l);

enum rt_broken_kind {
	RT_BROKEN_NO_SAMPLES,
	RT_BROKEN_MAX_LATENCY,
	RT_BROKEN_PERCENTILE,
	RT_BROKEN_OVERRUNS,
	RT_BROKEN_FAILED,     /* a worker process died: value its pid, detail how */
};

/* One broken limit: series `thread` measured value, the limit was bound. */
struct rt_broken {
	enum rt_broken_kind kind;
	uint32_t permyriad;   /* RT_BROKEN_PERCENTILE: which one */
	int thread;
	int64_t value;
	int64_t bound;
	char detail[128];     /* RT_BROKEN_FAILED: what happened */
	/* RT_BROKEN_PERCENTILE judged on its interval (not pct_point): */
	bool has_ci;
	bool inconclusive;    /* the interval holds the bound: neither PASS nor FAIL */
	int64_t ci_low, ci_high;
	bool ci_has_high;     /* false: too few samples for an upper bound */
	unsigned confidence_pct;
	int64_t more_samples; /* inconclusive: estimated further samples to decide, -1 unknown */
};

/*
 * How the text and the JSON name a series: "thread N" by default; a pair
 * tool's "pair N (#S -> #R)", with S and R its sender and receiver as the
 * tool's display numbers its tasks ("#S -> #R, Min ...").
 */
struct rt_verdict_naming {
	/* Series i's sender and receiver task numbers; NULL: threads. */
	void (*pair_tasks)(void *ctx, int series, int *sender, int *receiver);
	void *ctx;
};

struct rt_verdict {
	bool pass;
	size_t nbroken;
	struct rt_broken *broken;
	struct rt_verdict_naming naming; /* set after rt_verdict_judge() (it clears it) */
};

/*
 * Judge n series against l. A percentile limit needs every series' hist.
 * 0 or -ENOMEM; rt_verdict_free() afterwards in either case.
 */
int rt_verdict_judge(struct rt_verdict *v, const struct rt_limits *l, const struct rt_series *s,
		     int n);
void rt_verdict_free(struct rt_verdict *v);

/* After judging: series `thread` failed (its process pid died, detail). 0 or -ENOMEM. */
int rt_verdict_add_failed(struct rt_verdict *v, int thread, int64_t pid, const char *detail);

/* "pass", "fail", or "inconclusive" (only inconclusive entries broken). */
const char *rt_verdict_result(const struct rt_verdict *v);

/* "max-latency", "max-percentile=99.9", "max-overruns", "samples" or "failed". */
void rt_broken_limit_name(const struct rt_broken *b, char *buf, size_t len);

/*
 * "# Verdict: PASS", "# Verdict: FAIL" or "# Verdict: INCONCLUSIVE", then
 * one line per broken limit:
 * "# Verdict: thread 1: max-percentile=99.9: 81 > 80 us",
 * "# Verdict: thread 0: max-percentile=99.99: INCONCLUSIVE: 52 us, 95 % CI
 * 48-61, need 120000 more samples" (48-? without an upper bound; "more
 * samples would not decide" when no number would),
 * "# Verdict: pair 1 (#3 -> #2): max-latency: 90 > 80 us",
 * "# Verdict: thread 0: no samples, nothing was measured",
 * "# Verdict: pair 0 (#1 -> #0): failed: child 1234 (#1) killed by signal 9
 * (Killed)" ... unit is "us" or "ns".
 */
void rt_verdict_write_text(FILE *f, const struct rt_verdict *v, const char *unit);

/*
 * "verdict": {"result": "pass"|"fail"|"inconclusive", "broken": [{limit, thread, value,
 * bound}...]}; a percentile judged on its interval adds "low", "high" (null:
 * none), "confidence", and when inconclusive "result": "inconclusive",
 * "more_samples" (null: unknown) and "reason" (the text line's words);
 * a pair tool's entries have "pair", "sender", "receiver" where "thread" is;
 * a "failed" entry has the pid as value, bound 0, and "detail".
 */
void rt_verdict_write_json(struct rt_json *j, const struct rt_verdict *v);

#endif
