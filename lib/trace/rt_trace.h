/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ftrace control through tracefs: find it (/proc/mounts, /sys/kernel/tracing,
 * then the debugfs path), mount it when absent, write trace markers and stop
 * the trace when a latency threshold is hit.
 */
#ifndef RT_TRACE_H
#define RT_TRACE_H

#include <limits.h>
#include <stddef.h>

struct rt_trace {
	char dir[PATH_MAX]; /* tracefs directory */
	int marker_fd;      /* trace_marker, or -1 */
	int on_fd;          /* tracing_on, or -1 */
};

/* Find the tracefs directory, mounting tracefs if allowed. 0 or -errno. */
int rt_trace_find(char *dir, size_t len);

/* Find tracefs and open trace_marker and tracing_on. 0 or -errno. */
int rt_trace_open(struct rt_trace *t);

/* Write one marker line. 0 or -errno. Usable from a measurement thread. */
int rt_trace_mark(struct rt_trace *t, const char *msg);

/* Write 0 to tracing_on (freeze the trace for inspection). 0 or -errno. */
int rt_trace_stop(struct rt_trace *t);

/* Read tracing_on: 1, 0, or -errno. */
int rt_trace_is_on(const struct rt_trace *t);

void rt_trace_close(struct rt_trace *t);

#endif
