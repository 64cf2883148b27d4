// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <json-c/json.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt_loghist.h"
#include "rt_prog.h"
#include "rt_quantile_ci.h"

#include "curves.h"
#include "curves_load.h"
#include "doccheck.h"
#include "input.h"
#include "load.h"
#include "result_json.h"

/*
 * One entry of a "percentiles_ci" object as the tools write it ({"low": L,
 * "high": H or null, "confidence": 95}): anything else is no interval.
 */
static void ci_of_json(struct rlr_ci *ci, struct json_object *e)
{
	struct json_object *high = NULL;
	int64_t conf = 0;

	ci->has = e && json_object_is_type(e, json_type_object) && rlr_int(e, "low", &ci->low) &&
		  rlr_int(e, "confidence", &conf) && conf == RT_QUANTILE_CI_CONFIDENCE_PCT &&
		  json_object_object_get_ex(e, "high", &high) &&
		  (!high || rlr_int(e, "high", &ci->high)) && ci->low >= 0;
	ci->has_high = ci->has && high;
	if (ci->has_high && ci->high < ci->low)
		ci->has = ci->has_high = false;
}

/*
 * Percentiles of a "percentiles" object with their intervals from the
 * "percentiles_ci" beside it, and the max, where present.
 */
static void series(struct rlr_series *s, struct json_object *pct, struct json_object *ci,
		   int64_t max, bool has_max)
{
	for (int i = 0; i < RLR_METRICS - 1; i++) {
		s->has[i] = rlr_int(pct, rlr_metric_names[i], &s->value[i]);
		if (s->has[i])
			ci_of_json(&s->ci[i], rlr_member(ci, rlr_metric_names[i]));
	}
	s->has[RLR_METRICS - 1] = has_max;
	s->value[RLR_METRICS - 1] = max;
}

/* Percentiles (those a result names) of a curve with their intervals, and its max. */
static void series_of_curve(struct rlr_series *s, const struct rlr_curve *c)
{
	for (int m = 0; m < RLR_METRICS - 1; m++)
		for (int k = 0; k < RT_LOGHIST_NPCT; k++)
			if (strcmp(rt_loghist_pct_names[k], rlr_metric_names[m]) == 0 &&
			    (s->has[m] = rlr_curve_percentile(c, rt_loghist_pcts[k], &s->value[m])))
				s->ci[m].has = rlr_curve_ci(c, rt_loghist_pcts[k], &s->ci[m].low,
							    &s->ci[m].high, &s->ci[m].has_high);
	s->has[RLR_METRICS - 1] = c->has_max;
	s->value[RLR_METRICS - 1] = c->max;
}

/* What a failed rlr_curve_add means: 2 or 1 after a one-line error. */
static int added(int err, const char *path)
{
	if (err == -EOVERFLOW) {
		rt_prog_error("'%s': the threads' samples add up beyond 64 bits", path);
		return 2;
	}
	rt_prog_error_errno(ENOMEM, "cannot read '%s'", path);
	return 1;
}

/* cyclictest's -h text: its histograms give the percentiles they hold. */
static int load_text(struct rlr_run *r, const struct rlr_input *in)
{
	const char *path = in->path;
	struct rlr_plotfile f;
	struct rlr_curve all = { 0 };
	int rc = rlr_plotfile_from_input(&f, in, false);

	if (rc)
		return rc;
	r->text = true;
	snprintf(r->tool, sizeof(r->tool), "cyclictest");
	r->nthreads = f.ncurves;
	r->thread = calloc((size_t)f.ncurves, sizeof(*r->thread));
	for (int i = 0; r->thread && i < f.ncurves && !rc; i++) {
		series_of_curve(&r->thread[i], &f.curve[i]);
		rc = rlr_curve_add(&all, &f.curve[i]);
	}
	if (!r->thread || rc) {
		rc = added(rc ? rc : -ENOMEM, path);
		rlr_free(r); /* as the JSON path: nothing to free after an error */
	} else {
		series_of_curve(&r->all, &all);
	}
	free(all.bin);
	rlr_plotfile_free(&f);
	return rc;
}

/* The intervals a curve gives of the percentiles s has without one. */
static void cis_of_curve(struct rlr_series *s, const struct rlr_curve *c)
{
	for (int m = 0; m < RLR_METRICS - 1; m++)
		for (int k = 0; k < RT_LOGHIST_NPCT; k++)
			if (strcmp(rt_loghist_pct_names[k], rlr_metric_names[m]) == 0 &&
			    s->has[m] && !s->ci[m].has)
				s->ci[m].has = rlr_curve_ci(c, rt_loghist_pcts[k], &s->ci[m].low,
							    &s->ci[m].high, &s->ci[m].has_high);
}

