/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The front-end every tool on the pair engine shares (signaltest,
 * sigwaittest, ptsematest): the options they have in common, and the run
 * from signal set-up to the JSON file. A tool supplies its option table,
 * its participants' roles, its display and its report.
 */
#ifndef PAIRTOOL_H
#define PAIRTOOL_H

#include <getopt.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "rt_cli.h"
#include "rt_json.h"
#include "rt_pair.h"
#include "rt_report.h"

/* getopt values of the long-only options every pair tool has. */
enum { PAIRTOOL_OPT_JSON = 256, PAIRTOOL_OPT_VERSION };

/* The long options pairtool_common_option() takes, for a tool's table. */
#define PAIRTOOL_COMMON_LONG_OPTIONS \
	{ "breaktrace", required_argument, NULL, 'b' }, \
	{ "duration", required_argument, NULL, 'D' }, \
	{ "json", required_argument, NULL, PAIRTOOL_OPT_JSON }, \
	{ "loops", required_argument, NULL, 'l' }, \
	{ "priority", required_argument, NULL, 'p' }, \
	{ "prio", required_argument, NULL, 'p' }, \
	/* 2.4's "--pr" abbreviates --priority; --preflight would make it ambiguous */ \
	{ "pr", required_argument, NULL, 'p' }, \
	{ "quiet", no_argument, NULL, 'q' }, \
	{ "version", no_argument, NULL, PAIRTOOL_OPT_VERSION }, \
	RT_CLI_RESULT_LONG_OPTIONS

/* What every pair tool's command line sets. */
struct pairtool_common {
	int64_t breaktrace_us;   /* -b, 0 = off */
	uint64_t duration_s;     /* -D, 0 = no limit */
	uint64_t loops;          /* -l, 0 = endless */
	int priority;            /* -p, 0 = SCHED_OTHER */
	bool quiet;              /* -q */
	bool mlockall;           /* -m: lock or fail (otherwise only when it cannot hurt) */
	const char *json;        /* --json, "-" = stdout */
	struct rt_cli_results results; /* --max-*, --percentiles, --warmup */
};

void pairtool_common_init(struct pairtool_common *cfg);

/* Help lines of the options beyond 2.4, and the exit codes. */
extern const char pairtool_results_help[];

#define PAIRTOOL_NOT_COMMON 1

/*
 * Take option c when it is one every pair tool has (-b, -D, -l, -p, -q,
 * --json, --version, the verdict options, --percentiles, --warmup): 0,
 * RT_EXIT_USAGE, -1 after --version (exit 0), or
 * PAIRTOOL_NOT_COMMON for the tool to handle.
 */
int pairtool_common_option(struct pairtool_common *cfg, const struct option *opts, int c,
			   const char *arg);

/* Reset getopt for a fresh parse (also of a half-read "-abc" cluster). */
void pairtool_getopt_reset(void);

/* What the run calls back into the tool for. */
struct pairtool_ops {
	/* Fill in every participant's role after the engine is created. */
	void (*set_roles)(void *tool, struct rt_pair *p);
	/* Every tick_ns while it runs (live display or -v drain), may be NULL. */
	void (*tick)(void *tool);
	int64_t tick_ns;
	/* After the stop: text output and error lines; returns the exit code. */
	int (*report)(void *tool);
	/* The tool's JSON section, after the common header. */
	void (*write_json)(void *tool, struct rt_json *j);
	/* Its measured series (percentiles, verdict): how many, and the
	 * participant that records series i. */
	int (*nseries)(void *tool);
	int (*series_part)(void *tool, int i);
	/* Pairs (may be NULL: threads): series i's sender and receiver as
	 * the display numbers them, for the verdict's "pair i (#S -> #R)". */
	void (*pair_tasks)(void *tool, int i, int *sender, int *receiver);
	/* After the JSON, may be NULL (2.4's place of the "# Break:" line). */
	void (*epilogue)(void *tool);
	const char *what;        /* "pairs" or "threads", for the error lines */
	/* -b also stops an ftrace trace (2.4's sigwaittest and ptsematest). */
	bool stops_trace;
};

/*
 * How a failed participant process ended, for the messages and the JSON:
 * "killed by signal 9 (Killed)", "exited with status 3", "did not stop
 * within 500 ms: killed by signal 9 (Killed)" (RT_WORKER_STOP_KILL_NS).
 */
void pairtool_exit_cause(const struct rt_worker_exit *how, char *buf, size_t len);

/*
 * The whole run: signals, the --json file opened before anything runs,
 * permission and memory locking, the engine (p->cfg filled from pc, the
 * trace, the lossless histograms and the warm-up added), start, the main
 * loop, stop, report, verdict, JSON, then the --percentiles lines and the
 * verdict lines after everything 2.4 prints. A participant process that
 * dies (-f) ends the run; it is named on stderr ("child PID (#K) killed by
 * signal 9 (Killed)"), in a "# Failed:" line after the summary, in the
 * records and in the verdict, and the run exits 1. The engine is
 * handed to the tool through *pair until the run returns. Exit code.
 */
int pairtool_run(const struct pairtool_common *cfg, const struct rt_report *rep,
		 struct rt_pair_config pc, const struct pairtool_ops *ops, void *tool,
		 struct rt_pair **pair);

#endif
