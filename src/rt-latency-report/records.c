// SPDX-License-Identifier: GPL-2.0-or-later
#include <inttypes.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rt_loghist.h"
#include "rt_prog.h"
#include "rt_report.h"

#include "doccheck.h"
#include "hist_json.h"
#include "records.h"
#include "result_json.h"

#define RUN_PREFIX "{\"type\":\"run\""
#define MAX_THREADS (1 << 16)

/* One thread's windows added up. */
struct rec_sum {
	struct rt_loghist *hist; /* allocated at its first sample */
	uint64_t count;
	int64_t min, max;
	double weighted;         /* sum of avg * count */
	uint64_t overruns;
	bool has_overruns;
};

struct rec_read {
	const char *path;
	struct json_object *run;
	int n;
	struct rec_sum *sum;
	uint64_t windows;        /* window lines added */
	char first_start[40], last_end[40]; /* ISO 8601, "" when none */
	double start_s, end_s;
	bool total;
	size_t line;             /* the line being read, from 1 */
};

bool rlr_records_is(const char *buf, size_t len)
{
	return len >= sizeof(RUN_PREFIX) - 1 && memcmp(buf, RUN_PREFIX, sizeof(RUN_PREFIX) - 1) == 0;
}

/* Not a records file as the tools write it: exit 1, as a file that is not JSON. */
static int bad(const struct rec_read *r, const char *what)
{
	rt_prog_error("'%s' line %zu: %s", r->path, r->line, what);
	return 1;
}

/* A non-negative integer member. */
static bool count_of(struct json_object *o, const char *key, uint64_t *v)
{
	struct json_object *m = rlr_member(o, key);

	if (!m || !json_object_is_type(m, json_type_int) || json_object_get_int64(m) < 0)
		return false;
	*v = (uint64_t)json_object_get_int64(m);
	return true;
}

static int add_histogram(struct rec_read *r, struct rec_sum *s, struct json_object *h,
			 uint64_t count)
{
	struct json_object *buckets = rlr_loghist_buckets(h);
	uint64_t sum = 0;

	if (!buckets)
		return bad(r, "no latency_histogram of the log-linear layout (records of an older "
			      "version: not a result)");
	if (count && !s->hist) {
		if (!(s->hist = calloc(1, sizeof(*s->hist))))
			return bad(r, "out of memory");
		rt_loghist_init(s->hist);
	}
	json_object_object_foreach(buckets, key, val) {
		int64_t low = rlr_bucket_low(key, true);
		int64_t n = json_object_is_type(val, json_type_int) ? json_object_get_int64(val) : -1;
		uint64_t *b;

		if (low < 0 || n < 0)
			return bad(r, "a latency_histogram bucket is not a bucket of the layout");
		if (!n)
			continue;
		b = &s->hist->bucket[rt_loghist_index(low)];
		if (__builtin_add_overflow(*b, (uint64_t)n, b) ||
		    __builtin_add_overflow(sum, (uint64_t)n, &sum))
			return bad(r, "a bucket count overflows");
	}
	if (sum != count)
		return bad(r, "the latency_histogram's buckets do not add up to the window's count");
	return 0;
}

static int add_window(struct rec_read *r, struct json_object *w)
{
	int64_t k, mn, mx;
	uint64_t count, overruns;
	struct rec_sum *s;
	double avg, start_s, end_s;
	char why[96];
	int rc;

	/*
	 * Every number of the line typed and in range first (doccheck.c), an
	 * error of a result's member (exit 2): the rest reads them as they are.
	 */
	if ((rc = rlr_doc_window(w, r->path, r->line)))
		return 2;
	if (!rlr_int(w, "thread", &k) || k < 0 || k >= r->n || !count_of(w, "count", &count))
		return bad(r, "a window line without a valid \"thread\" or \"count\"");
	start_s = json_object_get_double(rlr_member(w, "start_s"));
	end_s = json_object_get_double(rlr_member(w, "end_s"));
	if (end_s < start_s) {
		snprintf(why, sizeof(why),
			 "a window that ends (end_s %g) before it starts (start_s %g)",
			 end_s, start_s);
		bad(r, why);
		return 2; /* a member's range, as above */
	}
	s = &r->sum[k];
	if (count) {
		if (!rlr_int(w, "min", &mn) || !rlr_int(w, "max", &mx) || mn > mx ||
		    !json_object_is_type(rlr_member(w, "avg"), json_type_double))
			return bad(r, "a window with samples but no min, avg or max");
		avg = json_object_get_double(rlr_member(w, "avg"));
		if (!s->count || mn < s->min)
			s->min = mn;
		if (!s->count || mx > s->max)
			s->max = mx;
		s->weighted += avg * (double)count;
		if (__builtin_add_overflow(s->count, count, &s->count))
			return bad(r, "the counts overflow");
	}
	if ((rc = add_histogram(r, s, rlr_member(w, "latency_histogram"), count)))
		return rc;
	if (rlr_member(w, "overruns")) {
		if (!count_of(w, "overruns", &overruns) ||
		    __builtin_add_overflow(s->overruns, overruns, &s->overruns))
			return bad(r, "a window's overruns are not a count");
		s->has_overruns = true;
	}
	if (!r->windows) {
		snprintf(r->first_start, sizeof(r->first_start), "%s", rlr_text(w, "start") ?: "");
		r->start_s = start_s;
	}
	if (!r->windows || end_s >= r->end_s) {
		snprintf(r->last_end, sizeof(r->last_end), "%s", rlr_text(w, "end") ?: "");
		r->end_s = end_s;
	}
	r->windows++;
	return 0;
}

