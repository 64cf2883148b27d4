/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Option-value helpers for the tools' getopt loops: parse with rt_opt and,
 * on failure, print the one-line usage error naming the option and its
 * range. Each returns 0 or RT_EXIT_USAGE. Tool code only (they print).
 */
#ifndef RT_CLI_H
#define RT_CLI_H

#include <getopt.h>
#include <stdint.h>

#include "rt_affinity.h"
#include "rt_env.h"
#include "rt_output.h"
#include "rt_verdict.h"

int rt_cli_number(const char *optname, const char *arg, long long min, long long max,
		  const char *unit, long long *out);
/*
 * rt_cli_number() for the option whose getopt value is c, named from the
 * tool's long option table opts: what each tool's parse_one() calls.
 */
int rt_cli_opt_number(const struct option *opts, int c, const char *arg, long long min,
		      long long max, const char *unit, long long *out);
int rt_cli_duration(const char *optname, const char *arg, uint64_t *seconds);
int rt_cli_cpulist(const char *optname, const char *arg, struct rt_cpulist *out);

/*
 * The value of an option with an optional argument: the attached one, or
 * (as rt-tests 2.4 accepts) the next argv word when it is not an option.
 */
const char *rt_cli_optional_value(int argc, char *argv[]);

/* The long name of the option whose getopt value is val ("?" if none). */
const char *rt_cli_opt_name(const struct option *opts, int val);

/*
 * May this process run threads at policy/prio? For a real-time policy, try
 * it once; on failure print what is missing (root, CAP_SYS_NICE,
 * RLIMIT_RTPRIO) and return RT_EXIT_FAILURE. 0 when permitted or not RT.
 */
int rt_cli_check_rt_permission(int policy, int prio);

/*
 * Open an output file given with --optname (atomic, see rt_output) before
 * the measurement starts; on failure print why and return RT_EXIT_FAILURE.
 */
int rt_cli_open_output(struct rt_output *o, const char *optname, const char *path);

/* Report what getopt_long returned as '?' or ':' (call with opterr = 0). */
int rt_cli_bad_option(int argc, char *argv[], int c);

/* Non-empty words left after the options are errors; empty ones are ignored. */
int rt_cli_no_operands(int argc, char *argv[]);

/*
 * The options every tool has beyond rt-tests 2.4: limits for a verdict, the
 * --percentiles lines, the warm-up, --preflight/--no-preflight and the
 * interval records. getopt values far above any tool's own; cyclictest adds
 * RT_CLI_OVERRUNS_LONG_OPTION.
 */
enum {
	RT_CLI_OPT_MAX_LATENCY = 0x1000,
	RT_CLI_OPT_MAX_PERCENTILE,
	RT_CLI_OPT_MAX_OVERRUNS,
	RT_CLI_OPT_PERCENTILES,
	RT_CLI_OPT_WARMUP,
	RT_CLI_OPT_NO_PREFLIGHT,
	RT_CLI_OPT_RECORDS,
	RT_CLI_OPT_RECORDS_INTERVAL,
	RT_CLI_OPT_PREFLIGHT,
	RT_CLI_OPT_ISOLATION,
	RT_CLI_OPT_METRICS,
	RT_CLI_OPT_PERCENTILE_CLAIM,
	RT_CLI_OPT_VERDICT,
	RT_CLI_OPT_JSON,
	RT_CLI_OPT_VERSION,
};

#define RT_CLI_RESULT_LONG_OPTIONS \
	{ "max-latency", required_argument, NULL, RT_CLI_OPT_MAX_LATENCY }, \
	{ "max-percentile", required_argument, NULL, RT_CLI_OPT_MAX_PERCENTILE }, \
	{ "percentiles", no_argument, NULL, RT_CLI_OPT_PERCENTILES }, \
	{ "warmup", required_argument, NULL, RT_CLI_OPT_WARMUP }, \
	{ "no-preflight", no_argument, NULL, RT_CLI_OPT_NO_PREFLIGHT }, \
	{ "preflight", no_argument, NULL, RT_CLI_OPT_PREFLIGHT }, \
	{ "records", required_argument, NULL, RT_CLI_OPT_RECORDS }, \
	{ "records-interval", required_argument, NULL, RT_CLI_OPT_RECORDS_INTERVAL }, \
	{ "isolation", no_argument, NULL, RT_CLI_OPT_ISOLATION }, \
	{ "metrics", required_argument, NULL, RT_CLI_OPT_METRICS }, \
	{ "percentile-claim", required_argument, NULL, RT_CLI_OPT_PERCENTILE_CLAIM }, \
	{ "verdict", no_argument, NULL, RT_CLI_OPT_VERDICT }
