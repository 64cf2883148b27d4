/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The members of a result's JSON (ours or rt-tests 2.4's) as the readers
 * and writers of rt-latency-report take them: the bottom of its layers,
 * on json-c and rt_loghist only.
 */
#ifndef RLR_RESULT_JSON_H
#define RLR_RESULT_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct json_object;

/*
 * The largest latency (and any other integer that is not a count) an input
 * may hold, either sign: 10^18 is 31 years in ns, so nothing beyond it is a
 * measurement; kept to it, the readers' arithmetic (a bin's end, the axis's
 * margin and round values) stays far inside 64 bits. Counts keep their
 * whole range: their sums are checked instead.
 */
#define RLR_MAX_VALUE INT64_C(1000000000000000000)
/* The latest a records window may end, in seconds from the run's start
 * (317 years; a double still holds it to 2 us). */
#define RLR_MAX_SECONDS 1e10

/* Member key of o (NULL when o is NULL or has none); a string member. */
struct json_object *rlr_member(struct json_object *o, const char *key);
const char *rlr_text(struct json_object *o, const char *key);
/* An integer member: false when absent or of another type. */
bool rlr_int(struct json_object *o, const char *key, int64_t *v);

/*
 * Whether a result did not end as asked, the one reading of it in every
 * command: its verdict's "partial" (what the tools write), or a top-level
 * "partial" (a records file's result, a merge of a partial input).
 */
bool rlr_partial(struct json_object *doc);

/* Thread i of doc, and the object holding its min/avg/max and histograms:
 * the thread itself, or a pair's receiver. */
struct json_object *rlr_thread(struct json_object *doc, int i);
struct json_object *rlr_measured(struct json_object *thread);

/* The "buckets" of a latency_histogram of our log-linear layout, else NULL. */
struct json_object *rlr_loghist_buckets(struct json_object *latency_histogram);

/*
 * A histogram's bucket key as its lowest value, or -1 when it is not an
 * integer from 0 to RLR_MAX_VALUE or (log_linear) not the lowest value of a
 * bucket.
 */
int64_t rlr_bucket_low(const char *key, bool log_linear);

/* The command's name (argv[0] without its directory) of a "cmdline:". */
void rlr_tool_name(char *buf, size_t len, const char *cmdline);

/* start_time/end_time as the tools write them (RFC 2822): seconds since the epoch. */
bool rlr_rfc2822(const char *s, int64_t *t);

#endif
