// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rt_percentiles.h"
#include "rt_records.h"
#include "rt_time.h"

int rt_records_open(struct rt_records *r, const char *path, uint64_t interval_s)
{
	memset(r, 0, sizeof(*r));
	r->interval_ns = (int64_t)interval_s * RT_NSEC_PER_SEC;
	r->fd = strcmp(path, "-") == 0 ? dup(STDOUT_FILENO)
				       : open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	return r->fd < 0 ? -errno : 0;
}

void rt_records_close(struct rt_records *r)
{
	if (r->fd > 0)
		close(r->fd);
	r->fd = -1;
	if (r->mem)
		fclose(r->mem);
	r->mem = NULL;
	free(r->line);
	r->line = NULL;
}

static int64_t mono_now(void)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return rt_time_to_ns(&now);
}

void rt_records_start(struct rt_records *r)
{
	clock_gettime(CLOCK_REALTIME, &r->start_wall);
	r->start_ns = mono_now();
	r->window_start_ns = r->start_ns;
	r->window = 0;
}

bool rt_records_window_due(const struct rt_records *r, int64_t now_ns)
{
	return now_ns >= r->window_start_ns + r->interval_ns;
}

void rt_records_begin(struct rt_records *r, struct rt_json *j, const char *type)
{
	if (r->mem)
		fclose(r->mem);
	free(r->line);
	r->line = NULL;
	r->mem = open_memstream(&r->line, &r->line_len);
	rt_json_init_compact(j, r->mem ? r->mem : stderr);
	rt_json_object_begin(j, NULL);
	rt_json_string(j, "type", type);
}

int rt_records_end(struct rt_records *r, struct rt_json *j)
{
	const char *p;
	size_t left;
	int err;

	rt_json_object_end(j);
	err = rt_json_finish(j); /* the newline */
	if (!r->mem || fclose(r->mem))
		err = err ? err : -ENOMEM;
	r->mem = NULL;
	if (err)
		return err;
	/* One write(): with O_APPEND a line is whole or absent. */
	for (p = r->line, left = r->line_len; left > 0;) {
		ssize_t n = write(r->fd, p, left);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		p += n;
		left -= (size_t)n;
	}
	return 0;
}

void rt_records_time(const struct rt_records *r, struct rt_json *j, const char *key, int64_t ns)
{
	int64_t wall = rt_time_to_ns(&r->start_wall) + (ns - r->start_ns);
	time_t sec = (time_t)(wall / RT_NSEC_PER_SEC);
	char buf[48], stamp[32];
	struct tm tm;

	gmtime_r(&sec, &tm);
	strftime(stamp, sizeof(stamp), "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(buf, sizeof(buf), "%s.%03dZ", stamp, (int)(wall % RT_NSEC_PER_SEC / 1000000));
	rt_json_string(j, key, buf);
}

void rt_records_window_times(const struct rt_records *r, struct rt_json *j, int64_t end_ns)
{
	rt_json_uint(j, "window", r->window);
	rt_records_time(r, j, "start", r->window_start_ns);
	rt_records_time(r, j, "end", end_ns);
	rt_json_double(j, "start_s", (double)(r->window_start_ns - r->start_ns) / 1e9, 3);
	rt_json_double(j, "end_s", (double)(end_ns - r->start_ns) / 1e9, 3);
}

void rt_records_next_window(struct rt_records *r, int64_t end_ns)
{
	r->window_start_ns = end_ns;
	r->window++;
}

void rt_records_series(struct rt_json *j, const struct rt_stats *s, const struct rt_loghist *h)
{
	rt_json_uint(j, "count", s->count);
	if (rt_stats_empty(s)) {
		rt_json_null(j, "min");
		rt_json_null(j, "avg");
		rt_json_null(j, "max");
	} else {
		rt_json_int(j, "min", s->min);
		rt_json_double(j, "avg", rt_stats_avg(s), 2);
		rt_json_int(j, "max", s->max);
	}
	rt_percentiles_write_json(j, "percentiles", h);
}

int rt_records_sync(struct rt_records *r)
{
	if (fsync(r->fd) == 0 || errno == EINVAL || errno == EROFS)
		return 0;
	return -errno;
}
