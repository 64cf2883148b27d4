/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hwlat samples: the lines the hwlat tracer writes to trace_pipe, parsed
 * without trusting them, and what the report says about them. Pure logic.
 *
 *   <...>-1234 [001] d... 100.000001: #1 inner/outer(us): 12/11 ts:1764624000.000001000 count:3
 */
#ifndef HWLATDETECT_SAMPLE_H
#define HWLATDETECT_SAMPLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define HWLAT_TS_MAX 32

struct hwlat_sample {
	char ts[HWLAT_TS_MAX]; /* "sec.nsec" as the kernel wrote it */
	int64_t ts_sec, ts_nsec;
	int64_t inner_us, outer_us;
	int cpu;               /* -1: not in the line */
	int64_t count;         /* spikes in the window (newer kernels), -1: not in the line */
};

/* Parse one line (with or without its newline). 0, or -EINVAL when it is no hwlat sample. */
int hwlat_sample_parse(const char *line, struct hwlat_sample *s);

/* The larger of inner and outer. */
int64_t hwlat_sample_max(const struct hwlat_sample *s);

/* 2.4's report line: "ts: 1764624000.000001000, inner:12, outer:11" (no newline). */
void hwlat_sample_format(const struct hwlat_sample *s, char *buf, size_t len);

struct hwlat_summary {
	uint64_t samples;    /* lines recorded */
	uint64_t spikes;     /* the sum of their counts, or samples where the kernel gives none */
	int64_t max_us;      /* 0 when there is none (2.4's "Below threshold") */
	bool has_mtbf;
	double mtbf_s;       /* mean time between spikes */
};

/*
 * Sum up n samples in arrival order as a later rt-tests does: spikes are
 * the count fields' sum when the first sample has one; with more than one
 * spike and width_us > 0, the mean time between them is the time from the
 * first sample to the last, scaled by window/width (the tracer samples
 * width_us of every window_us), over spikes - 1.
 */
void hwlat_summarize(const struct hwlat_sample *s, size_t n, int64_t window_us, int64_t width_us,
		     struct hwlat_summary *out);

#endif
