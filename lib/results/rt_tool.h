/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The one order every tool follows, written once. A main.c fills a static
 * struct rt_tool_ops with what is its own and hands it over:
 *
 *	static const struct rt_tool_ops ops = {
 *		.parse = parse,           // X_parse_args(t->cfg, ...): <0 help printed, >0 exit
 *		.validate = warn_ignored, // optional: warnings, t->json_path = cfg->json
 *		.setup = setup,           // optional: permission, rt_cli_machine_state*(&t->env)
 *		.run = run,               // measure, print, judge into t->verdict, return
 *		                          // rt_tool_verdict_status(t, how, unit, rc)
 *		.write_json = write_json, // optional: X_write_json(f, ..., &t->verdict, &t->env)
 *		.restore = restore,       // optional, after any run or failed set-up: free, undo
 *	};
 *	int main(int argc, char *argv[])
 *	{
 *		struct X_config cfg;
 *		struct X_result res = { 0 };
 *		struct rt_tool t = { .ops = &ops, .cfg = &cfg, .res = &res,
 *				     .json_option = &cfg.common.json };
 *		return rt_tool_main(&t, argc, argv);
 *	}
 *
 * The tool's own state beyond cfg and res goes in t->own. run sets
 * t->no_json when there is nothing to write (it did not start); a tool
 * whose engine blocks the signals itself sets t->own_signals (see
 * signaltest). The options every such tool shares (--json, --preflight,
 * --verdict, --version) are rt_cli's RT_CLI_COMMON_LONG_OPTIONS, in the
 * config as struct rt_cli_common common: .json_option = &cfg.common.json. Messages (rt_prog_*) stay the callbacks' own; this file
 * prints only the skeleton's: "cannot set up signal handling", "cannot
 * write --json file". Tool code only: like rt_cli, it prints.
 */
#ifndef RT_TOOL_H
#define RT_TOOL_H

#include <signal.h>
#include <stdbool.h>
#include <stdio.h>

#include "rt_env.h"
#include "rt_output.h"
#include "rt_report.h"
#include "rt_verdict.h"

struct rt_tool;

struct rt_tool_ops {
	/*
	 * Parse argv into t->cfg (required). 0: go on; negative: --help or
	 * --version was printed, exit 0; positive: the exit code (the usage
	 * error is printed).
	 */
	int (*parse)(struct rt_tool *t, int argc, char *argv[]);
	/* After a good parse, before anything runs: 0 or an exit code. */
	int (*validate)(struct rt_tool *t);
	/*
	 * Before any output, with the control signals blocked (t->signals) and
	 * the --json file open: what the tool needs of the machine; 0 or an
	 * exit code (the message printed).
	 */
	int (*setup)(struct rt_tool *t);
	/* Measure and print the report (required); the run's exit code. */
	int (*run)(struct rt_tool *t);
	/* Write the JSON document for exit code rc to f: 0 or a negative errno. */
	int (*write_json)(struct rt_tool *t, FILE *f, int rc);
	/*
	 * Last, on every path after a good parse: free t->res, put the machine
	 * back. rc is the exit code so far (a tool that must _Exit may).
	 */
	void (*restore)(struct rt_tool *t, int rc);
};

struct rt_tool {
	const struct rt_tool_ops *ops;
	void *cfg;                /* the tool's options, filled by parse */
	void *res;                /* the tool's result, filled by run */
	void *own;                /* anything else of the tool's, for its callbacks */

	const char *prog_name;    /* the name in messages, NULL: argv[0] */
	/* the config's --json field: json_path is taken from it after parse */
	const char *const *json_option;

	/* set by the tool's callbacks */
	const char *json_path;    /* --json FILE (validate or parse), NULL: none */
	bool no_json;             /* run: nothing to write (it did not start) */
	bool own_signals;         /* the engine blocks the signals itself, or they stay as they are */

	/* filled by rt_tool_main for the callbacks */
	struct rt_report rep;     /* argv as given and the start time */
	sigset_t signals;         /* the control signals, blocked (rt_signal) */
	struct rt_output json;    /* open when json_path is set, from setup on */
	struct rt_env env;        /* the machine's state, filled by setup */
	/* the run's judgement, empty (rt_verdict_init) from setup on: the
	 * tool's judge fills it in run, write_json writes it, and it is freed
	 * before restore */
	struct rt_verdict verdict;
};

/*
 * Run the tool t describes: program init, parse, validate, signals, the
 * --json file, setup, run, the JSON commit, restore; returns the exit
 * status for main (0, 1, 2 or 3; a failed write to stdout turns 0 into 1).
 */
int rt_tool_main(struct rt_tool *t, int argc, char *argv[]);

/*
 * The steps after a good parse (signals up to restore), returning the run's
 * exit code before stdout is checked: for a tool whose main needs more
 * around them, and for tests.
 */
int rt_tool_run(struct rt_tool *t);

/*
 * The end of run once the tool's judge has filled t->verdict: its
 * "# Verdict:" lines on stdout (numbers in unit) when they are shown for
 * how, and the exit code: rc when the run itself failed (not RT_EXIT_OK),
 * else the verdict's status for how.
 */
int rt_tool_verdict_status(struct rt_tool *t, enum rt_judge how, const char *unit, int rc);

#endif