/*
 * Thread i's series: the percentiles the tool wrote with their intervals
 * (computed from its histogram when it wrote none), else (rt-tests 2.4)
 * those its -h histogram holds, added to all (NULL once a thread has
 * none). 0, or 1/2 after a one-line error.
 */
static int thread_series(struct rlr_series *s, struct json_object *thread, const char *path, int i,
			 struct rlr_curve **all)
{
	struct json_object *m = rlr_measured(thread);
	struct rlr_curve c = { 0 };
	int64_t max = 0;
	bool has_max = rlr_int(m, "max", &max);
	int rc;

	if (rlr_member(m, "percentiles") || !rlr_member(m, "histogram")) {
		series(s, rlr_member(m, "percentiles"), rlr_member(m, "percentiles_ci"), max, has_max);
		struct json_object *lh = rlr_member(m, "latency_histogram");

		/* The histogram rlr_curve_from_json() would read, of a layout it reads. */
		if (!rlr_member(m, "percentiles") || rlr_member(m, "percentiles_ci") ||
		    !(lh ? rlr_loghist_buckets(lh) != NULL
			 : json_object_is_type(rlr_member(m, "histogram"), json_type_object))) {
			*all = NULL;
			return 0;
		}
	}
	/* Percentiles from the histogram, or (ours without) their intervals only. */
	if ((rc = rlr_curve_from_json(&c, thread, path, i))) {
		free(c.bin); /* the bins read before the error */
		return rc;
	}
	if (rlr_member(m, "percentiles")) {
		cis_of_curve(s, &c);
		/* Only for the intervals: all threads' beyond 64 bits have none. */
		if (*all && rlr_curve_add(*all, &c))
			*all = NULL;
	} else {
		series_of_curve(s, &c);
		if (*all && (rc = rlr_curve_add(*all, &c)))
			rc = added(rc, path);
	}
	free(c.bin);
	return rc;
}

int rlr_load(struct rlr_run *r, const char *path)
{
	struct rlr_input in;
	int rc;

	memset(r, 0, sizeof(*r));
	if ((rc = rlr_input_load(&in, path)))
		/* Not JSON: 1, as the text reader says of what it cannot read. */
		return rc == RLR_INPUT_INVALID ? 2 : 1;
	rc = rlr_load_input(r, &in);
	rlr_input_free(&in);
	return rc;
}

int rlr_load_input(struct rlr_run *r, const struct rlr_input *in)
{
	struct json_object *doc = in->doc;
	const char *path = in->path;
	struct rlr_curve sum = { 0 }, *all = &sum;
	int64_t ns = 0, all_max = 0;
	bool any_max = false;
	int rc = 0;

	memset(r, 0, sizeof(*r));
	r->path = path;
	if (!doc)
		return load_text(r, in);
	if (rlr_doc_check(doc, path, &r->nthreads))
		return 2;
	rlr_tool_name(r->tool, sizeof(r->tool), rlr_text(doc, "cmdline:"));
	rlr_int(doc, "resolution_in_ns", &ns);
	r->ns = ns == 1;
	r->partial = rlr_partial(doc);
	r->thread = calloc((size_t)r->nthreads, sizeof(*r->thread));
	if (!r->thread) {
		rt_prog_error_errno(ENOMEM, "cannot read '%s'", path);
		return 1;
	}
	for (int i = 0; i < r->nthreads && !rc; i++) {
		struct rlr_series *s = &r->thread[i];

		rc = thread_series(s, rlr_thread(doc, i), path, i, &all);
		if (s->has[RLR_METRICS - 1] && (!any_max || s->value[RLR_METRICS - 1] > all_max))
			all_max = s->value[RLR_METRICS - 1];
		any_max |= s->has[RLR_METRICS - 1];
	}
	if (!rc && !rlr_member(doc, "percentiles") && all)
		series_of_curve(&r->all, all);
	else
		series(&r->all, rlr_member(doc, "percentiles"), rlr_member(doc, "percentiles_ci"),
		       all_max, any_max);
	if (!rc && rlr_member(doc, "percentiles") && all)
		cis_of_curve(&r->all, all);
	free(sum.bin);
	if (rc)
		rlr_free(r);
	return rc;
}
