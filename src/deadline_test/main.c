// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * deadline_test: SCHED_DEADLINE threads each burn a calibrated share of
 * their runtime every period; deadlines and periods missed are counted per
 * thread. Compatible with rt-tests 2.4 (see NEWS for what differs). The
 * order of the steps is lib's (rt_tool); this file says what is its own.
 */
#include <stdio.h>

#include "rt_cli.h"
#include "rt_mem.h"
#include "rt_prog.h"
#include "rt_tool.h"
#include "rt_verdict.h"

#include "options.h"
#include "report.h"
#include "run.h"

struct dl_own {
	struct dl_totals tot;
};

static int parse(struct rt_tool *t, int argc, char *argv[])
{
	return deadline_test_parse_args(t->cfg, argc, argv);
}

/* Before any output: the machine. */
static int setup(struct rt_tool *t)
{
	const struct deadline_test_config *cfg = t->cfg;
	/* SCHED_DEADLINE threads: not a latency measurement at FIFO, no PM QoS */
	const struct rt_env_run how = { .realtime = true, .pm_qos_held = true };

	return rt_cli_machine_state_of(&t->env, cfg->cpus.count ? &cfg->cpus : NULL, &how,
				       cfg->common.preflight);
}

static int run(struct rt_tool *t)
{
	const struct deadline_test_config *cfg = t->cfg;
	const enum rt_judge how = cfg->common.verdict ? RT_JUDGE_ASKED : RT_JUDGE_NONE;
	struct dl_result *res = t->res;
	struct dl_own *j = t->own;
	int rc = deadline_test_run(cfg, &t->signals, res);

	if (rc || !res->started) {
		t->no_json = true;
		return rc;
	}
	j->tot = deadline_test_totals(res->threads, res->nthreads);
	deadline_test_judge(&t->verdict, cfg, res, &j->tot);
	for (int i = 0; i < res->nthreads; i++)
		deadline_test_print_thread(stdout, &res->threads[i]);
	if (rt_verdict_text_shown(&t->verdict, how))
		deadline_test_print_verdict(stdout, res, &j->tot, &t->verdict);
	return rt_verdict_exit_status(&t->verdict, how);
}

static int write_json(struct rt_tool *t, FILE *f, int rc)
{
	struct dl_own *j = t->own;

	return deadline_test_write_json(f, &t->rep, rc, t->cfg, t->res, &j->tot, &t->verdict,
					&t->env);
}

static void restore(struct rt_tool *t, int rc)
{
	struct dl_result *res = t->res;
	(void)rc;
	if (res->threads)
		rt_mem_free_pages(res->threads, sizeof(*res->threads) * (size_t)res->nthreads);
}

static const struct rt_tool_ops ops = { .parse = parse, .setup = setup, .run = run,
					.write_json = write_json, .restore = restore };

int main(int argc, char *argv[])
{
	struct deadline_test_config cfg;
	struct dl_result res = { 0 };
	struct dl_own own = { 0 };
	struct rt_tool t = { .ops = &ops, .cfg = &cfg, .res = &res, .own = &own,
			     .json_option = &cfg.common.json };

	return rt_tool_main(&t, argc, argv);
}
