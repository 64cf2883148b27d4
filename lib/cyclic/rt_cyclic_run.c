// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "rt_cyclic_run.h"

#include "rt_affinity.h"
#include "rt_cli.h"
#include "rt_env.h"
#include "rt_isolation.h"
#include "rt_mem.h"
#include "rt_metrics.h"
#include "rt_output.h"
#include "rt_prog.h"
#include "rt_records.h"
#include "rt_sched.h"
#include "rt_signal.h"
#include "rt_smi.h"
#include "rt_time.h"
#include "rt_verdict.h"
#include "rt_verdict_write.h"

#include "rt_cyclic_analyze.h"
#include "rt_cyclic_front.h"
#include "rt_cyclic_measure.h"
#include "rt_cyclic_report.h"
#include "rt_cyclic_status.h"

#define FIRST_DRAIN_NS (1000 * 1000LL)         /* -v until thread 0's first sample */
/*
 * -D: threads stop themselves at the end; main stops the ones still asleep
 * (an interval longer than what is left) this long after it.
 */
#define DURATION_GRACE_NS (100 * 1000 * 1000LL)
/* --analyze: how often main looks for spikes the threads noted. */
#define ANALYZE_POLL_NS (50 * 1000 * 1000LL)
/* --records: a window's lines follow its end within this time. */
#define RECORDS_POLL_NS (100 * 1000 * 1000LL)

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

static int read_smi(int cpu, uint64_t *count)
{
	char path[64];
	int fd, err;

	snprintf(path, sizeof(path), "/dev/cpu/%d/msr", cpu);
	fd = rt_smi_open(path);
	if (fd < 0)
		return fd;
	err = rt_smi_read(fd, count);
	close(fd);
	return err;
}

static int open_outputs(struct ct_ctx *c)
{
	const struct cyclictest_config *cfg = c->cfg;
	int err;

	if (cfg->json) {
		if (rt_cli_open_output(&c->json_out, "json", cfg->json))
			return RT_EXIT_FAILURE;
		c->json_open = true;
	}
	if (cfg->histfile && cfg->hist_buckets) {
		if (rt_cli_open_output(&c->hist_out, "histfile", cfg->histfile))
			return RT_EXIT_FAILURE;
		c->hist_open = true;
	}
	/* Before anything is printed: with --records=- stdout becomes the records'. */
	if ((err = rt_records_set_open(&c->records, cfg->results.records,
				       cfg->results.records_interval_s, cfg->threads, true))) {
		rt_prog_error_errno(-err, "records '%s'", cfg->results.records);
		return RT_EXIT_FAILURE;
	}
	if (cfg->results.metrics && (err = rt_metrics_check_path(cfg->results.metrics))) {
		rt_prog_error_errno(-err, "cannot write --metrics file '%s'", cfg->results.metrics);
		return RT_EXIT_FAILURE;
	}
	return 0;
}

static int setup_memory(struct ct_ctx *c)
{
	int err;

	rt_mem_keep_heap();
	err = c->cfg->mlockall ? rt_mem_lock_all() : rt_mem_lock_all_if_unlimited();
	if (err && c->cfg->mlockall) {
		rt_prog_error_errno(-err, "--mlockall: cannot lock memory (needs root, "
					  "CAP_IPC_LOCK or a large enough RLIMIT_MEMLOCK)");
		return RT_EXIT_FAILURE;
	}
	return 0;
}

static int setup_tracing(struct ct_ctx *c)
{
	int err;

	c->run.trace.marker_fd = -1;
	c->run.trace.on_fd = -1;
	if (!c->cfg->breaktrace_us)
		return 0;
	err = rt_trace_open(&c->run.trace);
	if (!err)
		return 0;
	if (c->cfg->tracemark) {
		rt_prog_error_errno(-err, "--tracemark: tracefs is not available");
		return RT_EXIT_FAILURE;
	}
	fprintf(stderr, "WARN: tracefs not available (%s): -b stops the test but no trace\n",
		strerror(-err));
	return 0;
}