/* A run line starts the run (again: the file was appended to). */
static int start_run(struct rec_read *r, struct json_object *run)
{
	int64_t n;

	for (int k = 0; k < r->n; k++)
		free(r->sum[k].hist);
	free(r->sum);
	r->sum = NULL;
	if (!rlr_int(run, "num_threads", &n) || n < 1 || n > MAX_THREADS ||
	    !rlr_text(run, "tool") || !rlr_text(run, "cmdline") || !rlr_text(run, "unit"))
		return bad(r, "a run line without \"tool\", \"cmdline\", \"unit\" or "
			      "\"num_threads\" (1..65536)");
	r->n = (int)n;
	if (!(r->sum = calloc((size_t)n, sizeof(*r->sum))))
		return bad(r, "out of memory");
	json_object_put(r->run);
	r->run = json_object_get(run);
	r->windows = 0;
	r->first_start[0] = r->last_end[0] = '\0';
	r->start_s = r->end_s = 0;
	r->total = false;
	return 0;
}

/* One whole line (without its newline) added to what was read. */
static int read_line(struct rec_read *r, const char *p, size_t len)
{
	struct json_tokener *tok = json_tokener_new();
	struct json_object *line, **o = &line;
	const char *type;
	int rc = 0;

	if (!tok)
		return bad(r, "out of memory");
	*o = json_tokener_parse_ex(tok, p, (int)len);
	if (!*o || json_tokener_get_parse_end(tok) != len ||
	    !json_object_is_type(*o, json_type_object) || !(type = rlr_text(*o, "type")))
		rc = bad(r, "not a records line (a JSON object with a \"type\")");
	else if (strcmp(type, "run") == 0)
		rc = start_run(r, *o);
	else if (!r->run)
		rc = bad(r, "a line before the run line");
	else if (strcmp(type, "window") == 0)
		rc = add_window(r, *o);
	else if (strcmp(type, "total") == 0)
		r->total = true;
	json_tokener_free(tok);
	json_object_put(*o);
	return rc;
}

/* ISO 8601 UTC of the records as the JSON's RFC 2822 local time. */
static struct json_object *rfc2822(const char *iso)
{
	struct tm tm = { 0 };
	char buf[64];

	if (!iso || !*iso || sscanf(iso, "%4d-%2d-%2dT%2d:%2d:%2d", &tm.tm_year, &tm.tm_mon, &tm.tm_mday,
			   &tm.tm_hour, &tm.tm_min, &tm.tm_sec) != 6)
		return NULL;
	tm.tm_year -= 1900;
	tm.tm_mon -= 1;
	rt_report_format_time(timegm(&tm), buf, sizeof(buf));
	return json_object_new_string(buf);
}

static struct json_object *thread_doc(const struct rec_sum *s, bool pair)
{
	struct json_object *t = json_object_new_object(), *m = t;
	struct rt_loghist empty_hist;
	const struct rt_loghist *h = s->hist;
	char avg[32];

	if (!h) {
		rt_loghist_init(&empty_hist);
		h = &empty_hist;
	}
	rt_loghist_seal((struct rt_loghist *)h, s->max);
	if (pair) {
		m = json_object_new_object();
		json_object_object_add(t, "receiver", m);
	} else {
		json_object_object_add(m, "cycles", json_object_new_int64((int64_t)s->count));
	}
	json_object_object_add(m, "min", s->count ? json_object_new_int64(s->min) : NULL);
	snprintf(avg, sizeof(avg), "%.2f", s->count ? s->weighted / (double)s->count : 0.0);
	json_object_object_add(m, "avg", s->count ? json_object_new_double_s(
							    s->weighted / (double)s->count, avg)
						  : NULL);
	json_object_object_add(m, "max", s->count ? json_object_new_int64(s->max) : NULL);
	if (s->has_overruns)
		json_object_object_add(m, "overruns", json_object_new_int64((int64_t)s->overruns));
	json_object_object_add(m, "percentiles", rlr_percentiles_json(h));
	json_object_object_add(m, "percentiles_ci", rlr_percentiles_ci_json(h));
	json_object_object_add(m, "latency_histogram", rlr_histogram_json(h));
	return t;
}

