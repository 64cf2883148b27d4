// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rt-migrate-test: NR_TASKS SCHED_FIFO tasks of rising priority, released
 * together each iteration, busy-loop; -c checks that a task never waited
 * while one of lower priority ran (real-time push/pull migration), and is
 * the verdict. Compatible with rt-tests 2.4 (see NEWS for what differs).
 * The order of the steps is lib's (rt_tool); this file says what is its own.
 */
#include <sched.h>
#include <stdio.h>
#include <unistd.h>

#include "rt_cli.h"
#include "rt_mem.h"
#include "rt_prog.h"
#include "rt_tool.h"
#include "rt_verdict.h"
#include "rt_verdict_write.h"

#include "options.h"
#include "report.h"
#include "run.h"

static int parse(struct rt_tool *t, int argc, char *argv[])
{
	return migrate_parse_args(t->cfg, argc, argv);
}

/* Before any output: the permission, the machine. */
static int setup(struct rt_tool *t)
{
	const struct migrate_config *cfg = t->cfg;
	const struct rt_env_run how = { .realtime = true, .pm_qos_held = true };
	int rc;

	if (rt_cli_check_rt_permission(SCHED_FIFO, migrate_task_prio(cfg, cfg->nr_tasks)))
		return RT_EXIT_FAILURE;
	if ((rc = rt_cli_machine_state_of(&t->env, NULL, &how, cfg->common.preflight)))
		return rc;
	/* as root: no page fault in the busy loops (a failure only costs latency) */
	rt_mem_lock_all_if_unlimited();
	return 0;
}

/* -c judges natively, --verdict asks; without either 2.4 only measures. */
static enum rt_judge judge_how(const struct migrate_config *cfg)
{
	return cfg->common.verdict ? RT_JUDGE_ASKED : cfg->check ? RT_JUDGE_NATIVE : RT_JUDGE_NONE;
}

static int run(struct rt_tool *t)
{
	const struct migrate_config *cfg = t->cfg;
	struct migrate_result *res = t->res;
	int rc = migrate_run(cfg, &t->signals, res);

	if (rc != RT_EXIT_OK) {
		t->no_json = true;
		return rc;
	}
	if (!res->iterations)
		fputs("No measurements available\n", stderr);
	migrate_judge(&t->verdict, cfg, res);
	migrate_print(stdout, cfg, res, getpid());
	rc = rt_tool_verdict_status(t, judge_how(cfg), "us", rc);
	/* a clean run stopped by a signal: 128 + it (non-zero, as 2.4's 1, so
	 * that a shell loop stops) */
	return rc == RT_EXIT_OK && res->stop_signal ? 128 + res->stop_signal : rc;
}

static int write_json(struct rt_tool *t, FILE *f, int rc)
{
	return migrate_write_json(f, &t->rep, rc, t->cfg, t->res, &t->verdict, &t->env);
}

static void restore(struct rt_tool *t, int rc)
{
	(void)rc;
	migrate_result_free(t->res);
}

static const struct rt_tool_ops ops = { .parse = parse, .setup = setup, .run = run,
					.write_json = write_json, .restore = restore };

int main(int argc, char *argv[])
{
	struct migrate_config cfg;
	struct migrate_result res = { 0 };
	struct rt_tool t = { .ops = &ops, .cfg = &cfg, .res = &res,
			     .json_option = &cfg.common.json };

	return rt_tool_main(&t, argc, argv);
}
