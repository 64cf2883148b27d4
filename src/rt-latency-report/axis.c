// SPDX-License-Identifier: GPL-2.0-or-later
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "axis.h"
#include "result_json.h"

#define BODY_MIN 10 /* the smallest body: integer ticks of a step of 2 */

void rlr_axis_fit_init(struct rlr_axis_fit *fit)
{
	memset(fit, 0, sizeof(*fit));
}

bool rlr_axis_fit_add(struct rlr_axis_fit *fit, const struct rlr_curve *c)
{
	if (c->has_max && c->max > fit->top)
		fit->top = c->max;
	fit->beyond += c->overflow;
	if (fit->oom)
		return false;
	if (fit->n + c->nbins > fit->cap) {
		size_t ncap = (fit->n + c->nbins) * 2 + 16;
		struct rlr_bin *b = realloc(fit->bins, ncap * sizeof(*b));

		if (!b) {
			fit->oom = true;
			return false;
		}
		fit->bins = b;
		fit->cap = ncap;
	}
	for (size_t k = 0; k < c->nbins; k++) {
		fit->bins[fit->n++] = c->bin[k];
		if (c->bin[k].high - 1 > fit->top)
			fit->top = c->bin[k].high - 1;
	}
	return true;
}

static int by_high(const void *a, const void *b)
{
	const struct rlr_bin *x = a, *y = b;

	return (x->high > y->high) - (x->high < y->high);
}

/* The highest value of the bin that holds the 99th percentile of the samples. */
static int64_t p99_of(struct rlr_axis_fit *fit)
{
	uint64_t total = fit->beyond, seen = 0, rank;

	for (size_t k = 0; k < fit->n; k++)
		total += fit->bins[k].count;
	if (!total || fit->oom)
		return fit->top;
	if (fit->n) /* qsort takes no NULL, even for nothing */
		qsort(fit->bins, fit->n, sizeof(*fit->bins), by_high);
	rank = total - total / 100; /* at least 99 % of the samples at or below */
	for (size_t k = 0; k < fit->n; k++)
		if ((seen += fit->bins[k].count) >= rank)
			return fit->bins[k].high - 1;
	return fit->top; /* the rank is among the samples beyond the histogram */
}

/*
 * The smallest of 1, 1.5, 2, 2.5, 3, 4, 5, 6, 8 x 10^k at or above v
 * (v <= RLR_MAX_VALUE: scale <= 10^17, so no candidate is beyond 10^18).
 */
static int64_t round_up(int64_t v)
{
	static const int mant[] = { 10, 15, 20, 25, 30, 40, 50, 60, 80, 100 };
	int64_t scale = 1;

	while (v > scale * 10 && scale < INT64_MAX / 100)
		scale *= 10;
	for (size_t k = 0; k < sizeof(mant) / sizeof(mant[0]); k++) {
		/* mant x scale / 10, divided first: 100 x 10^17 is beyond 64 bits */
		int64_t c = scale < 10 ? mant[k] * scale / 10 : mant[k] * (scale / 10);

		if (c >= v)
			return c;
	}
	return 10 * scale;
}

/*
 * The largest step of 1, 2, 2.5, 5 x 10^k that cuts span in at least
 * parts, and (whole) in whole steps: the body's end is a tick.
 */
static int64_t step_of(int64_t span, int64_t parts, bool whole)
{
	int64_t best = 1;

	for (int64_t s = 1; s <= span && s < INT64_MAX / 100; s *= 10) {
		const int64_t cand[] = { s, 2 * s, s >= 10 ? 5 * s / 2 : s, 5 * s };

		for (size_t k = 0; k < sizeof(cand) / sizeof(cand[0]); k++)
			if (span / cand[k] >= parts && cand[k] > best && (!whole || span % cand[k] == 0))
				best = cand[k];
	}
	return best;
}

/* v within 1..RLR_MAX_VALUE: where the readers keep latencies (result_json.h). */
static int64_t clamp(int64_t v)
{
	return v < 1 ? 1 : v > RLR_MAX_VALUE ? RLR_MAX_VALUE : v;
}

void rlr_axis_fit_done(struct rlr_axis_fit *fit, struct rlr_axis *a, bool ns)
{
	/*
	 * Clamped, whatever a reader let through, so that the arithmetic below
	 * (5 % beyond the top, round values, tick steps) stays inside 64 bits.
	 */
	int64_t top = clamp(fit->top);
	int64_t body = round_up(clamp(p99_of(fit)));

	memset(a, 0, sizeof(*a));
	a->ns = ns;
	if (body < BODY_MIN)
		body = BODY_MIN;
	a->broken = (double)top > RLR_AXIS_BREAK_FACTOR * (double)body;
	if (a->broken) {
		a->body = body;
		a->end = top + top / 20 + 1;
	} else {
		a->end = top + top / 20 + 1;
		if (a->end < BODY_MIN)
			a->end = BODY_MIN;
		a->body = a->end;
	}
	a->step = a->broken ? step_of(a->body, 3, true) : step_of(a->end, 4, false);
	free(fit->bins);
	rlr_axis_fit_init(fit);
}

