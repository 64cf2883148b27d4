// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * merge: runs of one tool in one unit added into one result with the layout
 * of a run's JSON: thread N of the merge is thread N of every input, its
 * lossless histograms added bucket by bucket (exact), cycles summed, min and
 * max the extremes, avg weighted by cycles, percentiles recomputed from the
 * sum, overruns and 2.4's linear histogram added; the input with the most
 * threads is the template of everything else (its command line, times,
 * sysinfo, environment), "merged_by" is the merge's command line and
 * "inputs" lists every input's file, host, kernel, start time and
 * per-thread cycles and max.
 */
#include <errno.h>
#include <json-c/json.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt_loghist.h"
#include "rt_output.h"
#include "rt_prog.h"
#include "rt_quantile_ci.h"

#include "hist_json.h"
#include "input.h"
#include "load.h"
#include "merge.h"
#include "result_json.h"

/* What is added up for one thread. */
struct sum {
	struct rt_loghist hist;
	uint64_t cycles;      /* the histogram's count */
	uint64_t sends;       /* pair tools: the senders' samples */
	int64_t min, max;
	double weighted;      /* sum of avg * cycles */
	bool any;
	int64_t overruns;     /* cyclictest */
	bool has_overruns;
	struct json_object *linear; /* 2.4's "histogram": bucket -> count, added by key */
};

/* A sum of the inputs beyond what 64 bits (and the JSON) hold: 2. */
static int beyond(const char *path, int i, const char *what)
{
	rt_prog_error("'%s' thread %d: %s of the inputs add up beyond 64 bits", path, i, what);
	return 2;
}

/* Add one thread's histogram and figures: 0, or 2 after a one-line error. */
static int add_thread(struct sum *s, struct json_object *thread, const char *path, int i)
{
	struct json_object *m = rlr_measured(thread), *tx = rlr_member(thread, "sender");
	struct json_object *buckets = rlr_loghist_buckets(rlr_member(m, "latency_histogram"));
	uint64_t count = 0;

	if (!buckets) {
		rt_prog_error("'%s' thread %d: no latency_histogram of the log-linear layout "
			      "(exact_below %d, sub_buckets %d): cannot be merged exactly", path, i,
			      RT_LOGHIST_EXACT, RT_LOGHIST_SUB);
		return 2;
	}
	json_object_object_foreach(buckets, key, val) {
		int64_t low = rlr_bucket_low(key, true);
		int64_t n = json_object_get_int64(val);

		if (low < 0 || n < 0) {
			rt_prog_error("'%s' thread %d: bucket '%s' is not a bucket of the layout", path,
				      i, key);
			return 2;
		}
		if (__builtin_add_overflow(s->hist.bucket[rt_loghist_index(low)], (uint64_t)n,
					   &s->hist.bucket[rt_loghist_index(low)]) ||
		    __builtin_add_overflow(count, (uint64_t)n, &count))
			return beyond(path, i, "the histogram's counts");
	}
	if (count) {
		int64_t mn = json_object_get_int64(rlr_member(m, "min"));
		int64_t mx = json_object_get_int64(rlr_member(m, "max"));

		if (!s->any || mn < s->min)
			s->min = mn;
		if (!s->any || mx > s->max)
			s->max = mx;
		s->weighted += json_object_get_double(rlr_member(m, "avg")) * (double)count;
		s->any = true;
	}
	if (__builtin_add_overflow(s->cycles, count, &s->cycles) || s->cycles > INT64_MAX)
		return beyond(path, i, "the cycles");
	if (tx && (__builtin_add_overflow(s->sends,
					  (uint64_t)json_object_get_int64(rlr_member(tx, "samples")),
					  &s->sends) || s->sends > INT64_MAX))
		return beyond(path, i, "the sender's samples");
	if (rlr_member(m, "overruns")) {
		if (__builtin_add_overflow(s->overruns, json_object_get_int64(rlr_member(m, "overruns")),
					   &s->overruns) || s->overruns == INT64_MAX)
			return beyond(path, i, "the overruns");
		s->has_overruns = true;
	}
	if (json_object_is_type(rlr_member(m, "histogram"), json_type_object)) {
		if (!s->linear)
			s->linear = json_object_new_object();
		json_object_object_foreach(rlr_member(m, "histogram"), bkey, bval) {
			int64_t had = json_object_get_int64(rlr_member(s->linear, bkey));

			if (__builtin_add_overflow(had, json_object_get_int64(bval), &had) ||
			    had == INT64_MAX)
				return beyond(path, i, "the histogram's counts");
			json_object_object_add(s->linear, bkey, json_object_new_int64(had));
		}
	}
	return 0;
}

