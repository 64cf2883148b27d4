/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The latency axis of the plot and of the HTML report: linear over the
 * body of the distribution (up to a round value at or above the p99 of all
 * curves' samples), then logarithmic over the tail up to the max, when the
 * max is far beyond the body. A linear axis up to a max of 50 ms puts every
 * sample under 1 ms into a pixel column; a log axis from the first sample
 * gives the body (a few us to 100 us) a third of the width; the broken one
 * gives the body RLR_AXIS_BODY_SHARE of it and still shows where the tail
 * ends. Positions run from 0 (latency 0) to 1 (the axis's end).
 */
#ifndef RLR_AXIS_H
#define RLR_AXIS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "curves.h"

/* The share of the width the linear body gets when the axis is broken. */
#define RLR_AXIS_BODY_SHARE 0.75
/* The axis breaks when the max is beyond this many times the body's end. */
#define RLR_AXIS_BREAK_FACTOR 2.5
#define RLR_AXIS_MAX_TICKS 24

struct rlr_axis {
	bool broken;
	int64_t body;     /* the linear part's end (the axis's end when not broken) */
	int64_t end;      /* the axis's end: a little beyond the max */
	int64_t step;     /* the linear part's tick step */
	bool ns;          /* values in ns, else us (the tick labels' unit) */
};

struct rlr_tick {
	int64_t value;
	double pos;
	char label[24];   /* "0", "20 us", "1.5 ms", "2 s" */
};

/* Collects what the axis must show: the curves' bins and maxima. */
struct rlr_axis_fit {
	struct rlr_bin *bins;
	size_t n, cap;
	uint64_t beyond;  /* samples beyond a histogram (count as the tail) */
	int64_t top;      /* the largest value to show */
	bool oom;
};

void rlr_axis_fit_init(struct rlr_axis_fit *fit);
/* Adds a curve's bins and max (false: out of memory; the fit is then linear). */
bool rlr_axis_fit_add(struct rlr_axis_fit *fit, const struct rlr_curve *c);
/* The axis the curves added need; frees the fit. */
void rlr_axis_fit_done(struct rlr_axis_fit *fit, struct rlr_axis *a, bool ns);

/* Where value v lies, 0..1 (clamped). */
double rlr_axis_pos(const struct rlr_axis *a, double v);

/*
 * Ticks for a plot width_px wide whose labels take char_px per character:
 * the body's every step, in the tail 1-2-5 values as many as fit without
 * overlap (decades first). Their number.
 */
int rlr_axis_ticks(const struct rlr_axis *a, double width_px, double char_px,
		   struct rlr_tick *t, int max);

/* A latency as a short label in its unit's scale: "850 us", "1.5 ms", "2 s". */
void rlr_axis_label(char *buf, size_t len, int64_t v, bool ns);

#endif
