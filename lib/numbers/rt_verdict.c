// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "rt_quantile_ci.h"
#include "rt_sample_plan.h"
#include "rt_verdict.h"

void rt_limits_init(struct rt_limits *l)
{
	memset(l, 0, sizeof(*l));
	l->max_latency = -1;
	l->max_overruns = -1;
}

bool rt_limits_any(const struct rt_limits *l)
{
	return l->verdict || l->max_latency >= 0 || l->max_overruns >= 0 || l->npct > 0;
}

const char *rt_subject_name(enum rt_subject s)
{
	switch (s) {
	case RT_SUBJECT_THREAD: return "thread";
	case RT_SUBJECT_PAIR: return "pair";
	case RT_SUBJECT_GROUP: return "group";
	case RT_SUBJECT_TASK: return "task";
	case RT_SUBJECT_CPU: return "cpu";
	case RT_SUBJECT_PROCESS: return "process";
	case RT_SUBJECT_NONE: break;
	}
	return NULL;
}

void rt_verdict_init(struct rt_verdict *v)
{
	memset(v, 0, sizeof(*v));
	v->pass = true;
	snprintf(v->stop.cause, sizeof(v->stop.cause), "completed");
	v->stop.done = -1;
	v->stop.asked = -1;
	snprintf(v->unit, sizeof(v->unit), "us");
}

void rt_verdict_set_unit(struct rt_verdict *v, const char *unit)
{
	snprintf(v->unit, sizeof(v->unit), "%s", unit);
}

/* Append b (FAIL or INCONCLUSIVE either way). */
static int add(struct rt_verdict *v, struct rt_broken b)
{
	v->pass = false;
	if (v->nbroken == v->broken_cap) {
		size_t n = v->broken_cap ? 2 * v->broken_cap : 8;
		struct rt_broken *m = realloc(v->broken, n * sizeof(*m));

		if (!m) {
			v->nomem = -ENOMEM;
			return -ENOMEM;
		}
		v->broken = m;
		v->broken_cap = n;
	}
	v->broken[v->nbroken++] = b;
	return 0;
}

int rt_verdict_add_checked(struct rt_verdict *v, const char *what, uint64_t count)
{
	struct rt_checked *m;

	for (size_t k = 0; k < v->nchecked; k++)
		if (!strcmp(v->checked[k].what, what)) {
			v->checked[k].count += count;
			return 0;
		}
	m = realloc(v->checked, (v->nchecked + 1) * sizeof(*m));
	if (!m) {
		v->nomem = -ENOMEM;
		return -ENOMEM;
	}
	v->checked = m;
	m = &m[v->nchecked++];
	memset(m, 0, sizeof(*m));
	snprintf(m->what, sizeof(m->what), "%s", what);
	m->count = count;
	return 0;
}

uint64_t rt_verdict_checked_total(const struct rt_verdict *v)
{
	uint64_t n = 0;

	for (size_t k = 0; k < v->nchecked; k++)
		n += v->checked[k].count;
	return n;
}

int rt_verdict_fail_check(struct rt_verdict *v, const struct rt_check_failure *c)
{
	struct rt_broken b = { .kind = RT_BROKEN_CHECK, .subject = c->subject,
			       .thread = c->index, .value = c->value, .bound = c->bound,
			       .more_samples = -1, .samples_needed = -1 };
	const char *unit = c->unit ? c->unit : "";

	snprintf(b.limit, sizeof(b.limit), "%s", c->limit ? c->limit : "check");
	snprintf(b.unit, sizeof(b.unit), "%s", unit);
	if (c->detail)
		snprintf(b.detail, sizeof(b.detail), "%s", c->detail);
	else
		snprintf(b.detail, sizeof(b.detail), "%" PRId64 " > %" PRId64 "%s%s", c->value,
			 c->bound, *unit ? " " : "", unit);
	return add(v, b);
}

int rt_verdict_unproven(struct rt_verdict *v, enum rt_subject s, int index, bool fail,
			const char *reason)
{
	struct rt_broken b = { .kind = RT_BROKEN_UNPROVEN, .subject = s, .thread = index,
			       .inconclusive = !fail, .more_samples = -1,
			       .samples_needed = -1 };

	snprintf(b.limit, sizeof(b.limit), "evidence");
	snprintf(b.detail, sizeof(b.detail), "%s", reason ? reason : "nothing was checked");
	return add(v, b);
}

