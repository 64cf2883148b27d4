// SPDX-License-Identifier: GPL-2.0-or-later
/* The verdict's two forms: the "# Verdict:" lines and the JSON object. */
#include <inttypes.h>
#include <string.h>

#include "rt_verdict.h"
#include "rt_verdict_write.h"

/* "52 us, 95 % CI 48-61, need 1200 more samples, 1680 in all" ("52, ..." when unit is ""). */
static void inconclusive_reason(const struct rt_broken *b, const char *unit, char *buf,
				size_t len)
{
	char high[24] = "?", more[96];
	const char *sp = *unit ? " " : "";

	if (!b->has_ci) {
		snprintf(buf, len, "%" PRId64 "%s%s, no confidence interval", b->value, sp, unit);
		return;
	}
	if (b->ci_has_high)
		snprintf(high, sizeof(high), "%" PRId64, b->ci_high);
	if (b->more_samples >= 0 && b->samples_needed >= 0)
		snprintf(more, sizeof(more), "need %" PRId64 " more samples, %" PRId64 " in all",
			 b->more_samples, b->samples_needed);
	else if (b->more_samples >= 0)
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
	case RT_BROKEN_CHECK:
	case RT_BROKEN_UNPROVEN: snprintf(buf, len, "%s", b->limit); break;
	case RT_BROKEN_PERCENTILE:
		format_pct(b->permyriad, pct, sizeof(pct));
		snprintf(buf, len, "max-percentile=%s", pct);
		break;
	}
}

/* A series-like subject shown as a pair by a pair tool's naming. */
static bool as_pair(const struct rt_verdict *v, const struct rt_broken *b)
{
	return v->naming.pair_tasks && b->thread >= 0 &&
	       (b->subject == RT_SUBJECT_THREAD || b->subject == RT_SUBJECT_PAIR);
}

/* "thread 1", "pair 1 (#3 -> #2)", "group 2"; "" for the run as a whole. */
static void subject_label(const struct rt_verdict *v, const struct rt_broken *b, char *buf,
			  size_t len)
{
	const char *name = rt_subject_name(b->subject);
	int sender, receiver;

	if (as_pair(v, b)) {
		v->naming.pair_tasks(v->naming.ctx, b->thread, &sender, &receiver);
		snprintf(buf, len, "pair %d (#%d -> #%d)", b->thread, sender, receiver);
	} else if (name && b->thread >= 0) {
		snprintf(buf, len, "%s %d", name, b->thread);
	} else if (name) {
		snprintf(buf, len, "%s", name);
	} else {
		buf[0] = '\0';
	}
}

/* The words after "<subject>: <limit>: " (unit: the series' unit). */
static void entry_reason(const struct rt_broken *b, const char *unit, char *buf, size_t len)
{
	bool unitless = b->kind == RT_BROKEN_OVERRUNS;

	switch (b->kind) {
	case RT_BROKEN_NO_SAMPLES:
		snprintf(buf, len, "no samples, nothing was measured");
		return;
	case RT_BROKEN_FAILED:
	case RT_BROKEN_CHECK:
	case RT_BROKEN_UNPROVEN:
		snprintf(buf, len, "%s", b->detail);
		return;
	default:
		break;
	}
	if (b->inconclusive) {
		char r[200];

		inconclusive_reason(b, unit, r, sizeof(r));
		snprintf(buf, len, "INCONCLUSIVE: %s", r);
		return;
	}
	snprintf(buf, len, "%" PRId64 " > %" PRId64 "%s%s", b->value, b->bound,
		 unitless ? "" : " ", unitless ? "" : unit);
}

/* 10 -> "10", 2.14 -> "2.1". */
static void amount(double x, char *buf, size_t len)
{
	if (x < 1e15 && (double)(int64_t)x == x)
		snprintf(buf, len, "%.0f", x);
	else
		snprintf(buf, len, "%.1f", x);
}

/* "stopped by SIGINT after 2.1 of 10 s" */
static void partial_text(const struct rt_stop *st, char *buf, size_t len)
{
	char done[32], asked[32];
	int n = snprintf(buf, len, "stopped by %s", st->cause);

	if (n < 0 || (size_t)n >= len || st->done < 0)
		return;
	amount(st->done, done, sizeof(done));
	if (st->asked >= 0) {
		amount(st->asked, asked, sizeof(asked));
		snprintf(buf + n, len - (size_t)n, " after %s of %s%s%s", done, asked,
			 *st->unit ? " " : "", st->unit);
	} else {
		snprintf(buf + n, len - (size_t)n, " after %s%s%s", done, *st->unit ? " " : "",
			 st->unit);
	}
}

