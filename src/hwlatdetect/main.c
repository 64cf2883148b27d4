// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * hwlatdetect: run the kernel's hwlat tracer for a while and report the
 * latencies it saw (SMIs, firmware, hypervisor), as rt-tests 2.4's Python
 * hwlatdetect does, on libtracefs; the tracer's settings are restored on
 * every exit path. Testing: HWLATDETECT_TRACEFS=DIR uses DIR as tracefs, in
 * the test build only (tests/helpers/hwlatdetect-test, HWLATDETECT_TEST_HOOKS):
 * the shipped binary, run as root, never takes its files from the environment.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rt_cli.h"
#include "rt_env.h"
#include "rt_output.h"
#include "rt_prog.h"
#include "rt_report.h"
#include "rt_signal.h"
#include "rt_time.h"

#include "guard.h"
#include "metrics.h"
#include "options.h"
#include "records.h"
#include "report.h"
#include "run.h"
#include "tracer.h"

struct outputs {
	struct rt_output json, report;
	struct hwlat_records records;
	struct hwlat_metrics metrics;
	struct rt_env env;
};

static int find_tracer(const struct hwlat_config *cfg, const char *dir)
{
	char tracers[1024];
	int err = hwlat_tracer_find(dir, tracers, sizeof(tracers));

	if (err == -ENOTSUP)
		rt_prog_error("built without libtracefs: cannot drive the hwlat tracer");
	else if (err == -ENODEV)
		rt_prog_error("tracefs is not mounted and cannot be mounted");
	else if (err == -ENOENT)
		rt_prog_error("the kernel has no hwlat tracer (available_tracers: %s): it needs "
			      "CONFIG_HWLAT_TRACER=y", *tracers ? tracers : "none");
	else if (err == -EACCES || err == -EPERM)
		rt_prog_error("cannot read %s/available_tracers: %s (hwlatdetect needs root)",
			      hwlat_tracer_dir(), strerror(-err));
	else if (err)
		rt_prog_error_errno(-err, "cannot read %s/available_tracers", hwlat_tracer_dir());
	if (err)
		return RT_EXIT_FAILURE;
	if (!dir && cfg->max_cpu >= sysconf(_SC_NPROCESSORS_CONF)) {
		rt_prog_error("invalid --cpu-list '%s': this machine has CPUs 0-%ld", cfg->cpu_list,
			      sysconf(_SC_NPROCESSORS_CONF) - 1);
		return RT_EXIT_USAGE;
	}
	return 0;
}

/* Before tracefs is written: the output files and the machine's state. */
static int open_outputs(const struct hwlat_config *cfg, struct outputs *o)
{
	const struct rt_env_run how = { .realtime = true, .pm_qos_held = true };
	int err;

	if (cfg->json && rt_cli_open_output(&o->json, "json", cfg->json))
		return RT_EXIT_FAILURE;
	if (cfg->report && rt_cli_open_output(&o->report, "report", cfg->report))
		return RT_EXIT_FAILURE;
	if ((err = hwlat_records_open(&o->records, cfg))) {
		rt_prog_error_errno(-err, "cannot write --records file '%s'", cfg->records);
		return RT_EXIT_FAILURE;
	}
	if ((err = hwlat_metrics_open(&o->metrics, cfg))) {
		rt_prog_error_errno(-err, "cannot write --metrics file '%s'", cfg->metrics);
		return RT_EXIT_FAILURE;
	}
	return rt_cli_machine_state_of(&o->env, NULL, &how, cfg->preflight);
}

struct live {
	const struct hwlat_config *cfg;
	struct hwlat_result *res;
	struct hwlat_records *records;
	struct hwlat_metrics *metrics;
};

static void on_sample(void *ctx, const struct hwlat_sample *s)
{
	struct live *l = ctx;

	if (l->cfg->watch && !l->cfg->quiet) {
		hwlat_print_sample(stdout, s);
		fflush(stdout);
	}
}

static void on_tick(void *ctx)
{
	struct live *l = ctx;

	hwlat_records_poll(l->records, l->res);
	hwlat_metrics_poll(l->metrics, l->res);
}

