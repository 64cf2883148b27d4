// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A records file's latency over time: per thread, each window's max (solid)
 * and p99 (dashed) on a log scale, so that a 24 h run shows when its
 * spikes came; windows without samples break the lines.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>

#include "axis.h"
#include "html.h"
#include "html_svg.h"

/* A time as a tick label: "90 s", "15 min", "6 h". */
static void time_label(char *buf, size_t len, double s)
{
	if (s >= 3600 && fmod(s, 3600) == 0)
		snprintf(buf, len, "%.0f h", s / 3600);
	else if (s >= 60 && fmod(s, 60) == 0)
		snprintf(buf, len, "%.0f min", s / 60);
	else
		snprintf(buf, len, "%g s", s);
}

/* A step for about 6..12 ticks over span seconds, of round times. */
static double time_step(double span)
{
	static const double steps[] = { 1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800,
					3600, 7200, 10800, 21600, 43200, 86400 };
	double step = steps[0];

	for (size_t k = 0; k < sizeof(steps) / sizeof(steps[0]); k++)
		if (span / steps[k] >= 6)
			step = steps[k];
	while (span / step > 12)
		step *= 2;
	return step;
}

static double xt(double s, double end)
{
	return LEFT + (end > 0 ? s / end : 0) * PW;
}

static void x_ticks(FILE *f, double end)
{
	double step = time_step(end);

	for (double s = 0; s <= end + 1e-9; s += step) {
		char label[32];

		time_label(label, sizeof(label), s);
		fprintf(f, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>"
			   "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%s</text>\n",
			xt(s, end), xt(s, end), TOP, TOP + PH, xt(s, end), TOP + PH + 16, label);
	}
}

/* Thread k's line of max (or p99) over the windows, broken where there are no samples. */
static void series(FILE *f, const struct rlr_timeline *t, int k, bool p99, double end,
		   const struct rlr_svg_ylog *s)
{
	bool pen = false;

	fprintf(f, "<path class=\"%s\" fill=\"none\" stroke=\"%s\" stroke-width=\"%s\"%s d=\"",
		p99 ? "p99" : "wmax", rlr_svg_palette[k % RLR_SVG_NCOLORS], p99 ? "1" : "1.3",
		p99 ? " stroke-dasharray=\"4 2\"" : "");
	for (size_t i = 0; i < t->n; i++) {
		const struct rlr_window *w = &t->w[i];
		double x = xt((w->start_s + w->end_s) / 2, end);

		if (w->thread != k)
			continue;
		if (!w->has) {
			pen = false;
			continue;
		}
		fprintf(f, "%s%.1f %.1f", pen ? " L" : "M", x,
			rlr_svg_y(s, (double)(p99 ? w->p99 : w->max)));
		pen = true;
	}
	fputs("\"/>\n", f);
}

void rlr_html_timeline(FILE *f, const struct rlr_html_run *r)
{
	const struct rlr_timeline *t = &r->tl;
	struct rlr_svg_ylog s = { 0, 10 };
	double end = 0;

	for (size_t i = 0; i < t->n; i++) {
		const struct rlr_window *w = &t->w[i];

		if (w->end_s > end)
			end = w->end_s;
		if (w->has && (double)w->max * 1.5 > s.hi)
			s.hi = (double)w->max * 1.5;
		if (w->has && w->p99 > 0 && (!s.lo || (double)w->p99 / 1.5 < s.lo))
			s.lo = (double)w->p99 / 1.5;
	}
	if (!t->n || end <= 0)
		return;
	if (s.lo < 1 || s.lo * 10 > s.hi)
		s.lo = s.lo < 1 || s.hi / 10 < 1 ? 1 : s.hi / 10;
	fprintf(f, "<h3>Latency over time (%zu windows)</h3>\n<svg class=\"timeline\" "
		   "xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
		   "viewBox=\"0 0 %.0f %.0f\" role=\"img\">\n<title>Each window's max (solid) "
		   "and p99 (dashed) per thread</title>\n", t->n, W, H, W, H);
	rlr_svg_y_ticks(f, &s, true, r->pf.ns);
	x_ticks(f, end);
	rlr_svg_frame(f, "Time since the start", "Latency (log)");
	for (int k = 0; k < t->nthreads; k++) {
		series(f, t, k, false, end, &s);
		series(f, t, k, true, end, &s);
	}
	fputs("</svg>\n<ul class=\"legend\">\n", f);
	for (int k = 0; k < t->nthreads && k < 64; k++)
		fprintf(f, "<li><span style=\"color:%s\">&#9632;</span> thread %d: window max "
			   "(solid), p99 (dashed)</li>\n", rlr_svg_palette[k % RLR_SVG_NCOLORS], k);
	fputs("</ul>\n", f);
}