/* --smi: every measured CPU's counter must be readable, before any output. */
static int check_smi(const struct cyclictest_config *cfg)
{
	uint64_t v;
	int err;

	for (int i = 0; cfg->smi && i < cfg->threads; i++) {
		int cpu = rt_affinity_cpu_for(&cfg->affinity_cpus, (unsigned)i);

		if ((err = read_smi(cpu, &v))) {
			rt_prog_error_errno(-err, "--smi: cannot read the SMI counter (MSR 0x34) "
					    "of CPU %d (needs x86, the msr module and root)", cpu);
			return RT_EXIT_FAILURE;
		}
	}
	return 0;
}

/* -R: how fine-grained is the clock really? */
static void check_resolution(const struct cyclictest_config *cfg)
{
	struct timespec res, prev, now;
	int64_t best = INT64_MAX;

	clock_getres(cfg->clock, &res);
	clock_gettime(cfg->clock, &prev);
	for (int i = 0; i < 100000; i++) {
		clock_gettime(cfg->clock, &now);
		int64_t d = rt_time_diff_ns(&now, &prev);
		if (d > 0 && d < best)
			best = d;
		if (cfg->debug && i < 100)
			fprintf(stderr, "INFO: clock_gettime delta %" PRId64 " ns\n", d);
		prev = now;
	}
	if (best > rt_time_to_ns(&res) || cfg->verbose) {
		fprintf(stderr, "WARN: reported clock resolution: %" PRId64 " nsec\n",
			rt_time_to_ns(&res));
		fprintf(stderr, "WARN: measured clock resolution approximately: %" PRId64 " nsec\n",
			best);
	}
}

/* PM QoS: held open for the whole run; closing it restores the setting. */
static void setup_dma_latency(struct ct_ctx *c)
{
	const struct cyclictest_config *cfg = c->cfg;
	int32_t value = cfg->latency_us;
	struct stat st;

	c->dma_fd = -1;
	if (cfg->front && cfg->front->no_pm_qos)
		return;
	if (cfg->laptop) {
		fprintf(stderr, "WARN: not setting cpu_dma_latency to save battery power\n");
		return;
	}
	if (cfg->default_system) {
		fprintf(stderr, "WARN: not setting cpu_dma_latency from cyclictest\n");
		return;
	}
	if (stat("/dev/cpu_dma_latency", &st) < 0) {
		fprintf(stderr, "WARN: stat /dev/cpu_dma_latency failed: %s\n", strerror(errno));
		return;
	}
	c->dma_fd = open("/dev/cpu_dma_latency", O_RDWR | O_CLOEXEC);
	if (c->dma_fd < 0) {
		fprintf(stderr, "WARN: open /dev/cpu_dma_latency: %s\n", strerror(errno));
		return;
	}
	if (write(c->dma_fd, &value, sizeof(value)) != (ssize_t)sizeof(value)) {
		fprintf(stderr, "# error setting cpu_dma_latency to %d!: %s\n", value,
			strerror(errno));
		close(c->dma_fd);
		c->dma_fd = -1;
		return;
	}
	printf("# /dev/cpu_dma_latency set to %dus\n", value);
}

