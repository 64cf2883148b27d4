/* SPDX-License-Identifier: GPL-2.0-or-later */
/* hwlatdetect's configuration: filled by a parser without side effects. */
#ifndef HWLATDETECT_OPTIONS_H
#define HWLATDETECT_OPTIONS_H

#include <sched.h>
#include <stdbool.h>
#include <stdint.h>

#include "rt_cli.h"

#define HWLAT_DEFAULT_DURATION_S 120 /* 2.4's default */
/* The largest time value accepted (threshold, hardlimit, window, width): an hour. */
#define HWLAT_MAX_US (3600LL * 1000000)
/* tracing_cpumask is written for CPUs below this. */
#define HWLAT_MAX_CPUS 4096

struct hwlat_config {
	uint64_t duration_s;    /* --duration */
	int64_t threshold_us;   /* --threshold, -1: keep tracing_thresh */
	int64_t hardlimit_us;   /* --hardlimit, -1: the threshold read back */
	int64_t window_us;      /* --window, -1: keep */
	int64_t width_us;       /* --width, -1: keep */
	const char *report;     /* --report FILE, NULL: none */
	const char *cpu_list;   /* --cpu-list as given, NULL: keep tracing_cpumask */
	char cpumask[HWLAT_MAX_CPUS / 4 + HWLAT_MAX_CPUS / 32 + 1]; /* its hex mask */
	int max_cpu;            /* the highest CPU of --cpu-list */
	bool debug;             /* --debug (unless --quiet) */
	bool quiet;             /* --quiet: nothing on stdout */
	bool watch;             /* --watch */
	struct rt_cli_common common; /* --json, --preflight, --no-preflight, --verdict */
	/* beyond 2.4 */
	const char *records;    /* --records FILE */
	uint64_t records_interval_s; /* of --records and --metrics */
	bool records_interval_given;
	const char *metrics;    /* --metrics FILE: Prometheus text, replaced every interval */
};

/* 0, RT_EXIT_USAGE, or -1 after --help/--version (exit 0). */
int hwlat_parse_args(struct hwlat_config *cfg, int argc, char *argv[]);

/*
 * 2.4's --duration: N, or N followed by s, m, h, d or w, at most 3650 days
 * and at least 1 s. 0 or -EINVAL / -ERANGE.
 */
int hwlat_parse_seconds(const char *s, uint64_t *seconds);

/* 2.4's microsecond values: N, Nus, Nms or Ns, in 0..max_us. 0 or -EINVAL / -ERANGE. */
int hwlat_parse_us(const char *s, int64_t max_us, int64_t *us);

/*
 * 2.4's --cpu-list: N, N-M and commas, CPUs below HWLAT_MAX_CPUS, into the
 * hex mask tracing_cpumask takes ("2", "ffffffff,00000001": comma every 32
 * bits, as the kernel prints it). 0 or -EINVAL / -ERANGE / -EDOM (descending).
 */
int hwlat_parse_cpulist(const char *s, char *mask, size_t len, int *max_cpu);

#endif
