// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <inttypes.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "rt_cli.h"
#include "rt_records.h"
#include "rt_opt.h"
#include "rt_prog.h"
#include "rt_sched.h"
#include "rt_time.h"

int rt_cli_number(const char *optname, const char *arg, long long min, long long max,
		  const char *unit, long long *out)
{
	if (rt_opt_parse_ll(arg, min, max, out))
		return rt_prog_range_error(optname, arg, min, max, unit);
	return 0;
}

int rt_cli_opt_number(const struct option *opts, int c, const char *arg, long long min,
		      long long max, const char *unit, long long *out)
{
	return rt_cli_number(rt_cli_opt_name(opts, c), arg, min, max, unit, out);
}

int rt_cli_duration(const char *optname, const char *arg, uint64_t *seconds)
{
	if (rt_opt_parse_duration(arg, RT_MAX_DURATION_S, seconds))
		return rt_prog_usage_error("invalid --%s '%s': must be N, Ns, Nm, Nh or Nd, "
					   "at most 3650d", optname, arg);
	return 0;
}

int rt_cli_cpulist(const char *optname, const char *arg, struct rt_cpulist *out)
{
	int err = rt_opt_parse_cpulist(arg, out);
	struct rt_cpulist allowed;
	char set[256] = "?";

	if (err == 0)
		return 0;
	if (err == -EDOM)
		return rt_prog_usage_error("invalid --%s '%s': a CPU range must ascend (LOW-HIGH)",
					   optname, arg);
	if (rt_affinity_allowed(&allowed) == 0)
		rt_affinity_format(&allowed, set, sizeof(set));
	return rt_prog_usage_error("invalid --%s '%s': must be a CPU list within the allowed CPUs %s",
				   optname, arg, set);
}

const char *rt_cli_optional_value(int argc, char *argv[])
{
	if (optarg)
		return optarg;
	if (optind < argc && argv[optind][0] != '\0' && argv[optind][0] != '-')
		return argv[optind++];
	return NULL;
}

int rt_cli_result_or_bad_option(struct rt_cli_results *r, int argc, char *argv[], int c,
				const char *arg)
{
	int err = rt_cli_result_option(r, c, arg);

	return err == RT_CLI_NOT_RESULT_OPTION ? rt_cli_bad_option(argc, argv, c) : err;
}

int rt_cli_common_or_bad_option(struct rt_cli_common *o, int argc, char *argv[], int c,
				const char *arg)
{
	switch (c) {
	case RT_CLI_OPT_JSON: o->json = arg; break;
	case RT_CLI_OPT_NO_PREFLIGHT: o->preflight = RT_CLI_PREFLIGHT_NEVER; break;
	case RT_CLI_OPT_PREFLIGHT: o->preflight = RT_CLI_PREFLIGHT_ALWAYS; break;
	case RT_CLI_OPT_VERDICT: o->verdict = true; break;
	case RT_CLI_OPT_VERSION:
		rt_prog_print_version(stdout);
		return -1;
	default: return rt_cli_bad_option(argc, argv, c);
	}
	return 0;
}

int rt_cli_bad_option(int argc, char *argv[], int c)
{
	const char *word = optind > 0 && optind <= argc ? argv[optind - 1] : "?";
	/* for a long option optopt is its value, maybe no character at all: name the word */
	bool is_long = strncmp(word, "--", 2) == 0;

	if (c == ':') {
		if (optopt && !is_long)
			return rt_prog_usage_error("option '-%c' requires an argument", optopt);
		return rt_prog_usage_error("option '%s' requires an argument", word);
	}
	if (optopt && !is_long)
		return rt_prog_usage_error("invalid option '-%c'", optopt);
	return rt_prog_usage_error("unrecognized or ambiguous option '%s'", word);
}

int rt_cli_no_operands(int argc, char *argv[])
{
	for (; optind < argc; optind++)
		if (argv[optind][0] != '\0')
			return rt_prog_usage_error("unexpected argument '%s'", argv[optind]);
	return 0;
}

