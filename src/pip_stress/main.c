// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pip_stress: a priority inversion over processes (low, medium and high
 * priority, on one CPU) sharing a priority inheritance mutex in shared
 * memory; PASS when the high priority process gets the mutex before the
 * medium one has finished its busy work. Compatible with rt-tests 2.4 (see
 * NEWS for what differs). The order of the steps is lib's (rt_tool); this
 * file says what is its own.
 */
#include <sched.h>
#include <stdio.h>

#include "rt_affinity.h"
#include "rt_cli.h"
#include "rt_prog.h"
#include "rt_tool.h"

#include "options.h"
#include "report.h"
#include "run.h"

static int parse(struct rt_tool *t, int argc, char *argv[])
{
	return pip_parse_args(t->cfg, argc, argv);
}

/* Before any output: the permission, the machine. */
static int setup(struct rt_tool *t)
{
	const struct pip_config *cfg = t->cfg;
	struct rt_cpulist allowed, measured = { 0 };
	/* nothing measured in microseconds: no warning about PM QoS */
	const struct rt_env_run how = { .realtime = true, .pm_qos_held = true };
	int err;

	if (rt_cli_check_rt_permission(SCHED_FIFO, PIP_PRIO_PARENT))
		return RT_EXIT_FAILURE;
	if ((err = rt_affinity_allowed(&allowed))) {
		rt_prog_error_errno(-err, "cannot read the machine's state");
		return RT_EXIT_FAILURE;
	}
	/* the three processes run on the first allowed CPU */
	rt_env_add_measured(&measured, allowed.count ? allowed.cpu[0] : -1, &allowed);
	return rt_cli_machine_state(&t->env, &measured, &how, cfg->common.preflight);
}

static int run(struct rt_tool *t)
{
	const struct pip_config *cfg = t->cfg;
	/* an unresolved inversion is pip_stress's own failure: exit 3 even when not asked */
	const enum rt_judge how = cfg->common.verdict ? RT_JUDGE_ASKED : RT_JUDGE_NATIVE;
	struct pip_result *res = t->res;
	int rc = pip_run(cfg, &t->signals, res);

	pip_judge(&t->verdict, cfg, res);
	pip_print_result(stdout, res);
	return rt_tool_verdict_status(t, how, "ms", rc);
}

static int write_json(struct rt_tool *t, FILE *f, int rc)
{
	return pip_write_json(f, &t->rep, rc, t->cfg, t->res, &t->verdict, &t->env);
}

static const struct rt_tool_ops ops = { .parse = parse, .setup = setup, .run = run,
					.write_json = write_json };

int main(int argc, char *argv[])
{
	struct pip_config cfg;
	struct pip_result res = { 0 };
	struct rt_tool t = { .ops = &ops, .cfg = &cfg, .res = &res,
			     .json_option = &cfg.common.json };

	return rt_tool_main(&t, argc, argv);
}
