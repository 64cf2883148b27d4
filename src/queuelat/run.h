/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The simulated queue: a measuring thread (at the caller's policy, as 2.4
 * meant it to run under chrt) calibrates a memmove block to take about half
 * the latency limit, then loops: each block drains nr_packets_drain_per_block
 * packets while packets arrive at -p Mpps for as long as the block took. The
 * run ends when the queue holds more than max_queue_len packets (the last
 * one would wait longer than -m), at the timeout or on a signal.
 */
#ifndef QUEUELAT_RUN_H
#define QUEUELAT_RUN_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "options.h"

#define QL_BUCKET_NS 100
#define QL_NBUCKETS 700            /* 0 .. 69999 ns; counts[QL_NBUCKETS] is [70000 - END] */
#define QL_START_BYTES 100000      /* 2.4's first memmove size */
#define QL_MAX_BYTES (16u << 20)   /* largest memmove block */
#define QL_CALIB_TOLERANCE_NS 200  /* 2.4: the most frequent duration within 200 ns (or 5 %) */
#define QL_WARMUP_BLOCKS 10        /* uncounted blocks before the queue starts */

struct ql_hist {
	uint64_t counts[QL_NBUCKETS + 1];
};

/* What the configuration implies (2.4's arithmetic). */
struct ql_model {
	double tsc_freq_ghz;
	double cycles_to_ns;
	double packet_ns;          /* cycles x cycles_to_ns */
	int64_t max_queue_len;     /* packets processed within -m */
	int64_t drain_per_block;   /* packets processed within -m / 2 */
	int64_t target_ns;         /* -m / 2: the memmove block's duration */
};

void ql_model_init(struct ql_model *m, const struct queuelat_config *cfg);
/* The packets arriving at mpps within ns (2.4 truncates). */
int64_t ql_arrivals(int64_t ns, double mpps);
void ql_hist_add(struct ql_hist *h, int64_t ns);
uint64_t ql_hist_total(const struct ql_hist *h);

struct ql_result {
	struct ql_hist calib;      /* the last calibration round */
	struct ql_hist main;       /* the queue's blocks */
	bool calibrated;
	bool calib_limited;        /* QL_MAX_BYTES took less than target_ns */
	int64_t calib_mode_ns;     /* the calibrated block's most frequent duration */
	size_t block_bytes;        /* 2.4's default_n */
	int64_t drain_per_block;   /* as used (the model's, or the limited block's) */
	uint64_t blocks;
	int64_t max_queue_size;
	bool exceeded;
	int64_t queue_size, queue_dec, queue_inc, delta_ns; /* the block that exceeded */
	int stop_signal;           /* what stopped it, 0 = exceeded or timeout */
	bool timed_out;
	int policy;                /* the measuring thread's, -1 = never ran */
	int error;                 /* -errno: the run could not start */
	int64_t start_ns, elapsed_ns; /* CLOCK_MONOTONIC: the run, calibration included */
};

/* Called in the measuring thread once calibrated, before the queue starts. */
typedef void (*ql_calibrated_fn)(void *ctx, const struct ql_result *res);

/*
 * Run until exceeded, cfg->timeout_s, or SIGINT, SIGTERM, SIGHUP or SIGALRM
 * (the measuring thread takes them; the caller blocks them in its own
 * threads). marker_fd: trace_marker or -1. Returns 0 or -errno (res->error).
 */
int ql_run(const struct queuelat_config *cfg, const struct ql_model *m, int marker_fd,
	   struct ql_result *res, ql_calibrated_fn done, void *ctx);

#endif