const char *rt_cli_opt_name(const struct option *opts, int val)
{
	for (const struct option *o = opts; o->name; o++)
		if (o->val == val)
			return o->name;
	return "?";
}

int rt_cli_check_rt_permission(int policy, int prio)
{
	char why[512];
	int err;

	if (!rt_sched_policy_is_rt(policy))
		return 0;
	err = rt_sched_check_permission(policy, prio);
	if (!err)
		return 0;
	if (err == -EPERM) {
		rt_sched_explain_eperm(policy, prio, why, sizeof(why));
		rt_prog_error("%s", why);
	} else {
		rt_prog_error_errno(-err, "cannot use policy %s priority %d",
				    rt_sched_policy_name(policy), prio);
	}
	return RT_EXIT_FAILURE;
}

int rt_cli_open_output(struct rt_output *o, const char *optname, const char *path)
{
	int err = rt_output_open(o, path);

	if (!err)
		return 0;
	rt_prog_error_errno(-err, "cannot write --%s file '%s'", optname, path);
	return RT_EXIT_FAILURE;
}

void rt_cli_results_init(struct rt_cli_results *r)
{
	rt_limits_init(&r->limits);
	r->percentiles = false;
	r->warmup_s = 0;
	r->preflight = RT_CLI_PREFLIGHT_TTY;
	r->records = NULL;
	r->records_interval_s = RT_RECORDS_DEFAULT_INTERVAL_S;
	r->records_interval_given = false;
	r->isolation = false;
	r->metrics = NULL;
}

bool rt_cli_results_need_windows(const struct rt_cli_results *r)
{
	return r->records || r->metrics;
}

bool rt_cli_results_need_isolation(const struct rt_cli_results *r, bool json)
{
	return json || r->isolation || r->records || r->metrics;
}

bool rt_cli_results_need_hist(const struct rt_cli_results *r, bool json)
{
	return json || r->percentiles || r->limits.npct > 0 || r->records || r->metrics;
}

bool rt_cli_preflight_shown(enum rt_cli_preflight when)
{
	return when == RT_CLI_PREFLIGHT_ALWAYS ||
	       (when == RT_CLI_PREFLIGHT_TTY && isatty(STDERR_FILENO));
}

unsigned rt_cli_preflight_print(enum rt_cli_preflight when, const struct rt_env *e)
{
	if (!rt_cli_preflight_shown(when))
		return 0;
	for (unsigned i = 0; i < e->npreflight; i++)
		fprintf(stderr, "WARN: preflight: %s\n", e->preflight[i]);
	return e->npreflight;
}

int rt_cli_results_check(const struct rt_cli_results *r, bool stdout_taken)
{
	if (r->records_interval_given && !r->records && !r->metrics)
		return rt_prog_usage_error("--records-interval needs --records or --metrics");
	if (r->metrics && !r->metrics[0])
		return rt_prog_usage_error("invalid --metrics '': needs a file name");
	if (r->metrics && strcmp(r->metrics, "-") == 0)
		return rt_prog_usage_error("invalid --metrics '-': needs a file name (the file is "
					   "replaced, standard output cannot be)");
	if (r->records && strcmp(r->records, "-") == 0 && stdout_taken)
		return rt_prog_usage_error("--records=- needs -q and no -v: standard output "
					   "carries the live display or the samples");
	return 0;
}

