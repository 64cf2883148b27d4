// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * hackbench: groups of senders and receivers pass messages over sockets or
 * pipes, as processes or threads; a scheduler benchmark and a load.
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
#include "rt_signal.h"

#include "options.h"
#include "report.h"
#include "run.h"

static void warn_ignored(const struct hackbench_config *cfg)
{
	if (cfg->one_word_opt)
		rt_prog_error("warning: --%s: ignoring '%s' after the number, as rt-tests 2.4 "
			      "does (options given as one argument?)", cfg->one_word_opt,
			      cfg->one_word_rest);
	if (cfg->ignored_words)
		rt_prog_error("warning: ignoring %d argument(s) that are not options, from '%s' "
			      "(as rt-tests 2.4 does)", cfg->ignored_words, cfg->ignored_word);
}

/* Before any output: the JSON file, -F's permission, the descriptors, the machine. */
static int setup(const struct hackbench_config *cfg, struct rt_output *json, struct rt_env *env)
{
	/* a load: no latency is measured, so no warning about its priority or PM QoS */
	const struct rt_env_run how = { .realtime = true, .pm_qos_held = true };
	uint64_t needed, limit;
	int err;

	if (cfg->json && rt_cli_open_output(json, "json", cfg->json))
		return RT_EXIT_FAILURE;
	if (cfg->fifo && rt_cli_check_rt_permission(SCHED_FIFO, 1))
		return RT_EXIT_FAILURE;
	if ((err = hackbench_check_fd_limit(cfg, &needed, &limit))) {
		if (cfg->threads)
			rt_prog_error("%llu file descriptors needed (2 x %d groups x %d fds, and a few), "
				      "but the limit (ulimit -n) is %llu", (unsigned long long)needed,
				      cfg->groups, cfg->fds, (unsigned long long)limit);
		else
			rt_prog_error("%llu file descriptors needed (2 x %d fds, and a few), but the "
				      "limit (ulimit -n) is %llu", (unsigned long long)needed, cfg->fds,
				      (unsigned long long)limit);
		return RT_EXIT_FAILURE;
	}
	return rt_cli_machine_state_of(env, NULL, &how, cfg->preflight);
}

static void round_done(void *ctx, const struct hb_result *res, const struct hb_round *r)
{
	(void)ctx;
	(void)res;
	hackbench_print_round(stdout, r);
}

static int run(const struct hackbench_config *cfg, const struct rt_report *rep)
{
	struct rt_output json = { 0 };
	struct rt_env env = { 0 };
	struct hb_result res = { 0 };
	sigset_t signals;
	int rc, err;

	if ((err = rt_signal_setup(&signals))) {
		rt_prog_error_errno(-err, "cannot set up signal handling");
		return RT_EXIT_FAILURE;
	}
	if ((rc = setup(cfg, &json, &env)))
		goto out;
	hackbench_print_header(stdout, cfg);
	rc = hackbench_run(cfg, &signals, &res, round_done, NULL);
	if (res.not_started)
		fputs("No measurements available\n", stderr);
	if (cfg->duration_s && res.nrounds)
		hackbench_print_total(stdout, &res);
	fflush(stdout);
	if (json.f) {
		if (rt_cli_commit_json(&json, hackbench_write_json(json.f, rep, rc, cfg, &res, &env), cfg->json))
			rc = RT_EXIT_FAILURE;
	}
out:
	rt_output_abort(&json);
	rt_env_free(&env);
	free(res.rounds);
	return rc;
}

int main(int argc, char *argv[])
{
	struct hackbench_config cfg;
	struct rt_report rep;
	int rc;

	rt_prog_init(argv[0]);
	rt_report_init(&rep, argc, argv);
	rc = hackbench_parse_args(&cfg, argc, argv);
	if (rc < 0)
		return rt_prog_close_stdout() ? RT_EXIT_FAILURE : RT_EXIT_OK;
	if (rc)
		return rc;
	warn_ignored(&cfg);
	rc = run(&cfg, &rep);
	return rt_prog_exit_code(rc);
}