double rlr_axis_pos(const struct rlr_axis *a, double v)
{
	double p;

	if (v <= 0)
		return 0;
	if (!a->broken)
		p = v / (double)a->end;
	else if (v <= (double)a->body)
		p = RLR_AXIS_BODY_SHARE * v / (double)a->body;
	else
		p = RLR_AXIS_BODY_SHARE + (1 - RLR_AXIS_BODY_SHARE) * log(v / (double)a->body) /
						  log((double)a->end / (double)a->body);
	return p < 0 ? 0 : p > 1 ? 1 : p;
}

void rlr_axis_label(char *buf, size_t len, int64_t v, bool ns)
{
	static const char *const units[] = { "ns", "us", "ms", "s" };
	int u = ns ? 0 : 1;
	int64_t div = 1;

	if (!v) {
		snprintf(buf, len, "0");
		return;
	}
	while (u < 3 && v / div >= 1000) {
		div *= 1000;
		u++;
	}
	if (v % div == 0)
		snprintf(buf, len, "%" PRId64 " %s", v / div, units[u]);
	else
		snprintf(buf, len, "%.3g %s", (double)v / (double)div, units[u]);
}

static bool fits(const struct rlr_tick *t, int n, double pos, double need)
{
	for (int k = 0; k < n; k++)
		if (fabs(t[k].pos - pos) < need)
			return false;
	return true;
}

static int add_tick(const struct rlr_axis *a, struct rlr_tick *t, int n, int max, int64_t v,
		    double width_px, double char_px)
{
	char label[24];
	double pos = rlr_axis_pos(a, (double)v), need;

	rlr_axis_label(label, sizeof(label), v, a->ns);
	/* Half of this label and half of a neighbour of the same length, and a gap. */
	need = ((double)strlen(label) + 2) * char_px / width_px;
	if (n >= max || v > a->end || !fits(t, n, pos, need))
		return n;
	t[n].value = v;
	t[n].pos = pos;
	memcpy(t[n].label, label, sizeof(label));
	return n + 1;
}

static int by_value(const void *a, const void *b)
{
	const struct rlr_tick *x = a, *y = b;

	return (x->value > y->value) - (x->value < y->value);
}

/*
 * The tail's ticks mant/10 x 10^k that fit, mantissas in the order given
 * (in tenths: 15 is 1.5; 1.5 x 10^0 is no latency, 1.5 x 10^1 is).
 */
static int add_tail_ticks(const struct rlr_axis *a, struct rlr_tick *t, int n, int max,
			  const int *mant, size_t nmant, double width_px, double char_px)
{
	for (size_t m = 0; m < nmant; m++)
		for (int64_t s = 1; s < INT64_MAX / 100 && mant[m] * s / 10 <= a->end; s *= 10)
			if (mant[m] * s % 10 == 0 && mant[m] * s / 10 > a->body)
				n = add_tick(a, t, n, max, mant[m] * s / 10, width_px, char_px);
	return n;
}

int rlr_axis_ticks(const struct rlr_axis *a, double width_px, double char_px,
		   struct rlr_tick *t, int max)
{
	/* 1, 5, 2, then round_up()'s others: 1.5, 2.5, 3, 4, 6, 8 */
	static const int tail_mant[] = { 10, 50, 20, 15, 25, 30, 40, 60, 80 };
	int n = 0;

	/* The break first: the one tick that must be there. */
	if (a->broken)
		n = add_tick(a, t, n, max, a->body, width_px, char_px);
	for (int64_t v = 0; v <= a->body && v <= a->end; v += a->step)
		n = add_tick(a, t, n, max, v, width_px, char_px);
	if (a->broken) {
		int before = n;

		/* Decades first, then the fives and twos that fit between them. */
		n = add_tail_ticks(a, t, n, max, tail_mant, 3, width_px, char_px);
		/*
		 * A short tail (from 2.5 times the body) may hold no 1-2-5 value
		 * far enough from the break's label: then the finer round values,
		 * one of which always fits, so that the tail is never unlabelled.
		 */
		if (n == before)
			n = add_tail_ticks(a, t, n, max, tail_mant + 3, 6, width_px, char_px);
	}
	qsort(t, (size_t)n, sizeof(*t), by_value);
	return n;
}