static int alloc_threads(struct ct_ctx *c)
{
	const struct cyclictest_config *cfg = c->cfg;
	struct ct_run *run = &c->run;
	size_t bytes = (size_t)cfg->threads * sizeof(*run->threads);
	void *mem;
	int err;

	run->nthreads = cfg->threads;
	if (posix_memalign(&mem, RT_CACHELINE, bytes))
		return -ENOMEM;
	run->threads = memset(mem, 0, bytes);
	if ((err = rt_workers_new(&run->workers, cfg->threads)))
		return err;
	for (int i = 0; i < cfg->threads; i++) {
		struct ct_thread *t = &run->threads[i];

		t->index = i;
		t->cfg = cfg;
		t->run = run;
		t->policy = cfg->policy;
		t->prio = cyclictest_thread_priority(cfg, i);
		t->interval_ns = cyclictest_thread_interval_us(cfg, i) * 1000;
		t->runtime_ns = cyclictest_thread_interval_us(cfg, i) * cfg->deadline_runtime_pct /
				100 * 1000;
		t->cpu = cfg->affinity ? rt_affinity_cpu_for(&cfg->affinity_cpus, (unsigned)i) : -1;
		t->ring_cap = RT_RING_VERBOSE_SAMPLES;
		if (cfg->loops && cfg->loops < t->ring_cap)
			t->ring_cap = cfg->loops; /* never more than the run takes */
		rt_worker_state_init(&t->ws);
	}
	return 0;
}

/* After the join: the buffers the threads allocated. */
static void free_threads(struct ct_run *run)
{
	if (run->threads) {
		for (int i = 0; i < run->nthreads; i++) {
			rt_worker_state_free(&run->threads[i].ws);
			free(run->threads[i].spikes);
		}
		free(run->threads);
		run->threads = NULL;
	}
	rt_workers_free(&run->workers);
}

static int create_thread(struct ct_thread *t)
{
	struct sched_param sp = { .sched_priority = t->prio };
	pthread_attr_t attr;
	cpu_set_t set;
	int err;

	if ((err = rt_workers_attr_init(&attr)))
		return err;
	pthread_attr_setinheritsched(&attr, PTHREAD_EXPLICIT_SCHED);
	/* batch and idle are not pthread attributes: the thread sets them itself. */
	if (pthread_attr_setschedpolicy(&attr, rt_sched_policy_is_rt(t->policy) ? t->policy
										: SCHED_OTHER) ||
	    pthread_attr_setschedparam(&attr, &sp)) {
		pthread_attr_destroy(&attr);
		return -EINVAL;
	}
	if (t->cpu >= 0) {
		CPU_ZERO(&set);
		CPU_SET(t->cpu, &set);
		pthread_attr_setaffinity_np(&attr, sizeof(set), &set);
	}
	err = rt_workers_spawn_thread(t->run->workers, t->index, &attr, cyclictest_measure, t);
	pthread_attr_destroy(&attr);
	return err;
}

static int start_threads(struct ct_ctx *c)
{
	const struct cyclictest_config *cfg = c->cfg;
	struct ct_run *run = &c->run;
	char why[512];
	int err;

	for (int i = 0; i < run->nthreads; i++) {
		struct ct_thread *t = &run->threads[i];

		if (cfg->smi)
			read_smi(t->cpu, &t->smi_start);
		err = create_thread(t);
		if (err == -EPERM) {
			rt_sched_explain_eperm(t->policy, t->prio, why, sizeof(why));
			rt_prog_error("thread %d: %s", i, why);
			return RT_EXIT_FAILURE;
		}
		if (err) {
			rt_prog_error_errno(-err, "cannot start measurement thread %d", i);
			return RT_EXIT_FAILURE;
		}
	}
	return 0;
}

/*
 * The common start for -A / --secaligned, taken once all threads wait, and
 * the end of a -D run counted from it.
 */
static void set_start(struct ct_ctx *c)
{
	const struct cyclictest_config *cfg = c->cfg;
	struct timespec *ts = &c->run.start_ts;

	clock_gettime(cfg->clock, ts);
	if (cfg->secaligned_us >= 0) {
		/* Next full second, or the one after if it is under 100 ms away. */
		ts->tv_sec += ts->tv_nsec > 900 * 1000 * 1000 ? 2 : 1;
		ts->tv_nsec = 0;
		rt_time_add_ns(ts, cfg->secaligned_us * 1000);
	}
	/* --warmup comes first; -D counts the measured time after it. */
	c->run.has_warmup = cfg->results.warmup_s > 0;
	c->run.warm_end_ts = *ts;
	rt_time_add_ns(&c->run.warm_end_ts, (int64_t)cfg->results.warmup_s * RT_NSEC_PER_SEC);
	c->run.has_end = cfg->duration_s > 0;
	c->run.end_ts = c->run.warm_end_ts;
	rt_time_add_ns(&c->run.end_ts, (int64_t)cfg->duration_s * RT_NSEC_PER_SEC);
}

