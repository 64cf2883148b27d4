/* SPDX-License-Identifier: GPL-2.0-or-later */
/* oslat's configuration: filled by a parser without side effects. */
#ifndef OSLAT_OPTIONS_H
#define OSLAT_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>

#include "rt_affinity.h"
#include "rt_cli.h"

#define OSLAT_MIN_BUCKETS 4
#define OSLAT_MAX_BUCKETS 1024
#define OSLAT_MAX_WORKLOAD_BYTES (1024LL * 1024 * 1024) /* -m: 1 GiB per buffer */
#define OSLAT_PREHEAT_S 1

enum oslat_workload {
	OSLAT_WORKLOAD_NO,
	OSLAT_WORKLOAD_MEMMOVE,
};

struct oslat_config {
	int64_t buckets;           /* -b: 1-us buckets, the last one holds the overflows */
	bool bias;                 /* -B */
	bool cpus_given;           /* -c */
	struct rt_cpulist cpus;    /* -c, or every allowed CPU */
	int main_cpu;              /* -C, -1 = default (CPU 0 when allowed) */
	uint64_t duration_s;       /* -D, default 1 */
	int rtprio;                /* -f: SCHED_FIFO priority, 0 = SCHED_OTHER */
	const char *json;          /* --json, "-" = stdout */
	uint64_t workload_bytes;   /* -m: bytes per buffer, default 16 KiB */
	enum oslat_workload workload; /* -w */
	bool quiet;                /* -q */
	bool single_preheat;       /* -s */
	int64_t trace_threshold_us; /* -T, 0 = off */
	bool zero_omit;            /* -z */
	bool analyze;              /* --analyze */
	int64_t analyze_us;        /* its threshold: a gap of at least this many us */
	struct rt_cli_results results; /* --max-*, --percentiles, --records, --preflight */
};

void oslat_config_init(struct oslat_config *cfg);

/*
 * Parse argv into cfg. On a usage error prints the one-line message and
 * returns RT_EXIT_USAGE; returns -1 after --help or --version were printed
 * (exit 0); else 0. Cross-option rules and the CPUs are checked too.
 */
int oslat_parse_args(struct oslat_config *cfg, int argc, char *argv[]);

/* "16K", "1m", "4096" (bytes) ... into bytes; 0 or -EINVAL / -ERANGE. */
int oslat_parse_size(const char *s, uint64_t max, uint64_t *bytes);

#endif
