// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "rt_affinity.h"
#include "rt_cli.h"
#include "rt_env.h"
#include "rt_isolation.h"
#include "rt_mem.h"
#include "rt_output.h"
#include "rt_prog.h"
#include "rt_sched.h"
#include "rt_signal.h"
#include "rt_verdict.h"
#include "rt_verdict_write.h"
#include "rt_time.h"

#include "measure.h"
#include "analyze.h"
#include "records.h"
#include "report.h"
#include "run.h"

/* How often main looks at the threads (records, --analyze) while they poll. */
#define TICK_NS (100 * 1000 * 1000LL)
/* Pre-heat to test: how long main waits for the preheaters' frequencies. */
#define SETTLE_POLL_NS (1000 * 1000LL)

/* Everything one run owns; torn down in one place. */
struct oslat_ctx {
	const struct oslat_config *cfg;
	const struct rt_report *rep;
	struct oslat_run run;
	struct rt_output json_out;
	bool json_open;
	struct rt_env env;
	sigset_t signals;
	int preheaters;
	uint64_t preheat_s;
	bool test_started;
	struct oslat_result *res;
	struct rt_loghist *hists;     /* the lossless histograms, built after the join */
	struct oslat_summary sum;
	struct rt_series *series;
	struct rt_verdict verdict;    /* always (the JSON's); judged: asked (--max-*, --verdict) */
	bool judged;
	int stop_signal;              /* what ended the pre-heat or the test, 0: the run itself */
	int64_t test_ns;              /* how long the test phase ran */
	struct oslat_records records; /* --records */
	struct oslat_analysis *analysis; /* --analyze, NULL without */
	struct rt_isolation *iso;     /* the polled CPUs' counters: JSON, records, --isolation */
};


static int alloc_threads(struct oslat_ctx *c)
{
	const struct oslat_config *cfg = c->cfg;
	struct oslat_run *run = &c->run;
	int n = (int)cfg->cpus.count;
	size_t bytes = (size_t)n * sizeof(*run->threads);
	void *mem;
	int err;

	run->nthreads = n;
	if (posix_memalign(&mem, 64, bytes))
		return -ENOMEM;
	run->threads = memset(mem, 0, bytes);
	if ((err = rt_workers_new(&run->workers, n)))
		return err;
	c->preheaters = cfg->single_preheat ? 1 : n;
	for (int i = 0; i < n; i++) {
		struct oslat_thread *t = &run->threads[i];

		t->index = i;
		t->cpu = cfg->cpus.cpu[i];
		t->preheater = i < c->preheaters;
		t->cfg = cfg;
		t->run = run;
		t->ran_policy = -1;
		t->trace_c = UINT64_MAX;
		t->analyze_c = UINT64_MAX;
	}
	return 0;
}

static void free_threads(struct oslat_run *run)
{
	if (run->threads) {
		for (int i = 0; i < run->nthreads; i++) {
			struct oslat_thread *t = &run->threads[i];

			free(t->buckets);
			rt_mem_free_pages(t->ovf_hist, sizeof(*t->ovf_hist));
			free(t->src);
			free(t->dst);
		}
		free(run->threads);
		run->threads = NULL;
	}
	rt_workers_free(&run->workers);
}

static int start_threads(struct oslat_ctx *c)
{
	const struct oslat_config *cfg = c->cfg;
	struct sched_param sp = { .sched_priority = cfg->rtprio };
	char why[512];
	int err = 0;

	for (int i = 0; i < c->run.nthreads && !err; i++) {
		struct oslat_thread *t = &c->run.threads[i];
		pthread_attr_t attr;
		cpu_set_t set;

		if ((err = rt_workers_attr_init(&attr)))
			break;
		pthread_attr_setinheritsched(&attr, PTHREAD_EXPLICIT_SCHED);
		pthread_attr_setschedpolicy(&attr, cfg->rtprio ? SCHED_FIFO : SCHED_OTHER);
		pthread_attr_setschedparam(&attr, &sp);
		CPU_ZERO(&set);
		CPU_SET(t->cpu, &set);
		pthread_attr_setaffinity_np(&attr, sizeof(set), &set);
		err = rt_workers_spawn_thread(c->run.workers, i, &attr, oslat_measure, t);
		pthread_attr_destroy(&attr);
		if (err == -EPERM) {
			rt_sched_explain_eperm(cfg->rtprio ? SCHED_FIFO : SCHED_OTHER, cfg->rtprio,
					       why, sizeof(why));
			rt_prog_error("thread %d: %s", i, why);
			return RT_EXIT_FAILURE;
		}
		if (err) {
			rt_prog_error_errno(-err, "cannot start the polling thread of CPU %d", t->cpu);
			return RT_EXIT_FAILURE;
		}
	}
	return err ? RT_EXIT_FAILURE : 0;
}

