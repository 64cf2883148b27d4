// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A cyclictest run's set-up before the threads start (outputs, memory,
 * tracing, PM QoS, the machine's state) and its teardown after the report.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "rt_cyclic_setup.h"

#include "rt_affinity.h"
#include "rt_cli.h"
#include "rt_env.h"
#include "rt_isolation.h"
#include "rt_mem.h"
#include "rt_metrics.h"
#include "rt_output.h"
#include "rt_owner.h"
#include "rt_prog.h"
#include "rt_records.h"
#include "rt_sched.h"
#include "rt_time.h"
#include "rt_verdict.h"

#include "rt_cyclic_analyze.h"
#include "rt_cyclic_status.h"
#include "rt_cyclic_threads.h"

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

		if ((err = ct_read_smi(cpu, &v))) {
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

int ct_setup(struct ct_ctx *c)
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
		(void)rt_owner_clean("/dev/shm", "cyclictest", RT_OWNER_FILES, NULL);
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

	if ((err = ct_alloc_threads(c))) {
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

void ct_teardown(struct ct_ctx *c)
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
	ct_free_threads(&c->run);
}