static void print_verbose_header(struct ct_ctx *c)
{
	const struct cyclictest_config *cfg = c->cfg;

	for (int i = 0; i < c->run.nthreads; i++) {
		printf("Thread %d Interval: %" PRId64 "\n", i, c->run.threads[i].interval_ns / 1000);
		if (c->run.threads[i].cpu >= 0)
			printf("Thread %d using cpu %d.\n", i, c->run.threads[i].cpu);
	}
	(void)cfg;
}

static bool any_new_max(struct ct_run *run, int64_t *last_max)
{
	bool grew = false;

	for (int i = 0; i < run->nthreads; i++) {
		struct rt_stats s;

		rt_pubstats_read(&run->threads[i].ws.stats, &s);
		if (!rt_stats_empty(&s) && s.max > last_max[i]) {
			last_max[i] = s.max;
			grew = true;
		}
	}
	return grew;
}

static void update_smi(struct ct_run *run)
{
	for (int i = 0; i < run->nthreads; i++) {
		struct ct_thread *t = &run->threads[i];
		uint64_t v;

		if (read_smi(t->cpu, &v) == 0)
			t->smi_count = v - t->smi_start;
	}
}

/* What the main thread does between its sleeps. */
struct main_state {
	struct ct_ctx *c;
	bool live;
	bool flush;
	int64_t *last_max;   /* -M: the maxima last drawn */
	char *status_buf;    /* SIGUSR1 */
	size_t status_len;
};

/* -v: drain soon after the start too, so the first sample shows at once. */
static int64_t next_wait(void *ctx, int64_t wait_ns)
{
	struct main_state *m = ctx;
	struct ct_run *run = &m->c->run;

	if (m->c->cfg->verbose && atomic_load(&run->threads[0].ws.ring.head) == 0)
		return FIRST_DRAIN_NS;
	return wait_ns;
}

static void on_wake(void *ctx, int sig)
{
	struct main_state *m = ctx;
	const struct cyclictest_config *cfg = m->c->cfg;
	struct ct_run *run = &m->c->run;

	if (sig == SIGUSR1 && m->status_buf) {
		if (cfg->smi)
			update_smi(run);
		cyclictest_format_status_block(m->status_buf, m->status_len, run);
		fputs(m->status_buf, stderr);
	} else if (sig == SIGUSR2) {
		cyclictest_status_snapshot(&m->c->status);
	}
	if (cfg->verbose)
		cyclictest_print_samples(stdout, run); /* drained even once stdout failed */
	cyclictest_analyze_poll(&m->c->analysis, run);
	rt_records_set_poll(&m->c->records, m->c->windows);
	/* A reader gone or a full disk: the live output stops, the run goes on. */
	if (m->live && sig == 0 && !rt_output_stdout_error()) {
		if (cfg->smi)
			update_smi(run);
		if (!cfg->refresh_on_max || (m->last_max && any_new_max(run, m->last_max))) {
			cyclictest_print_frame(stdout, run, false);
			if (m->flush)
				fflush(stdout);
		}
	}
	rt_output_stdout_check(false);
}

