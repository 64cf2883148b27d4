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
#include <getopt.h>
#include <inttypes.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt_cli.h"
#include "rt_loghist.h"
#include "rt_output.h"
#include "rt_prog.h"

#include "input.h"
#include "load.h"
#include "merge.h"

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

static struct json_object *percentiles(const struct rt_loghist *h)
{
	struct json_object *p = json_object_new_object();

	for (int k = 0; k < RT_LOGHIST_NPCT; k++) {
		int64_t v;

		json_object_object_add(p, rt_loghist_pct_names[k],
				       rt_loghist_percentile(h, rt_loghist_pcts[k], &v)
					       ? json_object_new_int64(v) : NULL);
	}
	return p;
}

static struct json_object *histogram(const struct rt_loghist *h)
{
	struct json_object *o = json_object_new_object(), *b = json_object_new_object();

	json_object_object_add(o, "layout", json_object_new_string("log-linear"));
	json_object_object_add(o, "exact_below", json_object_new_int(RT_LOGHIST_EXACT));
	json_object_object_add(o, "sub_buckets", json_object_new_int(RT_LOGHIST_SUB));
	json_object_object_add(o, "count", json_object_new_int64((int64_t)h->count));
	json_object_object_add(o, "max", h->count ? json_object_new_int64(h->max) : NULL);
	for (size_t i = 0; i < RT_LOGHIST_BUCKETS; i++) {
		char key[24];

		if (!h->bucket[i])
			continue;
		snprintf(key, sizeof(key), "%" PRId64, rt_loghist_bucket_low(i));
		json_object_object_add(b, key, json_object_new_int64((int64_t)h->bucket[i]));
	}
	json_object_object_add(o, "buckets", b);
	return o;
}