int rt_cli_result_option(struct rt_cli_results *r, int c, const char *arg)
{
	struct rt_limits *l = &r->limits;
	long long n;
	uint32_t pm;

	switch (c) {
	case RT_CLI_OPT_MAX_LATENCY:
		if (rt_cli_number("max-latency", arg, 0, RT_CLI_MAX_LATENCY_LIMIT, "us, or ns with cyclictest -N",
				  &n))
			return RT_EXIT_USAGE;
		l->max_latency = n;
		return 0;
	case RT_CLI_OPT_MAX_PERCENTILE:
		if (l->npct == RT_VERDICT_MAX_PCT_LIMITS)
			return rt_prog_usage_error("invalid --max-percentile '%s': at most %d "
						   "percentile limits", arg,
						   RT_VERDICT_MAX_PCT_LIMITS);
		if (rt_opt_parse_percentile_limit(arg, RT_CLI_MAX_LATENCY_LIMIT, &pm, &n))
			return rt_prog_usage_error("invalid --max-percentile '%s': must be P:BOUND, "
						   "P in 0.0001..100 with at most 4 decimals, "
						   "BOUND 0..%lld (us, or ns with cyclictest -N)", arg,
						   (long long)RT_CLI_MAX_LATENCY_LIMIT);
		l->pct[l->npct++] = (struct rt_pct_limit){ pm, n };
		return 0;
	case RT_CLI_OPT_MAX_OVERRUNS:
		if (rt_cli_number("max-overruns", arg, 0, 1LL << 62, NULL, &n))
			return RT_EXIT_USAGE;
		l->max_overruns = n;
		return 0;
	case RT_CLI_OPT_PERCENTILES:
		r->percentiles = true;
		return 0;
	case RT_CLI_OPT_VERDICT:
		l->verdict = true;
		return 0;
	case RT_CLI_OPT_PERCENTILE_CLAIM:
		if (strcmp(arg, "point") && strcmp(arg, "proven"))
			return rt_prog_usage_error("invalid --percentile-claim '%s': must be "
						   "proven or point", arg);
		l->pct_point = strcmp(arg, "point") == 0;
		return 0;
	case RT_CLI_OPT_WARMUP:
		return rt_cli_duration("warmup", arg, &r->warmup_s);
	case RT_CLI_OPT_NO_PREFLIGHT:
		r->preflight = RT_CLI_PREFLIGHT_NEVER;
		return 0;
	case RT_CLI_OPT_PREFLIGHT:
		r->preflight = RT_CLI_PREFLIGHT_ALWAYS;
		return 0;
	case RT_CLI_OPT_ISOLATION:
		r->isolation = true;
		return 0;
	case RT_CLI_OPT_RECORDS:
		r->records = arg;
		return 0;
	case RT_CLI_OPT_METRICS:
		r->metrics = arg;
		return 0;
	case RT_CLI_OPT_RECORDS_INTERVAL:
		if (rt_cli_duration("records-interval", arg, &r->records_interval_s))
			return RT_EXIT_USAGE;
		if (r->records_interval_s == 0)
			return rt_prog_usage_error("invalid --records-interval '%s': must be at "
						   "least 1 s (forms as -D)", arg);
		r->records_interval_given = true;
		return 0;
	default:
		return RT_CLI_NOT_RESULT_OPTION;
	}
}

int rt_cli_machine_state(struct rt_env *e, const struct rt_cpulist *measured,
			 const struct rt_env_run *how, enum rt_cli_preflight when)
{
	int err;

	if ((err = rt_env_read(e, measured))) {
		rt_prog_error_errno(-err, "cannot read the machine's state");
		return RT_EXIT_FAILURE;
	}
	if ((err = rt_env_preflight(e, how))) {
		rt_prog_error_errno(-err, "cannot judge the machine's state");
		return RT_EXIT_FAILURE;
	}
	rt_cli_preflight_print(when, e);
	return 0;
}

int rt_cli_machine_state_begin(struct rt_env *e, const struct rt_cpulist *measured,
			       const struct rt_env_run *how, enum rt_cli_preflight when,
			       bool now_all)
{
	bool shown = rt_cli_preflight_shown(when);
	int err;

	if ((err = rt_env_open(e, "", measured)) ||
	    (err = rt_env_read_parts(e, now_all ? RT_ENV_PART_ALL : 0))) {
		rt_prog_error_errno(-err, "cannot read the machine's state");
		return RT_EXIT_FAILURE;
	}
	if (!shown && !now_all)
		return 0;
	if ((err = rt_env_preflight(e, how))) {
		rt_prog_error_errno(-err, "cannot judge the machine's state");
		return RT_EXIT_FAILURE;
	}
	rt_cli_preflight_print(when, e);
	return 0;
}

