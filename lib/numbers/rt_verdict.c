// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "rt_quantile_ci.h"
#include "rt_verdict.h"

void rt_limits_init(struct rt_limits *l)
{
	memset(l, 0, sizeof(*l));
	l->max_latency = -1;
	l->max_overruns = -1;
}

bool rt_limits_any(const struct rt_limits *l)
{
	return l->max_latency >= 0 || l->max_overruns >= 0 || l->npct > 0;
}

static int add(struct rt_verdict *v, size_t *cap, struct rt_broken b)
{
	if (v->nbroken == *cap) {
		size_t n = *cap ? 2 * *cap : 8;
		struct rt_broken *m = realloc(v->broken, n * sizeof(*m));

		if (!m)
			return -ENOMEM;
		v->broken = m;
		*cap = n;
	}
	v->broken[v->nbroken++] = b;
	v->pass = false;
	return 0;
}

/*
 * A percentile limit on the interval: PASS when its upper bound is at most
 * the bound, FAIL when its lower bound is over it, else INCONCLUSIVE.
 */
static int judge_interval(struct rt_verdict *v, size_t *cap, const struct rt_loghist *h,
			  const struct rt_pct_limit *lim, int i)
{
	struct rt_broken b = { .kind = RT_BROKEN_PERCENTILE, .permyriad = lim->permyriad,
			       .thread = i, .bound = lim->bound, .more_samples = -1 };
	struct rt_pct_ci ci;
	uint64_t more;

	if (h->count == 0)
		return 0; /* judged as "no samples" */
	if (rt_loghist_pct_ci(h, lim->permyriad, RT_QUANTILE_CI_CONFIDENCE_PCT, &ci)) {
		/* No interval (the computation failed): nothing is proven. */
		if (!rt_loghist_percentile(h, lim->permyriad, &b.value))
			return 0;
		b.inconclusive = true;
		return add(v, cap, b);
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
		if (!rt_loghist_ci_more_samples(h, lim->permyriad, ci.confidence_pct, lim->bound,
						&more) && more <= INT64_MAX)
			b.more_samples = (int64_t)more;
	}
	return add(v, cap, b);
}

static int judge_one(struct rt_verdict *v, size_t *cap, const struct rt_limits *l,
		     const struct rt_series *s, int i)
{
	int err = 0;

	if (rt_stats_empty(&s->stats))
		return add(v, cap, (struct rt_broken){ .kind = RT_BROKEN_NO_SAMPLES, .thread = i,
						     .bound = 1 });
	if (l->max_latency >= 0 && s->stats.max > l->max_latency)
		err = add(v, cap, (struct rt_broken){ .kind = RT_BROKEN_MAX_LATENCY, .thread = i,
						      .value = s->stats.max,
						      .bound = l->max_latency });
	for (int k = 0; !err && k < l->npct; k++) {
		int64_t val;

		if (!l->pct_point && s->hist)
			err = judge_interval(v, cap, s->hist, &l->pct[k], i);
		else if (s->hist && rt_loghist_percentile(s->hist, l->pct[k].permyriad, &val) &&
		    val > l->pct[k].bound)
			err = add(v, cap, (struct rt_broken){ .kind = RT_BROKEN_PERCENTILE,
							      .permyriad = l->pct[k].permyriad,
							      .thread = i, .value = val,
							      .bound = l->pct[k].bound });
	}
	if (!err && l->max_overruns >= 0 && s->overruns > l->max_overruns)
		err = add(v, cap, (struct rt_broken){ .kind = RT_BROKEN_OVERRUNS, .thread = i,
						      .value = s->overruns,
						      .bound = l->max_overruns });
	return err;
}

int rt_verdict_judge(struct rt_verdict *v, const struct rt_limits *l, const struct rt_series *s,
		     int n)
{
	size_t cap = 0;
	int err = 0;

	memset(v, 0, sizeof(*v));
	v->pass = true;
	for (int i = 0; !err && i < n; i++)
		err = judge_one(v, &cap, l, &s[i], i);
	return err;
}

int rt_verdict_add_failed(struct rt_verdict *v, int thread, int64_t pid, const char *detail)
{
	struct rt_broken *m = realloc(v->broken, (v->nbroken + 1) * sizeof(*m));
	struct rt_broken *b;

	if (!m)
		return -ENOMEM;
	v->broken = m;
	b = &m[v->nbroken++];
	memset(b, 0, sizeof(*b));
	b->kind = RT_BROKEN_FAILED;
	b->thread = thread;
	b->value = pid;
	snprintf(b->detail, sizeof(b->detail), "%s", detail);
	v->pass = false;
	return 0;
}

void rt_verdict_free(struct rt_verdict *v)
{
	free(v->broken);
	v->broken = NULL;
	v->nbroken = 0;
}

const char *rt_verdict_result(const struct rt_verdict *v)
{
	if (v->pass)
		return "pass";
	for (size_t k = 0; k < v->nbroken; k++)
		if (!v->broken[k].inconclusive)
			return "fail";
	return v->nbroken ? "inconclusive" : "fail";
}

