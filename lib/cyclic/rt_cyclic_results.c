// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * After the join: one run's final numbers judged, written (--histfile,
 * --json, --records, --metrics, --analyze) and printed, in 2.4's order.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "rt_cyclic_results.h"

#include "rt_cli.h"
#include "rt_isolation.h"
#include "rt_metrics.h"
#include "rt_output.h"
#include "rt_prog.h"
#include "rt_records.h"
#include "rt_time.h"
#include "rt_verdict.h"
#include "rt_verdict_write.h"

#include "rt_cyclic_analyze.h"
#include "rt_cyclic_loop.h"
#include "rt_cyclic_report.h"
#include "rt_cyclic_status.h"

/*
 * --max-*: judged once, before the JSON (which carries the verdict and the
 * exit code). FAIL turns a clean run's exit code into RT_EXIT_FAIL.
 */
/* -b: the thread whose latency crossed the break threshold, or NULL. */
static const struct rt_check_failure *break_of(const struct ct_ctx *c, struct rt_cli_break *b)
{
	bool ns = c->cfg->nsecs;
	int64_t value;
	int i;

	if (!c->run.workers || (i = rt_workers_break(c->run.workers, &value)) < 0)
		return NULL;
	return rt_cli_break(b, RT_SUBJECT_THREAD, i, value, c->cfg->breaktrace_us * (ns ? 1000 : 1),
			    ns ? "ns" : "us");
}

static int judge(struct ct_ctx *c, int rc)
{
	const struct cyclictest_config *cfg = c->cfg;
	struct rt_cli_break brk;
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
			    c->run.nthreads, break_of(c, &brk), rc);
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
					 c->judged ? rt_verdict_passed(&c->verdict) : RT_METRICS_NO_VERDICT, c->iso))) {
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
int ct_report(struct ct_ctx *c)
{
	const struct cyclictest_config *cfg = c->cfg;
	struct ct_run *run = &c->run;
	int rc, err;

	if (cfg->verbose)
		cyclictest_print_samples(stdout, run);
	if (cfg->smi)
		ct_update_smi(run);
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
