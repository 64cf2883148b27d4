// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <inttypes.h>
#include <json-c/json.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt_loghist.h"
#include "rt_opt.h"
#include "rt_prog.h"

#include "curves.h"
#include "curves_load.h"
#include "doccheck.h"
#include "input.h"
#include "result_json.h"

static int bin_cmp(const void *a, const void *b)
{
	const struct rlr_bin *x = a, *y = b;

	return (x->low > y->low) - (x->low < y->low);
}

/* Append a non-empty bin: false when out of memory. */
static bool bin_add(struct rlr_curve *c, size_t *cap, int64_t low, int64_t high, uint64_t count)
{
	if (!count)
		return true;
	if (c->nbins == *cap) {
		size_t ncap = *cap ? *cap * 2 : 64;
		struct rlr_bin *b = realloc(c->bin, ncap * sizeof(*b));

		if (!b)
			return false;
		c->bin = b;
		*cap = ncap;
	}
	c->bin[c->nbins++] = (struct rlr_bin){ low, high, count };
	return true;
}

/* "…/src/cyclictest/cyclictest -p 80" -> "cyclictest -p 80", cut to fit. */
static void short_cmdline(char *dst, size_t size, const char *cmdline)
{
	size_t word = strcspn(cmdline, " ");
	const char *slash = memrchr(cmdline, '/', word);

	if (slash)
		cmdline = slash + 1;
	if (strlen(cmdline) < size)
		snprintf(dst, size, "%s", cmdline);
	else
		snprintf(dst, size, "%.*s...", (int)size - 4, cmdline);
}

/* --warmup=TIME or --warmup TIME of a command line: seconds, 0 when none. */
static int64_t warmup_of(const char *cmdline)
{
	const char *p = cmdline;
	uint64_t s = 0;
	char value[32];

	while (p && (p = strstr(p, " --warmup"))) {
		p += strlen(" --warmup");
		if (*p == '=' || *p == ' ') {
			snprintf(value, sizeof(value), "%.*s", (int)strcspn(p + 1, " "), p + 1);
			if (rt_opt_parse_duration(value, UINT32_MAX, &s) == 0)
				return (int64_t)s;
		}
	}
	return 0;
}

static void origin_of(struct rlr_origin *o, const char *host, const char *kernel)
{
	snprintf(o->host, sizeof(o->host), "%s", host ? host : "?");
	snprintf(o->kernel, sizeof(o->kernel), "%s", kernel ? kernel : "?");
}

/* Title material: command line, machine(s), preemption model, duration. */
static bool json_meta(struct rlr_plotfile *f, struct json_object *doc)
{
	struct json_object *inputs = rlr_member(doc, "inputs"), *si = rlr_member(doc, "sysinfo");
	struct json_object *pre = rlr_member(rlr_member(doc, "environment"), "preemption");
	int64_t start, end, ns = 0;

	short_cmdline(f->cmdline, sizeof(f->cmdline), rlr_text(doc, "cmdline:"));
	rlr_int(doc, "resolution_in_ns", &ns);
	f->ns = ns == 1;
	if (rlr_text(pre, "model"))
		snprintf(f->preemption, sizeof(f->preemption), "%s%s%s%s", rlr_text(pre, "model"),
			 rlr_text(pre, "mode") ? " (" : "", rlr_text(pre, "mode") ?: "",
			 rlr_text(pre, "mode") ? ")" : "");
	f->merged = inputs && json_object_is_type(inputs, json_type_array);
	f->partial = rlr_partial(doc);
	f->norigins = f->merged ? (int)json_object_array_length(inputs) : 1;
	f->origin = calloc((size_t)(f->norigins ? f->norigins : 1), sizeof(*f->origin));
	if (!f->origin)
		return false;
	if (!f->merged)
		origin_of(f->origin, rlr_text(si, "nodename"), rlr_text(si, "release"));
	for (int k = 0; f->merged && k < f->norigins; k++) {
		struct json_object *in = json_object_array_get_idx(inputs, (size_t)k);

		origin_of(&f->origin[k], rlr_text(in, "host"), rlr_text(in, "kernel"));
	}
	/* A merge's times are its template's: no duration for it. */
	f->has_duration = !f->merged && rlr_rfc2822(rlr_text(doc, "start_time"), &start) &&
			  rlr_rfc2822(rlr_text(doc, "end_time"), &end) && end >= start;
	f->duration_s = f->has_duration ? end - start : 0;
	/* The time measured: the warm-up's samples were dropped. */
	f->warmup_s = f->has_duration ? warmup_of(rlr_text(doc, "cmdline:")) : 0;
	if (f->warmup_s > f->duration_s)
		f->warmup_s = f->duration_s;
	f->duration_s -= f->warmup_s;
	return true;
}

