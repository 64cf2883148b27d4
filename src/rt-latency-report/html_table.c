// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The table of a run: one row per thread, pair or CPU and one of all of
 * them, with min, avg, max, overruns and the percentiles p50 ... p99.9999,
 * each with its 95 % interval: as the tool wrote them, or computed from the
 * histogram where it wrote none (rt-tests 2.4, cyclictest's -h text).
 */
#include <inttypes.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt_loghist.h"

#include "html.h"
#include "html_text.h"
#include "result_json.h"
#include "run.h"

static const struct rlr_curve *curve_of(const struct rlr_html_run *r, int thread)
{
	for (int k = 0; k < r->pf.ncurves; k++)
		if (r->pf.curve[k].thread == thread)
			return &r->pf.curve[k];
	return NULL;
}

static void ci_span(FILE *f, struct json_object *ci)
{
	struct json_object *high = rlr_member(ci, "high");

	if (!ci || !rlr_member(ci, "low"))
		return;
	fputs("<br><span class=\"ci\"", f);
	if (!high)
		fputs(" title=\"too few samples for an upper bound\"", f);
	fputs(">", f);
	rlr_html_member(f, ci, "low");
	fputs(" &ndash; ", f);
	if (high)
		rlr_html_value(f, high);
	else
		fputs("?", f);
	fputs("</span>", f);
}

/* Percentile k: written by the tool, else from the curve. */
static void pct_cell(FILE *f, struct json_object *pct, struct json_object *cis,
		     const struct rlr_curve *c, int k)
{
	const char *name = rt_loghist_pct_names[k];
	int64_t v, low, high;
	bool has_high;

	fputs("<td>", f);
	if (pct) {
		rlr_html_member(f, pct, name);
		ci_span(f, rlr_member(cis, name));
	} else if (c && rlr_curve_percentile(c, rt_loghist_pcts[k], &v)) {
		fprintf(f, "%" PRId64, v);
		if (rlr_curve_ci(c, rt_loghist_pcts[k], &low, &high, &has_high)) {
			fprintf(f, "<br><span class=\"ci\">%" PRId64 " &ndash; ", low);
			if (has_high)
				fprintf(f, "%" PRId64 "</span>", high);
			else
				fputs("?</span>", f);
		}
	} else {
		fputs("-", f);
	}
	fputs("</td>", f);
}

static void header(FILE *f, const char *unit)
{
	fprintf(f, "<table class=\"figures\">\n<caption>Latencies in %s; below each percentile "
		   "its 95 %% confidence interval (? : too few samples for an upper bound)"
		   "</caption>\n<tr><th class=\"l\">Series</th><th>CPU</th><th>Samples</th>"
		   "<th>Min</th><th>Avg</th><th>Max</th><th>Overruns</th>", unit);
	for (int k = 0; k < RT_LOGHIST_NPCT; k++)
		fprintf(f, "<th>%s</th>", rt_loghist_pct_names[k]);
	fputs("</tr>\n", f);
}

static void samples_cell(FILE *f, struct json_object *m, const struct rlr_curve *c)
{
	uint64_t total;

	if (rlr_member(m, "cycles"))
		rlr_html_td_member(f, m, "cycles");
	else if (rlr_member(rlr_member(m, "latency_histogram"), "count"))
		rlr_html_td_member(f, rlr_member(m, "latency_histogram"), "count");
	else if (c && rlr_curve_total(c, &total))
		fprintf(f, "<td>%" PRIu64 "</td>", total);
	else
		fputs("<td>-</td>", f);
}

static void thread_row(FILE *f, const struct rlr_html_run *r, int i)
{
	struct json_object *t = rlr_thread(r->in.doc, i), *m = rlr_measured(t);
	const struct rlr_curve *c = curve_of(r, i);
	struct json_object *pct = rlr_member(m, "percentiles");
	int64_t cpu;

	fprintf(f, "<tr><td class=\"l\">%s %d</td>", m != t ? "pair" : "thread", i);
	if (c && c->cpu >= 0)
		fprintf(f, "<td>%d</td>", c->cpu);
	else if (rlr_int(m, "cpu", &cpu) && cpu < 0)
		fputs("<td>-</td>", f); /* not pinned, or a merge of several */
	else
		rlr_html_td_member(f, m, "cpu");
	samples_cell(f, m, c);
	rlr_html_td_member(f, m, "min");
	rlr_html_td_member(f, m, "avg");
	if (!m && c && c->has_max)
		fprintf(f, "<td>%" PRId64 "</td>", c->max);
	else
		rlr_html_td_member(f, m, "max");
	rlr_html_td_member(f, m, "overruns");
	for (int k = 0; k < RT_LOGHIST_NPCT; k++)
		pct_cell(f, pct && json_object_is_type(pct, json_type_object) ? pct : NULL,
			 rlr_member(m, "percentiles_ci"), c, k);
	fputs("</tr>\n", f);
}

/* The row of all threads: the percentiles of the result, or of the curves added. */
static void all_row(FILE *f, const struct rlr_html_run *r, int n)
{
	struct json_object *doc = r->in.doc, *pct = rlr_member(doc, "percentiles");
	struct rlr_curve sum = { 0 };
	int64_t max = 0;
	bool any = false, summed = true;

	for (int k = 0; k < r->pf.ncurves; k++) {
		summed = summed && !rlr_curve_add(&sum, &r->pf.curve[k]);
		if (r->pf.curve[k].has_max && (!any || r->pf.curve[k].max > max))
			max = r->pf.curve[k].max;
		any |= r->pf.curve[k].has_max;
	}
	fprintf(f, "<tr><th class=\"l\">all %d</th><td></td>", n);
	samples_cell(f, NULL, summed && r->pf.ncurves ? &sum : NULL);
	fputs("<td></td><td></td>", f);
	if (any)
		fprintf(f, "<td>%" PRId64 "</td>", max);
	else
		fputs("<td>-</td>", f);
	fputs("<td></td>", f);
	for (int k = 0; k < RT_LOGHIST_NPCT; k++)
		pct_cell(f, pct && json_object_is_type(pct, json_type_object) ? pct : NULL,
			 rlr_member(doc, "percentiles_ci"), summed && sum.nbins ? &sum : NULL, k);
	fputs("</tr>\n", f);
	free(sum.bin);
}

void rlr_html_table(FILE *f, const struct rlr_html_run *r)
{
	int64_t n = r->pf.ncurves;

	if (r->in.doc && !rlr_int(r->in.doc, "num_threads", &n))
		return;
	if (n < 1 || n > RLR_MAX_THREADS)
		return;
	fputs("<h3>Figures per series</h3>\n", f);
	header(f, r->unit);
	for (int i = 0; i < (int)n; i++)
		thread_row(f, r, i);
	if (n > 1)
		all_row(f, r, (int)n);
	fputs("</table>\n", f);
}
