// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rt-migrate-test: NR_TASKS SCHED_FIFO tasks of rising priority, released
 * together each iteration, busy-loop; -c checks that a task never waited
 * while one of lower priority ran (real-time push/pull migration), and is
 * the verdict. Compatible with rt-tests 2.4 (see NEWS for what differs).
 */
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

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

/* Before any output: the JSON file, the permission, the machine. */
static int setup(const struct migrate_config *cfg, struct rt_output *json, struct rt_env *env)
{
	const struct rt_env_run how = { .realtime = true, .pm_qos_held = true };
	int rc;

	if (cfg->json && rt_cli_open_output(json, "json", cfg->json))
		return RT_EXIT_FAILURE;
	if (rt_cli_check_rt_permission(SCHED_FIFO, migrate_task_prio(cfg, cfg->nr_tasks)))
		return RT_EXIT_FAILURE;
	if ((rc = rt_cli_machine_state_of(env, NULL, &how, cfg->preflight)))
		return rc;
	/* as root: no page fault in the busy loops (a failure only costs latency) */
	rt_mem_lock_all_if_unlimited();
	return 0;
}

/*
 * -c caught a task: 3; stopped by a signal: 128 + it (non-zero, as 2.4's 1,
 * so that a shell loop stops); otherwise 0.
 */
static int exit_code(const struct migrate_result *res)
{
	if (res->out_of_order)
		return RT_EXIT_VERDICT;
	if (res->stop_signal)
		return 128 + res->stop_signal;
	return RT_EXIT_OK;
}

static int run(const struct migrate_config *cfg, const struct rt_report *rep)
{
	struct rt_output json = { 0 };
	struct rt_env env = { 0 };
	struct migrate_result res = { 0 };
	sigset_t signals;
	int rc, err;

	if ((err = rt_signal_setup(&signals))) {
		rt_prog_error_errno(-err, "cannot set up signal handling");
		return RT_EXIT_FAILURE;
	}
	if ((rc = setup(cfg, &json, &env)))
		goto out;
	rc = migrate_run(cfg, &signals, &res);
	if (rc != RT_EXIT_OK)
		goto out;
	if (!res.iterations)
		fputs("No measurements available\n", stderr);
	rc = exit_code(&res);
	migrate_print(stdout, cfg, &res, getpid());
	migrate_print_verdict(stdout, cfg, &res);
	fflush(stdout);
	if (json.f) {
		if (rt_cli_commit_json(&json, migrate_write_json(json.f, rep, rc, cfg, &res, &env), cfg->json))
			rc = RT_EXIT_FAILURE;
	}
out:
	rt_output_abort(&json);
	rt_env_free(&env);
	migrate_result_free(&res);
	return rc;
}

int main(int argc, char *argv[])
{
	struct migrate_config cfg;
	struct rt_report rep;
	int rc;

	rt_prog_init(argv[0]);
	rt_report_init(&rep, argc, argv);
	rc = migrate_parse_args(&cfg, argc, argv);
	if (rc < 0)
		return rt_prog_close_stdout() ? RT_EXIT_FAILURE : RT_EXIT_OK;
	if (rc)
		return rc;
	if (cfg.ignored_words)
		rt_prog_error("warning: ignoring %d argument(s) after NR_TASKS, from '%s' "
			      "(as rt-tests 2.4 does)", cfg.ignored_words, cfg.ignored_word);
	rc = run(&cfg, &rep);
	return rt_prog_exit_code(rc);
}