int rlr_curve_from_json(struct rlr_curve *c, struct json_object *thread, const char *path, int i)
{
	struct json_object *m = rlr_measured(thread), *lh = rlr_member(m, "latency_histogram");
	struct json_object *linear = rlr_member(m, "histogram"), *buckets = NULL;
	int64_t v, cycles;
	uint64_t sum = 0;
	size_t cap = 0;

	c->thread = i;
	c->cpu = rlr_int(m, "cpu", &v) && v >= 0 && v < 1 << 20 ? (int)v : -1;
	c->has_max = rlr_int(m, "max", &c->max);
	if (lh) {
		if (!(buckets = rlr_loghist_buckets(lh))) {
			rt_prog_error("'%s' thread %d: latency_histogram is not of the log-linear layout "
				      "(exact_below %d, sub_buckets %d)", path, i, RT_LOGHIST_EXACT,
				      RT_LOGHIST_SUB);
			return 2;
		}
	} else if (linear && json_object_is_type(linear, json_type_object)) {
		buckets = linear;
	} else {
		rt_prog_error("'%s' thread %d: no histogram to plot (rt-tests 2.4 writes one with -h)",
			      path, i);
		return 2;
	}
	json_object_object_foreach(buckets, key, val) {
		int64_t low = rlr_bucket_low(key, lh != NULL);
		int64_t n = json_object_get_int64(val);
		int64_t high = low + 1;

		if (low < 0 || n < 0) {
			rt_prog_error("'%s' thread %d: bucket '%s' is not a bucket of its histogram", path,
				      i, key);
			return 2;
		}
		if (lh) {
			int64_t top = rt_loghist_bucket_high(rt_loghist_index(low));

			/* The last bucket is open: it ends at the max. */
			high = (top == INT64_MAX ? (c->has_max ? c->max : low) : top) + 1;
		}
		if (!bin_add(c, &cap, low, high, (uint64_t)n)) {
			rt_prog_error_errno(ENOMEM, "cannot read '%s'", path);
			return 1;
		}
		if (__builtin_add_overflow(sum, (uint64_t)n, &sum) || sum > INT64_MAX) {
			rt_prog_error("'%s' thread %d: the histogram's counts add up beyond 64 bits",
				      path, i);
			return 2;
		}
	}
	if (c->nbins > 1)
		qsort(c->bin, c->nbins, sizeof(*c->bin), bin_cmp);
	/* 2.4's histogram leaves out what is beyond its range. */
	if (!lh && rlr_int(m, "cycles", &cycles) && cycles > 0 && (uint64_t)cycles > sum)
		c->overflow = (uint64_t)cycles - sum;
	return 0;
}

static int load_json(struct rlr_plotfile *f, struct json_object *doc)
{
	int n, rc = 0;

	if ((rc = rlr_doc_check(doc, f->path, &n)))
		return rc;
	if (!json_meta(f, doc) || !(f->curve = calloc((size_t)n, sizeof(*f->curve)))) {
		rt_prog_error_errno(ENOMEM, "cannot read '%s'", f->path);
		return 1;
	}
	f->ncurves = n;
	for (int i = 0; i < n && !rc; i++) {
		struct json_object *t = rlr_thread(doc, i);

		if (!t) {
			rt_prog_error("'%s' has no thread %d of its %d", f->path, i, n);
			rc = 2;
		} else {
			rc = rlr_curve_from_json(&f->curve[i], t, f->path, i);
		}
	}
	return rc;
}

/* One row of the histogram text: "BUCKET COUNT\tCOUNT...": columns, or -1. */
static int text_row(const char *line, int64_t *v, int max)
{
	const char *p = line;
	int n = 0;

	for (;;) {
		char *end;
		long long x;

		while (*p == ' ' || *p == '\t')
			p++;
		if (*p == '\n' || !*p)
			return n;
		if (*p < '0' || *p > '9' || n == max)
			return -1;
		errno = 0;
		x = strtoll(p, &end, 10);
		if (errno)
			return -1;
		v[n++] = x;
		p = end;
	}
}

#define RLR_TEXT_MAX_COLUMNS 4097 /* the bucket, 4096 threads (and 2.4's -H "all") */