/* Replace key (json-c keeps its position) or add it at the end. */
static void put(struct json_object *o, const char *key, struct json_object *v)
{
	json_object_object_add(o, key, v);
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
	put(m, "percentiles", percentiles(&s->hist));
	put(m, "latency_histogram", histogram(&s->hist));
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
	json_object_object_add(e, "num_threads", json_object_new_int(nthreads));
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

int rlr_merge(int argc, char *argv[], const char *cmdline)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ NULL, 0, NULL, 0 },
	};
	struct json_object **docs = NULL, *out = NULL, *inputs;
	struct rlr_input *in = NULL;
	struct rlr_run first, r;
	struct rt_loghist *all = NULL;
	struct sum *sums = NULL;
	struct rt_output o = { 0 };
	const char *path = NULL;
	int c, n, err, rc = RT_EXIT_OK, nthreads = 0;
	uint64_t all_cycles = 0;
	bool have_first = false;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":o:", opts, NULL)) != -1) {
		if (c != 'o')
			return rt_cli_bad_option(argc, argv, c);
		path = optarg;
	}
	n = argc - optind;
	if (!path)
		return rt_prog_usage_error("merge needs -o OUT.json");
	if (n < 1)
		return rt_prog_usage_error("merge needs at least one input file");
	docs = calloc((size_t)n, sizeof(*docs));
	in = calloc((size_t)n, sizeof(*in));
	if (!docs || !in) {
		free(docs);
		free(in);
		return RT_EXIT_FAILURE;
	}
	/* Every input is a result of the same tool in the same unit. */
	for (int k = 0; k < n && rc == RT_EXIT_OK; k++) {
		/* Each input read once (a FIFO works), parsed once. */
		if (rlr_input_load(&in[k], argv[optind + k])) {
			rc = RT_EXIT_FAILURE;
			break;
		}
		if ((err = rlr_load_input(k ? &r : &first, &in[k]))) {
			rc = err == 2 ? RT_EXIT_USAGE : RT_EXIT_FAILURE;
			break;
		}
		if ((k ? r : first).text) {
			rt_prog_error("'%s' is a histogram text: merge needs results in JSON",
				      argv[optind + k]);
			rc = RT_EXIT_USAGE;
		} else if (k && (strcmp(first.tool, r.tool) != 0 || first.ns != r.ns)) {
			rt_prog_usage_error("'%s' (%s, %s) and '%s' (%s, %s) are not results of the same "
					    "tool in the same unit", first.path, first.tool,
					    first.ns ? "ns" : "us", r.path, r.tool, r.ns ? "ns" : "us");
			rc = RT_EXIT_USAGE;
		}
		have_first = true;
		if ((k ? r : first).nthreads > nthreads)
			nthreads = (k ? r : first).nthreads;
		if (k)
			rlr_free(&r);
		docs[k] = json_object_get(in[k].doc);
	}
	if (rc == RT_EXIT_OK) {
		sums = calloc((size_t)nthreads, sizeof(*sums));
		all = calloc(1, sizeof(*all));
		if (!sums || !all)
			rc = RT_EXIT_FAILURE;
	}
	for (int k = 0; k < n && rc == RT_EXIT_OK; k++) {
		for (int i = 0; i < nthreads && rc == RT_EXIT_OK; i++) {
			struct json_object *t = rlr_thread(docs[k], i);

			if (t)
				rc = add_thread(&sums[i], t, argv[optind + k], i);
		}
	}
	/* All threads' samples in one histogram: their sum must fit too. */
	for (int i = 0; rc == RT_EXIT_OK && i < nthreads; i++) {
		if (__builtin_add_overflow(all_cycles, sums[i].cycles, &all_cycles) ||
		    all_cycles > INT64_MAX) {
			rt_prog_error("the samples of all threads add up beyond 64 bits");
			rc = RT_EXIT_USAGE;
		}
	}
	if (rc == RT_EXIT_OK) {
		/* The template: the first input, or the one with the most threads. */
		int widest = 0;

		for (int k = 0; k < n; k++)
			if (json_object_get_int(rlr_member(docs[k], "num_threads")) >
			    json_object_get_int(rlr_member(docs[widest], "num_threads")))
				widest = k;
		/* Each input's own figures, before the template takes the sums. */
		inputs = json_object_new_array();
		for (int k = 0; k < n; k++)
			json_object_array_add(inputs, input_entry(docs[k], argv[optind + k],
								  json_object_get_int(rlr_member(docs[k],
											     "num_threads"))));
		out = json_object_get(docs[widest]);
		/* "cmdline:" stays the tool's: the merge reads like a run of it. */
		put(out, "return_code", json_object_new_int(0));
		json_object_object_del(out, "verdict");
		json_object_object_del(out, "analysis");
		for (int i = 0; i < nthreads; i++) {
			write_thread(rlr_thread(out, i), &sums[i]);
			rt_loghist_merge(all, &sums[i].hist);
		}
		rt_loghist_seal(all, all->max);
		put(out, "percentiles", percentiles(all));
		put(out, "merged_by", json_object_new_string(cmdline));
		put(out, "inputs", inputs);
		if ((err = rt_output_open(&o, path))) {
			rt_prog_error_errno(-err, "cannot write '%s'", path);
			rc = RT_EXIT_FAILURE;
		} else {
			fputs(json_object_to_json_string_ext(out, JSON_C_TO_STRING_PRETTY |
							     JSON_C_TO_STRING_SPACED |
							     JSON_C_TO_STRING_NOSLASHESCAPE), o.f);
			fputc('\n', o.f);
			if ((err = rt_output_commit(&o))) {
				rt_prog_error_errno(-err, "cannot write '%s'", path);
				rt_output_abort(&o);
				rc = RT_EXIT_FAILURE;
			}
		}
	}
	if (have_first)
		rlr_free(&first);
	for (int k = 0; k < n; k++) {
		json_object_put(docs[k]);
		rlr_input_free(&in[k]);
	}
	free(in);
	json_object_put(out);
	for (int i = 0; sums && i < nthreads; i++)
		json_object_put(sums[i].linear);
	free(docs);
	free(sums);
	free(all);
	return rc;
}
