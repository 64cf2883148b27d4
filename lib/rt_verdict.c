// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

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

		if (s->hist && rt_loghist_percentile(s->hist, l->pct[k].permyriad, &val) &&
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

	fprintf(f, "# Verdict: %s\n", v->pass ? "PASS" : "FAIL");
	for (size_t k = 0; k < v->nbroken; k++) {
		const struct rt_broken *b = &v->broken[k];

		rt_broken_limit_name(b, name, sizeof(name));
		series_label(v, b->thread, who, sizeof(who));
		if (b->kind == RT_BROKEN_NO_SAMPLES)
			fprintf(f, "# Verdict: %s: no samples, nothing was measured\n", who);
		else if (b->kind == RT_BROKEN_FAILED)
			fprintf(f, "# Verdict: %s: failed: %s\n", who, b->detail);
		else
			fprintf(f, "# Verdict: %s: %s: %" PRId64 " > %" PRId64 "%s%s\n",
				who, name, b->value, b->bound,
				b->kind == RT_BROKEN_OVERRUNS ? "" : " ",
				b->kind == RT_BROKEN_OVERRUNS ? "" : unit);
	}
}

void rt_verdict_write_json(struct rt_json *j, const struct rt_verdict *v)
{
	char name[40];

	rt_json_object_begin(j, "verdict");
	rt_json_string(j, "result", v->pass ? "pass" : "fail");
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
		rt_json_object_end(j);
	}
	rt_json_array_end(j);
	rt_json_object_end(j);
}
