// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A result's JSON checked before anything reads a number of it: every
 * member rt-latency-report uses has the type it must have (an integer is
 * an integer, not a string or a double), counts are not negative, and no
 * integer lies at the edge of 64 bits (json-c saturates what is beyond, so
 * INT64_MAX and INT64_MIN stand for numbers it could not hold). After this
 * the readers take the values as they are.
 */
#include <inttypes.h>
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "rt_prog.h"

#include "doccheck.h"
#include "result_json.h"
#include "run.h"

enum want { INT, COUNT, NUMBER, TEXT, OBJECT, ARRAY };

static const char *const want_name[] = {
	[INT] = "an integer", [COUNT] = "a count (an integer from 0)",
	[NUMBER] = "a finite number", [TEXT] = "a string", [OBJECT] = "an object",
	[ARRAY] = "an array",
};

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

/*
 * v (member "where" of the file) is of the type wanted, or null/absent: 0;
 * else 2 after a one-line error naming the file and the member.
 */
static int check(const char *path, const char *where, struct json_object *v, enum want w)
{
	const char *why = NULL;
	int64_t i;

	if (!v)
		return 0;
	switch (w) {
	case INT:
	case COUNT:
		if (!json_object_is_type(v, json_type_int))
			break;
		i = json_object_get_int64(v);
		if (i == INT64_MAX || i == INT64_MIN)
			why = "beyond 64 bits";
		else if (w == COUNT && i < 0)
			why = "negative";
		else
			return 0;
		rt_prog_error("'%s': %s is %s: must be %s", path, where, why, want_name[w]);
		return 2;
	case NUMBER:
		if (json_object_is_type(v, json_type_int) ||
		    (json_object_is_type(v, json_type_double) && isfinite(json_object_get_double(v))))
			return 0;
		if (json_object_is_type(v, json_type_double)) {
			rt_prog_error("'%s': %s is not finite: must be %s", path, where, want_name[w]);
			return 2;
		}
		break;
	case TEXT:
		if (json_object_is_type(v, json_type_string))
			return 0;
		break;
	case OBJECT:
		if (json_object_is_type(v, json_type_object))
			return 0;
		break;
	case ARRAY:
		if (json_object_is_type(v, json_type_array))
			return 0;
		break;
	}
	rt_prog_error("'%s': %s is %s: must be %s", path, where, type_name(v), want_name[w]);
	return 2;
}

static int member(const char *path, const char *prefix, struct json_object *o, const char *key,
		  enum want w)
{
	char where[160];

	snprintf(where, sizeof(where), "%s%s", prefix, key);
	return check(path, where, rlr_member(o, key), w);
}

/*
 * Every member of o (a histogram's buckets, a percentiles object) of type
 * w; counts must also add up to at most INT64_MAX.
 */
static int members(const char *path, const char *prefix, struct json_object *o, enum want w)
{
	char where[200];
	uint64_t sum = 0;

	if (!o || !json_object_is_type(o, json_type_object))
		return 0;
	json_object_object_foreach(o, key, val) {
		snprintf(where, sizeof(where), "%s.%.64s", prefix, key);
		if (check(path, where, val, w))
			return 2;
		if (w == COUNT && (__builtin_add_overflow(sum, (uint64_t)json_object_get_int64(val),
							  &sum) || sum > INT64_MAX)) {
			rt_prog_error("'%s': %s add up beyond 64 bits", path, prefix);
			return 2;
		}
	}
	return 0;
}

static int measured(const char *path, const char *prefix, struct json_object *m)
{
	static const char *const counts[] = { "cycles", "overruns", "samples" };
	static const char *const ints[] = { "min", "max", "cpu", "node" };
	struct json_object *lh = rlr_member(m, "latency_histogram");
	char sub[128];
	int rc = 0;

	for (size_t k = 0; !rc && k < sizeof(counts) / sizeof(*counts); k++)
		rc = member(path, prefix, m, counts[k], COUNT);
	for (size_t k = 0; !rc && k < sizeof(ints) / sizeof(*ints); k++)
		rc = member(path, prefix, m, ints[k], INT);
	rc = rc ? rc : member(path, prefix, m, "avg", NUMBER);
	rc = rc ? rc : member(path, prefix, m, "percentiles", OBJECT);
	snprintf(sub, sizeof(sub), "%spercentiles", prefix);
	rc = rc ? rc : members(path, sub, rlr_member(m, "percentiles"), INT);
	rc = rc ? rc : member(path, prefix, m, "histogram", OBJECT);
	snprintf(sub, sizeof(sub), "%shistogram", prefix);
	rc = rc ? rc : members(path, sub, rlr_member(m, "histogram"), COUNT);
	rc = rc ? rc : member(path, prefix, m, "latency_histogram", OBJECT);
	snprintf(sub, sizeof(sub), "%slatency_histogram.", prefix);
	rc = rc ? rc : member(path, sub, lh, "count", COUNT);
	rc = rc ? rc : member(path, sub, lh, "max", INT);
	rc = rc ? rc : member(path, sub, lh, "exact_below", INT);
	rc = rc ? rc : member(path, sub, lh, "sub_buckets", INT);
	rc = rc ? rc : member(path, sub, lh, "layout", TEXT);
	rc = rc ? rc : member(path, sub, lh, "buckets", OBJECT);
	snprintf(sub, sizeof(sub), "%slatency_histogram.buckets", prefix);
	return rc ? rc : members(path, sub, rlr_member(lh, "buckets"), COUNT);
}