static void set_stop(struct rt_stop *st, const char *cause, double done, double asked,
		     const char *unit)
{
	if (cause)
		snprintf(st->cause, sizeof(st->cause), "%s", cause);
	st->done = done;
	st->asked = asked;
	snprintf(st->unit, sizeof(st->unit), "%s", unit ? unit : "");
}

void rt_verdict_set_partial(struct rt_verdict *v, const char *cause, double done, double asked,
			    const char *unit)
{
	v->stop.partial = true;
	set_stop(&v->stop, cause ? cause : "stopped", done, asked, unit);
}

void rt_verdict_set_done(struct rt_verdict *v, double done, double asked, const char *unit)
{
	set_stop(&v->stop, NULL, done, asked, unit);
}

const char *rt_verdict_signal_cause(int sig, char *buf, size_t len)
{
	switch (sig) {
	case SIGINT: snprintf(buf, len, "SIGINT"); break;
	case SIGTERM: snprintf(buf, len, "SIGTERM"); break;
	case SIGHUP: snprintf(buf, len, "SIGHUP"); break;
	case SIGALRM: snprintf(buf, len, "SIGALRM"); break;
	default: snprintf(buf, len, "signal %d", sig); break;
	}
	return buf;
}

void rt_verdict_finish(struct rt_verdict *v)
{
	if (v->finished)
		return;
	v->finished = true;
	/*
	 * Stopped early: a series without a sample yet had no chance to
	 * measure (a thread whose first wakeup had not come): nothing proven
	 * either way, not a fault of the machine. Ended as asked, it FAILs.
	 */
	for (size_t k = 0; v->stop.partial && k < v->nbroken; k++)
		if (v->broken[k].kind == RT_BROKEN_NO_SAMPLES)
			v->broken[k].inconclusive = true;
	if (v->nbroken == 0 && rt_verdict_checked_total(v) == 0)
		rt_verdict_unproven(v, RT_SUBJECT_NONE, -1, false, v->stop.partial ?
				    "nothing was checked before the run stopped" :
				    "nothing was checked");
}

/*
 * A percentile limit on the interval: PASS when its upper bound is at most
 * the bound, FAIL when its lower bound is over it, else INCONCLUSIVE with
 * the samples it needs as rt_sample_plan counts them.
 */
static int judge_interval(struct rt_verdict *v, const struct rt_loghist *h,
			  const struct rt_pct_limit *lim, int i)
{
	struct rt_broken b = { .kind = RT_BROKEN_PERCENTILE, .permyriad = lim->permyriad,
			       .subject = RT_SUBJECT_THREAD, .thread = i, .bound = lim->bound,
			       .more_samples = -1, .samples_needed = -1 };
	struct rt_pct_ci ci;
	uint64_t more, needed;

	if (h->count == 0)
		return 0; /* judged as "no samples" */
	if (rt_loghist_pct_ci(h, lim->permyriad, RT_QUANTILE_CI_CONFIDENCE_PCT, &ci)) {
		/* No interval (the computation failed): nothing is proven. */
		if (!rt_loghist_percentile(h, lim->permyriad, &b.value))
			return 0;
		b.inconclusive = true;
		return add(v, b);
	}
	if (ci.has_high && ci.high <= lim->bound)
		return 0;
	b.value = ci.value;
	b.has_ci = true;
	b.ci_low = ci.low;
	b.ci_high = ci.high;
	b.ci_has_high = ci.has_high;
	b.confidence_pct = ci.confidence_pct;
	if (ci.low <= lim->bound) {
		b.inconclusive = true;
		if (!rt_sample_plan_more(h, lim->permyriad, ci.confidence_pct, lim->bound, &more,
					 &needed) && more <= INT64_MAX && needed <= INT64_MAX) {
			b.more_samples = (int64_t)more;
			b.samples_needed = (int64_t)needed;
		}
	}
	return add(v, b);
}

