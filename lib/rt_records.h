/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * --records=FILE: newline-delimited JSON appended while a run lasts, so that
 * a run of days leaves its results even when it is killed. A "run" line
 * first, then per window one "window" line per series, then a "total" line
 * when the run ends (also by SIGINT/SIGTERM). Every line is one write() to
 * an O_APPEND file, and the file is fsync'ed after each window: after
 * SIGKILL or a power cut every line is whole and at most the open window
 * is lost. Written by the main thread only.
 */
#ifndef RT_RECORDS_H
#define RT_RECORDS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include "rt_env.h"
#include "rt_json.h"
#include "rt_loghist.h"
#include "rt_percentiles.h"
#include "rt_stats.h"
#include "rt_window.h"

#define RT_RECORDS_DEFAULT_INTERVAL_S 60

struct rt_records {
	int fd;
	int64_t interval_ns;
	int64_t start_ns;        /* CLOCK_MONOTONIC at the start */
	struct timespec start_wall;
	int64_t window_start_ns; /* of the open window */
	uint64_t window;         /* its number, from 0 */
	int failed;              /* the first failed write: no more are tried */
	char *line;              /* the line being built */
	size_t line_len;
	FILE *mem;
};

/* Open path for appending ("-": standard output). 0 or -errno. */
int rt_records_open(struct rt_records *r, const char *path, uint64_t interval_s);
void rt_records_close(struct rt_records *r);

/* The run starts now: the first window opens. */
void rt_records_start(struct rt_records *r);

/* True when the open window has ended by now (CLOCK_MONOTONIC ns). */
bool rt_records_window_due(const struct rt_records *r, int64_t now_ns);

/* Begin a line of the given type: a compact JSON object with "type". */
void rt_records_begin(struct rt_records *r, struct rt_json *j, const char *type);
/*
 * End the line and write it whole. 0 or -errno; after a failed write (a
 * reader gone, a full disk) no later line is written, and each returns that
 * first error.
 */
int rt_records_end(struct rt_records *r, struct rt_json *j);

/*
 * Window members: "window", "start"/"end" (UTC, ISO 8601) and
 * "start_s"/"end_s" (seconds since the start), for the open window ending
 * at end_ns; rt_records_next_window() then opens the next one.
 */
void rt_records_window_times(const struct rt_records *r, struct rt_json *j, int64_t end_ns);
void rt_records_next_window(struct rt_records *r, int64_t end_ns);

/* "count", "min", "avg", "max" (null without samples) and "percentiles". */
void rt_records_series(struct rt_json *j, const struct rt_stats *s, const struct rt_loghist *h);

/* "key": UTC ISO 8601 of a CLOCK_MONOTONIC time of this run. */
void rt_records_time(const struct rt_records *r, struct rt_json *j, const char *key, int64_t ns);

/* fsync after a window (not an error on a pipe or a terminal). 0 or -errno. */
int rt_records_sync(struct rt_records *r);

/*
 * A tool's records over n series (threads, or pairs' receivers), each with
 * its window (NULL: a series that never started): what the main thread
 * does at the start, at every tick and at the end.
 */
struct rt_records_set {
	struct rt_records rec;
	bool open;
	int n;
	bool overruns;            /* the tool counts overruns */
	bool pending;             /* halves switched, waiting for the threads to leave */
	unsigned cur;             /* the half the threads add to */
	unsigned old;             /* the half to read when pending */
	int64_t pending_end_ns;   /* the end of that window */
	uint64_t *overruns_seen;  /* per series: its overrun count at the last window */
	int error;                /* the first write error */
};

/* Before the measurement: open path (error printed). 0 or 1 (RT_EXIT_FAILURE). */
int rt_records_set_open(struct rt_records_set *s, const char *path, uint64_t interval_s, int n,
			bool overruns);

/* What the run line says beyond the environment. */
struct rt_records_run {
	const char *tool;
	const char *cmdline;
	const char *unit;          /* "us" or "ns" */
	uint64_t interval_s;
};

/* The series are about to start: the first window opens, the run line is written. */
void rt_records_set_start(struct rt_records_set *s, const struct rt_records_run *run,
			  const struct rt_env *env);

/* Main thread, at every tick: close a window that is due. w: the n windows. */
void rt_records_set_poll(struct rt_records_set *s, struct rt_window *const *w);

/*
 * After every series has ended: the last (partial) window and the totals
 * (series[i]: its whole-run results). 0, or 1 after printing a write error.
 */
int rt_records_set_finish(struct rt_records_set *s, struct rt_window *const *w,
			  const struct rt_series *series, const char *path);

void rt_records_set_close(struct rt_records_set *s);

#endif
