/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The polling threads. Each reads the clock (the TSC where there is one)
 * in a tight loop and counts the gap since the previous read in its 1-us
 * bucket. The loop does per sample: the clock read, a subtraction, one
 * compare against a window [lo, lo + span) of ordinary gaps, a multiply
 * and shift for the bucket index and an increment. Everything else (a new
 * minimum or maximum, an overflow, -T, --analyze, the phase change and the
 * stop) lives behind that compare, in the slow path: the main thread
 * forces a thread into it by setting its span to 0.
 */
#ifndef OSLAT_MEASURE_H
#define OSLAT_MEASURE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "rt_loghist.h"
#include "rt_trace.h"
#include "rt_worker.h"

#include "options.h"

/* 2^OSLAT_MULT_SHIFT / MHz: floor(cycles / MHz) as a multiply and a shift. */
#define OSLAT_MULT_SHIFT 40
/* Each preheater measures the clock's frequency across a sleep this long. */
#define OSLAT_CALIBRATE_NS (20 * 1000 * 1000L)

enum oslat_phase {
	OSLAT_PHASE_PREHEAT,  /* preheaters poll for the minimum and the frequency */
	OSLAT_PHASE_SETTLE,   /* main computes the frequency and the bias */
	OSLAT_PHASE_TEST,     /* everyone measures */
};

struct oslat_run;

/* --analyze: the thread's worst gap noted since main last took one. */
struct oslat_note {
	_Atomic uint32_t seq;   /* odd while the thread writes */
	_Atomic bool pending;
	int64_t gap_us;         /* the gap's label (us) */
	int64_t end_ns;         /* CLOCK_MONOTONIC when the gap was seen */
	int64_t gap_ns;
	int cpu;
};

struct oslat_thread {
	/* set before the start (main), read-only in the test */
	int index;
	int cpu;
	bool preheater;
	const struct oslat_config *cfg;
	struct oslat_run *run;
	void *src, *dst;            /* -w memmove buffers */

	/* the thread's hot data */
	_Alignas(64) _Atomic uint64_t span; /* main sets 0: take the slow path */
	uint64_t lo_c;              /* smallest ordinary gap (cycles) */
	uint64_t mult;              /* 2^OSLAT_MULT_SHIFT / mhz, rounded up */
	_Atomic uint64_t *buckets;  /* cfg->buckets counters; the last: overflows */
	/* the slow path's */
	uint64_t min_c, max_c;      /* smallest and largest gap of the phase */
	uint64_t ovf_c;             /* gaps from here on overflow (cycles) */
	uint64_t trace_c;           /* -T: gaps from here on stop the test, or max */
	uint64_t analyze_c;         /* --analyze: gaps from here on are noted, or max */
	uint64_t ovf_extra_us;      /* overflowing gaps' labels beyond the last bucket's */
	struct rt_loghist *ovf_hist; /* overflowing gaps' labels (us) */
	_Atomic uint64_t ovf_count; /* how many there were (for the live reader) */
	int64_t ovf_max_us;
	uint64_t start_c, end_c;    /* the test's first and last clock read */
	uint64_t pre_start_c;       /* pre-heat: the first clock read */
	uint64_t pre_min_c;         /* smallest gap of the pre-heat */
	uint32_t mhz;               /* measured (or given by main with -s) */
	bool tested;                /* reached the test phase */
	int64_t trace_hit_us;       /* -T: the gap that stopped the test, 0 = none */
	struct oslat_note note;
	int error;
	const char *error_what;
	_Atomic pid_t tid;
	int ran_policy;
};

struct oslat_run {
	struct rt_workers *workers;
	_Atomic int phase;
	_Atomic int preheated;       /* preheaters done with the pre-heat */
	int nthreads;
	int bias_us;                 /* -B: added to the bucket labels */
	struct rt_trace trace;       /* -T */
	_Atomic int trace_err;
	struct oslat_thread *threads; /* 64-byte aligned */
};

/* The clock the threads read: the TSC on x86, else CLOCK_MONOTONIC in ns. */
uint64_t oslat_clock(void);

/* Thread entry point. */
void *oslat_measure(void *arg);

/* A gap in cycles as 2.4's label (us, 1-based) at mhz. */
static inline int64_t oslat_label_us(uint64_t cycles, uint32_t mhz)
{
	return (int64_t)(cycles / mhz) + 1;
}

/* Main: make thread t take its slow path at its next sample. */
static inline void oslat_kick(struct oslat_thread *t)
{
	atomic_thread_fence(memory_order_seq_cst);
	atomic_store_explicit(&t->span, 0, memory_order_relaxed);
}

#endif
