/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * One cyclictest run's state, private to lib/cyclic, which the steps of
 * cyclictest_run() share: set-up (rt_cyclic_setup.h), the threads
 * (rt_cyclic_threads.h), the main thread's loop (rt_cyclic_loop.h) and the
 * results after the join (rt_cyclic_results.h). The steps print their own
 * messages and return an exit code, as cyclictest_run() does.
 */
#ifndef RT_CYCLIC_CTX_H
#define RT_CYCLIC_CTX_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "rt_env.h"
#include "rt_isolation.h"
#include "rt_metrics.h"
#include "rt_output.h"
#include "rt_records.h"
#include "rt_report.h"
#include "rt_stats.h"
#include "rt_verdict.h"

#include "rt_cyclic_analyze.h"
#include "rt_cyclic_config.h"
#include "rt_cyclic_front.h"
#include "rt_cyclic_measure.h"
#include "rt_cyclic_status.h"

/* Everything one run owns; torn down in one place. */
struct ct_ctx {
	const struct cyclictest_config *cfg;
	const struct rt_report *rep;
	struct ct_run run;
	struct ct_status status;
	struct rt_output json_out, hist_out;
	struct rt_series *series;     /* after the join: one per thread */
	struct rt_verdict verdict;    /* always (the JSON's); judged: asked (--max-*, --verdict) */
	bool judged;
	int stop_signal;              /* what ended the main loop, 0: the run itself */
	int64_t stopped_ns;           /* when, in cfg->clock */
	struct ct_analysis analysis;  /* --analyze */
	struct rt_env env;            /* the machine: preflight before, the rest after */
	struct rt_env_run how;        /* what the run does about it */
	struct rt_isolation *iso;     /* its counters: JSON, records, --isolation */
	struct rt_records_set records; /* --records */
	struct rt_window **windows;   /* each thread's, for the records */
	struct rt_metrics_set metrics; /* --metrics */
	bool metrics_open;
	bool json_open, hist_open;
	int dma_fd;
	sigset_t signals;
};

#endif