/* The measured CPUs' state for the JSON, and the preflight warnings. */
static int read_environment(struct oslat_ctx *c)
{
	const struct oslat_config *cfg = c->cfg;
	struct rt_env_run how = { .realtime = cfg->rtprio > 0, .pm_qos_held = true };
	int err;

	if (rt_cli_results_need_isolation(&cfg->results, cfg->json) &&
	    (err = rt_isolation_create(&c->iso, "", &cfg->cpus)))
		fprintf(stderr, "WARN: no isolation counters: %s\n", strerror(-err));
	return rt_cli_machine_state(&c->env, &cfg->cpus, &how, cfg->results.preflight);
}

/* The test starts: the isolation counters' start, the threads polling (main thread). */
static void start_isolation(struct oslat_ctx *c)
{
	int err = 0;

	for (int i = 0; c->iso && !err && i < c->run.nthreads; i++)
		err = rt_isolation_add_thread(c->iso, getpid(), atomic_load(&c->run.threads[i].tid),
					      c->run.threads[i].cpu);
	if (c->iso && (err || (err = rt_isolation_start(c->iso)))) {
		fprintf(stderr, "WARN: no isolation counters: %s\n", strerror(-err));
		rt_isolation_free(c->iso);
		c->iso = NULL;
	}
	rt_records_set_isolation(&c->records.set, c->iso);
}

static int setup(struct oslat_ctx *c)
{
	const struct oslat_config *cfg = c->cfg;
	int err;

	if (cfg->json) {
		if (rt_cli_open_output(&c->json_out, "json", cfg->json))
			return RT_EXIT_FAILURE;
		c->json_open = true;
	}
	if (oslat_records_open(&c->records, cfg))
		return RT_EXIT_FAILURE;
	if (cfg->rtprio && rt_cli_check_rt_permission(SCHED_FIFO, cfg->rtprio))
		return RT_EXIT_FAILURE;
	rt_mem_keep_heap();
	if ((err = rt_mem_lock_all())) {
		rt_prog_error_errno(-err, "cannot lock memory (needs root, CAP_IPC_LOCK or a large "
				    "enough RLIMIT_MEMLOCK)");
		return RT_EXIT_FAILURE;
	}
	c->run.trace.marker_fd = -1;
	c->run.trace.on_fd = -1;
	if (cfg->trace_threshold_us) {
		if ((err = rt_trace_open(&c->run.trace))) {
			rt_prog_error_errno(-err, "--trace-threshold: tracefs is not available");
			return RT_EXIT_FAILURE;
		}
		fprintf(stderr, "INFO: debugfs mountpoint: %s/\n", c->run.trace.dir);
	}
	if ((err = rt_affinity_pin_thread(pthread_self(), cfg->main_cpu))) {
		rt_prog_error_errno(-err, "--cpu-main-thread: cannot run the main thread on CPU %d",
				    cfg->main_cpu);
		return RT_EXIT_FAILURE;
	}
	if ((err = alloc_threads(c))) {
		rt_prog_error_errno(-err, "cannot allocate the measurement buffers");
		return RT_EXIT_FAILURE;
	}
	if (read_environment(c))
		return RT_EXIT_FAILURE;
	if (cfg->analyze && oslat_analyze_open(&c->analysis, &c->run, cfg))
		return RT_EXIT_FAILURE;
	return 0;
}

static void on_wake(void *ctx, int sig)
{
	struct oslat_ctx *c = ctx;

	(void)sig;
	if (c->analysis)
		oslat_analyze_poll(c->analysis, &c->run);
	if (c->test_started)
		oslat_records_poll(&c->records, &c->run);
}