void rt_verdict_write_text(FILE *f, const struct rt_verdict *v, const char *unit)
{
	const char *result = rt_verdict_result(v);
	char name[48], who[64], reason[256];

	fprintf(f, "# Verdict: %s\n", result[0] == 'p' ? "PASS" : result[0] == 'f' ? "FAIL" :
		"INCONCLUSIVE");
	for (size_t k = 0; k < v->nbroken; k++) {
		const struct rt_broken *b = &v->broken[k];
		bool show_limit = b->kind != RT_BROKEN_NO_SAMPLES && b->kind != RT_BROKEN_UNPROVEN;

		rt_broken_limit_name(b, name, sizeof(name));
		subject_label(v, b, who, sizeof(who));
		entry_reason(b, unit, reason, sizeof(reason));
		fprintf(f, "# Verdict: %s%s%s%s%s\n", who, *who ? ": " : "",
			show_limit ? name : "", show_limit ? ": " : "", reason);
	}
	if (v->nomem)
		fprintf(f, "# Verdict: out of memory while judging\n");
	if (v->stop.partial) {
		partial_text(&v->stop, reason, sizeof(reason));
		fprintf(f, "# Verdict: partial: %s\n", reason);
	}
}

static void write_subject(struct rt_json *j, const struct rt_verdict *v,
			  const struct rt_broken *b)
{
	const char *name = rt_subject_name(b->subject);
	int sender, receiver;

	if (as_pair(v, b)) {
		v->naming.pair_tasks(v->naming.ctx, b->thread, &sender, &receiver);
		rt_json_int(j, "pair", b->thread);
		rt_json_int(j, "sender", sender);
		rt_json_int(j, "receiver", receiver);
	} else if (name && b->thread >= 0) {
		rt_json_int(j, name, b->thread);
	}
}

static const char *entry_unit(const struct rt_verdict *v, const struct rt_broken *b)
{
	switch (b->kind) {
	case RT_BROKEN_CHECK: return b->unit;
	case RT_BROKEN_NO_SAMPLES: return "samples";
	case RT_BROKEN_OVERRUNS: return "overruns";
	case RT_BROKEN_FAILED: return "pid";
	case RT_BROKEN_UNPROVEN: return "";
	default: return v->unit;
	}
}

static void write_entry(struct rt_json *j, const struct rt_verdict *v, const struct rt_broken *b)
{
	char name[48], reason[256];

	rt_broken_limit_name(b, name, sizeof(name));
	rt_json_object_begin(j, NULL);
	rt_json_string(j, "limit", name);
	write_subject(j, v, b);
	rt_json_int(j, "value", b->value);
	rt_json_int(j, "bound", b->bound);
	rt_json_string(j, "unit", entry_unit(v, b));
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
		if (b->kind == RT_BROKEN_PERCENTILE) {
			if (b->more_samples >= 0)
				rt_json_int(j, "more_samples", b->more_samples);
			else
				rt_json_null(j, "more_samples");
			if (b->samples_needed >= 0)
				rt_json_int(j, "samples_needed", b->samples_needed);
			else
				rt_json_null(j, "samples_needed");
		}
	}
	if (b->inconclusive && b->kind == RT_BROKEN_PERCENTILE)
		inconclusive_reason(b, "", reason, sizeof(reason));
	else
		entry_reason(b, v->unit, reason, sizeof(reason));
	rt_json_string(j, "reason", reason);
	rt_json_object_end(j);
}

static void write_stop(struct rt_json *j, const struct rt_stop *st)
{
	rt_json_object_begin(j, "stop");
	rt_json_string(j, "cause", st->cause);
	if (st->done >= 0)
		rt_json_double(j, "done", st->done, 3);
	else
		rt_json_null(j, "done");
	if (st->asked >= 0)
		rt_json_double(j, "asked", st->asked, 3);
	else
		rt_json_null(j, "asked");
	rt_json_string(j, "unit", st->unit);
	rt_json_object_end(j);
}

void rt_verdict_write_json(struct rt_json *j, const struct rt_verdict *v)
{
	rt_json_object_begin(j, "verdict");
	rt_json_string(j, "result", rt_verdict_result(v));
	rt_json_array_begin(j, "broken");
	for (size_t k = 0; k < v->nbroken; k++)
		write_entry(j, v, &v->broken[k]);
	rt_json_array_end(j);
	rt_json_array_begin(j, "checked");
	for (size_t k = 0; k < v->nchecked; k++) {
		rt_json_object_begin(j, NULL);
		rt_json_string(j, "what", v->checked[k].what);
		rt_json_uint(j, "count", v->checked[k].count);
		rt_json_object_end(j);
	}
	rt_json_array_end(j);
	rt_json_bool(j, "partial", v->stop.partial);
	write_stop(j, &v->stop);
	rt_json_object_end(j);
}