/* The main thread sleeps in sigtimedwait: signals, thread completion, ticks. */
static void main_loop(struct ct_ctx *c)
{
	const struct cyclictest_config *cfg = c->cfg;
	struct ct_run *run = &c->run;
	struct main_state m = {
		.c = c,
		.live = !cfg->quiet && !cfg->verbose,
		.flush = cfg->unbuffered || isatty(STDOUT_FILENO),
		.last_max = calloc((size_t)run->nthreads, sizeof(*m.last_max)),
		.status_len = 256 + 128 * (size_t)run->nthreads,
	};
	struct rt_workers_loop loop = {
		.signals = &c->signals,
		.clock = cfg->clock,
		/* -D: threads stop themselves; main stops the ones asleep past the end. */
		.deadline_ns = run->has_end ? rt_time_to_ns(&run->end_ts) + DURATION_GRACE_NS : -1,
		.tick_ns = m.live ? RT_LIVE_REFRESH_NS : cfg->verbose ? RT_VERBOSE_DRAIN_NS : -1,
		.next_wait = next_wait,
		.on_wake = on_wake,
		.ctx = &m,
	};

	if (cfg->analyze && (loop.tick_ns < 0 || loop.tick_ns > ANALYZE_POLL_NS))
		loop.tick_ns = ANALYZE_POLL_NS;
	if (rt_cli_results_need_windows(&cfg->results) &&
	    (loop.tick_ns < 0 || loop.tick_ns > RECORDS_POLL_NS))
		loop.tick_ns = RECORDS_POLL_NS;
	m.status_buf = malloc(m.status_len);
	if (m.live) {
		cyclictest_print_frame(stdout, run, true);
		rt_output_stdout_check(true);
	}
	c->stop_signal = rt_workers_run(run->workers, &loop);
	c->stopped_ns = rt_time_now_ns(cfg->clock);
	free(m.last_max);
	free(m.status_buf);
}

static void wake_thread(void *ctx, int i)
{
	struct ct_ctx *c = ctx;
	int sig = c->cfg->timer == CT_TIMER_POSIX ? RT_SIGNAL_TIMER : RT_SIGNAL_WAKE;

	pthread_kill(c->run.workers->slot[i].thread, sig);
}

static void drain_samples(void *ctx)
{
	struct ct_ctx *c = ctx;

	if (c->cfg->verbose)
		cyclictest_print_samples(stdout, &c->run);
}

/* Stop every thread and join it; re-wake the ones that missed the signal. */
static void stop_threads(struct ct_ctx *c)
{
	rt_workers_stop(c->run.workers, wake_thread, drain_samples, c);
}

/*
 * --max-*: judged once, before the JSON (which carries the verdict and the
 * exit code). FAIL turns a clean run's exit code into RT_EXIT_VERDICT.
 */
static int judge(struct ct_ctx *c, int rc)
{
	const struct cyclictest_config *cfg = c->cfg;
	int64_t done_ns = c->stopped_ns - rt_time_to_ns(&c->run.warm_end_ts);
	double done = done_ns > 0 ? (double)done_ns / 1e9 : 0;

	uint64_t loops = UINT64_MAX;

	for (int i = 0; i < c->run.nthreads; i++)
		if (c->series[i].stats.count < loops)
			loops = c->series[i].stats.count;
	/* Stopped by a signal before its -D or -l: partial. */
	if (cfg->duration_s)
		rt_cli_verdict_stopped(&c->verdict, c->stop_signal, done, (double)cfg->duration_s,
				       "s");
	else if (cfg->loops)
		rt_cli_verdict_stopped(&c->verdict, c->stop_signal, (double)loops,
				       (double)cfg->loops, "loops");
	else
		rt_cli_verdict_stopped(&c->verdict, 0, done, -1, "s");
	return rt_cli_judge(&c->verdict, &c->judged, &c->cfg->results.limits, c->series,
			    c->run.nthreads, rc);
}

/* --percentiles lines and the verdict: after everything 2.4 prints. */
static void print_results(struct ct_ctx *c)
{
	const struct cyclictest_config *cfg = c->cfg;

	if (cfg->results.percentiles) {
		rt_percentiles_write_text(stdout, c->series, c->run.nthreads);
		rt_overruns_write_text(stdout, c->series, c->run.nthreads);
		rt_percentiles_write_ci_text(stdout, c->series, c->run.nthreads,
					     cfg->nsecs ? "ns" : "us");
	}
	if (cfg->results.isolation)
		rt_isolation_write_text(stdout, c->iso);
	cyclictest_analyze_print(&c->analysis, &c->run, stdout);
	if (c->judged)
		rt_verdict_write_text(stdout, &c->verdict, cfg->nsecs ? "ns" : "us");
}