/* Sleep until the deadline, a signal or the threads' stop. Returns the signal or 0. */
static int wait_phase(struct oslat_ctx *c, int64_t deadline_ns)
{
	struct rt_workers_loop loop = {
		.signals = &c->signals,
		.clock = CLOCK_MONOTONIC,
		.deadline_ns = deadline_ns,
		.tick_ns = c->analysis || c->records.on ? TICK_NS : -1,
		.on_wake = on_wake,
		.ctx = c,
	};

	return rt_workers_run(c->run.workers, &loop);
}

/*
 * Pre-heat over: every preheater reports its frequency and minimum; the
 * frequency of each thread (thread 0's for all with -s) and the bias.
 */
static bool settle(struct oslat_ctx *c)
{
	struct oslat_run *run = &c->run;
	uint64_t min_c = UINT64_MAX;
	uint32_t min_mhz = 1;

	atomic_store(&run->phase, OSLAT_PHASE_SETTLE);
	for (int i = 0; i < run->nthreads; i++)
		oslat_kick(&run->threads[i]);
	while (atomic_load(&run->preheated) < c->preheaters) {
		struct timespec ts = { 0, SETTLE_POLL_NS };

		if (rt_workers_over(run->workers))
			return false;
		nanosleep(&ts, NULL);
	}
	for (int i = 0; i < run->nthreads; i++) {
		struct oslat_thread *t = &run->threads[i];

		if (!t->preheater)
			t->mhz = run->threads[0].mhz;
		else if (t->pre_min_c < min_c) {
			min_c = t->pre_min_c;
			min_mhz = t->mhz;
		}
	}
	if (c->cfg->bias) {
		run->bias_us = (int)oslat_label_us(min_c, min_mhz);
		if (!c->cfg->quiet)
			printf("Global bias set to %d (us)\n", run->bias_us);
	}
	return true;
}

static void kick_thread(void *ctx, int i)
{
	struct oslat_ctx *c = ctx;

	oslat_kick(&c->run.threads[i]);
}

static void measure(struct oslat_ctx *c)
{
	const struct oslat_config *cfg = c->cfg;
	struct oslat_run *run = &c->run;
	int sig, err;

	rt_workers_wait_ready(run->workers);
	atomic_store(&run->phase, OSLAT_PHASE_PREHEAT);
	rt_workers_open(run->workers);
	/* A signal during the pre-heat ends the run (2.4 lost it and ran the test). */
	sig = wait_phase(c, rt_time_mono_ns() + (int64_t)c->preheat_s * 1000000000LL);
	c->stop_signal = sig;
	if (!sig && !rt_workers_over(run->workers) && settle(c)) {
		int64_t start;

		if (!cfg->quiet)
			puts("Test starts...");
		fflush(stdout);
		oslat_records_start(&c->records, cfg, c->rep, &c->env, run);
		start_isolation(c);
		c->test_started = true;
		atomic_store(&run->phase, OSLAT_PHASE_TEST);
		start = rt_time_mono_ns();
		c->stop_signal = wait_phase(c, start + (int64_t)cfg->duration_s * 1000000000LL);
		c->test_ns = rt_time_mono_ns() - start;
	}
	/* before the join: the threads' /proc files are still there */
	if (c->test_started && c->iso && (err = rt_isolation_end(c->iso)))
		fprintf(stderr, "WARN: cannot read the isolation counters: %s\n", strerror(-err));
	rt_workers_stop(run->workers, kick_thread, NULL, c);
	if (c->test_started && !cfg->quiet)
		puts("Test completed.\n");
}

