// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pi_stress: groups of low, medium and high priority threads build priority
 * inversions on priority-inheritance mutexes, over and over; a watchdog
 * fails the test when a group's inversion is never resolved.
 * Compatible with rt-tests 2.4 (see NEWS for what differs). The order of
 * the steps is lib's (rt_tool); this file says what is its own.
 */
#include <stdio.h>
#include <stdlib.h>

#include "rt_cli.h"
#include "rt_prog.h"
#include "rt_sched.h"
#include "rt_tool.h"
#include "rt_verdict.h"
#include "rt_verdict_write.h"

#include "options.h"
#include "report.h"
#include "run.h"

static int parse(struct rt_tool *t, int argc, char *argv[])
{
	return pi_stress_parse_args(t->cfg, argc, argv);
}

/* Before any output: the permission, the machine. */
static int setup(struct rt_tool *t)
{
	const struct pi_stress_config *cfg = t->cfg;
	const struct pis_sched *admin = &cfg->sched[PIS_ADMIN];
	/* no latency is measured: no warning about PM QoS */
	struct rt_env_run how = { .realtime = true, .pm_qos_held = true };

	for (int r = 0; r < 3; r++)
		if (!rt_sched_policy_is_rt(cfg->sched[r].policy))
			how.realtime = false;
	if (rt_cli_check_rt_permission(admin->policy, admin->priority))
		return RT_EXIT_FAILURE;
	return rt_cli_machine_state_of(&t->env, NULL, &how, cfg->common.preflight);
}

static int run(struct rt_tool *t)
{
	const struct pi_stress_config *cfg = t->cfg;
	/* 2.4 judges stuck groups itself: that FAIL exits 3 even when not asked */
	const enum rt_judge how = cfg->common.verdict ? RT_JUDGE_ASKED : RT_JUDGE_NATIVE;
	struct pis_result *res = t->res;
	int rc;

	if (!cfg->quiet || cfg->verbose)
		pi_stress_print_banner(stdout, cfg);
	rc = pi_stress_run(cfg, &t->signals, res);
	if (!res->started) {
		t->no_json = true;
		return rc;
	}
	pi_stress_print_summary(stdout, res);
	pi_stress_judge(&t->verdict, cfg, res);
	return rt_tool_verdict_status(t, how, "ms", rc);
}

static int write_json(struct rt_tool *t, FILE *f, int rc)
{
	return pi_stress_write_json(f, &t->rep, rc, t->cfg, t->res, &t->verdict, &t->env);
}

static void restore(struct rt_tool *t, int rc)
{
	struct pis_result *res = t->res;

	pi_stress_result_free(res);
	if (res->not_joined) {
		/* a thread still holds the CPU: end them all with the process */
		rt_prog_close_stdout();
		_Exit(rc);
	}
}

static const struct rt_tool_ops ops = { .parse = parse, .setup = setup, .run = run,
					.write_json = write_json, .restore = restore };

int main(int argc, char *argv[])
{
	struct pi_stress_config cfg;
	struct pis_result res = { 0 };
	struct rt_tool t = { .ops = &ops, .cfg = &cfg, .res = &res,
			     .json_option = &cfg.common.json };

	return rt_tool_main(&t, argc, argv);
}
