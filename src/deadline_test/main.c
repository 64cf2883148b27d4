// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * deadline_test: SCHED_DEADLINE threads each burn a calibrated share of
 * their runtime every period; deadlines missed are counted per thread.
 * Compatible with rt-tests 2.4 (see NEWS for what differs).
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>

#include "rt_affinity.h"
#include "rt_cli.h"
#include "rt_env.h"
#include "rt_mem.h"
#include "rt_output.h"
#include "rt_prog.h"
#include "rt_report.h"
#include "rt_signal.h"

#include "options.h"
#include "report.h"
#include "run.h"

/* Before any output: the JSON file and the machine. */
static int setup(const struct deadline_test_config *cfg, struct rt_output *json, struct rt_env *env)
{
	/* SCHED_DEADLINE threads: not a latency measurement at FIFO, no PM QoS */
	const struct rt_env_run how = { .realtime = true, .pm_qos_held = true };

	if (cfg->json && rt_cli_open_output(json, "json", cfg->json))
		return RT_EXIT_FAILURE;
	return rt_cli_machine_state_of(env, cfg->cpus.count ? &cfg->cpus : NULL, &how, cfg->preflight);
}

static int run(const struct deadline_test_config *cfg, const struct rt_report *rep)
{
	struct rt_output json = { 0 };
	struct rt_env env = { 0 };
	struct dl_result res = { 0 };
	struct dl_totals tot;
	sigset_t signals;
	int rc, err;

	if ((err = rt_signal_setup(&signals))) {
		rt_prog_error_errno(-err, "cannot set up signal handling");
		return RT_EXIT_FAILURE;
	}
	if ((rc = setup(cfg, &json, &env)))
		goto out;
	rc = deadline_test_run(cfg, &signals, &res);
	if (rc || !res.started)
		goto out;
	tot = deadline_test_judge(cfg, res.threads, res.nthreads);
	for (int i = 0; i < res.nthreads; i++)
		deadline_test_print_thread(stdout, &res.threads[i]);
	deadline_test_print_verdict(stdout, cfg, &res, &tot);
	rc = tot.pass ? RT_EXIT_OK : RT_EXIT_VERDICT;
	fflush(stdout);
	if (json.f) {
		if (rt_cli_commit_json(&json, deadline_test_write_json(json.f, rep, rc, cfg, &res, &tot, &env), cfg->json))
			rc = RT_EXIT_FAILURE;
	}
out:
	rt_output_abort(&json);
	rt_env_free(&env);
	if (res.threads)
		rt_mem_free_pages(res.threads, sizeof(*res.threads) * (size_t)res.nthreads);
	return rc;
}

int main(int argc, char *argv[])
{
	struct deadline_test_config cfg;
	struct rt_report rep;
	int rc;

	rt_prog_init(argv[0]);
	rt_report_init(&rep, argc, argv);
	rc = deadline_test_parse_args(&cfg, argc, argv);
	if (rc < 0)
		return rt_prog_close_stdout() ? RT_EXIT_FAILURE : RT_EXIT_OK;
	if (rc)
		return rc;
	rc = run(&cfg, &rep);
	return rt_prog_exit_code(rc);
}
