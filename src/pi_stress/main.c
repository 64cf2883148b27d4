// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pi_stress: groups of low, medium and high priority threads build priority
 * inversions on priority-inheritance mutexes, over and over; a watchdog
 * fails the test when a group's inversion is never resolved.
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
#include "rt_sched.h"
#include "rt_signal.h"

#include "options.h"
#include "report.h"
#include "run.h"

/* Before any output: the JSON file, the permission, the machine. */
static int setup(const struct pi_stress_config *cfg, struct rt_output *json, struct rt_env *env)
{
	const struct pis_sched *admin = &cfg->sched[PIS_ADMIN];
	/* no latency is measured: no warning about PM QoS */
	struct rt_env_run how = { .realtime = true, .pm_qos_held = true };

	for (int r = 0; r < 3; r++)
		if (!rt_sched_policy_is_rt(cfg->sched[r].policy))
			how.realtime = false;
	if (cfg->json && rt_cli_open_output(json, "json", cfg->json))
		return RT_EXIT_FAILURE;
	if (rt_cli_check_rt_permission(admin->policy, admin->priority))
		return RT_EXIT_FAILURE;
	return rt_cli_machine_state_of(env, NULL, &how, cfg->preflight);
}

static int run(const struct pi_stress_config *cfg, const struct rt_report *rep)
{
	struct rt_output json = { 0 };
	struct rt_env env = { 0 };
	struct pis_result res = { 0 };
	sigset_t signals;
	int rc, err;

	if ((err = rt_signal_setup(&signals))) {
		rt_prog_error_errno(-err, "cannot set up signal handling");
		return RT_EXIT_FAILURE;
	}
	if ((rc = setup(cfg, &json, &env)))
		goto out;
	if (!cfg->quiet || cfg->verbose)
		pi_stress_print_banner(stdout, cfg);
	rc = pi_stress_run(cfg, &signals, &res);
	if (res.started) {
		pi_stress_print_summary(stdout, &res);
		pi_stress_print_verdict(stdout, cfg, &res);
		if (rc == RT_EXIT_OK && res.nstuck)
			rc = RT_EXIT_VERDICT;
	}
	fflush(stdout);
	if (json.f && res.started) {
		if (rt_cli_commit_json(&json, pi_stress_write_json(json.f, rep, rc, cfg, &res, &env), cfg->json))
			rc = RT_EXIT_FAILURE;
	}
out:
	rt_output_abort(&json);
	rt_env_free(&env);
	pi_stress_result_free(&res);
	if (res.not_joined) {
		/* a thread still holds the CPU: end them all with the process */
		rt_prog_close_stdout();
		_Exit(rc);
	}
	return rc;
}

int main(int argc, char *argv[])
{
	struct pi_stress_config cfg;
	struct rt_report rep;
	int rc;

	rt_prog_init(argv[0]);
	rt_report_init(&rep, argc, argv);
	rc = pi_stress_parse_args(&cfg, argc, argv);
	if (rc < 0)
		return rt_prog_close_stdout() ? RT_EXIT_FAILURE : RT_EXIT_OK;
	if (rc)
		return rc;
	rc = run(&cfg, &rep);
	return rt_prog_exit_code(rc);
}