static int run(const struct hwlat_config *cfg, const struct rt_report *rep, const char *dir)
{
	struct outputs o = { 0 };
	struct hwlat_tracer t = { .pipe_fd = -1 };
	struct hwlat_guard guard;
	struct hwlat_result res = { 0 };
	struct hwlat_summary sum;
	struct live live = { cfg, &res, &o.records, &o.metrics };
	const struct hwlat_hooks hooks = { on_sample, on_tick, &live };
	enum hwlat_file which;
	sigset_t signals;
	int rc, err, verdict;
	int64_t started_ns;
	double done_s = 0;

	if ((rc = find_tracer(cfg, dir)) || (rc = open_outputs(cfg, &o)))
		goto out;
	/* SIGINT/SIGTERM/SIGHUP wait, blocked, until the sampling loop takes them */
	if ((err = rt_signal_setup(&signals))) {
		rt_prog_error_errno(-err, "cannot set up signal handling");
		rc = RT_EXIT_FAILURE;
		goto out;
	}
	if ((err = hwlat_tracer_save(&t, &which))) {
		rt_prog_error_errno(-err, "cannot read the tracefs file %s", hwlat_file_name(which));
		rc = RT_EXIT_FAILURE;
		goto out;
	}
	/* best effort: without it, only SIGKILL would leave the settings changed */
	hwlat_guard_start(&guard, &t);
	if (cfg->debug)
		puts("debugging prints turned on");
	if (!(rc = hwlat_apply(cfg, &t, &res))) {
		if (!cfg->quiet)
			hwlat_print_header(stdout, cfg, &res);
		if (!dir)
			hwlat_read_smis(&res, false);
		if ((err = hwlat_records_start(&o.records, rep, cfg, &res, &o.env)))
			rt_prog_error_errno(-err, "cannot write --records file '%s'", cfg->records);
		hwlat_metrics_start(&o.metrics, cfg, t.saved[HWLAT_CPUMASK], &res, &o.env);
		started_ns = rt_time_mono_ns();
		rc = hwlat_measure(cfg, &t, &signals, &res, &hooks);
		done_s = (double)(rt_time_mono_ns() - started_ns) / 1e9;
		if (res.stop_signal && !cfg->quiet)
			puts("interrupted");
	}
	if ((err = hwlat_tracer_restore(&t, &which))) {
		rt_prog_error_errno(-err, "cannot restore the tracefs file %s to '%s'",
				    hwlat_file_name(which), t.saved[which]);
		rc = RT_EXIT_FAILURE;
	}
	hwlat_guard_release(&guard);
	if (!res.started)
		goto out;
	hwlat_read_smis(&res, true);
	hwlat_summarize(res.samples, res.n, res.window_us, res.width_us, &sum);
	if (hwlat_judge(cfg, &res, &sum, done_s))
		rc = RT_EXIT_FAILURE;
	if (hwlat_finish_report(stdout, cfg, &o.report, &res, &sum))
		rc = RT_EXIT_FAILURE;
	/* 2.4's status: 1 when the hardlimit was exceeded; --verdict: 3 unless PASS */
	if (!rc && cfg->verdict)
		rc = rt_verdict_exit_status(&res.verdict, RT_JUDGE_ASKED);
	else if (!rc && hwlat_failed(&res, &sum))
		rc = RT_EXIT_FAILURE;
	if ((err = hwlat_records_finish(&o.records, &res, &sum, hwlat_failed(&res, &sum)))) {
		rt_prog_error_errno(-err, "cannot write --records file '%s'", cfg->records);
		rc = RT_EXIT_FAILURE;
	}
	/* rt_verdict only with --hardlimit, as the other tools' only with --max-* */
	verdict = cfg->hardlimit_us < 0 ? RT_METRICS_NO_VERDICT : !hwlat_failed(&res, &sum);
	if ((err = hwlat_metrics_finish(&o.metrics, &res, verdict))) {
		rt_prog_error_errno(-err, "cannot write --metrics file '%s'", cfg->metrics);
		rc = RT_EXIT_FAILURE;
	}
	fflush(stdout);
	if (o.json.f && rt_cli_commit_json(&o.json, hwlat_write_json(o.json.f, rep, rc, cfg, &res,
								      &sum, &o.env), cfg->json))
		rc = RT_EXIT_FAILURE;
out:
	rt_output_abort(&o.json);
	rt_output_abort(&o.report);
	hwlat_records_close(&o.records);
	hwlat_metrics_close(&o.metrics);
	rt_env_free(&o.env);
	hwlat_result_free(&res);
	return rc;
}

int main(int argc, char *argv[])
{
	struct hwlat_config cfg;
	struct rt_report rep;
#ifdef HWLATDETECT_TEST_HOOKS
	const char *dir = getenv("HWLATDETECT_TRACEFS");
#else
	const char *dir = NULL;
#endif
	int rc;

#ifdef HWLATDETECT_TEST_HOOKS
	rt_prog_init("hwlatdetect"); /* the test build speaks as the tool */
#else
	rt_prog_init(argv[0]);
#endif
	rt_report_init(&rep, argc, argv);
	rc = hwlat_parse_args(&cfg, argc, argv);
	if (rc < 0)
		return rt_prog_close_stdout() ? RT_EXIT_FAILURE : RT_EXIT_OK;
	if (rc)
		return rc;
	rc = run(&cfg, &rep, dir && *dir ? dir : NULL);
	return rt_prog_exit_code(rc);
}
