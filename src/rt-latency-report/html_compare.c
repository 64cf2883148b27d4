// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Two runs compared (html --compare BASE RUN): per thread and over all
 * threads, p50, p99, p99.9, p99.99 and max of both with their intervals,
 * the change in percent and whether the intervals are disjoint; both
 * histograms in one image.
 */
#include <inttypes.h>
#include <stdio.h>

#include "html.h"
#include "html_text.h"
#include "run.h"

static void value(FILE *f, const struct rlr_series *s, int m)
{
	fputs("<td>", f);
	if (!s->has[m]) {
		fputs("-</td>", f);
		return;
	}
	fprintf(f, "%" PRId64, s->value[m]);
	if (s->ci[m].has) {
		fprintf(f, "<br><span class=\"ci\">%" PRId64 " &ndash; ", s->ci[m].low);
		if (s->ci[m].has_high)
			fprintf(f, "%" PRId64 "</span>", s->ci[m].high);
		else
			fputs("?</span>", f);
	}
	fputs("</td>", f);
}

/* "worse", "better" when the intervals are disjoint, else "". */
static const char *beyond(const struct rlr_series *b, const struct rlr_series *r, int m)
{
	const struct rlr_ci *x = &b->ci[m], *y = &r->ci[m];

	if (!x->has || !y->has)
		return "";
	if (x->has_high && y->low > x->high)
		return "worse beyond the intervals";
	if (y->has_high && y->high < x->low)
		return "better beyond the intervals";
	return "";
}

static void rows(FILE *f, const char *who, int i, const struct rlr_series *b,
		 const struct rlr_series *r)
{
	for (int m = 0; m < RLR_METRICS; m++) {
		if (i >= 0)
			fprintf(f, "<tr><td class=\"l\">%s %d</td>", who, i);
		else
			fprintf(f, "<tr><td class=\"l\">%s</td>", who);
		fprintf(f, "<td class=\"l\">%s</td>", rlr_metric_names[m]);
		value(f, b, m);
		value(f, r, m);
		if (b->has[m] && r->has[m])
			fprintf(f, "<td>%+.1f %%</td>", ((double)r->value[m] - (double)b->value[m]) *
						       100.0 / (double)(b->value[m] > 1 ? b->value[m] : 1));
		else
			fputs("<td>-</td>", f);
		fprintf(f, "<td class=\"l\">%s</td></tr>\n", beyond(b, r, m));
	}
}

void rlr_html_compare(FILE *f, const struct rlr_html_run *runs, const struct rlr_run *cmp)
{
	const struct rlr_html_run *both[2] = { &runs[0], &runs[1] };
	int n = cmp[0].nthreads < cmp[1].nthreads ? cmp[0].nthreads : cmp[1].nthreads;

	fputs("<p>Base: <span class=\"mono\">", f);
	rlr_html_text(f, runs[0].path);
	fputs("</span> (verdict ", f);
	rlr_html_text(f, rlr_html_result(&runs[0]) ?: "none");
	fputs(")<br>Run: <span class=\"mono\">", f);
	rlr_html_text(f, runs[1].path);
	fputs("</span> (verdict ", f);
	rlr_html_text(f, rlr_html_result(&runs[1]) ?: "none");
	fprintf(f, ")</p>\n<h2>Base against run</h2>\n<table class=\"compare\"><tr>"
		   "<th class=\"l\">Series</th><th class=\"l\">Metric</th><th>Base (%s)</th>"
		   "<th>Run (%s)</th><th>Change</th><th class=\"l\">95 %% intervals</th></tr>\n",
		runs[0].unit, runs[1].unit);
	for (int i = 0; i < n; i++)
		rows(f, "thread", i, &cmp[0].thread[i], &cmp[1].thread[i]);
	rows(f, "all threads", -1, &cmp[0].all, &cmp[1].all);
	fputs("</table>\n", f);
	rlr_html_histogram(f, both, 2);
}