/* After the join: each thread's results, with its lossless histogram. */
static int collect(struct oslat_ctx *c)
{
	const struct oslat_config *cfg = c->cfg;
	struct oslat_run *run = &c->run;
	size_t n = (size_t)run->nthreads;

	c->res = calloc(n ? n : 1, sizeof(*c->res));
	c->hists = rt_mem_alloc_pages((n ? n : 1) * sizeof(*c->hists));
	if (!c->res || !c->hists)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		struct oslat_thread *t = &run->threads[i];
		struct oslat_result *r = &c->res[i];
		struct rt_loghist *h = &c->hists[i];
		uint64_t last = (uint64_t)cfg->buckets - 1, novf = 0;

		rt_loghist_init(h);
		rt_stats_init(&r->stats);
		r->cpu = t->cpu;
		r->mhz = t->mhz;
		r->ran_policy = t->ran_policy;
		r->buckets = (const uint64_t *)t->buckets;
		r->hist = h;
		if (!t->tested || !t->buckets)
			continue;
		for (uint64_t b = 0; b < last; b++) {
			uint64_t k = atomic_load(&t->buckets[b]);

			h->bucket[rt_loghist_index((int64_t)b + 1)] += k;
			r->stats.count += k;
			r->stats.sum += (int64_t)(k * (b + 1));
		}
		novf = atomic_load(&t->buckets[last]);
		for (size_t k = 0; k < RT_LOGHIST_BUCKETS; k++) /* the overflows' own labels */
			h->bucket[k] += t->ovf_hist->bucket[k];
		r->stats.count += novf;
		r->stats.sum += (int64_t)(novf * (last + 1) + t->ovf_extra_us);
		if (r->stats.count) {
			r->stats.min = oslat_label_us(t->min_c, t->mhz);
			r->stats.max = oslat_label_us(t->max_c, t->mhz);
		}
		r->duration_s = (double)(t->end_c - t->start_c) / ((double)t->mhz * 1e6);
		rt_loghist_seal(h, r->stats.count ? r->stats.max : 0);
	}
	c->sum = (struct oslat_summary){ .n = (int)n, .res = c->res, .buckets = (int)cfg->buckets,
					 .bias_us = run->bias_us, .zero_omit = cfg->zero_omit };
	c->series = oslat_series(&c->sum);
	return c->series ? 0 : -ENOMEM;
}

/* -T: the CPU whose latency crossed the trace threshold, or NULL. */
static const struct rt_check_failure *trace_break(const struct oslat_ctx *c,
						  struct rt_cli_break *b)
{
	int64_t value;
	int i;

	if (!c->run.workers || (i = rt_workers_break(c->run.workers, &value)) < 0)
		return NULL;
	return rt_cli_break(b, RT_SUBJECT_CPU, c->run.threads[i].cpu, value,
			    c->cfg->trace_threshold_us, "us");
}

static int judge(struct oslat_ctx *c, int rc)
{
	struct rt_cli_break brk;

	/* A signal before the end of -D (in the pre-heat too): partial. */
	rt_cli_verdict_stopped(&c->verdict, c->stop_signal, (double)c->test_ns / 1e9,
			       (double)c->cfg->duration_s, "s");
	return rt_cli_judge(&c->verdict, &c->judged, &c->cfg->results.limits, c->series,
			    c->run.nthreads, trace_break(c, &brk), rc);
}

/*
 * Members after 2.4's and ours (scheduling, environment, percentiles): the
 * analysis, the verdict, then the polled CPUs' "isolation" object (read as
 * the phase turns to TEST and as it ends, before the join), last as in
 * cyclictest.
 */
static void json_extra(struct rt_json *j, void *ctx)
{
	struct oslat_ctx *c = ctx;

	if (c->analysis)
		oslat_analyze_json(c->analysis, &c->run, j);
	rt_verdict_write_json(j, &c->verdict);
	if (c->iso && c->test_started)
		rt_isolation_write_json(j, c->iso, RT_ISOLATION_RUN);
}

