/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A result file read back (with json-c): what rt-latency-report needs of
 * our JSON, or of rt-tests 2.4's (which has no percentiles).
 */
#ifndef RLR_LOAD_H
#define RLR_LOAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rt_loghist.h"

struct json_object;

/* The most threads a result may have (cyclictest -t). */
#define RLR_MAX_THREADS 4096

/* p50, p99, p99.9, p99.99 (as named in the JSON) and max. */
#define RLR_METRICS 5
extern const char *const rlr_metric_names[RLR_METRICS];

/* A percentile's 95 % confidence interval (rt_quantile_ci). */
struct rlr_ci {
	bool has;            /* false: not known (no histogram, no "percentiles_ci", max) */
	bool has_high;       /* false: too few samples for an upper bound */
	int64_t low, high;
};

struct rlr_series {
	bool has[RLR_METRICS];
	int64_t value[RLR_METRICS];
	struct rlr_ci ci[RLR_METRICS];
};

struct rlr_run {
	const char *path;
	char tool[64];       /* the command's name from "cmdline:" */
	bool text;           /* cyclictest's -h text, not JSON */
	bool ns;             /* cyclictest -N */
	bool partial;        /* stopped early or killed ("partial": true) */
	int nthreads;
	struct rlr_series *thread;
	struct rlr_series all;
};

/*
 * Read path (our JSON, rt-tests 2.4's, or cyclictest's -h text, whose
 * percentiles come from its histograms where they hold the rank): 0; 1
 * with a one-line error printed (unreadable, neither JSON nor histogram
 * text) or 2 (JSON, but not a result of ours or of rt-tests 2.4; a
 * histogram of another layout).
 */
int rlr_load(struct rlr_run *r, const char *path);
/* The same of an input already read (input.h). */
struct rlr_input;
int rlr_load_input(struct rlr_run *r, const struct rlr_input *in);
void rlr_free(struct rlr_run *r);

/*
 * doc is a result of ours or of rt-tests 2.4: 0 with its thread count, or 2
 * after a one-line error naming path.
 */
int rlr_doc_check(struct json_object *doc, const char *path, int *nthreads);

/*
 * Every member of doc that is read has its type (integers are integers,
 * counts not negative, none at the edge of 64 bits): 0, or 2 after a
 * one-line error naming path and the member (doccheck.c).
 */
int rlr_doc_types(struct json_object *doc, const char *path, int nthreads);

/* The command's name (argv[0] without its directory) of a "cmdline:". */
void rlr_tool_name(char *buf, size_t len, const char *cmdline);

/* Member key of o (NULL when o is NULL or has none); a string member. */
struct json_object *rlr_member(struct json_object *o, const char *key);
const char *rlr_text(struct json_object *o, const char *key);
/* An integer member: false when absent or of another type. */
bool rlr_int(struct json_object *o, const char *key, int64_t *v);

/* Thread i of doc, and the object holding its min/avg/max and histograms:
 * the thread itself, or a pair's receiver. */
struct json_object *rlr_thread(struct json_object *doc, int i);

/* The "buckets" of a latency_histogram of our log-linear layout, else NULL. */
struct json_object *rlr_loghist_buckets(struct json_object *latency_histogram);

/*
 * A histogram's bucket key as its lowest value, or -1 when it is not a
 * non-negative integer or (log_linear) not the lowest value of a bucket.
 */
int64_t rlr_bucket_low(const char *key, bool log_linear);
struct json_object *rlr_measured(struct json_object *thread);

#endif