/* What went wrong in the threads: a failed set-up, -v samples lost. */
static int thread_errors(struct ct_ctx *c)
{
	const struct cyclictest_config *cfg = c->cfg;
	struct ct_run *run = &c->run;
	int rc = RT_EXIT_OK;

	for (int i = 0; i < run->nthreads; i++) {
		struct ct_thread *t = &run->threads[i];
		uint64_t lost = atomic_load(&t->ws.ring.lost);

		if (t->ws.error && cfg->front && cfg->front->setup_failed) {
			cfg->front->setup_failed(run, t);
			rc = RT_EXIT_FAILURE;
		} else if (t->ws.error) {
			rt_prog_error_errno(t->ws.error, "thread %d: %s failed", i, t->ws.error_what);
			rc = RT_EXIT_FAILURE;
		}
		if (lost) {
			rt_prog_error("thread %d: %" PRIu64 " of %" PRIu64 " verbose samples were "
				      "lost (output too slow)", i, lost, t->ws.stats.stats.count);
			rc = RT_EXIT_FAILURE;
		}
	}
	return rc;
}

/* The final numbers into the records, the self-check, the verdict, the metrics, --analyze. */
static int finish_series(struct ct_ctx *c, int rc)
{
	const struct cyclictest_config *cfg = c->cfg;
	int err;

	if ((err = rt_records_set_finish(&c->records, c->windows, c->series))) {
		rt_prog_error_errno(-err, "records '%s'", cfg->results.records);
		rc = RT_EXIT_FAILURE;
	}
	if (cfg->self_check && rc == RT_EXIT_OK)
		rc = cyclictest_self_check(&c->analysis, &c->run);
	rc = judge(c, rc);
	if (c->metrics_open &&
	    (err = rt_metrics_set_finish(&c->metrics, c->series,
					 c->judged ? c->verdict.pass : RT_METRICS_NO_VERDICT, c->iso))) {
		rt_prog_error_errno(-err, "cannot write --metrics file '%s'", cfg->results.metrics);
		rc = RT_EXIT_FAILURE;
	}
	if ((err = cyclictest_analyze_finish(&c->analysis, &c->run))) {
		rt_prog_error_errno(-err, "cannot write the --analyze-output file '%s'",
				    c->analysis.path);
		rc = RT_EXIT_FAILURE;
	}
	return rc;
}

/*
 * An output that failed during the run is in the JSON's return_code; its
 * one line comes at the end (stdout: rt_prog_close_stdout()).
 */
static int run_errors(struct ct_ctx *c, int rc)
{
	int err;

	if (rt_output_stdout_check(true))
		rc = RT_EXIT_FAILURE;
	if (c->run.trace_err) {
		rt_prog_error_errno(-c->run.trace_err, "-b: writing the tracefs file %s",
				    c->run.trace_err_what);
		rc = RT_EXIT_FAILURE;
	}
	if ((err = cyclictest_status_fifo_error(&c->status))) {
		rt_prog_error_errno(-err, "writing the fifo '%s'", c->cfg->fifo);
		rc = RT_EXIT_FAILURE;
	}
	return rc;
}

/* --histfile before the JSON, whose return_code then says if it failed. */
static int commit_histfile(struct ct_ctx *c, int rc)
{
	int err;

	if (!c->cfg->hist_buckets || !c->hist_open)
		return rc;
	err = rt_output_why(&c->hist_out, cyclictest_print_histogram(c->hist_out.f, &c->run));
	err = err ? err : rt_output_commit(&c->hist_out);
	if (err) {
		rt_output_abort(&c->hist_out);
		rt_prog_error_errno(-err, "cannot write --histfile '%s'", c->cfg->histfile);
		rc = RT_EXIT_FAILURE;
	}
	c->hist_open = false;
	return rc;
}