/* "52 us, 95 % CI 48-61, need 1200 more samples" ("52, ..." when unit is ""). */
static void inconclusive_reason(const struct rt_broken *b, const char *unit, char *buf,
				size_t len)
{
	char high[24] = "?", more[64];
	const char *sp = *unit ? " " : "";

	if (!b->has_ci) {
		snprintf(buf, len, "%" PRId64 "%s%s, no confidence interval", b->value, sp, unit);
		return;
	}
	if (b->ci_has_high)
		snprintf(high, sizeof(high), "%" PRId64, b->ci_high);
	if (b->more_samples >= 0)
		snprintf(more, sizeof(more), "need %" PRId64 " more samples", b->more_samples);
	else
		snprintf(more, sizeof(more), "more samples would not decide");
	snprintf(buf, len, "%" PRId64 "%s%s, %u %% CI %" PRId64 "-%s, %s", b->value, sp, unit,
		 b->confidence_pct, b->ci_low, high, more);
}

/* 999000 -> "99.9", 1000000 -> "100", 1 -> "0.0001". */
static void format_pct(uint32_t permyriad, char *buf, size_t len)
{
	uint32_t frac = permyriad % 10000;
	int digits = 4;

	if (!frac) {
		snprintf(buf, len, "%u", permyriad / 10000);
		return;
	}
	while (frac % 10 == 0) {
		frac /= 10;
		digits--;
	}
	snprintf(buf, len, "%u.%0*u", permyriad / 10000, digits, frac);
}

void rt_broken_limit_name(const struct rt_broken *b, char *buf, size_t len)
{
	char pct[16];

	switch (b->kind) {
	case RT_BROKEN_NO_SAMPLES: snprintf(buf, len, "samples"); break;
	case RT_BROKEN_MAX_LATENCY: snprintf(buf, len, "max-latency"); break;
	case RT_BROKEN_OVERRUNS: snprintf(buf, len, "max-overruns"); break;
	case RT_BROKEN_FAILED: snprintf(buf, len, "failed"); break;
	case RT_BROKEN_PERCENTILE:
		format_pct(b->permyriad, pct, sizeof(pct));
		snprintf(buf, len, "max-percentile=%s", pct);
		break;
	}
}

/* "thread 1", or "pair 1 (#3 -> #2)". */
static void series_label(const struct rt_verdict *v, int i, char *buf, size_t len)
{
	int sender, receiver;

	if (!v->naming.pair_tasks) {
		snprintf(buf, len, "thread %d", i);
		return;
	}
	v->naming.pair_tasks(v->naming.ctx, i, &sender, &receiver);
	snprintf(buf, len, "pair %d (#%d -> #%d)", i, sender, receiver);
}

void rt_verdict_write_text(FILE *f, const struct rt_verdict *v, const char *unit)
{
	char name[40], who[64];

	const char *result = rt_verdict_result(v);
	char reason[160];

	fprintf(f, "# Verdict: %s\n", result[0] == 'p' ? "PASS" : result[0] == 'f' ? "FAIL" :
		"INCONCLUSIVE");
	for (size_t k = 0; k < v->nbroken; k++) {
		const struct rt_broken *b = &v->broken[k];

		rt_broken_limit_name(b, name, sizeof(name));
		series_label(v, b->thread, who, sizeof(who));
		if (b->kind == RT_BROKEN_NO_SAMPLES)
			fprintf(f, "# Verdict: %s: no samples, nothing was measured\n", who);
		else if (b->kind == RT_BROKEN_FAILED)
			fprintf(f, "# Verdict: %s: failed: %s\n", who, b->detail);
		else if (b->inconclusive) {
			inconclusive_reason(b, unit, reason, sizeof(reason));
			fprintf(f, "# Verdict: %s: %s: INCONCLUSIVE: %s\n", who, name, reason);
		}
		else
			fprintf(f, "# Verdict: %s: %s: %" PRId64 " > %" PRId64 "%s%s\n",
				who, name, b->value, b->bound,
				b->kind == RT_BROKEN_OVERRUNS ? "" : " ",
				b->kind == RT_BROKEN_OVERRUNS ? "" : unit);
	}
}

void rt_verdict_write_json(struct rt_json *j, const struct rt_verdict *v)
{
	char name[40], reason[160];

	rt_json_object_begin(j, "verdict");
	rt_json_string(j, "result", rt_verdict_result(v));
	rt_json_array_begin(j, "broken");
	for (size_t k = 0; k < v->nbroken; k++) {
		const struct rt_broken *b = &v->broken[k];

		rt_broken_limit_name(b, name, sizeof(name));
		rt_json_object_begin(j, NULL);
		rt_json_string(j, "limit", name);
		if (v->naming.pair_tasks) {
			int sender, receiver;

			v->naming.pair_tasks(v->naming.ctx, b->thread, &sender,
					     &receiver);
			rt_json_int(j, "pair", b->thread);
			rt_json_int(j, "sender", sender);
			rt_json_int(j, "receiver", receiver);
		} else {
			rt_json_int(j, "thread", b->thread);
		}
		rt_json_int(j, "value", b->value);
		rt_json_int(j, "bound", b->bound);
		if (b->kind == RT_BROKEN_FAILED)
			rt_json_string(j, "detail", b->detail);
		if (b->has_ci) {
			rt_json_int(j, "low", b->ci_low);
			if (b->ci_has_high)
				rt_json_int(j, "high", b->ci_high);
			else
				rt_json_null(j, "high");
			rt_json_int(j, "confidence", b->confidence_pct);
		}
		if (b->inconclusive) {
			rt_json_string(j, "result", "inconclusive");
			if (b->more_samples >= 0)
				rt_json_int(j, "more_samples", b->more_samples);
			else
				rt_json_null(j, "more_samples");
			inconclusive_reason(b, "", reason, sizeof(reason));
			rt_json_string(j, "reason", reason);
		}
		rt_json_object_end(j);
	}
	rt_json_array_end(j);
	rt_json_object_end(j);
}
