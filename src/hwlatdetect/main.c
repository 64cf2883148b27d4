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
#include "rt_tool.h"
#include "rt_time.h"

#include "guard.h"
#include "metrics.h"
#include "options.h"
#include "records.h"
#include "report.h"
#include "run.h"
#include "tracer.h"

/* What the run needs beside the configuration and the result. */
struct hwlat_own {
	const char *dir;              /* the test build's tracefs, NULL: the real one */
	struct rt_output report;      /* --report */
	struct hwlat_records records;
	struct hwlat_metrics metrics;
	struct hwlat_summary sum;     /* of the samples, once the run is over */
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

static int parse(struct rt_tool *t, int argc, char *argv[])
{
	return hwlat_parse_args(t->cfg, argc, argv);
}

/* Before tracefs is written: the tracer, the other output files, the machine's state. */
static int setup(struct rt_tool *t)
{
	const struct hwlat_config *cfg = t->cfg;
	struct hwlat_own *o = t->own;
	const struct rt_env_run how = { .realtime = true, .pm_qos_held = true };
	int rc, err;

	if ((rc = find_tracer(cfg, o->dir)))
		return rc;
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
	return rt_cli_machine_state_of(&t->env, NULL, &how, cfg->common.preflight);
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

/* The sampling itself, between the tracer's set-up and the restore of its settings. */
static int sample(struct rt_tool *t, struct hwlat_tracer *tr, double *done_s)
{
	const struct hwlat_config *cfg = t->cfg;
	struct hwlat_own *o = t->own;
	struct hwlat_result *res = t->res;
	struct live live = { cfg, res, &o->records, &o->metrics };
	const struct hwlat_hooks hooks = { on_sample, on_tick, &live };
	int64_t started_ns;
	int rc, err;

	if ((rc = hwlat_apply(cfg, tr, res)))
		return rc;
	if (!cfg->quiet)
		hwlat_print_header(stdout, cfg, res);
	if (!o->dir)
		hwlat_read_smis(res, false);
	if ((err = hwlat_records_start(&o->records, &t->rep, cfg, res, &t->env)))
		rt_prog_error_errno(-err, "cannot write --records file '%s'", cfg->records);
	hwlat_metrics_start(&o->metrics, cfg, tr->saved[HWLAT_CPUMASK], res, &t->env);
	started_ns = rt_time_mono_ns();
	rc = hwlat_measure(cfg, tr, &t->signals, res, &hooks);
	*done_s = (double)(rt_time_mono_ns() - started_ns) / 1e9;
	if (res->stop_signal && !cfg->quiet)
		puts("interrupted");
	return rc;
}

/* The tracer's settings are saved first and put back on every path after. */
static int trace(struct rt_tool *t, double *done_s)
{
	struct hwlat_tracer tr = { .pipe_fd = -1 };
	struct hwlat_guard guard;
	enum hwlat_file which;
	int rc, err;

	if ((err = hwlat_tracer_save(&tr, &which))) {
		rt_prog_error_errno(-err, "cannot read the tracefs file %s", hwlat_file_name(which));
		return RT_EXIT_FAILURE;
	}
	/* best effort: without it, only SIGKILL would leave the settings changed */
	hwlat_guard_start(&guard, &tr);
	if (((const struct hwlat_config *)t->cfg)->debug)
		puts("debugging prints turned on");
	rc = sample(t, &tr, done_s);
	if ((err = hwlat_tracer_restore(&tr, &which))) {
		rt_prog_error_errno(-err, "cannot restore the tracefs file %s to '%s'",
				    hwlat_file_name(which), tr.saved[which]);
		rc = RT_EXIT_FAILURE;
	}
	hwlat_guard_release(&guard);
	return rc;
}

/* The report, the exit status, the last record and metrics. */
static int report(struct rt_tool *t, double done_s, int rc)
{
	const struct hwlat_config *cfg = t->cfg;
	struct hwlat_own *o = t->own;
	struct hwlat_result *res = t->res;
	int err, verdict;

	hwlat_read_smis(res, true);
	hwlat_summarize(res->samples, res->n, res->window_us, res->width_us, &o->sum);
	if (hwlat_judge(cfg, res, &o->sum, done_s))
		rc = RT_EXIT_FAILURE;
	if (hwlat_finish_report(stdout, cfg, &o->report, res, &o->sum))
		rc = RT_EXIT_FAILURE;
	/* 2.4's status: 1 when the hardlimit was exceeded; --verdict: 3 unless PASS */
	if (!rc && cfg->common.verdict)
		rc = rt_verdict_exit_status(&res->verdict, RT_JUDGE_ASKED);
	else if (!rc && hwlat_failed(res, &o->sum))
		rc = RT_EXIT_FAILURE;
	if ((err = hwlat_records_finish(&o->records, res, &o->sum, hwlat_failed(res, &o->sum)))) {
		rt_prog_error_errno(-err, "cannot write --records file '%s'", cfg->records);
		rc = RT_EXIT_FAILURE;
	}
	/* rt_verdict only with --hardlimit, as the other tools' only with --max-* */
	verdict = cfg->hardlimit_us < 0 ? RT_METRICS_NO_VERDICT : !hwlat_failed(res, &o->sum);
	if ((err = hwlat_metrics_finish(&o->metrics, res, verdict))) {
		rt_prog_error_errno(-err, "cannot write --metrics file '%s'", cfg->metrics);
		rc = RT_EXIT_FAILURE;
	}
	return rc;
}

static int run(struct rt_tool *t)
{
	struct hwlat_result *res = t->res;
	double done_s = 0;
	int rc = trace(t, &done_s);

	if (!res->started) {
		t->no_json = true;
		return rc;
	}
	return report(t, done_s, rc);
}

static int write_json(struct rt_tool *t, FILE *f, int rc)
{
	struct hwlat_own *o = t->own;

	return hwlat_write_json(f, &t->rep, rc, t->cfg, t->res, &o->sum, &t->env);
}

static void restore(struct rt_tool *t, int rc)
{
	struct hwlat_own *o = t->own;

	(void)rc;
	rt_output_abort(&o->report);
	hwlat_records_close(&o->records);
	hwlat_metrics_close(&o->metrics);
	hwlat_result_free(t->res);
}

static const struct rt_tool_ops ops = { .parse = parse, .setup = setup, .run = run,
					.write_json = write_json, .restore = restore };

int main(int argc, char *argv[])
{
	struct hwlat_config cfg;
	struct hwlat_result res = { 0 };
	struct hwlat_own own = { 0 };
	struct rt_tool t = { .ops = &ops, .cfg = &cfg, .res = &res, .own = &own,
			     .json_option = &cfg.common.json };

#ifdef HWLATDETECT_TEST_HOOKS
	own.dir = getenv("HWLATDETECT_TRACEFS");
	if (own.dir && !*own.dir)
		own.dir = NULL;
	t.prog_name = "hwlatdetect"; /* the test build speaks as the tool */
#endif
	return rt_tool_main(&t, argc, argv);
}
