/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Streaming JSON writer: 2-space indentation, one member per line, keys in
 * the order written, every string escaped (quotes, backslashes, control
 * characters, invalid UTF-8), numbers never NaN or Inf (written as null).
 */
#ifndef RT_JSON_H
#define RT_JSON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define RT_JSON_MAX_DEPTH 16

struct rt_json {
	FILE *f;
	int depth;                          /* open objects */
	bool has_members[RT_JSON_MAX_DEPTH]; /* per level: a member was written */
	bool is_array[RT_JSON_MAX_DEPTH];    /* per level: an array (members have no key) */
	bool misuse;                        /* unbalanced or too deep */
	bool compact;                       /* one line, no spaces */
};

void rt_json_init(struct rt_json *j, FILE *f);
/* The same document on one line (newline-delimited JSON records). */
void rt_json_init_compact(struct rt_json *j, FILE *f);

/* Begin an object: the root (key NULL at depth 0) or a member named key. */
void rt_json_object_begin(struct rt_json *j, const char *key);
void rt_json_object_end(struct rt_json *j);

/* An array member named key; inside it, values are written with key NULL. */
void rt_json_array_begin(struct rt_json *j, const char *key);
void rt_json_array_end(struct rt_json *j);

void rt_json_int(struct rt_json *j, const char *key, int64_t v);
void rt_json_uint(struct rt_json *j, const char *key, uint64_t v);
/* Fixed number of decimals; a non-finite value is written as null. */
void rt_json_double(struct rt_json *j, const char *key, double v, int decimals);
/* NULL is written as null. */
void rt_json_string(struct rt_json *j, const char *key, const char *v);
void rt_json_null(struct rt_json *j, const char *key);
void rt_json_bool(struct rt_json *j, const char *key, bool v);

/* Write the escaped form of s, quotes included. */
void rt_json_write_escaped(FILE *f, const char *s);

/*
 * End the document with a newline. Returns 0, -EINVAL when objects were
 * left open or misused, or -EIO on a stream error.
 */
int rt_json_finish(struct rt_json *j);

#endif