static struct json_object *build(struct rec_read *r)
{
	struct json_object *doc = json_object_new_object(), *threads, *cover;
	const char *tool = rlr_text(r->run, "tool");
	bool pair = strcmp(tool, "cyclictest") != 0 && strcmp(tool, "signaltest") != 0;
	struct rt_loghist *all = calloc(1, sizeof(*all));
	int64_t max = 0;
	char key[16];

	if (!doc || !all) {
		free(all);
		json_object_put(doc);
		rt_prog_error("cannot read '%s': out of memory", r->path);
		return NULL;
	}
	rt_loghist_init(all);
	json_object_object_add(doc, "file_version", json_object_new_int(1));
	json_object_object_add(doc, "cmdline:", json_object_get(rlr_member(r->run, "cmdline")));
	json_object_object_add(doc, "rt_test_version:",
			       json_object_get(rlr_member(r->run, "rt_test_version")));
	json_object_object_add(doc, "start_time",
			       rfc2822(r->windows ? r->first_start : rlr_text(r->run, "start")));
	json_object_object_add(doc, "end_time",
			       rfc2822(r->windows ? r->last_end : rlr_text(r->run, "start")));
	json_object_object_add(doc, "return_code", NULL); /* records do not say */
	json_object_object_add(doc, "partial", json_object_new_boolean(!r->total));
	if (rlr_member(r->run, "sysinfo"))
		json_object_object_add(doc, "sysinfo", json_object_get(rlr_member(r->run, "sysinfo")));
	json_object_object_add(doc, "num_threads", json_object_new_int(r->n));
	if (!pair)
		json_object_object_add(doc, "resolution_in_ns",
				       json_object_new_int(strcmp(rlr_text(r->run, "unit"), "ns") == 0));
	threads = json_object_new_object();
	for (int k = 0; k < r->n; k++) {
		snprintf(key, sizeof(key), "%d", k);
		json_object_object_add(threads, key, thread_doc(&r->sum[k], pair));
		if (r->sum[k].hist)
			rt_loghist_merge(all, r->sum[k].hist);
	}
	json_object_object_add(doc, "thread", threads);
	if (rlr_member(r->run, "environment"))
		json_object_object_add(doc, "environment",
				       json_object_get(rlr_member(r->run, "environment")));
	for (int k = 0; k < r->n; k++)
		if (r->sum[k].count && r->sum[k].max > max)
			max = r->sum[k].max;
	rt_loghist_seal(all, max);
	json_object_object_add(doc, "percentiles", rlr_percentiles_json(all));
	json_object_object_add(doc, "percentiles_ci", rlr_percentiles_ci_json(all));
	free(all);
	cover = json_object_new_object();
	json_object_object_add(cover, "windows", json_object_new_int64((int64_t)r->windows));
	json_object_object_add(cover, "start",
			       r->windows ? json_object_new_string(r->first_start) : NULL);
	json_object_object_add(cover, "end", r->windows ? json_object_new_string(r->last_end) : NULL);
	json_object_object_add(cover, "start_s", json_object_new_double(r->start_s));
	json_object_object_add(cover, "end_s", json_object_new_double(r->end_s));
	json_object_object_add(cover, "interval_s",
			       json_object_get(rlr_member(r->run, "records_interval_s")));
	json_object_object_add(doc, "records", cover);
	if (rlr_text(r->run, "run_id"))
		json_object_object_add(doc, "run_id", json_object_get(rlr_member(r->run, "run_id")));
	return doc;
}

int rlr_records_doc(const char *buf, size_t len, const char *path,
		    struct json_object **doc)
{
	struct rec_read r = { .path = path };
	size_t runs = 0;
	int rc = 0;

	/* Whole lines only: a last line without its newline was torn by a kill. */
	for (const char *p = buf, *nl; !rc && (nl = memchr(p, '\n', len - (size_t)(p - buf)));
	     p = nl + 1) {
		r.line++;
		runs += rlr_records_is(p, (size_t)(nl - p));
		rc = read_line(&r, p, (size_t)(nl - p));
	}
	if (!rc && !r.run) {
		rt_prog_error("'%s': no whole run line", path);
		rc = 1;
	}
	if (!rc && runs > 1)
		fprintf(stderr, "WARN: '%s' holds %zu runs (appended to): reading the last\n", path,
			runs);
	*doc = rc ? NULL : build(&r);
	if (!rc && !*doc)
		rc = 1; /* out of memory, said */
	json_object_put(r.run);
	for (int k = 0; r.sum && k < r.n; k++)
		free(r.sum[k].hist);
	free(r.sum);
	return rc;
}