static int report(struct oslat_ctx *c)
{
	const struct oslat_config *cfg = c->cfg;
	struct oslat_run *run = &c->run;
	int rc = RT_EXIT_OK, err, hit;
	int64_t hit_us;

	for (int i = 0; i < run->nthreads; i++) {
		struct oslat_thread *t = &run->threads[i];

		if (t->error) {
			rt_prog_error_errno(t->error, "CPU %d: %s failed", t->cpu, t->error_what);
			rc = RT_EXIT_FAILURE;
		}
	}
	if ((err = collect(c))) {
		rt_prog_error_errno(-err, "cannot collect the results");
		return RT_EXIT_FAILURE;
	}
	/* -T: 2.4's two lines and its exit status; what was measured is kept. */
	hit = rt_workers_break(run->workers, &hit_us);
	if (hit >= 0) {
		fprintf(stderr, "oslat: Trace threshold (%" PRId64 " us) triggered on cpu %d with "
			"%" PRId64 " us!\nStopping the test.\n", cfg->trace_threshold_us,
			run->threads[hit].cpu, hit_us);
		rc = RT_EXIT_FAILURE;
	}
	if ((err = atomic_load(&run->trace_err))) {
		rt_prog_error_errno(-err, "--trace-threshold: writing to tracefs");
		rc = RT_EXIT_FAILURE;
	}
	if ((err = oslat_records_finish(&c->records, run, c->series))) {
		rt_prog_error_errno(-err, "records '%s'", cfg->results.records);
		rc = RT_EXIT_FAILURE;
	}
	if (c->analysis && (err = oslat_analyze_finish(c->analysis, run)))
		rc = RT_EXIT_FAILURE;
	rc = judge(c, rc);
	if (oslat_records_metrics_finish(&c->records, cfg, c->series,
					 c->judged ? rt_verdict_passed(&c->verdict) : RT_METRICS_NO_VERDICT, c->iso))
		rc = RT_EXIT_FAILURE;
	oslat_print_summary(stdout, &c->sum);
	if (c->json_open && strcmp(cfg->json, "-") == 0)
		fflush(stdout);
	if (c->json_open) {
		err = oslat_write_json(c->json_out.f, &c->sum, c->rep, rc, c->series,
				       NULL, &c->env, json_extra, c); /* the verdict: json_extra() */
		c->json_open = false;
		if (rt_cli_commit_json(&c->json_out, rt_output_why(&c->json_out, err), cfg->json))
			rc = RT_EXIT_FAILURE;
	}
	if (cfg->results.percentiles) {
		rt_percentiles_write_text(stdout, c->series, run->nthreads);
		rt_percentiles_write_ci_text(stdout, c->series, run->nthreads, "us");
	}
	if (cfg->results.isolation && c->test_started)
		rt_isolation_write_text(stdout, c->iso);
	if (c->analysis)
		oslat_analyze_print(c->analysis, run, stdout);
	if (c->judged)
		rt_verdict_write_text(stdout, &c->verdict, "us");
	return rc;
}

static void teardown(struct oslat_ctx *c)
{
	if (c->json_open)
		rt_output_abort(&c->json_out);
	if (c->analysis)
		oslat_analyze_close(c->analysis);
	oslat_records_close(&c->records);
	rt_trace_close(&c->run.trace);
	free(c->series);
	free(c->res);
	if (c->hists)
		rt_mem_free_pages(c->hists, (c->run.nthreads ? (size_t)c->run.nthreads : 1) * sizeof(*c->hists));
	rt_verdict_free(&c->verdict);
	rt_env_free(&c->env);
	rt_isolation_free(c->iso);
	free_threads(&c->run);
}

int oslat_run(const struct oslat_config *cfg, const struct rt_report *rep,
	      const sigset_t *signals)
{
	struct oslat_ctx *c = calloc(1, sizeof(*c));
	int rc;

	if (!c) {
		rt_prog_error_errno(ENOMEM, "out of memory");
		return RT_EXIT_FAILURE;
	}
	c->cfg = cfg;
	c->rep = rep;
	c->preheat_s = cfg->results.warmup_s ? cfg->results.warmup_s : OSLAT_PREHEAT_S;
	c->run.trace.marker_fd = -1;
	c->run.trace.on_fd = -1;
	/* blocked before any thread exists, so that every thread inherits the mask */
	c->signals = *signals;
	rc = setup(c);
	if (!rc) {
		printf("oslat V %s\n", RT_INTERFACE_VERSION);
		/* on stdout, also with -q, as 2.4 */
		if (cfg->rtprio && rt_affinity_contains(&cfg->cpus, 0))
			puts("WARNING: Running SCHED_FIFO workload on CPU 0 may hang the thread");
		if (!cfg->quiet)
			oslat_print_header(stdout, cfg, c->preheaters, c->preheat_s);
		fflush(stdout);
		rc = start_threads(c);
	}
	if (!rc)
		measure(c);
	else if (c->run.workers)
		rt_workers_stop(c->run.workers, kick_thread, NULL, c);
	if (!rc)
		rc = report(c);
	teardown(c);
	free(c);
	return rc;
}