int rt_cli_machine_state_end(struct rt_env *e, const struct rt_env_run *how)
{
	int err;

	if ((err = rt_env_read_parts(e, RT_ENV_PART_ALL))) {
		rt_prog_error_errno(-err, "cannot read the machine's state");
		return RT_EXIT_FAILURE;
	}
	if (!e->judged && (err = rt_env_preflight(e, how))) {
		rt_prog_error_errno(-err, "cannot judge the machine's state");
		return RT_EXIT_FAILURE;
	}
	return 0;
}

int rt_cli_machine_state_of(struct rt_env *e, const struct rt_cpulist *cpus,
			    const struct rt_env_run *how, enum rt_cli_preflight when)
{
	struct rt_cpulist allowed, measured = { 0 };
	int err;

	if ((err = rt_affinity_allowed(&allowed))) {
		rt_prog_error_errno(-err, "cannot read the machine's state");
		return RT_EXIT_FAILURE;
	}
	rt_env_add_measured(&measured, -1, cpus ? cpus : &allowed);
	return rt_cli_machine_state(e, &measured, how, when);
}

void rt_cli_verdict_stopped(struct rt_verdict *v, int sig, double done, double asked,
			    const char *unit)
{
	char cause[32];

	/* the stop only: what the tool already checked stays (and is not leaked) */
	v->stop = (struct rt_stop){ .done = -1, .asked = -1 };
	snprintf(v->stop.cause, sizeof(v->stop.cause), "completed");
	if (asked > 0 && sig > 0)
		rt_verdict_set_partial(v, rt_verdict_signal_cause(sig, cause, sizeof(cause)), done,
				       asked, unit);
	else
		rt_verdict_set_done(v, done, asked > 0 ? asked : -1, unit);
}

int rt_cli_judge(struct rt_verdict *v, bool *judged, const struct rt_limits *l,
		 const struct rt_series *s, int n, const struct rt_check_failure *brk, int rc)
{
	struct rt_stop stop = v->stop;
	bool stopped = stop.cause[0] != '\0';

	*judged = rt_limits_any(l);
	rt_verdict_init(v);
	if (stopped)
		v->stop = stop;
	/* the break stopped the run, whatever else came after it */
	if (brk)
		rt_verdict_set_partial(v, "break", stop.done, stop.asked, stop.unit);
	else if (rc == RT_EXIT_FAILURE && !v->stop.partial)
		rt_verdict_set_partial(v, "error", stop.done, stop.asked, stop.unit);
	/* -ENOMEM leaves the verdict FAIL all the same */
	if (brk)
		(void)rt_verdict_fail_check(v, brk);
	if (rt_verdict_judge_series(v, l, s, n)) {
		rt_prog_error_errno(ENOMEM, "cannot judge the verdict");
		return RT_EXIT_FAILURE;
	}
	rt_verdict_finish(v);
	if (!*judged || rc != RT_EXIT_OK)
		return rc;
	return rt_verdict_exit_status(v, RT_JUDGE_ASKED);
}

const struct rt_check_failure *rt_cli_break(struct rt_cli_break *b, enum rt_subject s, int index,
					    int64_t value, int64_t bound, const char *unit)
{
	snprintf(b->detail, sizeof(b->detail),
		 "break threshold %" PRId64 " %s crossed: %" PRId64 " %s", bound, unit, value, unit);
	b->f = (struct rt_check_failure){ .limit = "break", .subject = s, .index = index,
					  .value = value, .bound = bound, .unit = unit,
					  .detail = b->detail };
	return &b->f;
}

int rt_cli_commit_json(struct rt_output *json, int write_err, const char *path)
{
	if (write_err || (write_err = rt_output_commit(json))) {
		rt_prog_error_errno(-write_err, "cannot write --json file '%s'", path);
		return RT_EXIT_FAILURE;
	}
	return 0;
}
