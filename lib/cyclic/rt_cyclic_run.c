// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cyclictest_run(): one measurement from set-up to report, in the order the
 * steps of rt_cyclic_ctx.h take, and what starts once the threads wait at
 * the gate (the isolation counters, --metrics, --records, a front's lines).
 */
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rt_cyclic_run.h"

#include "rt_affinity.h"
#include "rt_cli.h"
#include "rt_isolation.h"
#include "rt_metrics.h"
#include "rt_prog.h"
#include "rt_records.h"

#include "rt_cyclic_analyze.h"
#include "rt_cyclic_loop.h"
#include "rt_cyclic_results.h"
#include "rt_cyclic_setup.h"
#include "rt_cyclic_status.h"
#include "rt_cyclic_threads.h"


static void print_verbose_header(struct ct_ctx *c)
{
	for (int i = 0; i < c->run.nthreads; i++) {
		printf("Thread %d Interval: %" PRId64 "\n", i, c->run.threads[i].interval_ns / 1000);
		if (c->run.threads[i].cpu >= 0)
			printf("Thread %d using cpu %d.\n", i, c->run.threads[i].cpu);
	}
}

/* The threads wait at the gate: the isolation counters' start (main thread). */
static void start_isolation(struct ct_ctx *c)
{
	int err = 0;

	for (int i = 0; c->iso && !err && i < c->run.nthreads; i++)
		err = rt_isolation_add_thread(c->iso, getpid(), atomic_load(&c->run.threads[i].ws.tid),
					      c->run.threads[i].cpu);
	if (c->iso && (err || (err = rt_isolation_start(c->iso)))) {
		fprintf(stderr, "WARN: no isolation counters: %s\n", strerror(-err));
		rt_isolation_free(c->iso);
		c->iso = NULL;
	}
	rt_records_set_isolation(&c->records, c->iso);
}

/* --metrics: the series and labels known, the file's first version (no sample yet). */
static int start_metrics(struct ct_ctx *c)
{
	const struct cyclictest_config *cfg = c->cfg;
	const struct rt_metrics_doc doc = {
		.tool = cfg->front ? cfg->front->tool : "cyclictest",
		.series_label = "thread",
		.unit_ns = cfg->nsecs ? 1 : 1000,
	};
	int n = c->run.nthreads, err;
	int *cpus = calloc((size_t)n, sizeof(*cpus));

	if (!cfg->results.metrics) {
		free(cpus);
		return 0;
	}
	for (int i = 0; cpus && i < n; i++)
		cpus[i] = c->run.threads[i].cpu;
	err = cpus ? rt_metrics_set_open(&c->metrics, cfg->results.metrics, &doc, n, cpus, true)
		   : -ENOMEM;
	free(cpus);
	if (!err) {
		c->metrics_open = true;
		err = rt_metrics_set_labels(&c->metrics, c->env.release, c->env.preempt_model);
	}
	if (!err)
		err = rt_records_set_metrics(&c->records, &c->metrics,
					     cfg->results.records_interval_s, n, true);
	if (!err)
		err = rt_metrics_set_flush(&c->metrics, NULL);
	if (err) {
		rt_prog_error_errno(-err, "cannot write --metrics file '%s'", cfg->results.metrics);
		return RT_EXIT_FAILURE;
	}
	return 0;
}

/* The threads are set up (their windows allocated): the records begin. */
static void start_records(struct ct_ctx *c)
{
	const struct cyclictest_config *cfg = c->cfg;
	const struct rt_records_run run = {
		.tool = cfg->front ? cfg->front->tool : "cyclictest",
		.cmdline = c->rep->cmdline,
		.unit = cfg->nsecs ? "ns" : "us",
		.interval_s = cfg->results.records_interval_s,
		.warmup_s = cfg->results.warmup_s,
	};

	for (int i = 0; i < c->run.nthreads; i++)
		c->windows[i] = c->run.threads[i].ws.window;
	/* An error is reported at the end: the run goes on. */
	rt_records_set_start(&c->records, &run, &c->env);
}

/*
 * Another program's front: a thread that failed its set-up ends the run
 * before the gate opens, with that program's one line; otherwise it prints
 * what it prints once every thread is ready.
 */
static int front_started(struct ct_ctx *c)
{
	const struct cyclictest_front *front = c->cfg->front;
	struct ct_run *run = &c->run;

	for (int i = 0; i < run->nthreads; i++) {
		const struct ct_thread *t = &run->threads[i];

		if (t->ws.error && front->setup_failed) {
			front->setup_failed(run, t);
			return RT_EXIT_FAILURE;
		}
	}
	if (front->started)
		front->started(run);
	return 0;
}

int cyclictest_run(const struct cyclictest_config *cfg, const struct rt_report *rep,
		   const sigset_t *signals)
{
	struct ct_ctx *c = calloc(1, sizeof(*c));
	int rc, err;

	if (!c) {
		rt_prog_error_errno(ENOMEM, "out of memory");
		return RT_EXIT_FAILURE;
	}
	c->cfg = cfg;
	c->rep = rep;
	c->dma_fd = -1;
	c->run.loadavg_fd = -1;
	c->status.shm_fd = -1;

	/* blocked before any thread exists, so that every thread inherits the mask */
	c->signals = *signals;
	rc = ct_setup(c);
	if (!rc) {
		if (cfg->verbose)
			print_verbose_header(c);
		rc = ct_start_threads(c);
	}
	if (!rc && cfg->mainaffinity &&
	    (err = rt_affinity_pin_thread_list(pthread_self(), &cfg->mainaffinity_cpus))) {
		rt_prog_error_errno(-err, "--mainaffinity: cannot pin the main thread");
		rc = RT_EXIT_FAILURE;
	}
	if (!rc && (err = cyclictest_status_start_fifo(&c->status))) {
		rt_prog_error_errno(-err, "cannot start the fifo thread");
		rc = RT_EXIT_FAILURE;
	}
	if (!rc) {
		rt_workers_wait_ready(c->run.workers);
		if (cfg->self_check && !c->run.threads[0].ws.error)
			rc = cyclictest_self_check_filter(&c->run);
	}
	if (!rc && cfg->front)
		rc = front_started(c);
	if (!rc)
		rc = start_metrics(c);
	if (!rc) {
		ct_set_start(c);
		start_isolation(c);
		start_records(c);
		rt_workers_open(c->run.workers);
		ct_main_loop(c);
		/* before the join: the threads' /proc files are still there */
		if (c->iso && (err = rt_isolation_end(c->iso)))
			fprintf(stderr, "WARN: cannot read the isolation counters: %s\n",
				strerror(-err));
	}
	if (c->run.workers)
		ct_stop_threads(c);
	if (!rc)
		rc = ct_report(c);
	ct_teardown(c);
	free(c);
	return rc;
}
