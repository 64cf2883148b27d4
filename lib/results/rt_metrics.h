/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * --metrics=FILE: the run's results as a Prometheus text exposition file
 * (format 0.0.4), which node_exporter's textfile collector serves while the
 * run goes on. The file is replaced atomically: written whole to
 * FILE.tmp-PID beside it, flushed, fsync'ed and renamed over FILE, so a
 * scraper sees the previous file or the new one, never a part.
 *
 * Per series (a thread, or a pair's receiver), labelled tool, thread (or
 * pair), cpu ("any" when not pinned), kernel (the release) and preempt
 * (the preemption model, "" when unknown):
 *   rt_latency_seconds          histogram: _bucket{le=...}, le="+Inf",
 *                               _sum, _count
 *   rt_latency_max_seconds      gauge (absent before the first sample)
 *   rt_samples_total            counter
 *   rt_overruns_total           counter, where the tool counts overruns
 * per run (labels tool, kernel, preempt):
 *   rt_verdict                  gauge: 1 PASS, 0 FAIL; only at the end of
 *                               a run with --max-* limits
 * per measured CPU (labels tool, cpu, kernel, preempt), where the tool
 * reads the isolation counters (lib/rt_isolation.h):
 *   rt_cpu_interrupts_total, rt_cpu_softirqs_total,
 *   rt_cpu_context_switches_total{kind="voluntary"|"involuntary"}
 *
 * The histogram's bounds are exact: each is an upper bound of a bucket of
 * the lossless histogram (rt_loghist), so every cumulative count is the
 * exact number of samples at or below it. They are the 1-2-5 series from
 * 1 us to 100 ms, each taken down to the largest bucket upper bound not
 * above it (RT_METRICS_NOMINAL_NS, rt_metrics_bounds()). In microseconds
 * (the default unit) that is 1 2 5 10 20 50 100 200 499 999 1999 4991
 * 9983 19967 49919 99839 us; in nanoseconds (cyclictest -N) 999 1999 4991
 * ... ns.
 *
 * Nothing here prints or exits: 0 or -errno.
 */
#ifndef RT_METRICS_H
#define RT_METRICS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "rt_isolation.h"
#include "rt_loghist.h"
#include "rt_percentiles.h"
#include "rt_stats.h"

#define RT_METRICS_NBOUNDS 16
/* The nominal bounds, ns: 1 us .. 100 ms. */
extern const int64_t rt_metrics_nominal_ns[RT_METRICS_NBOUNDS];

/* The exact bounds for a unit of unit_ns ns (1000: us, 1: ns), in that unit, rising. */
void rt_metrics_bounds(int64_t unit_ns, int64_t out[RT_METRICS_NBOUNDS]);

#define RT_METRICS_NO_VERDICT (-1)

/* One series' figures. */
struct rt_metrics_series {
	int id;                          /* thread or pair number; -1: no such label */
	int cpu;                         /* -1: not pinned */
	const struct rt_stats *stats;    /* sum and max (count: the histogram's) */
	const struct rt_loghist *hist;   /* the buckets (count need not be sealed) */
	int64_t overruns;                /* -1: not counted */
};

/* One measured CPU's isolation counts. */
struct rt_metrics_cpu {
	int cpu;
	struct rt_isolation_sums sums;   /* written when known */
};

struct rt_metrics_doc {
	const char *tool;
	const char *series_label;        /* "thread" or "pair" */
	const char *kernel;              /* NULL: "" */
	const char *preempt;             /* NULL: "" */
	int64_t unit_ns;                 /* 1000 (us) or 1 (ns) */
	int verdict;                     /* 1 PASS, 0 FAIL, RT_METRICS_NO_VERDICT */
	const struct rt_metrics_series *series;
	int n;
	const struct rt_metrics_cpu *cpus; /* NULL: the tool has no isolation counts */
	int ncpus;
};

/* The exposition text. 0, or -EIO when f failed. */
int rt_metrics_write(FILE *f, const struct rt_metrics_doc *d);

/*
 * Replace path atomically by the text (see above). 0 or -errno; on error
 * no temporary file is left and path is as it was.
 */
int rt_metrics_write_file(const char *path, const struct rt_metrics_doc *d);

/*
 * Can path be written? Creates and removes the temporary file beside it,
 * for a tool to report an unwritable directory before the run. 0 or -errno.
 */
int rt_metrics_check_path(const char *path);

/*
 * What a tool keeps between two writes during a run: every closed window
 * added up (the measuring threads' windows, read by the main thread), so
 * that each write has the exact counts of the windows closed so far.
 */
struct rt_metrics_acc_series {
	struct rt_stats stats;
	struct rt_loghist hist;
	uint64_t overruns;
};

struct rt_metrics_set {
	char *path;
	struct rt_metrics_doc doc;       /* labels, unit; series and cpus point below */
	struct rt_metrics_acc_series *acc;
	struct rt_metrics_series *series;
	struct rt_metrics_cpu *cpus;
	int ncpus_max;
	bool overruns;
	int error;                       /* the first error of a write */
};

/*
 * For n series on cpu[i] (-1 not pinned), the labels in doc (copied; its
 * series, n, cpus ignored). Nothing is written yet. 0 or -errno.
 */
int rt_metrics_set_open(struct rt_metrics_set *m, const char *path, const struct rt_metrics_doc *doc,
			int n, const int *cpu, bool overruns);
void rt_metrics_set_close(struct rt_metrics_set *m);

/* Set the kernel and preemption labels (copied) once they are known. 0 or -ENOMEM. */
int rt_metrics_set_labels(struct rt_metrics_set *m, const char *kernel, const char *preempt);

/* A closed window of series k: its statistics and sealed histogram, the overruns in it. */
void rt_metrics_set_add(struct rt_metrics_set *m, int k, const struct rt_stats *s,
			const struct rt_loghist *h, uint64_t overruns);

/*
 * Write the file from the windows so far; iso (NULL: none) has just marked
 * a window, whose counts are added to the CPUs' so far.
 */
int rt_metrics_set_flush(struct rt_metrics_set *m, const struct rt_isolation *iso);

/*
 * The end: the file from the whole-run series (their histograms: NULL
 * written as empty), the verdict (RT_METRICS_NO_VERDICT: none) and iso's
 * run counts. Returns the first error of the run's writes, 0 if none.
 */
int rt_metrics_set_finish(struct rt_metrics_set *m, const struct rt_series *series, int verdict,
			  const struct rt_isolation *iso);

#endif
