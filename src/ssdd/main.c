// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ssdd: tracer/tracee pairs; each tracer single-steps its tracee with
 * PTRACE_SINGLESTEP and checks that every step ends in the SIGTRAP stop it
 * expects. Compatible with rt-tests 2.4 (see NEWS for what differs). The
 * order of the steps is lib's (rt_tool); this file says what is its own.
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "rt_cli.h"
#include "rt_prog.h"
#include "rt_tool.h"
#include "rt_verdict.h"
#include "rt_verdict_write.h"

#include "check.h"
#include "options.h"
#include "report.h"
#include "run.h"

struct ssdd_own {
	struct ssdd_summary sum;
	struct ssdd_ptrace_policy pol;
};

static int parse(struct rt_tool *t, int argc, char *argv[])
{
	return ssdd_parse_args(t->cfg, argc, argv);
}

/* Red Hat's test passes `ssdd 10 10000`: 2.4 ignores the words, we warn. */
static int validate(struct rt_tool *t)
{
	const struct ssdd_config *cfg = t->cfg;

	if (cfg->ignored_words)
		rt_prog_error("warning: ignoring %d argument(s) that are not options, from '%s' "
			      "(as rt-tests 2.4 does)", cfg->ignored_words, cfg->ignored_word);
	return 0;
}

/* Before any output: the machine. */
static int setup(struct rt_tool *t)
{
	const struct ssdd_config *cfg = t->cfg;
	/* nothing is timed: no warning about the priority or PM QoS */
	const struct rt_env_run how = { .realtime = true, .pm_qos_held = true };

	return rt_cli_machine_state_of(&t->env, NULL, &how, cfg->common.preflight);
}

static int run(struct rt_tool *t)
{
	const struct ssdd_config *cfg = t->cfg;
	/* a wrong step is 2.4's own failure: exit 3 even when not asked */
	const enum rt_judge how = cfg->common.verdict ? RT_JUDGE_ASKED : RT_JUDGE_NATIVE;
	struct ssdd_result *res = t->res;
	struct ssdd_own *j = t->own;
	int rc;

	ssdd_print_header(stdout, cfg, (int)getpid());
	if ((rc = ssdd_run(cfg, &t->signals, res))) {
		t->no_json = true;
		return rc;
	}
	ssdd_summarize(cfg, res, &j->sum);
	ssdd_ptrace_policy_read(&j->pol);
	rc = ssdd_exit_code(res, &j->sum);
	if (rc == RT_EXIT_FAILURE || (j->sum.failed && (j->sum.cannot || j->sum.died ||
							res->fork_err)))
		ssdd_print_error(cfg, res, &j->sum, &j->pol);
	ssdd_print_end(stdout, cfg, res, &j->sum, rc);
	ssdd_judge(&t->verdict, cfg, res, &j->sum);
	/* a run that could not run said why on stderr: no verdict lines unasked */
	if (rt_verdict_text_shown(&t->verdict, how) && (rc != RT_EXIT_FAILURE || cfg->common.verdict))
		rt_verdict_write_text(stdout, &t->verdict, "steps");
	return rc == RT_EXIT_FAILURE ? rc : rt_verdict_exit_status(&t->verdict, how);
}

static int write_json(struct rt_tool *t, FILE *f, int rc)
{
	struct ssdd_own *j = t->own;

	return ssdd_write_json(f, &t->rep, rc, t->cfg, t->res, &j->sum, &j->pol, &t->verdict,
			       &t->env);
}

static void restore(struct rt_tool *t, int rc)
{
	struct ssdd_result *res = t->res;
	(void)rc;
	free(res->pairs);
}

static const struct rt_tool_ops ops = { .parse = parse, .validate = validate,
					.setup = setup, .run = run,
					.write_json = write_json, .restore = restore };

int main(int argc, char *argv[])
{
	struct ssdd_config cfg;
	struct ssdd_result res = { 0 };
	struct ssdd_own own = { 0 };
	struct rt_tool t = { .ops = &ops, .cfg = &cfg, .res = &res, .own = &own,
			     .json_option = &cfg.common.json };

	return rt_tool_main(&t, argc, argv);
}
