// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * queuelat: simulates a network packet queue drained by a memmove workload
 * and stops when a packet would wait longer than the latency limit.
 * Compatible with rt-tests 2.4 (see NEWS for what differs). The order of
 * the steps is lib's (rt_tool); this file says what is its own.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "rt_cli.h"
#include "rt_env.h"
#include "rt_mem.h"
#include "rt_prog.h"
#include "rt_sched.h"
#include "rt_tool.h"
#include "rt_verdict.h"
#include "rt_verdict_write.h"

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

/* What the run needs beside the configuration and the result. */
struct ql_own {
	enum ql_tsc_source src;
	struct ql_model model;
	int marker;
};

static int parse(struct rt_tool *t, int argc, char *argv[])
{
	return queuelat_parse_args(t->cfg, argc, argv);
}

/* Before any output: the TSC frequency, the machine. */
static int setup(struct rt_tool *t)
{
	struct queuelat_config *cfg = t->cfg;
	struct ql_own *o = t->own;
	const struct rt_env_run how = { .realtime = rt_sched_policy_is_rt(rt_sched_policy_in_force()) };
	char why[256];

	o->src = QL_TSC_OPTION;
	if (cfg->freq_mhz <= 0 && ql_tsc_detect(&cfg->freq_mhz, &o->src, why, sizeof(why))) {
		rt_prog_error("cannot find the TSC frequency: %s; pass it with -f MHz", why);
		return RT_EXIT_FAILURE;
	}
	return rt_cli_machine_state_of(&t->env, NULL, &how, cfg->common.preflight);
}

static void calibrated(void *ctx, const struct ql_result *res)
{
	const struct queuelat_config *cfg = ctx;

	if (res->calib_limited)
		rt_prog_error("warning: a %zu-byte memmove takes only %lld ns, less than -m / 2; "
			      "each block drains %lld packets", res->block_bytes,
			      (long long)res->calib_mode_ns, (long long)res->drain_per_block);
	ql_print_calibration(stdout, res, cfg->mpps);
}

static int run(struct rt_tool *t)
{
	const struct queuelat_config *cfg = t->cfg;
	const enum rt_judge how = cfg->common.verdict ? RT_JUDGE_ASKED : RT_JUDGE_NONE;
	struct ql_result *res = t->res;
	struct ql_own *o = t->own;
	int err;

	ql_model_init(&o->model, cfg);
	rt_mem_lock_all_if_unlimited();
	o->marker = open_marker();
	ql_print_header(stdout, &o->model, cfg->freq_mhz, o->src);
	if ((err = ql_run(cfg, &o->model, o->marker, res, calibrated, t->cfg))) {
		fflush(stdout);
		rt_prog_error_errno(-err, "cannot start the measuring thread");
		t->no_json = true;
		return RT_EXIT_FAILURE;
	}
	ql_print_result(stdout, res, &o->model);
	ql_judge(&t->verdict, cfg, res, &o->model);
	return rt_tool_verdict_status(t, how, "ns", RT_EXIT_OK);
}

static int write_json(struct rt_tool *t, FILE *f, int rc)
{
	const struct queuelat_config *cfg = t->cfg;
	struct ql_own *o = t->own;

	return ql_write_json(f, &t->rep, rc, cfg, &o->model, cfg->freq_mhz, o->src, t->res,
			     &t->verdict, &t->env);
}

static void restore(struct rt_tool *t, int rc)
{
	struct ql_own *o = t->own;

	(void)rc;
	if (o->marker >= 0)
		close(o->marker);
}

static const struct rt_tool_ops ops = { .parse = parse, .setup = setup, .run = run,
					.write_json = write_json, .restore = restore };

int main(int argc, char *argv[])
{
	struct queuelat_config cfg;
	struct ql_own own = { .marker = -1 };
	struct ql_result res = { .policy = -1 }; /* the histograms: 11 kB */
	struct rt_tool t = { .ops = &ops, .cfg = &cfg, .res = &res, .own = &own,
			     .json_option = &cfg.common.json };

	return rt_tool_main(&t, argc, argv);
}
