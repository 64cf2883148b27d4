/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The model of latency distributions: one curve (its histogram's bins) per
 * thread, and what the plot and the HTML report need of the file they came
 * from; the percentiles and intervals a curve gives. Read from the inputs by
 * curves_load.c.
 */
#ifndef RLR_CURVES_H
#define RLR_CURVES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Samples with a latency in [low, high). */
struct rlr_bin {
	int64_t low, high;
	uint64_t count;
};

struct rlr_curve {
	int thread;
	int cpu;               /* -1: not known or not pinned */
	bool has_max;
	int64_t max;           /* the run's max, even beyond the histogram */
	uint64_t overflow;     /* samples beyond a 2.4 histogram's range */
	size_t nbins;
	struct rlr_bin *bin;   /* ascending, non-empty bins only */
};

/* Where a result came from (a merge has one per input). */
struct rlr_origin {
	char host[72];
	char kernel[72];
};

struct rlr_plotfile {
	const char *path;
	bool text;             /* histogram text rather than JSON */
	bool ns;               /* latencies in ns (-N) */
	char cmdline[160];     /* "" when not known */
	char preemption[48];   /* "" when not known */
	bool has_duration;
	int64_t duration_s;    /* measured: end - start without the warm-up */
	int64_t warmup_s;      /* --warmup of the command line, 0 = none */
	bool merged;
	bool partial;          /* stopped early or killed: "partial": true */
	int norigins;
	struct rlr_origin *origin;
	int ncurves;
	struct rlr_curve *curve;
};

/*
 * The nearest-rank percentile (permyriad as rt_loghist's) of the curve's
 * samples, the bin's highest value capped at the max: false when there are
 * none or the rank falls among the samples beyond the histogram.
 */
bool rlr_curve_percentile(const struct rlr_curve *c, uint32_t permyriad, int64_t *v);

/*
 * That percentile's 95 % interval (rt_quantile_ci ranks l, u): *low the
 * lowest value of the bin of rank l (0 when l is 0), *high the highest of
 * the bin of rank u capped at the max, as rt_loghist_pct_ci(); *has_high
 * false when rank u is beyond the samples or among those beyond the
 * histogram. False when the percentile itself is not known.
 */
bool rlr_curve_ci(const struct rlr_curve *c, uint32_t permyriad, int64_t *low, int64_t *high,
		  bool *has_high);

/* The curve's samples (bins and overflow): false beyond INT64_MAX. */
bool rlr_curve_total(const struct rlr_curve *c, uint64_t *total);

/*
 * sum += c: bins, overflow and max (for the percentiles of all threads);
 * both have their bins rising by low, as every loader builds them. 0,
 * -EOVERFLOW (the samples add up beyond INT64_MAX) or -ENOMEM.
 */
int rlr_curve_add(struct rlr_curve *sum, const struct rlr_curve *c);

/* Frees what rlr_plotfile_load() (curves_load.h) allocated. */
void rlr_plotfile_free(struct rlr_plotfile *f);

#endif