int rlr_doc_types(struct json_object *doc, const char *path, int nthreads)
{
	static const char *const texts[] = { "start_time", "end_time" };
	struct json_object *si = rlr_member(doc, "sysinfo"), *inputs = rlr_member(doc, "inputs");
	struct json_object *env = rlr_member(doc, "environment");
	struct json_object *pre = rlr_member(env, "preemption");
	int rc = 0;

	for (size_t k = 0; !rc && k < sizeof(texts) / sizeof(*texts); k++)
		rc = member(path, "", doc, texts[k], TEXT);
	rc = rc ? rc : member(path, "", doc, "return_code", INT);
	rc = rc ? rc : member(path, "", doc, "resolution_in_ns", INT);
	rc = rc ? rc : member(path, "", doc, "sysinfo", OBJECT);
	rc = rc ? rc : member(path, "sysinfo.", si, "nodename", TEXT);
	rc = rc ? rc : member(path, "sysinfo.", si, "release", TEXT);
	rc = rc ? rc : member(path, "", doc, "environment", OBJECT);
	rc = rc ? rc : member(path, "environment.", env, "preemption", OBJECT);
	rc = rc ? rc : member(path, "environment.preemption.", pre, "model", TEXT);
	rc = rc ? rc : member(path, "environment.preemption.", pre, "mode", TEXT);
	rc = rc ? rc : member(path, "", doc, "percentiles", OBJECT);
	rc = rc ? rc : members(path, "percentiles", rlr_member(doc, "percentiles"), INT);
	rc = rc ? rc : member(path, "", doc, "verdict", OBJECT);
	rc = rc ? rc : member(path, "verdict.", rlr_member(doc, "verdict"), "result", TEXT);
	rc = rc ? rc : member(path, "", doc, "inputs", ARRAY);
	for (size_t k = 0; !rc && inputs && k < json_object_array_length(inputs); k++) {
		struct json_object *in = json_object_array_get_idx(inputs, k);
		char prefix[48];

		snprintf(prefix, sizeof(prefix), "inputs[%zu]", k);
		rc = check(path, prefix, in, OBJECT);
		snprintf(prefix, sizeof(prefix), "inputs[%zu].", k);
		rc = rc ? rc : member(path, prefix, in, "host", TEXT);
		rc = rc ? rc : member(path, prefix, in, "kernel", TEXT);
		rc = rc ? rc : member(path, prefix, in, "file", TEXT);
		rc = rc ? rc : member(path, prefix, in, "start_time", TEXT);
		rc = rc ? rc : member(path, prefix, in, "end_time", TEXT);
		rc = rc ? rc : member(path, prefix, in, "verdict", TEXT);
	}
	for (int i = 0; !rc && i < nthreads; i++) {
		struct json_object *t = rlr_thread(doc, i);
		char prefix[48];

		snprintf(prefix, sizeof(prefix), "thread.%d", i);
		rc = check(path, prefix, t, OBJECT);
		snprintf(prefix, sizeof(prefix), "thread.%d.", i);
		rc = rc ? rc : member(path, prefix, t, "receiver", OBJECT);
		rc = rc ? rc : member(path, prefix, t, "sender", OBJECT);
		rc = rc ? rc : measured(path, prefix, t);
		snprintf(prefix, sizeof(prefix), "thread.%d.receiver.", i);
		rc = rc ? rc : measured(path, prefix, rlr_member(t, "receiver"));
		snprintf(prefix, sizeof(prefix), "thread.%d.sender.", i);
		rc = rc ? rc : measured(path, prefix, rlr_member(t, "sender"));
	}
	return rc;
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