/* Replace key (json-c keeps its position) or add it at the end. */
static void put(struct json_object *o, const char *key, struct json_object *v)
{
	json_object_object_add(o, key, v);
}

/*
 * "percentiles" and, right after it as the tools write them, "percentiles_ci"
 * of h: in place when the template has them; a template without the
 * interval (an older result) is rebuilt to put it after "percentiles".
 */
static void put_percentiles(struct json_object *o, const struct rt_loghist *h)
{
	struct json_object *copy;

	put(o, "percentiles", rlr_percentiles_json(h));
	if (rlr_member(o, "percentiles_ci")) {
		put(o, "percentiles_ci", rlr_percentiles_ci_json(h));
		return;
	}
	copy = json_object_new_object();
	json_object_object_foreach(o, key, val) {
		json_object_object_add(copy, key, json_object_get(val));
		if (strcmp(key, "percentiles") == 0)
			json_object_object_add(copy, "percentiles_ci", rlr_percentiles_ci_json(h));
	}
	/* o keeps its identity (its parent holds it): emptied, then refilled in order. */
	while (json_object_object_length(o)) {
		struct json_object_iterator it = json_object_iter_begin(o);

		json_object_object_del(o, json_object_iter_peek_name(&it));
	}
	json_object_object_foreach(copy, ckey, cval)
		json_object_object_add(o, ckey, json_object_get(cval));
	json_object_put(copy);
}

/* Thread i of the template takes the sums. */
static void write_thread(struct json_object *thread, struct sum *s)
{
	struct json_object *m = rlr_measured(thread), *tx = rlr_member(thread, "sender");

	rt_loghist_seal(&s->hist, s->max);
	if (m == thread) {
		if (s->linear)
			put(m, "histogram", json_object_get(s->linear));
		put(m, "cycles", json_object_new_int64((int64_t)s->cycles));
		put(m, "cpu", json_object_new_int(-1));
		put(m, "node", json_object_new_int(-1));
	}
	if (tx)
		put(tx, "samples", json_object_new_int64((int64_t)s->sends));
	put(m, "min", s->any ? json_object_new_int64(s->min) : NULL);
	put(m, "avg", NULL);
	if (s->any) {
		char avg[32];

		/* Two decimals, as every avg of the JSON. */
		snprintf(avg, sizeof(avg), "%.2f", s->weighted / (double)s->cycles);
		put(m, "avg", json_object_new_double_s(s->weighted / (double)s->cycles, avg));
	}
	put(m, "max", s->any ? json_object_new_int64(s->max) : NULL);
	if (s->has_overruns)
		put(m, "overruns", json_object_new_int64(s->overruns));
	put_percentiles(m, &s->hist);
	put(m, "latency_histogram", rlr_histogram_json(&s->hist));
}

/*
 * Inputs j and k are the same run: the same file, the same bytes, the same
 * run id (boot id, pid and start in ns); without run ids (older files), the
 * same host and start time. Its reason, or NULL.
 */
/* A result's run id: a records file's (top level) or a tool's JSON's (its environment). */
static const char *run_id_of(json_object *doc)
{
	const char *id = rlr_text(doc, "run_id");

	return id ? id : rlr_text(rlr_member(doc, "environment"), "run_id");
}

