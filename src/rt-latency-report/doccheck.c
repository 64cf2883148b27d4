// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A result's JSON, and each window line of a --records file, checked before
 * anything reads a number of it: every member rt-latency-report uses has
 * the type it must have (an integer is an integer, not a string or a
 * double), counts are not negative, no integer lies at the edge of 64 bits
 * (json-c saturates what is beyond, so INT64_MAX and INT64_MIN stand for
 * numbers it could not hold), latencies lie within RLR_MAX_VALUE and times
 * within RLR_MAX_SECONDS, and every number is finite. After this the
 * readers take the values as they are: the one place that decides.
 */
#include <inttypes.h>
#include <json-c/json.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "rt_prog.h"

#include "doccheck.h"
#include "result_json.h"
#include "run.h"

enum want { INT, COUNT, NUMBER, SECONDS, TEXT, OBJECT, ARRAY };

static const char *const want_name[] = {
	[INT] = "an integer", [COUNT] = "a count (an integer from 0)",
	[NUMBER] = "a finite number", [SECONDS] = "a number of seconds from 0 to 10^10",
	[TEXT] = "a string", [OBJECT] = "an object", [ARRAY] = "an array",
};

/* What an integer or a number beyond RLR_MAX_VALUE is told. */
static const char *const range_name[] = {
	[INT] = "an integer from -10^18 to 10^18",
	[NUMBER] = "a finite number from -10^18 to 10^18",
};

/* Where the members are read: a file, and (a records file) its line. */
struct origin {
	const char *path;
	size_t line; /* 0: a whole document */
};

/* The one line of an error: the file, its line, and what. Returns 2. */
static int refuse(const struct origin *o, const char *what)
{
	char line[32] = "";

	if (o->line)
		snprintf(line, sizeof(line), " line %zu", o->line);
	rt_prog_error("'%s'%s: %s", o->path, line, what);
	return 2;
}

static const char *type_name(struct json_object *v)
{
	switch (json_object_get_type(v)) {
	case json_type_boolean: return "a boolean";
	case json_type_double: return "a fractional number";
	case json_type_int: return "an integer";
	case json_type_object: return "an object";
	case json_type_array: return "an array";
	case json_type_string: return "a string";
	default: return "null";
	}
}

static bool typed(struct json_object *v, enum want w)
{
	switch (w) {
	case INT:
	case COUNT: return json_object_is_type(v, json_type_int);
	case NUMBER:
	case SECONDS:
		return json_object_is_type(v, json_type_int) ||
		       json_object_is_type(v, json_type_double);
	case TEXT: return json_object_is_type(v, json_type_string);
	case OBJECT: return json_object_is_type(v, json_type_object);
	case ARRAY: return json_object_is_type(v, json_type_array);
	}
	return false;
}

/*
 * v (of the type w) within w's range: true; else false with why (what it
 * is) and *want (what it must be). json-c saturates the integers it cannot
 * hold, so INT64_MAX and INT64_MIN stand for numbers beyond 64 bits; it
 * reads Infinity, NaN and 1e999 as doubles that are not finite.
 */
static bool in_range(struct json_object *v, enum want w, char *why, size_t len,
		     const char **want)
{
	int64_t i;
	double d;

	*want = want_name[w];
	if (w == INT || w == COUNT) {
		i = json_object_get_int64(v);
		if (i == INT64_MAX || i == INT64_MIN)
			snprintf(why, len, "beyond 64 bits");
		else if (w == COUNT && i < 0)
			snprintf(why, len, "negative");
		else if (w == INT && (i > RLR_MAX_VALUE || i < -RLR_MAX_VALUE))
			snprintf(why, len, "%" PRId64, i);
		else
			return true;
		if (w == INT)
			*want = range_name[INT];
		return false;
	}
	if (w != NUMBER && w != SECONDS)
		return true;
	d = json_object_get_double(v);
	if (!isfinite(d)) {
		snprintf(why, len, "not finite");
		return false;
	}
	if (w == NUMBER ? fabs(d) <= (double)RLR_MAX_VALUE
			: d >= 0 && d <= RLR_MAX_SECONDS)
		return true;
	snprintf(why, len, "%g", d);
	if (w == NUMBER)
		*want = range_name[NUMBER];
	return false;
}

/*
 * v (member "where") is of the type wanted and within its range, or
 * null/absent: 0; else 2 after a one-line error naming the file and the member.
 */
static int check(const struct origin *o, const char *where, struct json_object *v,
		 enum want w)
{
	char why[48], what[400];
	const char *want = want_name[w];

