/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hwlatdetect --metrics=FILE: the run as a Prometheus text file (format
 * 0.0.4) for node_exporter's textfile collector, replaced whole (lib's
 * rt_output: written beside FILE, fsync'ed, renamed) at the start, every
 * --records-interval and at the end. lib/rt_metrics writes the shared
 * families; one series per CPU (labels tool, cpu, kernel, preempt; no
 * thread: the tracer has one kernel thread):
 *   rt_latency_seconds        histogram of the samples' max(inner, outer)
 *   rt_latency_max_seconds    gauge, once the CPU has a sample
 *   rt_samples_total          counter: samples recorded (each above the threshold)
 *   rt_verdict                gauge at the end, only with --hardlimit
 * and hwlatdetect's own:
 *   rt_hwlat_spikes_total     counter per CPU: "Samples exceeding threshold"
 *   rt_hwlat_threshold_seconds  gauge: tracing_thresh in effect
 * The CPUs of tracing_cpumask have their series (zero) from the start; a
 * sample on another CPU, or one that names none (cpu="any"), adds one.
 */
#ifndef HWLATDETECT_METRICS_H
#define HWLATDETECT_METRICS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "rt_env.h"
#include "rt_loghist.h"
#include "rt_metrics.h"
#include "rt_stats.h"

#include "options.h"
#include "run.h"
#include "sample.h"

struct hwlat_metrics_series {
	int cpu;                   /* -1: the samples named none */
	struct rt_stats stats;     /* max(inner, outer), us */
	struct rt_loghist *hist;   /* the same, NULL until the first sample */
	uint64_t spikes;
};

struct hwlat_metrics {
	const char *path;          /* NULL: no --metrics */
	const char *kernel, *preempt; /* labels (borrowed), NULL: "" */
	int64_t threshold_us;
	int64_t interval_ns, due_ns; /* the next write during the run (CLOCK_MONOTONIC) */
	struct hwlat_metrics_series *series; /* by CPU, rising (-1 first) */
	int n, cap;
	size_t seen;               /* samples of the result taken so far */
	bool counted;              /* spikes from the count fields (the run's first sample has one) */
	int error;                 /* the first failed write, -errno */
};

/* Is cfg->metrics writable (a temporary file beside it, removed)? 0 or -errno. */
int hwlat_metrics_open(struct hwlat_metrics *m, const struct hwlat_config *cfg);

/*
 * The CPUs of cpumask (tracing_cpumask's hex: "3", "2,0000000d") as zero
 * series. 0 or -ENOMEM; a mask that is no hex mask gives none.
 */
int hwlat_metrics_cpus(struct hwlat_metrics *m, const char *cpumask);

/* Count one sample (counted: the run's rule for spikes). 0 or -ENOMEM. */
int hwlat_metrics_add(struct hwlat_metrics *m, const struct hwlat_sample *s, bool counted);

/* The exposition text (verdict: 1 PASS, 0 FAIL, RT_METRICS_NO_VERDICT). 0 or -EIO. */
int hwlat_metrics_write(FILE *f, const struct hwlat_metrics *m, int verdict);

/*
 * The start: the labels, the threshold read back, the series of cpumask;
 * the first file. The error of a write is kept for the end.
 */
void hwlat_metrics_start(struct hwlat_metrics *m, const struct hwlat_config *cfg,
			 const char *cpumask, const struct hwlat_result *res,
			 const struct rt_env *env);

/* During the run: the new samples, and the file when an interval is due. */
void hwlat_metrics_poll(struct hwlat_metrics *m, const struct hwlat_result *res);

/* The end: every sample and the verdict. The first error of the run's writes, 0. */
int hwlat_metrics_finish(struct hwlat_metrics *m, const struct hwlat_result *res, int verdict);

void hwlat_metrics_close(struct hwlat_metrics *m);

#endif