static int commit_json(struct ct_ctx *c, int rc)
{
	int err;

	/* The environment's rest: read now, off the measured CPUs' time. */
	if (c->json_open && rt_cli_machine_state_end(&c->env, &c->how))
		rc = RT_EXIT_FAILURE;
	if (!c->json_open)
		return rc;
	err = cyclictest_write_json(c->json_out.f, &c->run, c->rep, rc, c->series, &c->verdict,
				    &c->analysis, &c->env, c->iso);
	err = rt_output_why(&c->json_out, err);
	if (!err)
		err = rt_output_commit(&c->json_out);
	else
		rt_output_abort(&c->json_out);
	c->json_open = false;
	if (err) {
		rt_prog_error_errno(-err, "cannot write --json file '%s'", c->cfg->json);
		rc = RT_EXIT_FAILURE;
	}
	return rc;
}

/* Everything printed and written after the join, from the same final numbers. */
static int report(struct ct_ctx *c)
{
	const struct cyclictest_config *cfg = c->cfg;
	struct ct_run *run = &c->run;
	int rc, err;

	if (cfg->verbose)
		cyclictest_print_samples(stdout, run);
	if (cfg->smi)
		update_smi(run);
	rc = thread_errors(c);
	c->series = cyclictest_series(run);
	if (!c->series) {
		rt_prog_error_errno(ENOMEM, "cannot collect the results");
		return RT_EXIT_FAILURE;
	}
	rc = finish_series(c, rc);
	if (!cfg->quiet && !cfg->verbose && !rt_output_stdout_error())
		cyclictest_print_frame(stdout, run, false);
	rc = run_errors(c, rc);
	rc = commit_histfile(c, rc);
	rc = commit_json(c, rc);
	/* A failed stdout is reported once, at the end. */
	if (cfg->hist_buckets && !cfg->histfile &&
	    (err = cyclictest_print_histogram(stdout, run)) && !ferror(stdout) &&
	    !rt_output_stdout_error()) {
		rt_prog_error_errno(-err, "cannot write the histogram");
		rc = RT_EXIT_FAILURE;
	}
	if (cfg->quiet && !cfg->hist_buckets)
		cyclictest_print_summary(stdout, run);
	if (cfg->spike_us)
		cyclictest_print_spikes(stdout, run);
	cyclictest_print_break(stdout, run);
	print_results(c);
	return rc;
}

static void teardown(struct ct_ctx *c)
{
	if (c->json_open)
		rt_output_abort(&c->json_out);
	if (c->hist_open)
		rt_output_abort(&c->hist_out);
	cyclictest_status_close(&c->status);
	cyclictest_analyze_close(&c->analysis, &c->run);
	rt_trace_close(&c->run.trace);
	if (c->dma_fd >= 0)
		close(c->dma_fd);
	if (c->run.loadavg_fd >= 0)
		close(c->run.loadavg_fd);
	free(c->series);
	rt_verdict_free(&c->verdict);
	rt_records_set_close(&c->records);
	rt_metrics_set_close(&c->metrics);
	free(c->windows);
	rt_env_free(&c->env);
	rt_isolation_free(c->iso);
	free_threads(&c->run);
}

/*
 * The measured CPUs' state: now only what the preflight lines shown now
 * (or --records' first line) need; the JSON's rest after the run.
 */