/* What the reader of the histogram text keeps from line to line. */
struct text_read {
	struct rlr_plotfile *f;
	int64_t *v;             /* a row's columns; the "# Min Latencies:" values */
	int64_t *maxv, *over;   /* the "# Max Latencies:" and "# Histogram Overflows:" values */
	size_t *cap;            /* the bins allocated of each column's curve */
	int cols;               /* a row's columns (the bucket, then the counts); -1: no row yet */
	int nmin, nmax, nover;  /* how many values each summary line had (nmin -1: none) */
	long lineno;
	int64_t last;           /* the previous row's bucket: they rise */
};

static int text_nomem(const struct rlr_plotfile *f)
{
	rt_prog_error_errno(ENOMEM, "cannot read '%s'", f->path);
	return 1;
}

/* A row "BUCKET COUNT..." added to the columns' curves: 0, or 2 or 1 after a one-line error. */
static int text_add_row(struct text_read *t, const char *line)
{
	struct rlr_plotfile *f = t->f;
	int n = text_row(line, t->v, RLR_TEXT_MAX_COLUMNS);

	if (n < 2 || (t->cols > 0 && n != t->cols) || t->v[0] <= t->last) {
		rt_prog_error("'%s' line %ld: not a row of cyclictest's histogram "
			      "(bucket, then a count per thread)", f->path, t->lineno);
		return 2;
	}
	/* A bucket is a latency: within RLR_MAX_VALUE, as in JSON; its end (+ 1) fits. */
	if (t->v[0] > RLR_MAX_VALUE) {
		rt_prog_error("'%s' line %ld: the bucket is %" PRId64
			      ": must be from 0 to 10^18", f->path, t->lineno, t->v[0]);
		return 2;
	}
	if (t->cols < 0) {
		t->cols = n;
		f->curve = calloc((size_t)t->cols - 1, sizeof(*f->curve));
		t->cap = calloc((size_t)t->cols - 1, sizeof(*t->cap));
		if (!f->curve || !t->cap)
			return text_nomem(f);
	}
	t->last = t->v[0];
	for (int k = 1; k < t->cols; k++) /* text_row took digits only: no sign */
		if (!bin_add(&f->curve[k - 1], &t->cap[k - 1], t->v[0], t->v[0] + 1,
			     (uint64_t)t->v[k]))
			return text_nomem(f);
	return 0;
}

/*
 * The numbers after a "# Label:" line's colon: how many, or -1 after a
 * one-line error (a latency beyond RLR_MAX_VALUE, as in JSON, or beyond
 * 64 bits) when they are latencies.
 */
static int summary_values(const struct text_read *t, const char *line, int64_t *v,
			  int max, bool latencies)
{
	const char *p = strchr(line, ':');
	int n = 0;

	if (!p)
		return 0;
	p++; /* the values follow the colon; each one ends where the next may start */
	while (n < max) {
		char *end;
		long long x;

		errno = 0;
		x = strtoll(p, &end, 10);
		if (end == p)
			break;
		if (latencies && (errno || x > RLR_MAX_VALUE || x < -RLR_MAX_VALUE)) {
			/* The value as written, even beyond 64 bits. */
			p += strspn(p, " \t");
			rt_prog_error("'%s' line %ld: a value of \"%.*s\" is %.*s: "
				      "must be from -10^18 to 10^18", t->f->path,
				      t->lineno, (int)(strchr(line, ':') - line + 1), line,
				      (int)(end - p), p);
			return -1;
		}
		v[n++] = x;
		p = end;
	}
	return n;
}

/* A summary line after the rows: the threads' min and max, the overflows. 0 or 2. */
static int text_summary(struct text_read *t, const char *line)
{
	int64_t *v = NULL;
	int *n = NULL, got;

	if (strncmp(line, "# Min Latencies:", 16) == 0)
		v = t->v, n = &t->nmin;
	else if (strncmp(line, "# Max Latencies:", 16) == 0)
		v = t->maxv, n = &t->nmax;
	else if (strncmp(line, "# Histogram Overflows:", 22) == 0)
		v = t->over, n = &t->nover;
	if (!n)
		return 0;
	/* The overflows are counts (their sum is checked), the others latencies. */
	if ((got = summary_values(t, line, v, RLR_TEXT_MAX_COLUMNS, v != t->over)) < 0)
		return 2;
	*n = got;
	return 0;
}