static const char *same_run(const struct rlr_input *a, const struct rlr_input *b)
{
	const char *ha = rlr_text(rlr_member(a->doc, "sysinfo"), "nodename");
	const char *hb = rlr_text(rlr_member(b->doc, "sysinfo"), "nodename");
	const char *sa = rlr_text(a->doc, "start_time"), *sb = rlr_text(b->doc, "start_time");
	const char *ia = run_id_of(a->doc), *ib = run_id_of(b->doc);

	if (a->regular && b->regular && a->dev == b->dev && a->ino == b->ino)
		return "the same file";
	if (a->len == b->len && memcmp(a->data, b->data, a->len) == 0)
		return "the same content";
	if (ia && ib)
		return strcmp(ia, ib) == 0 ? "the same run id" : NULL;
	if (ha && hb && sa && sb && strcmp(ha, hb) == 0 && strcmp(sa, sb) == 0)
		return "the same host and start time";
	return NULL;
}

/* Whether an input failed: a verdict of fail, or a return code not 0. */
static bool failed(struct json_object *doc)
{
	const char *v = rlr_text(rlr_member(doc, "verdict"), "result");
	int64_t rc = 0;

	return (v && strcmp(v, "pass") != 0) || (rlr_int(doc, "return_code", &rc) && rc != 0);
}

/*
 * What the merge says of its inputs' outcome and time: return_code the
 * highest of theirs, a verdict of fail naming the inputs that failed when
 * any did (pass when every input has one of pass), start_time the
 * earliest, end_time the latest.
 */
static void outcome(struct json_object *out, struct json_object **docs, char **paths, int n)
{
	struct json_object *bad = json_object_new_array(), *first = NULL, *last = NULL;
	int64_t rc = 0, worst = 0, t, t_first = 0, t_last = 0;
	bool any_verdict = false, partial = false;

	for (int k = 0; k < n; k++) {
		if (rlr_int(docs[k], "return_code", &rc) && rc > worst)
			worst = rc;
		partial |= rlr_partial(docs[k]);
		any_verdict |= rlr_member(docs[k], "verdict") != NULL;
		if (failed(docs[k]))
			json_object_array_add(bad, json_object_new_string(paths[k]));
		if (rlr_rfc2822(rlr_text(docs[k], "start_time"), &t) && (!first || t < t_first)) {
			first = rlr_member(docs[k], "start_time");
			t_first = t;
		}
		if (rlr_rfc2822(rlr_text(docs[k], "end_time"), &t) && (!last || t > t_last)) {
			last = rlr_member(docs[k], "end_time");
			t_last = t;
		}
	}
	if (first)
		put(out, "start_time", json_object_get(first));
	if (last)
		put(out, "end_time", json_object_get(last));
	put(out, "return_code", json_object_new_int64(worst));
	/* a part of the merge did not end as asked: so does the merge */
	if (partial)
		put(out, "partial", json_object_new_boolean(1));
	if (!any_verdict && !json_object_array_length(bad)) {
		json_object_object_del(out, "verdict");
		json_object_put(bad);
		return;
	}
	{
		struct json_object *v = json_object_new_object();

		json_object_object_add(v, "result", json_object_new_string(
					       json_object_array_length(bad) ? "fail" : "pass"));
		json_object_object_add(v, "failed_inputs", bad);
		put(out, "verdict", v);
	}
}

/* What "inputs" keeps of one input. */
static struct json_object *input_entry(struct json_object *doc, const char *path, int nthreads)
{
	struct json_object *e = json_object_new_object(), *si = rlr_member(doc, "sysinfo");
	struct json_object *cycles = json_object_new_array(), *max = json_object_new_array();

