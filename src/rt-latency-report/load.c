// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt_prog.h"

#include "load.h"

const char *const rlr_metric_names[RLR_METRICS] = { "p50", "p99", "p99.9", "p99.99", "max" };

bool rlr_int(struct json_object *o, const char *key, int64_t *v)
{
	struct json_object *m;

	if (!o || !json_object_object_get_ex(o, key, &m) || !m ||
	    (!json_object_is_type(m, json_type_int) && !json_object_is_type(m, json_type_double)))
		return false;
	*v = json_object_get_int64(m);
	return true;
}

/* Percentiles of a "percentiles" object and the max, where present. */
static void series(struct rlr_series *s, struct json_object *pct, int64_t max, bool has_max)
{
	for (int i = 0; i < RLR_METRICS - 1; i++)
		s->has[i] = rlr_int(pct, rlr_metric_names[i], &s->value[i]);
	s->has[RLR_METRICS - 1] = has_max;
	s->value[RLR_METRICS - 1] = max;
}

static void tool_name(struct rlr_run *r, const char *cmdline)
{
	const char *start = cmdline, *end, *slash;

	end = start + strcspn(start, " ");
	for (slash = start; (slash = memchr(slash, '/', (size_t)(end - slash))); start = ++slash)
		;
	snprintf(r->tool, sizeof(r->tool), "%.*s", (int)(end - start), start);
}

struct json_object *rlr_member(struct json_object *o, const char *key)
{
	struct json_object *m = NULL;

	return o && json_object_object_get_ex(o, key, &m) ? m : NULL;
}

const char *rlr_text(struct json_object *o, const char *key)
{
	struct json_object *m = rlr_member(o, key);

	return m && json_object_is_type(m, json_type_string) ? json_object_get_string(m) : NULL;
}

struct json_object *rlr_thread(struct json_object *doc, int i)
{
	char key[16];

	snprintf(key, sizeof(key), "%d", i);
	return rlr_member(rlr_member(doc, "thread"), key);
}

struct json_object *rlr_measured(struct json_object *thread)
{
	struct json_object *rx = rlr_member(thread, "receiver");

	return rx ? rx : thread;
}

struct json_object *rlr_doc_read(const char *path)
{
	struct json_object *doc = json_object_from_file(path);

	if (!doc) {
		const char *why = json_util_get_last_err();

		if (!why)
			why = "not JSON";
		rt_prog_error("cannot read '%s': %.*s", path, (int)strcspn(why, "\n"), why);
	}
	return doc;
}

int rlr_doc_check(struct json_object *doc, const char *path, int *nthreads)
{
	struct json_object *threads = rlr_member(doc, "thread");
	int64_t n;

	if (!rlr_member(doc, "rt_test_version:") || !threads ||
	    !json_object_is_type(threads, json_type_object) || !rlr_int(doc, "num_threads", &n) ||
	    n < 1 || n > 1 << 20 || !rlr_text(doc, "cmdline:")) {
		rt_prog_error("'%s' is not a result of rt-tests-ng or rt-tests 2.4 (no \"rt_test_version:\", "
			      "\"cmdline:\", \"num_threads\" or \"thread\")", path);
		return 2;
	}
	*nthreads = (int)n;
	return 0;
}

int rlr_load(struct rlr_run *r, const char *path)
{
	struct json_object *doc;
	int64_t ns = 0, all_max = 0;
	bool any_max = false;

	memset(r, 0, sizeof(*r));
	r->path = path;
	if (!(doc = rlr_doc_read(path)))
		return 1;
	if (rlr_doc_check(doc, path, &r->nthreads)) {
		json_object_put(doc);
		return 2;
	}
	tool_name(r, rlr_text(doc, "cmdline:"));
	rlr_int(doc, "resolution_in_ns", &ns);
	r->ns = ns == 1;
	r->thread = calloc((size_t)r->nthreads, sizeof(*r->thread));
	if (!r->thread) {
		json_object_put(doc);
		rt_prog_error_errno(ENOMEM, "cannot read '%s'", path);
		return 1;
	}
	for (int i = 0; i < r->nthreads; i++) {
		struct json_object *t = rlr_measured(rlr_thread(doc, i));
		int64_t max = 0;
		bool has_max = rlr_int(t, "max", &max);

		series(&r->thread[i], rlr_member(t, "percentiles"), max, has_max);
		if (has_max && (!any_max || max > all_max))
			all_max = max;
		any_max |= has_max;
	}
	series(&r->all, rlr_member(doc, "percentiles"), all_max, any_max);
	json_object_put(doc);
	return 0;
}

void rlr_free(struct rlr_run *r)
{
	free(r->thread);
	r->thread = NULL;
}
