// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * queuelat: simulates a network packet queue drained by a memmove workload
 * and stops when a packet would wait longer than the latency limit.
 * Compatible with rt-tests 2.4 (see NEWS for what differs).
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "rt_affinity.h"
#include "rt_cli.h"
#include "rt_env.h"
#include "rt_mem.h"
#include "rt_output.h"
#include "rt_prog.h"
#include "rt_report.h"
#include "rt_sched.h"
#include "rt_signal.h"

#include "options.h"
#include "report.h"
#include "run.h"
#include "tsc.h"

/* 2.4 wrote to debugfs' trace_marker only; tracefs' own mount first. Never mounted here. */
static int open_marker(void)
{
	static const char *const paths[] = {
		"/sys/kernel/tracing/trace_marker",
		"/sys/kernel/debug/tracing/trace_marker",
	};

	for (size_t i = 0; i < sizeof(paths) / sizeof(paths[0]); i++) {
		int fd = open(paths[i], O_WRONLY | O_CLOEXEC);

		if (fd >= 0)
			return fd;
	}
	return -1;
}

/* Before any output: the TSC frequency, the JSON file, the machine. */
static int setup(struct queuelat_config *cfg, enum ql_tsc_source *src, struct rt_output *json,
		 struct rt_env *env)
{
	const struct rt_env_run how = { .realtime = rt_sched_policy_is_rt(rt_sched_policy_in_force()) };
	char why[256];

	*src = QL_TSC_OPTION;
	if (cfg->freq_mhz <= 0 && ql_tsc_detect(&cfg->freq_mhz, src, why, sizeof(why))) {
		rt_prog_error("cannot find the TSC frequency: %s; pass it with -f MHz", why);
		return RT_EXIT_FAILURE;
	}
	if (cfg->json && rt_cli_open_output(json, "json", cfg->json))
		return RT_EXIT_FAILURE;
	return rt_cli_machine_state_of(env, NULL, &how, cfg->preflight);
}

struct calib_ctx {
	double mpps;
};

static void calibrated(void *ctx, const struct ql_result *res)
{
	const struct calib_ctx *c = ctx;

	if (res->calib_limited)
		rt_prog_error("warning: a %zu-byte memmove takes only %lld ns, less than -m / 2; "
			      "each block drains %lld packets", res->block_bytes,
			      (long long)res->calib_mode_ns, (long long)res->drain_per_block);
	ql_print_calibration(stdout, res, c->mpps);
}

static int run(struct queuelat_config *cfg, const struct rt_report *rep)
{
	struct rt_output json = { 0 };
	struct rt_env env = { 0 };
	struct ql_result *res = calloc(1, sizeof(*res));
	struct calib_ctx cctx = { cfg->mpps };
	enum ql_tsc_source src;
	struct ql_model model;
	sigset_t signals;
	int rc, err, marker = -1;

	if (!res) {
		rt_prog_error_errno(ENOMEM, "cannot allocate the histograms");
		return RT_EXIT_FAILURE;
	}
	if ((err = rt_signal_setup(&signals))) {
		rt_prog_error_errno(-err, "cannot set up signal handling");
		free(res);
		return RT_EXIT_FAILURE;
	}
	if ((rc = setup(cfg, &src, &json, &env)))
		goto out;
	ql_model_init(&model, cfg);
	rt_mem_lock_all_if_unlimited();
	marker = open_marker();
	ql_print_header(stdout, &model, cfg->freq_mhz, src);
	if ((err = ql_run(cfg, &model, marker, res, calibrated, &cctx))) {
		fflush(stdout);
		rt_prog_error_errno(-err, "cannot start the measuring thread");
		rc = RT_EXIT_FAILURE;
		goto out;
	}
	ql_print_result(stdout, res, &model);
	rc = ql_verdict(res);
	if (json.f) {
		if (rt_cli_commit_json(&json, ql_write_json(json.f, rep, rc, cfg, &model, cfg->freq_mhz, src, res, &env), cfg->json))
			rc = RT_EXIT_FAILURE;
	}
out:
	if (marker >= 0)
		close(marker);
	rt_output_abort(&json);
	rt_env_free(&env);
	free(res);
	return rc;
}

int main(int argc, char *argv[])
{
	struct queuelat_config cfg;
	struct rt_report rep;
	int rc;

	rt_prog_init(argv[0]);
	rt_report_init(&rep, argc, argv);
	rc = queuelat_parse_args(&cfg, argc, argv);
	if (rc < 0)
		return rt_prog_close_stdout() ? RT_EXIT_FAILURE : RT_EXIT_OK;
	if (rc)
		return rc;
	rc = run(&cfg, &rep);
	return rt_prog_exit_code(rc);
}
