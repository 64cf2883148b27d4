/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * --records=FILE: newline-delimited JSON appended while a run lasts, so that
 * a run of days leaves its results even when it is killed. A "run" line
 * first, then per window one "window" line per series (with the window's
 * lossless histogram, so that windows add up exactly), then a "total" line
 * when the run ends (also by SIGINT/SIGTERM). Written by the main thread
 * only, never by a measuring thread.
 *
 * What a reader may rely on, and no more:
 * - the lines are never interleaved: one writer, and each line is built
 *   whole in memory and handed to write() in one call on an O_APPEND file;
 * - a write() that writes only part of a line (a signal, a full disk) is
 *   continued until the whole line is written; if it then fails, nothing
 *   more is written to the file, so only the LAST line can be torn (cut
 *   short, without its newline): after SIGKILL, a power cut or a failed
 *   write, a reader takes every line ending in a newline and ignores a
 *   last line without one;
 * - the file is fsync'ed after each window's lines: at most the open
 *   window is lost;
 * - window w of a run covers [start_s, end_s) seconds after the
 *   measurement started (after --warmup), with start_s and end_s exact
 *   multiples of the interval, except the last window, which ends when the
 *   run ends. A sample counts in the window the main thread sees it in, at
 *   most one poll of the main thread after the boundary.
 *
 * Every function returns 0 or -errno and prints nothing: the tool reports.
 */
#ifndef RT_RECORDS_H
#define RT_RECORDS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include "rt_env.h"
#include "rt_isolation.h"
#include "rt_json.h"
#include "rt_loghist.h"
#include "rt_metrics.h"
#include "rt_percentiles.h"
#include "rt_stats.h"
#include "rt_window.h"

#define RT_RECORDS_DEFAULT_INTERVAL_S 60

struct rt_records {
	int fd;
	int64_t interval_ns;
	int64_t start_ns;        /* CLOCK_MONOTONIC when the measurement starts */
	struct timespec start_wall; /* CLOCK_REALTIME at the same moment */
	int64_t window_start_ns; /* of the open window */
	uint64_t window;         /* its number, from 0 */
	FILE *mem;               /* the line being built (a memory stream) */
	char *line;
	size_t line_size;
	int error;               /* the first error: nothing is written after it */
};

/*
 * Open path for appending. "-": standard output, which the records then
 * have to themselves: whatever else the process writes to standard output
 * from now on goes to standard error (stdout is flushed, and fd 1 becomes
 * a copy of fd 2), so that a reader of the pipe sees NDJSON only.
 * 0 or -errno.
 */
int rt_records_open(struct rt_records *r, const char *path, uint64_t interval_s);
void rt_records_close(struct rt_records *r);

/* The measurement starts delay_ns from now: the first window opens then. */
void rt_records_start(struct rt_records *r, int64_t delay_ns);

/*
 * The end of the open window if one is due by now (CLOCK_MONOTONIC ns):
 * the window's start plus the whole intervals that have passed since, so a
 * late poll gives a longer window, never a boundary off the grid; -1 when
 * none is due.
 */
int64_t rt_records_window_due(const struct rt_records *r, int64_t now_ns);

/* Begin a line of the given type: a compact JSON object with "type". */
void rt_records_begin(struct rt_records *r, struct rt_json *j, const char *type);
/* End the line and write it whole (nothing after an earlier error). 0 or -errno. */
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
	struct rt_loghist *empty; /* the histogram of a series that never started */
	struct rt_isolation *iso; /* NULL, or an "isolation" line per window */
	bool file;                /* --records: the lines are written */
	struct rt_metrics_set *metrics; /* --metrics: the windows added up, written per window */
};

/* Before the measurement: open path (nothing printed). 0 or -errno. */
int rt_records_set_open(struct rt_records_set *s, const char *path, uint64_t interval_s, int n,
			bool overruns);

/* What the run line says beyond the environment. */
struct rt_records_run {
	const char *tool;
	const char *cmdline;
	const char *unit;          /* "us" or "ns" */
	uint64_t interval_s;
	uint64_t warmup_s;         /* --warmup: the first window opens after it */
};

/*
 * The series are about to start: the run line is written, the first window
 * opens when the warm-up has passed. 0 or -errno (also kept for finish).
 */
int rt_records_set_start(struct rt_records_set *s, const struct rt_records_run *run,
			 const struct rt_env *env);

/* Main thread, at every tick: close a window that is due. w: the n windows. */
void rt_records_set_poll(struct rt_records_set *s, struct rt_window *const *w);

/*
 * After every series has ended: the last (partial) window and the totals
 * (series[i]: its whole-run results). 0, or the first error of the run
 * (-errno) for the tool to report.
 */
int rt_records_set_finish(struct rt_records_set *s, struct rt_window *const *w,
			  const struct rt_series *series);

void rt_records_set_close(struct rt_records_set *s);

/*
 * --metrics, after rt_records_set_open() (with or without its file): every
 * window is added to m, whose file is rewritten after each window but the
 * last (the tool writes the end's with rt_metrics_set_finish(), after its
 * verdict). Without --records the windows are kept all the same, of
 * interval_s. 0 or -ENOMEM.
 */
int rt_records_set_metrics(struct rt_records_set *s, struct rt_metrics_set *m, uint64_t interval_s,
			   int n, bool overruns);

/*
 * After rt_isolation_start(): at every window boundary the main thread
 * marks iso, and an "isolation" line (window, times, and the window's
 * "isolation" object) follows each window's lines; the total line has the
 * run's. The last window's comes from rt_isolation_end(), which the tool
 * calls before rt_records_set_finish().
 */
void rt_records_set_isolation(struct rt_records_set *s, struct rt_isolation *iso);

#endif