	if (!v || (typed(v, w) && in_range(v, w, why, sizeof(why), &want)))
		return 0;
	snprintf(what, sizeof(what), "%s is %s: must be %s", where,
		 typed(v, w) ? why : type_name(v), want);
	return refuse(o, what);
}

static int member(const struct origin *o, const char *prefix, struct json_object *obj,
		  const char *key, enum want w)
{
	char where[160];

	snprintf(where, sizeof(where), "%s%s", prefix, key);
	return check(o, where, rlr_member(obj, key), w);
}

/*
 * Every member of obj (a histogram's buckets, a percentiles object) of type
 * w; counts must also add up to at most INT64_MAX.
 */
static int members(const struct origin *o, const char *prefix, struct json_object *obj,
		   enum want w)
{
	char where[200];
	uint64_t sum = 0;

	if (!obj || !json_object_is_type(obj, json_type_object))
		return 0;
	json_object_object_foreach(obj, key, val) {
		snprintf(where, sizeof(where), "%s.%.64s", prefix, key);
		if (check(o, where, val, w))
			return 2;
		if (w == COUNT && (__builtin_add_overflow(sum, (uint64_t)json_object_get_int64(val),
							  &sum) || sum > INT64_MAX)) {
			snprintf(where, sizeof(where), "%s add up beyond 64 bits",
				 prefix);
			return refuse(o, where);
		}
	}
	return 0;
}

static int measured(const struct origin *o, const char *prefix, struct json_object *m)
{
	static const char *const counts[] = { "cycles", "overruns", "samples" };
	static const char *const ints[] = { "min", "max", "cpu", "node" };
	struct json_object *lh = rlr_member(m, "latency_histogram");
	char sub[128];
	int rc = 0;

	for (size_t k = 0; !rc && k < sizeof(counts) / sizeof(*counts); k++)
		rc = member(o, prefix, m, counts[k], COUNT);
	for (size_t k = 0; !rc && k < sizeof(ints) / sizeof(*ints); k++)
		rc = member(o, prefix, m, ints[k], INT);
	rc = rc ? rc : member(o, prefix, m, "avg", NUMBER);
	rc = rc ? rc : member(o, prefix, m, "percentiles", OBJECT);
	snprintf(sub, sizeof(sub), "%spercentiles", prefix);
	rc = rc ? rc : members(o, sub, rlr_member(m, "percentiles"), INT);
	rc = rc ? rc : member(o, prefix, m, "histogram", OBJECT);
	snprintf(sub, sizeof(sub), "%shistogram", prefix);
	rc = rc ? rc : members(o, sub, rlr_member(m, "histogram"), COUNT);
	rc = rc ? rc : member(o, prefix, m, "latency_histogram", OBJECT);
	snprintf(sub, sizeof(sub), "%slatency_histogram.", prefix);
	rc = rc ? rc : member(o, sub, lh, "count", COUNT);
	rc = rc ? rc : member(o, sub, lh, "max", INT);
	rc = rc ? rc : member(o, sub, lh, "exact_below", INT);
	rc = rc ? rc : member(o, sub, lh, "sub_buckets", INT);
	rc = rc ? rc : member(o, sub, lh, "layout", TEXT);
	rc = rc ? rc : member(o, sub, lh, "buckets", OBJECT);
	snprintf(sub, sizeof(sub), "%slatency_histogram.buckets", prefix);
	return rc ? rc : members(o, sub, rlr_member(lh, "buckets"), COUNT);
}

