// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pip_stress: a priority inversion over processes (low, medium and high
 * priority, on one CPU) sharing a priority inheritance mutex in shared
 * memory; PASS when the high priority process gets the mutex before the
 * medium one has finished its busy work. Compatible with rt-tests 2.4 (see
 * NEWS for what differs).
 */
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
#include "rt_signal.h"

#include "options.h"
#include "report.h"
#include "run.h"

/* Before any output: the JSON file, the permission, the machine. */
static int setup(const struct pip_config *cfg, struct rt_output *json, struct rt_env *env)
{
	struct rt_cpulist allowed, measured = { 0 };
	/* nothing measured in microseconds: no warning about PM QoS */
	const struct rt_env_run how = { .realtime = true, .pm_qos_held = true };
	int err;

	if (cfg->json && rt_cli_open_output(json, "json", cfg->json))
		return RT_EXIT_FAILURE;
	if (rt_cli_check_rt_permission(SCHED_FIFO, PIP_PRIO_PARENT))
		return RT_EXIT_FAILURE;
	if ((err = rt_affinity_allowed(&allowed))) {
		rt_prog_error_errno(-err, "cannot read the machine's state");
		return RT_EXIT_FAILURE;
	}
	/* the three processes run on the first allowed CPU */
	rt_env_add_measured(&measured, allowed.count ? allowed.cpu[0] : -1, &allowed);
	return rt_cli_machine_state(env, &measured, &how, cfg->preflight);
}

static int run(const struct pip_config *cfg, const struct rt_report *rep)
{
	struct rt_output json = { 0 };
	struct rt_env env = { 0 };
	struct pip_result res;
	sigset_t signals;
	int rc, err;

	if ((err = rt_signal_setup(&signals))) {
		rt_prog_error_errno(-err, "cannot set up signal handling");
		return RT_EXIT_FAILURE;
	}
	if ((rc = setup(cfg, &json, &env)))
		goto out;
	rc = pip_run(cfg, &signals, &res);
	pip_print_result(stdout, cfg, &res);
	if (rc == RT_EXIT_OK)
		rc = pip_exit_code(&res);
	if (json.f) {
		if (rt_cli_commit_json(&json, pip_write_json(json.f, rep, rc, cfg, &res, &env), cfg->json))
			rc = RT_EXIT_FAILURE;
	}
out:
	rt_output_abort(&json);
	rt_env_free(&env);
	return rc;
}

int main(int argc, char *argv[])
{
	struct pip_config cfg;
	struct rt_report rep;
	int rc;

	rt_prog_init(argv[0]);
	rt_report_init(&rep, argc, argv);
	rc = pip_parse_args(&cfg, argc, argv);
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