	json_object_object_add(e, "file", json_object_new_string(path));
	json_object_object_add(e, "host", json_object_get(rlr_member(si, "nodename")));
	json_object_object_add(e, "kernel", json_object_get(rlr_member(si, "release")));
	json_object_object_add(e, "start_time", json_object_get(rlr_member(doc, "start_time")));
	json_object_object_add(e, "end_time", json_object_get(rlr_member(doc, "end_time")));
	json_object_object_add(e, "cmdline", json_object_get(rlr_member(doc, "cmdline:")));
	json_object_object_add(e, "return_code", json_object_get(rlr_member(doc, "return_code")));
	json_object_object_add(e, "verdict", json_object_get(rlr_member(rlr_member(doc, "verdict"),
									"result")));
	json_object_object_add(e, "num_threads", json_object_new_int(nthreads));
	if (run_id_of(doc))
		json_object_object_add(e, "run_id", json_object_new_string(run_id_of(doc)));
	/* A killed or stopped input is never a complete pass in the merge's list. */
	if (rlr_partial(doc))
		json_object_object_add(e, "partial", json_object_new_boolean(1));
	if (rlr_member(rlr_member(doc, "verdict"), "stop"))
		json_object_object_add(e, "stop", json_object_get(rlr_member(rlr_member(doc,
									"verdict"), "stop")));
	if (rlr_member(rlr_member(doc, "percentiles"), "p99.99"))
		json_object_object_add(e, "p99.99", json_object_get(rlr_member(rlr_member(doc,
									"percentiles"), "p99.99")));
	for (int i = 0; i < nthreads; i++) {
		struct json_object *m = rlr_measured(rlr_thread(doc, i));

		json_object_array_add(cycles, json_object_new_int64(
			json_object_get_int64(rlr_member(rlr_member(m, "latency_histogram"), "count"))));
		json_object_array_add(max, json_object_get(rlr_member(m, "max")));
	}
	json_object_object_add(e, "cycles", cycles);
	json_object_object_add(e, "max", max);
	return e;
}

/* What a merge holds while it runs. */
struct merging {
	int n;                      /* inputs */
	char **paths;               /* their names */
	struct rlr_input *in;       /* each read once */
	struct json_object **docs;
	int nthreads;               /* the most any input has */
	struct sum *sums;
};

/* Input k read and checked against the first: 0 or an exit code after its message. */
static int check_input(struct merging *m, int k, struct rlr_run *first)
{
	struct rlr_run r, *run = k ? &r : first;
	int err, rc = RT_EXIT_OK;

	/* Each input read once (a FIFO works), parsed once. */
	if ((err = rlr_input_load(&m->in[k], m->paths[k])))
		return err == RLR_INPUT_INVALID ? RT_EXIT_USAGE : RT_EXIT_FAILURE;
	if ((err = rlr_load_input(run, &m->in[k])))
		return err == 2 ? RT_EXIT_USAGE : RT_EXIT_FAILURE;
	if (run->text) {
		rt_prog_error("'%s' is a histogram text: merge needs results in JSON", m->paths[k]);
		rc = RT_EXIT_USAGE;
	} else if (k && (strcmp(first->tool, r.tool) != 0 || first->ns != r.ns)) {
		rt_prog_usage_error("'%s' (%s, %s) and '%s' (%s, %s) are not results of the same "
				    "tool in the same unit", first->path, first->tool,
				    first->ns ? "ns" : "us", r.path, r.tool, r.ns ? "ns" : "us");
		rc = RT_EXIT_USAGE;
	}
	for (int j = 0; j < k && rc == RT_EXIT_OK; j++) {
		const char *why = same_run(&m->in[j], &m->in[k]);

		if (why) {
			rt_prog_error("'%s' and '%s' are one run (%s): merged, its samples would "
				      "count twice", m->in[j].path, m->in[k].path, why);
			rc = RT_EXIT_USAGE;
		}
	}
	if (run->nthreads > m->nthreads)
		m->nthreads = run->nthreads;
	if (k)
		rlr_free(&r);
	m->docs[k] = json_object_get(m->in[k].doc);
	return rc;
}

/* Every input is a result of the same tool in the same unit, and no run twice. */
static int check_inputs(struct merging *m)
{
	struct rlr_run first;
	int rc = RT_EXIT_OK;

	memset(&first, 0, sizeof(first));
	for (int k = 0; k < m->n && rc == RT_EXIT_OK; k++)
		rc = check_input(m, k, &first);
	rlr_free(&first);
	return rc;
}

