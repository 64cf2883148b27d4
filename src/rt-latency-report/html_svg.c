// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The page's images, inline SVG drawn here: the latency histogram (counts
 * on a log scale over the broken latency axis of axis.h, one curve per
 * thread and CPU, each max marked) and a records file's latency over time
 * (each window's max and p99 per thread, log scale).
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "axis.h"
#include "html.h"
#include "html_svg.h"
#include "html_text.h"

const char *const rlr_svg_palette[RLR_SVG_NCOLORS] = { "#9400d3", "#009e73", "#56b4e9",
							"#e69f00", "#b8860b", "#0072b2",
							"#e51e10", "#444444" };
#define palette rlr_svg_palette
#define NCOLORS RLR_SVG_NCOLORS

double rlr_svg_y(const struct rlr_svg_ylog *s, double v)
{
	double y;

	if (v < s->lo)
		v = s->lo;
	y = TOP + PH - (log10(v) - log10(s->lo)) / (log10(s->hi) - log10(s->lo)) * PH;
	return y < TOP ? TOP : y;
}

void rlr_svg_y_ticks(FILE *f, const struct rlr_svg_ylog *s, bool latency, bool ns)
{
	for (double d = 1; d <= s->hi; d *= 10)
		for (int m = 1; m <= 5; m += m == 1 ? 1 : 3) {
			double v = d * m;
			char label[24];

			if (v < s->lo || v > s->hi || (m != 1 && s->hi / s->lo > 1e4))
				continue;
			if (latency)
				rlr_axis_label(label, sizeof(label), (int64_t)v, ns);
			else
				snprintf(label, sizeof(label), "%.0f", v);
			fprintf(f, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>"
				   "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n",
				LEFT, LEFT + PW, rlr_svg_y(s, v), rlr_svg_y(s, v), LEFT - 6, rlr_svg_y(s, v) + 4, label);
		}
}

void rlr_svg_frame(FILE *f, const char *xlabel, const char *ylabel)
{
	fprintf(f, "<rect class=\"plotarea\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
		   "fill=\"none\" "
		   "stroke=\"#333\"/>\n<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%s</text>\n"
		   "<text transform=\"translate(14,%.1f) rotate(-90)\" text-anchor=\"middle\">%s</text>\n",
		LEFT, TOP, PW, PH, LEFT + PW / 2, H - 8, xlabel, TOP + PH / 2, ylabel);
}

static double xof(const struct rlr_axis *a, double v)
{
	return LEFT + rlr_axis_pos(a, v) * PW;
}

static void x_ticks(FILE *f, const struct rlr_axis *a)
{
	struct rlr_tick t[RLR_AXIS_MAX_TICKS];
	int n = rlr_axis_ticks(a, PW, CHAR_PX, t, RLR_AXIS_MAX_TICKS);

	for (int k = 0; k < n; k++)
		fprintf(f, "<line class=\"xtick\" x1=\"%.2f\" x2=\"%.2f\" y1=\"%.1f\" y2=\"%.1f\" "
			   "stroke=\"#ddd\"/><text class=\"xlabel\" x=\"%.2f\" y=\"%.1f\" "
			   "text-anchor=\"middle\" data-value=\"%" PRId64 "\">%s</text>\n",
			LEFT + t[k].pos * PW, LEFT + t[k].pos * PW, TOP, TOP + PH,
			LEFT + t[k].pos * PW, TOP + PH + 16, t[k].value, t[k].label);
	if (a->broken) {
		char body[24];
		double x = LEFT + RLR_AXIS_BODY_SHARE * PW;

		rlr_axis_label(body, sizeof(body), a->body, a->ns);
		fprintf(f, "<line x1=\"%.2f\" x2=\"%.2f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#666\" "
			   "stroke-dasharray=\"4 3\"/><text x=\"%.2f\" y=\"%.1f\" text-anchor=\"middle\" "
			   "fill=\"#555\">linear to %s | log beyond</text>\n",
			x, x, TOP, TOP + PH, x, TOP - 8, body);
	}
}

/* A curve's step outline, dropping to the floor in gaps, and its max's dot. */
static void curve_path(FILE *f, const struct rlr_curve *c, const struct rlr_axis *a,
		       const struct rlr_svg_ylog *s, const char *color)
{
	int64_t end = -1;
	uint64_t at = 1;

	fprintf(f, "<path class=\"curve\" fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\" d=\"", color);
	for (size_t b = 0; b < c->nbins; b++) {
		const struct rlr_bin *x = &c->bin[b];

		if (x->low != end) {
			if (end >= 0)
				fprintf(f, " L%.2f %.2f", xof(a, (double)end), TOP + PH);
			fprintf(f, "%s%.2f %.2f", end < 0 ? "M" : " L", xof(a, (double)x->low), TOP + PH);
		}
		fprintf(f, " L%.2f %.2f L%.2f %.2f", xof(a, (double)x->low), rlr_svg_y(s, (double)x->count),
			xof(a, (double)x->high), rlr_svg_y(s, (double)x->count));
		end = x->high;
		if (x->low <= c->max && c->max < x->high)
			at = x->count;
	}
	if (end >= 0)
		fprintf(f, " L%.2f %.2f", xof(a, (double)end), TOP + PH);
	fputs("\"/>\n", f);
	if (c->has_max)
		fprintf(f, "<circle class=\"max\" cx=\"%.2f\" cy=\"%.2f\" r=\"4\" fill=\"%s\"/>\n",
			xof(a, (double)c->max), rlr_svg_y(s, (double)at), color);
}

static void legend_item(FILE *f, const struct rlr_html_run *r, const struct rlr_curve *c,
			const char *color, bool name_file)
{
	fprintf(f, "<li><span style=\"color:%s\">&#9632;</span> ", color);
	if (name_file) {
		rlr_html_text(f, r->path);
		fputs(": ", f);
	}
	if (c->cpu >= 0)
		fprintf(f, "CPU %d (thread %d)", c->cpu, c->thread);
	else
		fprintf(f, "thread %d", c->thread);
	if (c->has_max)
		fprintf(f, ": max %" PRId64 " %s", c->max, r->unit);
	if (c->overflow)
		fprintf(f, ", %" PRIu64 " beyond the histogram", c->overflow);
	fputs("</li>\n", f);
}

void rlr_html_histogram(FILE *f, const struct rlr_html_run *const *runs, int n)
{
	struct rlr_axis_fit fit;
	struct rlr_axis a;
	struct rlr_svg_ylog s = { 0.8, 10 };
	size_t color = 0;

	rlr_axis_fit_init(&fit);
	for (int i = 0; i < n; i++)
		for (int k = 0; k < runs[i]->pf.ncurves; k++) {
			const struct rlr_curve *c = &runs[i]->pf.curve[k];

			rlr_axis_fit_add(&fit, c);
			for (size_t b = 0; b < c->nbins; b++)
				if ((double)c->bin[b].count * 2 > s.hi)
					s.hi = (double)c->bin[b].count * 2;
		}
	if (!fit.top) {
		rlr_axis_fit_done(&fit, &a, false);
		return;
	}
	rlr_axis_fit_done(&fit, &a, runs[0]->pf.ns);
	fprintf(f, "<h3>Latency histogram</h3>\n<svg class=\"histogram\" xmlns=\"http://www.w3.org/2000/svg\" "
		   "width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" role=\"img\">\n"
		   "<title>Latency histogram: samples (log) over latency</title>\n", W, H, W, H);
	rlr_svg_y_ticks(f, &s, false, false);
	x_ticks(f, &a);
	rlr_svg_frame(f, "Latency", "Samples");
	for (int i = 0; i < n; i++)
		for (int k = 0; k < runs[i]->pf.ncurves; k++)
			curve_path(f, &runs[i]->pf.curve[k], &a, &s, palette[color++ % NCOLORS]);
	fputs("</svg>\n<ul class=\"legend\">\n", f);
	color = 0;
	for (int i = 0; i < n; i++)
		for (int k = 0; k < runs[i]->pf.ncurves; k++)
			legend_item(f, runs[i], &runs[i]->pf.curve[k], palette[color++ % NCOLORS], n > 1);
	fputs("</ul>\n", f);
}
