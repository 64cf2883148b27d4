/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The one verdict of every tool (issue 29; the rules: rt-tests-ng(7)).
 * A tool says what it checked (rt_verdict_add_checked), what failed
 * (rt_verdict_fail_check, the series limits of rt_verdict_judge_series),
 * what could not be proven (rt_verdict_unproven) and whether the run
 * stopped early (rt_verdict_set_partial); rt_verdict_finish() closes it:
 * no PASS without evidence. rt_verdict_exit_status() gives the exit
 * status, the writers the "# Verdict:" lines and the JSON object.
 *
 * Series limits: what a user sets (--max-latency, --max-percentile,
 * --max-overruns), judged against every series after the run. A series
 * without samples never passes.
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

#include "rt_exit.h"
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
	bool verdict;         /* --verdict: a judgement asked for without a limit */
	int npct;
	struct rt_pct_limit pct[RT_VERDICT_MAX_PCT_LIMITS];
};

void rt_limits_init(struct rt_limits *l);
/* A judgement was asked for: a limit, or --verdict. */
bool rt_limits_any(const struct rt_limits *l);

/* Who a check or a broken limit is about (the JSON key and the text's word). */
enum rt_subject {
	RT_SUBJECT_NONE,    /* the run as a whole */
	RT_SUBJECT_THREAD,  /* "thread" ("pair" when the verdict has pair naming) */
	RT_SUBJECT_PAIR,
	RT_SUBJECT_GROUP,
	RT_SUBJECT_TASK,
	RT_SUBJECT_CPU,
	RT_SUBJECT_PROCESS,
};

/* "thread", "pair", "group", "task", "cpu", "process"; NULL for RT_SUBJECT_NONE. */
const char *rt_subject_name(enum rt_subject s);

/*
 * A tool's own check that failed (stuck group, out-of-order task, wrong
 * ptrace step, missed deadlines or periods, queue exceeded, a dead child
 * ...). The strings are copied (limit up to 39, unit 15, detail 159 bytes).
 */
struct rt_check_failure {
	const char *limit;        /* short name: "stuck", "order", "step", "max-misses", ... */
	enum rt_subject subject;
	int index;                /* which thread/pair/group/task/cpu; -1 when none */
	int64_t value, bound;     /* what was seen, what was allowed */
	const char *unit;         /* "us", "ns", "s", "packets", "" (NULL: "") */
	const char *detail;       /* one line: the reason; NULL: "VALUE > BOUND UNIT" */
};

enum rt_broken_kind {
	RT_BROKEN_NO_SAMPLES,
	RT_BROKEN_MAX_LATENCY,
	RT_BROKEN_PERCENTILE,
	RT_BROKEN_OVERRUNS,
	RT_BROKEN_FAILED,     /* a worker process died: value its pid, detail how */
	RT_BROKEN_CHECK,      /* rt_verdict_fail_check(): limit, unit and detail say what */
	RT_BROKEN_UNPROVEN,   /* rt_verdict_unproven(): detail is the reason */
};