int rlr_doc_types(struct json_object *doc, const char *path, int nthreads)
{
	static const char *const texts[] = { "start_time", "end_time" };
	struct json_object *si = rlr_member(doc, "sysinfo"), *inputs = rlr_member(doc, "inputs");
	struct json_object *env = rlr_member(doc, "environment");
	struct json_object *pre = rlr_member(env, "preemption");
	const struct origin o = { path, 0 };
	int rc = 0;

	for (size_t k = 0; !rc && k < sizeof(texts) / sizeof(*texts); k++)
		rc = member(&o, "", doc, texts[k], TEXT);
	rc = rc ? rc : member(&o, "", doc, "return_code", INT);
	rc = rc ? rc : member(&o, "", doc, "resolution_in_ns", INT);
	rc = rc ? rc : member(&o, "", doc, "sysinfo", OBJECT);
	rc = rc ? rc : member(&o, "sysinfo.", si, "nodename", TEXT);
	rc = rc ? rc : member(&o, "sysinfo.", si, "release", TEXT);
	rc = rc ? rc : member(&o, "", doc, "environment", OBJECT);
	rc = rc ? rc : member(&o, "environment.", env, "preemption", OBJECT);
	rc = rc ? rc : member(&o, "environment.preemption.", pre, "model", TEXT);
	rc = rc ? rc : member(&o, "environment.preemption.", pre, "mode", TEXT);
	rc = rc ? rc : member(&o, "", doc, "percentiles", OBJECT);
	rc = rc ? rc : members(&o, "percentiles", rlr_member(doc, "percentiles"), INT);
	rc = rc ? rc : member(&o, "", doc, "verdict", OBJECT);
	rc = rc ? rc : member(&o, "verdict.", rlr_member(doc, "verdict"), "result", TEXT);
	rc = rc ? rc : member(&o, "", doc, "inputs", ARRAY);
	for (size_t k = 0; !rc && inputs && k < json_object_array_length(inputs); k++) {
		struct json_object *in = json_object_array_get_idx(inputs, k);
		char prefix[48];

		snprintf(prefix, sizeof(prefix), "inputs[%zu]", k);
		rc = check(&o, prefix, in, OBJECT);
		snprintf(prefix, sizeof(prefix), "inputs[%zu].", k);
		rc = rc ? rc : member(&o, prefix, in, "host", TEXT);
		rc = rc ? rc : member(&o, prefix, in, "kernel", TEXT);
		rc = rc ? rc : member(&o, prefix, in, "file", TEXT);
		rc = rc ? rc : member(&o, prefix, in, "start_time", TEXT);
		rc = rc ? rc : member(&o, prefix, in, "end_time", TEXT);
		rc = rc ? rc : member(&o, prefix, in, "verdict", TEXT);
	}
	for (int i = 0; !rc && i < nthreads; i++) {
		struct json_object *t = rlr_thread(doc, i);
		char prefix[48];

		snprintf(prefix, sizeof(prefix), "thread.%d", i);
		rc = check(&o, prefix, t, OBJECT);
		snprintf(prefix, sizeof(prefix), "thread.%d.", i);
		rc = rc ? rc : member(&o, prefix, t, "receiver", OBJECT);
		rc = rc ? rc : member(&o, prefix, t, "sender", OBJECT);
		rc = rc ? rc : measured(&o, prefix, t);
		snprintf(prefix, sizeof(prefix), "thread.%d.receiver.", i);
		rc = rc ? rc : measured(&o, prefix, rlr_member(t, "receiver"));
		snprintf(prefix, sizeof(prefix), "thread.%d.sender.", i);
		rc = rc ? rc : measured(&o, prefix, rlr_member(t, "sender"));
	}
	return rc;
}

int rlr_doc_window(struct json_object *w, const char *path, size_t line)
{
	static const char *const times[] = { "start_s", "end_s" };
	const struct origin o = { path, line };
	char what[128];
	int rc = member(&o, "", w, "count", COUNT);

	for (size_t k = 0; !rc && k < sizeof(times) / sizeof(*times); k++) {
		if (!rlr_member(w, times[k])) {
			snprintf(what, sizeof(what), "%s is missing: must be %s",
				 times[k], want_name[SECONDS]);
			return refuse(&o, what);
		}
		rc = member(&o, "", w, times[k], SECONDS);
	}
	/* min, avg, max, percentiles, overruns and the histogram, as a thread's */
	return rc ? rc : measured(&o, "", w);
}

int rlr_doc_check(struct json_object *doc, const char *path, int *nthreads)
{
	struct json_object *threads = rlr_member(doc, "thread");
	int64_t n;

	if (!rlr_member(doc, "rt_test_version:") || !threads ||
	    !json_object_is_type(threads, json_type_object) || !rlr_int(doc, "num_threads", &n) ||
	    !rlr_text(doc, "cmdline:")) {
		rt_prog_error("'%s' is not a result of rt-tests-ng or rt-tests 2.4 (no \"rt_test_version:\", "
			      "\"cmdline:\", \"num_threads\" or \"thread\")", path);
		return 2;
	}
	/* The tools run at most 4096 threads (cyclictest -t), each in "thread". */
	if (n < 1 || n > RLR_MAX_THREADS) {
		rt_prog_error("'%s': num_threads %" PRId64 ": must be 1..%d", path, n, RLR_MAX_THREADS);
		return 2;
	}
	*nthreads = (int)n;
	return rlr_doc_types(doc, path, *nthreads);
}