/* Every input's threads added up; all threads' samples must fit 64 bits too. */
static int add_inputs(struct merging *m)
{
	uint64_t all_cycles = 0;
	int rc = RT_EXIT_OK;

	if (!(m->sums = calloc((size_t)m->nthreads, sizeof(*m->sums))))
		return RT_EXIT_FAILURE;
	for (int k = 0; k < m->n && rc == RT_EXIT_OK; k++)
		for (int i = 0; i < m->nthreads && rc == RT_EXIT_OK; i++) {
			struct json_object *t = rlr_thread(m->docs[k], i);

			if (t)
				rc = add_thread(&m->sums[i], t, m->paths[k], i);
		}
	for (int i = 0; rc == RT_EXIT_OK && i < m->nthreads; i++)
		if (__builtin_add_overflow(all_cycles, m->sums[i].cycles, &all_cycles) ||
		    all_cycles > INT64_MAX) {
			rt_prog_error("the samples of all threads add up beyond 64 bits");
			rc = RT_EXIT_USAGE;
		}
	return rc;
}

/* The merged result: the template (the input with the most threads) takes the sums. */
static struct json_object *merged(struct merging *m, const char *cmdline, struct rt_loghist *all)
{
	struct json_object *out, *inputs = json_object_new_array();
	int widest = 0;

	for (int k = 0; k < m->n; k++)
		if (json_object_get_int(rlr_member(m->docs[k], "num_threads")) >
		    json_object_get_int(rlr_member(m->docs[widest], "num_threads")))
			widest = k;
	/* Each input's own figures, before the template takes the sums. */
	for (int k = 0; k < m->n; k++)
		json_object_array_add(inputs, input_entry(m->docs[k], m->paths[k],
							  json_object_get_int(rlr_member(m->docs[k],
										     "num_threads"))));
	out = json_object_get(m->docs[widest]);
	/* "cmdline:" stays the tool's: the merge reads like a run of it. */
	outcome(out, m->docs, m->paths, m->n);
	if (m->n > 1)
		json_object_object_del(out, "records"); /* one input's coverage */
	json_object_object_del(out, "analysis");
	for (int i = 0; i < m->nthreads; i++) {
		write_thread(rlr_thread(out, i), &m->sums[i]);
		rt_loghist_merge(all, &m->sums[i].hist);
	}
	rt_loghist_seal(all, all->max);
	put_percentiles(out, all);
	put(out, "merged_by", json_object_new_string(cmdline));
	put(out, "inputs", inputs);
	return out;
}

static int write_merged(struct json_object *out, const char *path)
{
	struct rt_output o = { 0 };
	int err;

	if ((err = rt_output_open(&o, path))) {
		rt_prog_error_errno(-err, "cannot write '%s'", path);
		return RT_EXIT_FAILURE;
	}
	fputs(json_object_to_json_string_ext(out, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
						      JSON_C_TO_STRING_NOSLASHESCAPE), o.f);
	fputc('\n', o.f);
	if ((err = rt_output_commit(&o))) {
		rt_prog_error_errno(-err, "cannot write '%s'", path);
		rt_output_abort(&o);
		return RT_EXIT_FAILURE;
	}
	return RT_EXIT_OK;
}

int rlr_merge(int argc, char *argv[], const char *cmdline)
{
	struct merging m = { 0 };
	struct rt_loghist *all = NULL;
	const char *path = NULL;
	int in0, rc;

	if ((rc = rlr_output_and_inputs(argc, argv, "merge", "OUT.json", "input file", &path,
					&in0)))
		return rc;
	m.n = argc - in0;
	m.paths = argv + in0;
	m.docs = calloc((size_t)m.n, sizeof(*m.docs));
	m.in = calloc((size_t)m.n, sizeof(*m.in));
	rc = m.docs && m.in ? check_inputs(&m) : RT_EXIT_FAILURE;
	if (rc == RT_EXIT_OK)
		rc = add_inputs(&m);
	if (rc == RT_EXIT_OK && !(all = calloc(1, sizeof(*all))))
		rc = RT_EXIT_FAILURE;
	if (rc == RT_EXIT_OK) {
		struct json_object *out = merged(&m, cmdline, all);

		rc = write_merged(out, path);
		json_object_put(out);
	}
	for (int k = 0; k < m.n && m.docs && m.in; k++) {
		json_object_put(m.docs[k]);
		rlr_input_free(&m.in[k]);
	}
	for (int i = 0; m.sums && i < m.nthreads; i++)
		json_object_put(m.sums[i].linear);
	free(m.in);
	free(m.docs);
	free(m.sums);
	free(all);
	return rc;
}