static int judge_one(struct rt_verdict *v, const struct rt_limits *l, const struct rt_series *s,
		     int i)
{
	struct rt_broken b = { .subject = RT_SUBJECT_THREAD, .thread = i, .more_samples = -1,
			       .samples_needed = -1 };
	int err = 0;

	if (rt_stats_empty(&s->stats)) {
		b.kind = RT_BROKEN_NO_SAMPLES;
		b.bound = 1;
		return add(v, b);
	}
	err = rt_verdict_add_checked(v, "samples", s->stats.count);
	if (!err && l->max_latency >= 0 && s->stats.max > l->max_latency) {
		b.kind = RT_BROKEN_MAX_LATENCY;
		b.value = s->stats.max;
		b.bound = l->max_latency;
		err = add(v, b);
	}
	for (int k = 0; !err && k < l->npct; k++) {
		int64_t val;

		if (!l->pct_point && s->hist) {
			err = judge_interval(v, s->hist, &l->pct[k], i);
		} else if (s->hist && rt_loghist_percentile(s->hist, l->pct[k].permyriad, &val) &&
			   val > l->pct[k].bound) {
			b.kind = RT_BROKEN_PERCENTILE;
			b.permyriad = l->pct[k].permyriad;
			b.value = val;
			b.bound = l->pct[k].bound;
			err = add(v, b);
		}
	}
	if (!err && l->max_overruns >= 0 && s->overruns > l->max_overruns) {
		b.kind = RT_BROKEN_OVERRUNS;
		b.value = s->overruns;
		b.bound = l->max_overruns;
		err = add(v, b);
	}
	return err;
}

int rt_verdict_judge_series(struct rt_verdict *v, const struct rt_limits *l,
			    const struct rt_series *s, int n)
{
	int err = 0;

	for (int i = 0; !err && i < n; i++)
		err = judge_one(v, l, &s[i], i);
	return err;
}

int rt_verdict_judge(struct rt_verdict *v, const struct rt_limits *l, const struct rt_series *s,
		     int n)
{
	rt_verdict_init(v);
	return rt_verdict_judge_series(v, l, s, n);
}

int rt_verdict_add_failed(struct rt_verdict *v, int thread, int64_t pid, const char *detail)
{
	struct rt_broken b = { .kind = RT_BROKEN_FAILED, .subject = RT_SUBJECT_THREAD,
			       .thread = thread, .value = pid, .more_samples = -1,
			       .samples_needed = -1 };

	snprintf(b.detail, sizeof(b.detail), "%s", detail);
	return add(v, b);
}

void rt_verdict_free(struct rt_verdict *v)
{
	free(v->broken);
	free(v->checked);
	v->broken = NULL;
	v->checked = NULL;
	v->nbroken = 0;
	v->nchecked = 0;
	v->broken_cap = 0;
}

const char *rt_verdict_result(const struct rt_verdict *v)
{
	if (v->nomem)
		return "fail";
	if (v->pass)
		return v->stop.partial ? "inconclusive" : "pass";
	for (size_t k = 0; k < v->nbroken; k++)
		if (!v->broken[k].inconclusive)
			return "fail";
	return v->nbroken ? "inconclusive" : "fail";
}

bool rt_verdict_passed(const struct rt_verdict *v)
{
	return rt_verdict_result(v)[0] == 'p';
}

int rt_verdict_exit_status(const struct rt_verdict *v, enum rt_judge how)
{
	const char *r = rt_verdict_result(v);

	switch (how) {
	case RT_JUDGE_ASKED:
		return r[0] == 'p' ? RT_EXIT_OK : r[0] == 'f' ? RT_EXIT_FAIL : RT_EXIT_INCONCLUSIVE;
	case RT_JUDGE_NATIVE:
		return r[0] == 'f' ? RT_EXIT_FAIL : RT_EXIT_OK;
	case RT_JUDGE_NONE:
		break;
	}
	return 0;
}

bool rt_verdict_text_shown(const struct rt_verdict *v, enum rt_judge how)
{
	return how == RT_JUDGE_ASKED ||
	       (how == RT_JUDGE_NATIVE && rt_verdict_result(v)[0] == 'f');
}