#define RT_CLI_OVERRUNS_LONG_OPTION \
	{ "max-overruns", required_argument, NULL, RT_CLI_OPT_MAX_OVERRUNS }

/* Largest latency limit: an hour, in ns (the unit with -N). */
#define RT_CLI_MAX_LATENCY_LIMIT (RT_MAX_LIMIT_US * 1000)

/* Where the "WARN: preflight:" lines go (the JSON has them in any case). */
enum rt_cli_preflight {
	RT_CLI_PREFLIGHT_TTY,    /* default: on stderr when it is a terminal */
	RT_CLI_PREFLIGHT_ALWAYS, /* --preflight */
	RT_CLI_PREFLIGHT_NEVER,  /* --no-preflight */
};

/*
 * What every tool without the result options above has beyond 2.4: --json,
 * --no-preflight, --preflight, --version and --verdict. The tool lists
 * RT_CLI_COMMON_LONG_OPTIONS in its table, embeds struct rt_cli_common in
 * its config and hands unknown option values to rt_cli_common_option.
 */
#define RT_CLI_COMMON_LONG_OPTIONS \
	{ "json", required_argument, NULL, RT_CLI_OPT_JSON }, \
	{ "no-preflight", no_argument, NULL, RT_CLI_OPT_NO_PREFLIGHT }, \
	{ "preflight", no_argument, NULL, RT_CLI_OPT_PREFLIGHT }, \
	{ "version", no_argument, NULL, RT_CLI_OPT_VERSION }, \
	{ "verdict", no_argument, NULL, RT_CLI_OPT_VERDICT }

struct rt_cli_common {
	const char *json;                /* --json FILE, NULL: none */
	enum rt_cli_preflight preflight; /* the last of --preflight, --no-preflight */
	bool verdict;                    /* --verdict */
};

/*
 * The default: of a tool's option switch: option value c (argument arg)
 * when it is one of RT_CLI_COMMON_LONG_OPTIONS goes into o (0; -1 when
 * --version was printed), anything else is rt_cli_bad_option's usage error.
 */
int rt_cli_common_or_bad_option(struct rt_cli_common *o, int argc, char *argv[], int c,
				const char *arg);

struct rt_cli_results {
	struct rt_limits limits;
	bool percentiles;       /* --percentiles */
	uint64_t warmup_s;      /* --warmup, 0 = none */
	enum rt_cli_preflight preflight; /* the last of --preflight, --no-preflight */
	const char *records;    /* --records: JSON lines appended while it runs, "-" = stdout */
	uint64_t records_interval_s; /* --records-interval, default 60 */
	bool records_interval_given;
	bool isolation;         /* --isolation: the "# Isolation:" lines after the summary */
	const char *metrics;    /* --metrics: Prometheus text file, rewritten every interval */
};

void rt_cli_results_init(struct rt_cli_results *r);

/* True when the run must keep the lossless histogram (--records, --metrics too: their totals). */
bool rt_cli_results_need_hist(const struct rt_cli_results *r, bool json);

/* True when the run reads the isolation counters: for the text, the JSON or the records. */
bool rt_cli_results_need_isolation(const struct rt_cli_results *r, bool json);

#define RT_CLI_NOT_RESULT_OPTION 1

/* Take option c when it is one of the above: 0, RT_EXIT_USAGE or RT_CLI_NOT_RESULT_OPTION. */
int rt_cli_result_option(struct rt_cli_results *r, int c, const char *arg);

/*
 * The default: of the switch of a tool with the options above: one of them
 * goes into r (0, or RT_EXIT_USAGE for a bad value), anything else is
 * rt_cli_bad_option's usage error.
 */
int rt_cli_result_or_bad_option(struct rt_cli_results *r, int argc, char *argv[], int c,
				const char *arg);

/*
 * Print e's preflight warnings ("WARN: preflight: ..." lines) on stderr
 * where `when` says: with --preflight, or by default when stderr is a
 * terminal (a script that merges stderr sees 2.4's bytes); never with
 * --no-preflight. Returns how many lines were printed.
 */