/* One broken limit: subject `thread` (its index) measured value, the limit was bound. */
struct rt_broken {
	enum rt_broken_kind kind;
	uint32_t permyriad;   /* RT_BROKEN_PERCENTILE: which one */
	int thread;           /* the subject's index (thread, pair, group ...); -1 none */
	int64_t value;
	int64_t bound;
	char detail[160];     /* RT_BROKEN_FAILED: what happened; CHECK/UNPROVEN: the reason */
	/* RT_BROKEN_PERCENTILE judged on its interval (not pct_point): */
	bool has_ci;
	bool inconclusive;    /* the interval holds the bound: neither PASS nor FAIL */
	int64_t ci_low, ci_high;
	bool ci_has_high;     /* false: too few samples for an upper bound */
	unsigned confidence_pct;
	int64_t more_samples; /* inconclusive: further samples to decide, -1 unknown */
	int64_t samples_needed; /* inconclusive: rt_sample_plan's total (count + more), -1 unknown */
	/* Since issue 29: */
	enum rt_subject subject;
	char limit[40];       /* RT_BROKEN_CHECK: the limit's name */
	char unit[16];        /* RT_BROKEN_CHECK: the value's unit */
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

/* Evidence: what was checked, and how much of it. */
struct rt_checked {
	char what[40];
	uint64_t count;
};

/* Why and when the run stopped. */
struct rt_stop {
	bool partial;         /* stopped before it was asked to */
	char cause[96];       /* "completed", "SIGINT", "SIGTERM", "error: ..." */
	double done, asked;   /* what was measured of what was asked; -1 unknown */
	char unit[8];         /* "s", "loops" ... */
};

struct rt_verdict {
	bool pass;
	size_t nbroken;
	struct rt_broken *broken;
	struct rt_verdict_naming naming; /* set after rt_verdict_judge() (it clears it) */
	/* Since issue 29 (rt_verdict_init() sets them up): */
	size_t broken_cap;
	size_t nchecked;
	struct rt_checked *checked;
	struct rt_stop stop;
	bool finished;        /* rt_verdict_finish() ran */
	char unit[8];         /* the series' unit for the JSON entries: "us" (default) or "ns" */
	int nomem;            /* an addition failed for memory: the verdict is FAIL */
};

/* An empty verdict: nothing checked yet, run "completed". rt_verdict_free() afterwards. */
void rt_verdict_init(struct rt_verdict *v);

/* Evidence: what was checked and how much ("inversions", 52113), added up per name. 0/-ENOMEM. */
int rt_verdict_add_checked(struct rt_verdict *v, const char *what, uint64_t count);

/* Total count of evidence (all names). */
uint64_t rt_verdict_checked_total(const struct rt_verdict *v);

/* A tool's own check failed: FAIL. 0 or -ENOMEM (the verdict is FAIL all the same). */
int rt_verdict_fail_check(struct rt_verdict *v, const struct rt_check_failure *c);

/*
 * A check that never ran or a subject that checked nothing: INCONCLUSIVE
 * with the reason (FAIL when fail is true, e.g. a thread with no samples).
 * 0 or -ENOMEM.
 */
int rt_verdict_unproven(struct rt_verdict *v, enum rt_subject s, int index, bool fail,
			const char *reason);

/*
 * The run stopped before it was asked to: "SIGINT", "SIGTERM", "error: ...",
 * with what was measured of what was asked (seconds or loops; -1 unknown).
 */
void rt_verdict_set_partial(struct rt_verdict *v, const char *cause, double done, double asked,
			    const char *unit);

/* A run that completed: how much it measured of what was asked (for "stop"). */
void rt_verdict_set_done(struct rt_verdict *v, double done, double asked, const char *unit);

/* The cause for rt_verdict_set_partial() of a signal number: "SIGINT", "SIGTERM", "signal N". */
const char *rt_verdict_signal_cause(int sig, char *buf, size_t len);

/* The unit of the series judged (for the JSON's "unit"): "us" by default, "ns". */
void rt_verdict_set_unit(struct rt_verdict *v, const char *unit);

/* Close the judgement: no evidence and nothing broken => INCONCLUSIVE "nothing was checked". */
void rt_verdict_finish(struct rt_verdict *v);

/*
 * Judge n series against l, appending to an initialised verdict: each
 * series' samples are evidence ("samples"); a series without samples is
 * FAIL ("no samples"). A percentile limit needs every series' hist.
 * 0 or -ENOMEM.
 */
int rt_verdict_judge_series(struct rt_verdict *v, const struct rt_limits *l,
			    const struct rt_series *s, int n);

/* rt_verdict_init() and rt_verdict_judge_series() (as before issue 29). */
int rt_verdict_judge(struct rt_verdict *v, const struct rt_limits *l, const struct rt_series *s,
		     int n);
void rt_verdict_free(struct rt_verdict *v);

/* After judging: series `thread` failed (its process pid died, detail). 0 or -ENOMEM. */
int rt_verdict_add_failed(struct rt_verdict *v, int thread, int64_t pid, const char *detail);

/*
 * "pass", "fail", or "inconclusive": only inconclusive entries broken, or
 * nothing broken in a run stopped early (a PASS of part of the run proves
 * nothing about the whole).
 */
const char *rt_verdict_result(const struct rt_verdict *v);
/* The result is "pass": a whole run, judged, nothing broken. */
bool rt_verdict_passed(const struct rt_verdict *v);

/*
 * Exit status (rt_exit.h), the same rule in every tool:
 *   RT_JUDGE_ASKED  the user asked for a judgement (a limit option or --verdict):
 *                   FAIL -> RT_EXIT_FAIL (3), INCONCLUSIVE -> RT_EXIT_INCONCLUSIVE (4)
 *   RT_JUDGE_NATIVE the tool judges in 2.4 too (pi_stress stuck group, rt-migrate-test -c,
 *                   ssdd wrong step): FAIL -> 3, INCONCLUSIVE -> 0
 *   RT_JUDGE_NONE   2.4 only measures (queuelat, deadline_test, hackbench ...): always 0
 * A run-time error (1) or usage error (2) is decided by the tool before this.
 */
enum rt_judge { RT_JUDGE_NONE, RT_JUDGE_NATIVE, RT_JUDGE_ASKED };
int rt_verdict_exit_status(const struct rt_verdict *v, enum rt_judge how);

/* Are the "# Verdict:" lines printed: asked, or a NATIVE judgement that failed. */
bool rt_verdict_text_shown(const struct rt_verdict *v, enum rt_judge how);

#endif
