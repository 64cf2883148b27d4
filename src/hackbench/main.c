// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * hackbench: groups of senders and receivers pass messages over sockets or
 * pipes, as processes or threads; a scheduler benchmark and a load.
 * Compatible with rt-tests 2.4 (see NEWS for what differs).
 */
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>

#include "rt_affinity.h"
#include "rt_cli.h"
#include "rt_env.h"
#include "rt_output.h"
#include "rt_prog.h"
#include "rt_report.h"
#include "rt_tool.h"
#include "rt_verdict.h"
#include "rt_verdict_write.h"

#include "options.h"
#include "report.h"
#include "run.h"

/* 2.4's forms a harness passes (Linaro's one-word options): warnings, not errors. */
static int warn_ignored(struct rt_tool *t)
{
	const struct hackbench_config *cfg = t->cfg;

	if (cfg->one_word_opt)
		rt_prog_error("warning: --%s: ignoring '%s' after the number, as rt-tests 2.4 "
			      "does (options given as one argument?)", cfg->one_word_opt,
			      cfg->one_word_rest);
	if (cfg->ignored_words)
		rt_prog_error("warning: ignoring %d argument(s) that are not options, from '%s' "
			      "(as rt-tests 2.4 does)", cfg->ignored_words, cfg->ignored_word);
	return 0;
}

static int parse(struct rt_tool *t, int argc, char *argv[])
{
	return hackbench_parse_args(t->cfg, argc, argv);
}

/* Before any output: -F's permission, the descriptors, the machine. */
static int setup(struct rt_tool *t)
{
	const struct hackbench_config *cfg = t->cfg;
	/* a load: no latency is measured, so no warning about its priority or PM QoS */
	const struct rt_env_run how = { .realtime = true, .pm_qos_held = true };
	uint64_t needed, limit;

	if (cfg->fifo && rt_cli_check_rt_permission(SCHED_FIFO, 1))
		return RT_EXIT_FAILURE;
	if (hackbench_check_fd_limit(cfg, &needed, &limit)) {
		if (cfg->threads)
			rt_prog_error("%llu file descriptors needed (2 x %d groups x %d fds, and a few), "
				      "but the limit (ulimit -n) is %llu", (unsigned long long)needed,
				      cfg->groups, cfg->fds, (unsigned long long)limit);
		else
			rt_prog_error("%llu file descriptors needed (2 x %d fds, and a few), but the "
				      "limit (ulimit -n) is %llu", (unsigned long long)needed, cfg->fds,
				      (unsigned long long)limit);
		return RT_EXIT_FAILURE;
	}
	return rt_cli_machine_state_of(&t->env, NULL, &how, cfg->common.preflight);
}

static void round_done(void *ctx, const struct hb_result *res, const struct hb_round *r)
{
	(void)ctx;
	(void)res;
	hackbench_print_round(stdout, r);
}

static int run(struct rt_tool *t)
{
	const struct hackbench_config *cfg = t->cfg;
	/* 2.4 only measures: a judgement only when asked */
	const enum rt_judge how = cfg->common.verdict ? RT_JUDGE_ASKED : RT_JUDGE_NONE;
	struct hb_result *res = t->res;
	int rc;

	hackbench_print_header(stdout, cfg);
	rc = hackbench_run(cfg, &t->signals, res, round_done, NULL);
	if (res->not_started)
		fputs("No measurements available\n", stderr);
	if (cfg->duration_s && res->nrounds)
		hackbench_print_total(stdout, res);
	hackbench_judge(&t->verdict, cfg, res, rc);
	return rt_tool_verdict_status(t, how, "s", rc);
}

static int write_json(struct rt_tool *t, FILE *f, int rc)
{
	return hackbench_write_json(f, &t->rep, rc, t->cfg, t->res, &t->verdict, &t->env);
}

static void restore(struct rt_tool *t, int rc)
{
	struct hb_result *res = t->res;

	(void)rc;
	free(res->rounds);
}

static const struct rt_tool_ops ops = { .parse = parse, .validate = warn_ignored,
					.setup = setup, .run = run,
					.write_json = write_json, .restore = restore };

int main(int argc, char *argv[])
{
	struct hackbench_config cfg;
	struct hb_result res = { 0 };
	struct rt_tool t = { .ops = &ops, .cfg = &cfg, .res = &res,
			     .json_option = &cfg.common.json };

	return rt_tool_main(&t, argc, argv);
}