static int read_environment(struct ct_ctx *c)
{
	const struct cyclictest_config *cfg = c->cfg;
	struct rt_cpulist allowed, measured = { 0 };
	bool iso = rt_cli_results_need_isolation(&cfg->results, cfg->json);
	int err;

	c->how = (struct rt_env_run){ .realtime = true, .pm_qos_held = c->dma_fd >= 0 };
	if ((err = rt_affinity_allowed(&allowed))) {
		rt_prog_error_errno(-err, "cannot read the CPUs this process may use");
		return RT_EXIT_FAILURE;
	}
	for (int i = 0; i < c->run.nthreads; i++) {
		const struct ct_thread *t = &c->run.threads[i];

		rt_env_add_measured(&measured, t->cpu, &allowed);
		if (cfg->timer == CT_TIMER_DEADLINE)
			continue;
		if ((t->policy != SCHED_FIFO && t->policy != SCHED_RR) || t->prio <= 0)
			c->how.realtime = false;
	}
	/* the isolation checks' reads cost: only for a file or when the warnings are shown */
	c->how.isolation = iso || rt_cli_preflight_shown(cfg->results.preflight);
	if (iso && (err = rt_isolation_create(&c->iso, "", &measured)))
		fprintf(stderr, "WARN: no isolation counters: %s\n", strerror(-err));
	return rt_cli_machine_state_begin(&c->env, &measured, &c->how, cfg->results.preflight,
					  cfg->results.records || cfg->results.metrics);
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

static int setup(struct ct_ctx *c)
{
	const struct cyclictest_config *cfg = c->cfg;
	const char *what = "";
	int rc, err;

	if ((rc = open_outputs(c)) || (rc = rt_cli_check_rt_permission(cfg->policy, cfg->priority)) ||
	    (rc = setup_memory(c)) || (rc = setup_tracing(c)) || (rc = check_smi(cfg)) ||
	    ((cfg->analyze || cfg->self_check) &&
	     (rc = cyclictest_analyze_open(&c->analysis, &c->run, cfg))))
		return rc;
	/* Files the run creates are in place before anything is printed. */
	if (!(cfg->front && cfg->front->no_status))
		cyclictest_status_clean_stale();
	if (!(cfg->front && cfg->front->no_status) &&
	    (err = cyclictest_status_open(&c->status, &c->run, cfg->fifo, &what))) {
		rt_prog_error_errno(-err, "cannot create '%s'", what);
		return RT_EXIT_FAILURE;
	}
	if (cfg->unbuffered)
		setvbuf(stdout, NULL, _IONBF, 0);
	if (cfg->resolution)
		check_resolution(cfg);
	if (cfg->verbose) {
		printf("Max CPUs = %ld\n", sysconf(_SC_NPROCESSORS_CONF));
		printf("Online CPUs = %ld\n", sysconf(_SC_NPROCESSORS_ONLN));
	}
	setup_dma_latency(c);
	struct timespec res;
	if (clock_getres(cfg->clock, &res) == 0 && rt_time_to_ns(&res) > 1)
		fprintf(stderr, "WARN: High resolution timers not available\n");

	if ((err = alloc_threads(c))) {
		rt_prog_error_errno(-err, "cannot allocate the measurement buffers");
		return RT_EXIT_FAILURE;
	}
	if ((rc = read_environment(c)))
		return rc;
	c->windows = calloc((size_t)c->run.nthreads, sizeof(*c->windows));
	if (!c->windows) {
		rt_prog_error_errno(ENOMEM, "cannot allocate the measurement buffers");
		return RT_EXIT_FAILURE;
	}
	return 0;
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
	rc = setup(c);
	if (!rc) {
		if (cfg->verbose)
			print_verbose_header(c);
		rc = start_threads(c);
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
		set_start(c);
		start_isolation(c);
		start_records(c);
		rt_workers_open(c->run.workers);
		main_loop(c);
		/* before the join: the threads' /proc files are still there */
		if (c->iso && (err = rt_isolation_end(c->iso)))
			fprintf(stderr, "WARN: cannot read the isolation counters: %s\n",
				strerror(-err));
	}
	if (c->run.workers)
		stop_threads(c);
	if (!rc)
		rc = report(c);
	teardown(c);
	free(c);
	return rc;
}