/* Every line: "# Histogram", its rows, the summary. 0, or 2 or 1 after a one-line error. */
static int text_lines(struct text_read *t, FILE *in)
{
	enum { BEFORE, ROWS, AFTER } state = BEFORE;
	char *line = NULL;
	size_t lsize = 0;
	int rc = 0;

	while (getline(&line, &lsize, in) > 0) {
		t->lineno++;
		if (state == BEFORE) {
			if (strcmp(line, "# Histogram\n") == 0)
				state = ROWS;
			continue;
		}
		if (state == ROWS && line[0] != '#') {
			if ((rc = text_add_row(t, line)))
				break;
			continue;
		}
		state = AFTER;
		if ((rc = text_summary(t, line)))
			break;
	}
	free(line);
	return rc;
}

/*
 * The threads' curves once every line is read: their max and overflow from
 * the summary. 0, or 1 or 2 after a one-line error.
 */
static int text_curves(struct text_read *t)
{
	struct rlr_plotfile *f = t->f;
	int threads;

	if (t->cols < 0) {
		rt_prog_error("cannot read '%s': neither JSON nor cyclictest's histogram text "
			      "(no \"# Histogram\" line followed by rows)", f->path);
		return 1;
	}
	/* Without -H the columns are the threads; with it one more (all). */
	threads = t->nmin > 0 ? t->nmin : t->cols - 1;
	if (t->cols - 1 != threads && t->cols - 1 != threads + 1) {
		rt_prog_error("'%s': %d histogram columns for %d threads", f->path, t->cols - 1,
			      threads);
		return 2;
	}
	for (int k = 0; k < threads; k++) {
		struct rlr_curve *c = &f->curve[k];
		uint64_t total;

		c->thread = k;
		c->cpu = -1;
		c->has_max = k < t->nmax || c->nbins;
		c->max = k < t->nmax ? t->maxv[k] : c->nbins ? c->bin[c->nbins - 1].low : 0;
		c->overflow = k < t->nover && t->over[k] > 0 ? (uint64_t)t->over[k] : 0;
		if (!rlr_curve_total(c, &total)) {
			rt_prog_error("'%s' thread %d: the histogram's counts add up beyond 64 bits",
				      f->path, k);
			return 2;
		}
	}
	f->ncurves = threads;
	if (t->cols - 1 > threads) /* -H's "all" column: not a thread of its own */
		free(f->curve[threads].bin);
	return 0;
}

/*
 * cyclictest's -h/-H text: "# Histogram", rows of a bucket and one count
 * per thread (with -H one more: all threads), then "# Min Latencies:",
 * "# Max Latencies:" and "# Histogram Overflows:" per thread (Max and
 * Overflows also with the "all" value).
 */
static int load_text(struct rlr_plotfile *f, FILE *in)
{
	struct text_read t = { .f = f, .cols = -1, .nmin = -1, .last = -1 };
	int rc;

	t.v = calloc(RLR_TEXT_MAX_COLUMNS, sizeof(*t.v));
	t.maxv = calloc(RLR_TEXT_MAX_COLUMNS, sizeof(*t.maxv));
	t.over = calloc(RLR_TEXT_MAX_COLUMNS, sizeof(*t.over));
	if (!t.v || !t.maxv || !t.over)
		rc = text_nomem(f);
	else if (!(rc = text_lines(&t, in)))
		rc = text_curves(&t);
	if (rc && f->curve) {
		for (int k = 0; k < t.cols - 1; k++)
			free(f->curve[k].bin);
		free(f->curve);
		f->curve = NULL;
	}
	free(t.cap);
	free(t.v);
	free(t.maxv);
	free(t.over);
	return rc;
}

int rlr_plotfile_load(struct rlr_plotfile *f, const char *path, bool text_ns)
{
	struct rlr_input in;
	int rc;

	memset(f, 0, sizeof(*f));
	f->path = path;
	if ((rc = rlr_input_load(&in, path)))
		/* Not JSON: 1, as the text reader says of what it cannot read. */
		return rc == RLR_INPUT_INVALID ? 2 : 1;
	rc = rlr_plotfile_from_input(f, &in, text_ns);
	rlr_input_free(&in);
	return rc;
}

int rlr_plotfile_from_input(struct rlr_plotfile *f, const struct rlr_input *in, bool text_ns)
{
	FILE *text;
	int rc;

	memset(f, 0, sizeof(*f));
	f->path = in->path;
	if (in->doc)
		return load_json(f, in->doc);
	/* The bytes already read, as a stream (fmemopen of 0 bytes needs 1). */
	if (!(text = fmemopen(in->data, in->len ? in->len : 1, "r"))) {
		rt_prog_error_errno(errno, "cannot read '%s'", in->path);
		return 1;
	}
	f->text = true;
	f->ns = text_ns;
	rc = load_text(f, text);
	fclose(text);
	return rc; /* the text does not say where it ran: no origin, no command line */
}
