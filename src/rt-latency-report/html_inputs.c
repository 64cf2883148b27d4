// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Tables over several runs: a merge's inputs and the runs of one page, one
 * row each (host, kernel, start, verdict, max, p99.99), the failing ones
 * first; and two runs compared, percentile by percentile.
 */
#include <inttypes.h>
#include <json-c/json.h>
#include <stdlib.h>
#include <string.h>

#include "html.h"
#include "html_text.h"
#include "result_json.h"

struct summary {
	int index;
	const char *file;
	struct json_object *host, *kernel, *start, *p9999;
	const char *result;       /* pass, fail, inconclusive, partial, or NULL */
	bool has_max;
	int64_t max;
};

/* Failing first, then inconclusive and partial, then the rest, each in input order. */
static int rank(const struct summary *s)
{
	if (!s->result)
		return 3;
	if (strcmp(s->result, "fail") == 0)
		return 0;
	return strcmp(s->result, "pass") == 0 ? 2 : 1;
}

static int by_rank(const void *a, const void *b)
{
	const struct summary *x = a, *y = b;

	if (rank(x) != rank(y))
		return rank(x) - rank(y);
	return x->index - y->index;
}

static void summary_table(FILE *f, struct summary *s, size_t n, const char *unit)
{
	qsort(s, n, sizeof(*s), by_rank);
	fprintf(f, "<table class=\"inputs\"><tr><th>#</th><th class=\"l\">File</th>"
		   "<th class=\"l\">Host</th><th class=\"l\">Kernel</th><th class=\"l\">Start</th>"
		   "<th class=\"l\">Verdict</th><th>Max (%s)</th><th>p99.99 (%s)</th></tr>\n",
		unit, unit);
	for (size_t k = 0; k < n; k++) {
		fprintf(f, "<tr class=\"%s\"><td>%d</td><td class=\"l mono\">",
			s[k].result ? s[k].result : "none", s[k].index + 1);
		rlr_html_text(f, s[k].file);
		fputs("</td><td class=\"l\">", f);
		rlr_html_value(f, s[k].host);
		fputs("</td><td class=\"l\">", f);
		rlr_html_value(f, s[k].kernel);
		fputs("</td><td class=\"l\">", f);
		rlr_html_value(f, s[k].start);
		fprintf(f, "</td><td class=\"l\">%s</td><td>", s[k].result ? s[k].result : "-");
		if (s[k].has_max)
			fprintf(f, "%" PRId64, s[k].max);
		else
			fputs("-", f);
		fputs("</td><td>", f);
		rlr_html_value(f, s[k].p9999);
		fputs("</td></tr>\n", f);
	}
	fputs("</table>\n", f);
}

/* A merge input's result: its verdict, failed when its return code is not 0, or partial. */
static const char *input_result(struct json_object *e)
{
	const char *v = rlr_text(e, "verdict");
	int64_t rc = 0;

	if ((rlr_int(e, "return_code", &rc) && rc != 0 && !(v && strcmp(v, "inconclusive") == 0)) ||
	    (v && strcmp(v, "fail") == 0))
		return "fail";
	if (v && strcmp(v, "inconclusive") == 0)
		return "inconclusive";
	if (json_object_get_boolean(rlr_member(e, "partial")))
		return "partial";
	return v && strcmp(v, "pass") == 0 ? "pass" : NULL;
}

static void input_max(struct summary *s, struct json_object *max)
{
	size_t n = json_object_is_type(max, json_type_array) ? json_object_array_length(max) : 0;

	for (size_t k = 0; k < n; k++) {
		struct json_object *m = json_object_array_get_idx(max, k);

		if (json_object_is_type(m, json_type_int) &&
		    (!s->has_max || json_object_get_int64(m) > s->max)) {
			s->max = json_object_get_int64(m);
			s->has_max = true;
		}
	}
}

void rlr_html_merge_inputs(FILE *f, const struct rlr_html_run *r)
{
	struct json_object *inputs = rlr_member(r->in.doc, "inputs");
	size_t n = json_object_is_type(inputs, json_type_array) ? json_object_array_length(inputs) : 0;
	struct summary *s;

	if (!n || !(s = calloc(n, sizeof(*s))))
		return;
	for (size_t k = 0; k < n; k++) {
		struct json_object *e = json_object_array_get_idx(inputs, k);

		s[k].index = (int)k;
		s[k].file = rlr_text(e, "file");
		s[k].host = rlr_member(e, "host");
		s[k].kernel = rlr_member(e, "kernel");
		s[k].start = rlr_member(e, "start_time");
		s[k].p9999 = rlr_member(e, "p99.99");
		s[k].result = input_result(e);
		input_max(&s[k], rlr_member(e, "max"));
	}
	fprintf(f, "<h2>Inputs of the merge (%zu), failing first</h2>\n", n);
	summary_table(f, s, n, r->unit);
	free(s);
}

void rlr_html_runs_summary(FILE *f, struct rlr_html_run *runs, int n)
{
	struct summary *s = calloc((size_t)n, sizeof(*s));

	if (!s)
		return;
	for (int k = 0; k < n; k++) {
		struct json_object *si = rlr_member(runs[k].in.doc, "sysinfo");

		s[k].index = k;
		s[k].file = runs[k].path;
		s[k].host = rlr_member(si, "nodename");
		s[k].kernel = rlr_member(si, "release");
		s[k].start = rlr_member(runs[k].in.doc, "start_time");
		s[k].p9999 = rlr_member(rlr_member(runs[k].in.doc, "percentiles"), "p99.99");
		s[k].result = rlr_html_result(&runs[k]);
		for (int c = 0; c < runs[k].pf.ncurves; c++)
			if (runs[k].pf.curve[c].has_max &&
			    (!s[k].has_max || runs[k].pf.curve[c].max > s[k].max)) {
				s[k].max = runs[k].pf.curve[c].max;
				s[k].has_max = true;
			}
	}
	fprintf(f, "<h2>Runs (%d), failing first</h2>\n", n);
	summary_table(f, s, (size_t)n, runs[0].unit);
	free(s);
}
