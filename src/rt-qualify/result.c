// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "result.h"

/* A day's result is a few MiB; anything far beyond is not one of ours. */
#define RESULT_MAX_BYTES ((size_t)256 << 20)

static char *slurp(int dirfd, const char *name, int *err)
{
	size_t cap = 1 << 16, len = 0;
	char *buf = malloc(cap), *n;
	ssize_t r;
	int fd = openat(dirfd, name, O_RDONLY | O_CLOEXEC);

	*err = fd < 0 ? -errno : (buf ? 0 : -ENOMEM);
	while (!*err && (r = read(fd, buf + len, cap - len - 1)) != 0) {
		if (r < 0) {
			*err = errno == EINTR ? 0 : -errno;
			continue;
		}
		len += (size_t)r;
		if (len + 1 == cap) {
			if (cap >= RESULT_MAX_BYTES || !(n = realloc(buf, cap * 2)))
				*err = cap >= RESULT_MAX_BYTES ? -EFBIG : -ENOMEM;
			else
				buf = n, cap *= 2;
		}
	}
	if (fd >= 0)
		close(fd);
	if (*err) {
		free(buf);
		return NULL;
	}
	buf[len] = '\0';
	return buf;
}

static bool get_int(struct json_object *o, const char *key, int64_t *v)
{
	struct json_object *m;

	if (!json_object_object_get_ex(o, key, &m) || !json_object_is_type(m, json_type_int))
		return false;
	*v = json_object_get_int64(m);
	return true;
}

/* cyclictest's and oslat's "thread": {"0": {"max", "cycles"|"samples"}, ...} */
static void thread_figures(struct rtq_step *st, struct json_object *doc)
{
	struct json_object *threads;
	int64_t v;

	if (!json_object_object_get_ex(doc, "thread", &threads) ||
	    !json_object_is_type(threads, json_type_object))
		return;
	json_object_object_foreach(threads, key, t) {
		(void)key;
		if (!json_object_is_type(t, json_type_object))
			continue;
		if (get_int(t, "max", &v) && v > st->max_us)
			st->max_us = v;
		if ((get_int(t, "cycles", &v) || get_int(t, "samples", &v)) && v > 0)
			st->samples += (uint64_t)v;
	}
}

static void figures(struct rtq_step *st, struct json_object *doc)
{
	int64_t v;

	st->max_us = -1;
	st->samples = 0;
	if (get_int(doc, "max_latency_us", &v)) {        /* hwlatdetect */
		st->max_us = v;
		if (get_int(doc, "samples_recorded", &v) && v > 0)
			st->samples = (uint64_t)v;
		return;
	}
	thread_figures(st, doc);
}

int rtq_result_read(struct rtq_step *st, int dirfd)
{
	struct json_object *doc, *v, *r;
	char name[128];
	const char *s;
	char *text;
	int err;

	snprintf(st->result, sizeof(st->result), "error");
	snprintf(name, sizeof(name), "%s.json", st->file);
	if (!(text = slurp(dirfd, name, &err)))
		return err;
	doc = json_tokener_parse(text);
	free(text);
	if (!doc || !json_object_is_type(doc, json_type_object)) {
		json_object_put(doc);
		return -EINVAL;
	}
	figures(st, doc);
	if (json_object_object_get_ex(doc, "verdict", &v) &&
	    json_object_is_type(v, json_type_object) &&
	    json_object_object_get_ex(v, "result", &r) &&
	    json_object_is_type(r, json_type_string) && (s = json_object_get_string(r)) &&
	    (!strcmp(s, "pass") || !strcmp(s, "fail") || !strcmp(s, "inconclusive"))) {
		snprintf(st->result, sizeof(st->result), "%s", s);
		st->verdict = json_object_get(v);
	}
	json_object_put(doc);
	return st->verdict ? 0 : -EINVAL;
}

void rtq_result_free(struct rtq_step *st)
{
	json_object_put(st->verdict);
	st->verdict = NULL;
}