unsigned rt_cli_preflight_print(enum rt_cli_preflight when, const struct rt_env *e);

/*
 * Will rt_cli_preflight_print() print: --preflight, or by default stderr a
 * terminal? (The isolation checks run only then, or for a file.)
 */
bool rt_cli_preflight_shown(enum rt_cli_preflight when);

/*
 * The machine's state for a result: read e for the measured CPUs, judge it
 * (how says what the run is) and print the preflight warnings as `when`
 * says. 0, or RT_EXIT_FAILURE with the error printed.
 */
int rt_cli_machine_state(struct rt_env *e, const struct rt_cpulist *measured,
			 const struct rt_env_run *how, enum rt_cli_preflight when);

/* The same, measuring every CPU of cpus, or of the affinity when cpus is NULL. */
int rt_cli_machine_state_of(struct rt_env *e, const struct rt_cpulist *cpus,
			    const struct rt_env_run *how, enum rt_cli_preflight when);

/*
 * rt_cli_machine_state() in two steps, for a tool whose start-up counts:
 * before the run it reads only what it uses then (the preflight part when
 * the lines are shown, everything when now_all, e.g. for --records' first
 * line; else nothing), and after the run rt_cli_machine_state_end() reads
 * the rest and judges, if not yet done, for the JSON. Each returns 0, or
 * RT_EXIT_FAILURE with the error printed.
 */
int rt_cli_machine_state_begin(struct rt_env *e, const struct rt_cpulist *measured,
			       const struct rt_env_run *how, enum rt_cli_preflight when,
			       bool now_all);
int rt_cli_machine_state_end(struct rt_env *e, const struct rt_env_run *how);

/*
 * The verdict of a run that ended with rc, judged once before the JSON
 * (which always carries it and the exit code): every series against the
 * limits, finished (rt_verdict_finish). *judged says whether the user
 * asked for it (a --max-* limit or --verdict): then the "# Verdict:" lines
 * are printed and a FAIL turns a clean rc into RT_EXIT_FAIL, an
 * INCONCLUSIVE (a run stopped early among them) into
 * RT_EXIT_INCONCLUSIVE. No memory to judge is RT_EXIT_FAILURE, said on
 * stderr.
 * A tool whose run stopped early calls rt_cli_verdict_stopped() before.
 * brk: the -b break threshold a series crossed, which stopped the run
 * (NULL: none): the stop's cause is "break" and the verdict FAIL, never
 * a PASS of the part measured before it.
 */
int rt_cli_judge(struct rt_verdict *v, bool *judged, const struct rt_limits *l,
		 const struct rt_series *s, int n, const struct rt_check_failure *brk, int rc);

/* A break for rt_cli_judge: the failure and its reason's text. */
struct rt_cli_break {
	struct rt_check_failure f;
	char detail[96];
};

/*
 * Fill b for subject s's index, whose value crossed the break threshold
 * bound (both in unit): "break threshold B us crossed: V us". Returns &b->f.
 */
const struct rt_check_failure *rt_cli_break(struct rt_cli_break *b, enum rt_subject s, int index,
					    int64_t value, int64_t bound, const char *unit);

/*
 * The run stopped early: by signal sig (0: it ended by itself, nothing is
 * set) after done of asked (seconds, or loops with unit "loops"; asked <= 0:
 * no end was asked for, so a signal is how such a run ends: not partial).
 * Sets the verdict's stop only (before rt_cli_judge(), which keeps it; or
 * after a tool's own rt_verdict_add_checked(), which stays).
 */
void rt_cli_verdict_stopped(struct rt_verdict *v, int sig, double done, double asked,
			    const char *unit);

/*
 * Commit a --json file whose writer returned write_err (0 or -errno): 0,
 * or RT_EXIT_FAILURE with "cannot write --json file 'path'" printed.
 */
int rt_cli_commit_json(struct rt_output *json, int write_err, const char *path);

/* True when the measuring threads fill --records windows (--records or --metrics). */
bool rt_cli_results_need_windows(const struct rt_cli_results *r);

/* After all options (stdout_taken: a live display or -v): 0 or RT_EXIT_USAGE. */
int rt_cli_results_check(const struct rt_cli_results *r, bool stdout_taken);

#endif
