// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ssdd: tracer/tracee pairs; each tracer single-steps its tracee with
 * PTRACE_SINGLESTEP and checks that every step ends in the SIGTRAP stop it
 * expects. Compatible with rt-tests 2.4 (see NEWS for what differs).
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "rt_affinity.h"
#include "rt_cli.h"
#include "rt_env.h"
#include "rt_output.h"
#include "rt_prog.h"
#include "rt_report.h"
#include "rt_signal.h"

#include "check.h"
#include "options.h"
#include "report.h"
#include "run.h"

/* Before any output: the JSON file, the machine. */
static int setup(const struct ssdd_config *cfg, struct rt_output *json, struct rt_env *env)
{
	/* nothing is timed: no warning about the priority or PM QoS */
	const struct rt_env_run how = { .realtime = true, .pm_qos_held = true };

	if (cfg->json && rt_cli_open_output(json, "json", cfg->json))
		return RT_EXIT_FAILURE;
	return rt_cli_machine_state_of(env, NULL, &how, cfg->preflight);
}

static int run(const struct ssdd_config *cfg, const struct rt_report *rep)
{
	struct rt_output json = { 0 };
	struct rt_env env = { 0 };
	struct ssdd_result res = { 0 };
	struct ssdd_ptrace_policy pol;
	struct ssdd_summary sum;
	sigset_t signals;
	int rc, err;

	if ((err = rt_signal_setup(&signals))) {
		rt_prog_error_errno(-err, "cannot set up signal handling");
		return RT_EXIT_FAILURE;
	}
	if ((rc = setup(cfg, &json, &env)))
		goto out;
	ssdd_print_header(stdout, cfg, (int)getpid());
	if ((rc = ssdd_run(cfg, &signals, &res)))
		goto out;
	ssdd_summarize(cfg, &res, &sum);
	ssdd_ptrace_policy_read(&pol);
	rc = ssdd_exit_code(&res, &sum);
	if (rc == RT_EXIT_FAILURE || (sum.failed && (sum.cannot || sum.died || res.fork_err)))
		ssdd_print_error(cfg, &res, &sum, &pol);
	ssdd_print_end(stdout, cfg, &res, &sum, rc);
	if (json.f) {
		err = ssdd_write_json(json.f, rep, rc, cfg, &res, &sum, &pol, &env);
		if (rt_cli_commit_json(&json, rt_output_why(&json, err), cfg->json))
			rc = RT_EXIT_FAILURE;
	}
out:
	rt_output_abort(&json);
	rt_env_free(&env);
	free(res.pairs);
	return rc;
}

int main(int argc, char *argv[])
{
	struct ssdd_config cfg;
	struct rt_report rep;
	int rc;

	rt_prog_init(argv[0]);
	rt_report_init(&rep, argc, argv);
	rc = ssdd_parse_args(&cfg, argc, argv);
	if (rc < 0)
		return rt_prog_close_stdout() ? RT_EXIT_FAILURE : RT_EXIT_OK;
	if (rc)
		return rc;
	if (cfg.ignored_words)
		rt_prog_error("warning: ignoring %d argument(s) that are not options, from '%s' "
			      "(as rt-tests 2.4 does)", cfg.ignored_words, cfg.ignored_word);
	rc = run(&cfg, &rep);
	return rt_prog_exit_code(rc);
}
