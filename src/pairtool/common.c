// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <stdlib.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>

#include "rt_affinity.h"
#include "rt_cli.h"
#include "rt_env.h"
#include "rt_isolation.h"
#include "rt_reaper.h"
#include "rt_mem.h"
#include "rt_metrics.h"
#include "rt_output.h"
#include "rt_prog.h"
#include "rt_records.h"
#include "rt_signal.h"
#include "rt_time.h"
#include "rt_trace.h"
#include "rt_verdict_write.h"

#include "pairtool.h"

const char pairtool_results_help[] =
	"          --max-latency=US  verdict: FAIL (exit 3) when any latency exceeds US\n"
	"          --max-percentile=P:US  verdict on a P-th percentile: PASS/FAIL when its\n"
	"                            95% interval is under/over US, else INCONCLUSIVE\n"
	"                            (repeatable, e.g. 99.9:80)\n"
	"          --percentile-claim=point  judge --max-percentile on the percentile\n"
	"                            alone (default: proven, on the interval)\n"
	"          --verdict         print the verdict without a\n"
	"                            limit: every pair measured (rt-tests-ng(7))\n"
	"          --percentiles     after the summary, print percentile lines\n"
	"          --isolation       after the summary, print what interrupted each\n"
	"                            measured CPU (interrupts, softirqs, context switches)\n"
	"          --warmup=TIME     drop what is measured in the first TIME (as -D);\n"
	"                            -D and -l count after it\n"
	"          --no-preflight    no warnings about the machine before the run, also\n"
	"                            when stderr is a terminal\n"
	"          --preflight       those warnings also when stderr is not a terminal\n"
	"          --records=FILE    append interval records (JSON lines) to FILE\n"
	"          --records-interval=TIME  a record per pair every TIME (as -D, default 60)\n"
	"          --metrics=FILE    keep FILE up to date as a Prometheus text file\n"
	"\nUsage errors exit with 2, run-time errors with 1, a FAIL verdict with 3, an\n"
	"INCONCLUSIVE one with 4.\n";

void pairtool_common_init(struct pairtool_common *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	rt_cli_results_init(&cfg->results);
}

void pairtool_getopt_reset(void)
{
	opterr = 0;
	optind = 0; /* glibc: a full reset, also of a half-read "-abc" cluster */
}

int pairtool_common_option(struct pairtool_common *cfg, const struct option *opts, int c,
			   const char *arg)
{
	long long n;

	switch (c) {
	case 'b':
		if (rt_cli_number(rt_cli_opt_name(opts, c), arg, 1, RT_MAX_LIMIT_US, "us", &n))
			return RT_EXIT_USAGE;
		cfg->breaktrace_us = n;
		return 0;
	case 'D':
		return rt_cli_duration(rt_cli_opt_name(opts, c), arg, &cfg->duration_s);
	case 'l':
		if (rt_cli_number(rt_cli_opt_name(opts, c), arg, 0, 1LL << 62, NULL, &n))
			return RT_EXIT_USAGE;
		cfg->loops = (uint64_t)n;
		return 0;
	case 'p':
		if (rt_cli_number(rt_cli_opt_name(opts, c), arg, 0, 99, NULL, &n))
			return RT_EXIT_USAGE;
		cfg->priority = (int)n;
		return 0;
	case 'q':
		cfg->quiet = true;
		return 0;
	case PAIRTOOL_OPT_JSON:
		cfg->json = arg;
		return 0;
	case PAIRTOOL_OPT_VERSION:
		rt_prog_print_version(stdout);
		return -1;
	default: {
		int err = rt_cli_result_option(&cfg->results, c, arg);

		return err == RT_CLI_NOT_RESULT_OPTION ? PAIRTOOL_NOT_COMMON : err;
	}
	}
}

/* *locked: the memory is locked, so -f's children lock theirs too. */
static int lock_memory(const struct pairtool_common *cfg, bool *locked)
{
	int err;

	rt_mem_keep_heap();
	if (!cfg->mlockall) {
		/* 2.4 always locks; here when it cannot hurt */
		*locked = rt_mem_lock_all_if_unlimited() == 0;
		return 0;
	}
	if ((err = rt_mem_lock_all())) {
		rt_prog_error_errno(-err, "--mlockall: cannot lock memory");
		return RT_EXIT_FAILURE;
	}
	*locked = true;
	return 0;
}

void pairtool_exit_cause(const struct rt_worker_exit *how, char *buf, size_t len)
{
	char late[48] = "";

	if (how->stop_killed)
		snprintf(late, sizeof(late), "did not stop within %lld ms: ",
			 RT_WORKER_STOP_KILL_NS / 1000000);
	if (how->code == CLD_EXITED)
		snprintf(buf, len, "%sexited with status %d", late, how->status);
	else if (how->code == RT_REAPER_UNKNOWN)
		snprintf(buf, len, "%sended, but was reaped elsewhere: how is unknown", late);
	else
		snprintf(buf, len, "%skilled by signal %d (%s)%s", late, how->status,
			 strsignal(how->status), how->code == CLD_DUMPED ? ", core dumped" : "");
}

/* --records: a window's lines follow its end within this time. */
#define RECORDS_POLL_NS (100 * 1000 * 1000LL)

/* What the run found, beyond 2.4: every series, the verdict (always, for
 * the JSON; judged says the user asked for it), and the machine's state. */
struct results {
	struct rt_series *series;
	int n;
	struct rt_verdict verdict;
	bool judged;
	int stop_signal;              /* what ended the run, 0: it ended by itself */
	int64_t start_ns, end_ns;     /* the measured time, after the warm-up */
	struct rt_env env;
	struct rt_env_run how;        /* what the run does about the machine */
	struct rt_isolation *iso;     /* JSON, records, --isolation */
	struct rt_records_set records;
	struct rt_window **windows;   /* each series' */
	struct rt_metrics_set metrics; /* --metrics */
	bool metrics_open;
};

/* The main thread's tick: the tool's (live display), and the records. */
struct tick_ctx {
	const struct pairtool_ops *ops;
	void *tool;
	struct results *res;
};

static void tick(void *ctx)
{
	struct tick_ctx *t = ctx;

	if (t->ops->tick)
		t->ops->tick(t->tool);
	rt_output_stdout_check(false); /* a reader gone: the live display stops */
	rt_records_set_poll(&t->res->records, t->res->windows);
}

/* --metrics: the file checked, the series (their receivers' CPUs) and labels known. 0 or -errno. */
static int open_metrics(const struct pairtool_common *cfg, const struct pairtool_ops *ops,
			void *tool, struct rt_pair *p, struct results *res)
{
	const struct rt_metrics_doc doc = {
		.tool = rt_prog_name(), .series_label = "pair", .unit_ns = 1000,
	};
	int n = ops->nseries(tool), err;
	int *cpus;

	if ((err = rt_metrics_check_path(cfg->results.metrics)))
		return err;
	cpus = calloc((size_t)n ? (size_t)n : 1, sizeof(*cpus));
	if (!cpus)
		return -ENOMEM;
	for (int i = 0; i < n; i++)
		cpus[i] = rt_pair_part(p, ops->series_part(tool, i))->role.cpu;
	err = rt_metrics_set_open(&res->metrics, cfg->results.metrics, &doc, n, cpus, false);
	free(cpus);
	if (err)
		return err;
	res->metrics_open = true;
	if ((err = rt_metrics_set_labels(&res->metrics, res->env.release, res->env.preempt_model)))
		return err;
	return rt_records_set_metrics(&res->records, &res->metrics, cfg->results.records_interval_s,
				      n, false);
}

/* --records: the file opened before the run, the run line once the series are set up. */
static int open_records(const struct pairtool_common *cfg, const struct pairtool_ops *ops,
			void *tool, struct rt_pair *p, struct results *res)
{
	int n = ops->nseries(tool), err;

	res->windows = calloc((size_t)n, sizeof(*res->windows));
	if (!res->windows) {
		rt_prog_error_errno(ENOMEM, "cannot set up --records");
		return RT_EXIT_FAILURE;
	}
	if ((err = rt_records_set_open(&res->records, cfg->results.records,
				       cfg->results.records_interval_s, n, false))) {
		rt_prog_error_errno(-err, "records '%s'", cfg->results.records);
		return RT_EXIT_FAILURE;
	}
	if (cfg->results.metrics && (err = open_metrics(cfg, ops, tool, p, res))) {
		rt_prog_error_errno(-err, "cannot write --metrics file '%s'", cfg->results.metrics);
		return RT_EXIT_FAILURE;
	}
	return 0;
}

static void start_records(const struct pairtool_common *cfg, const struct rt_report *rep,
			  const struct pairtool_ops *ops, void *tool, struct rt_pair *p,
			  struct results *res)
{
	const struct rt_records_run run = {
		.tool = rt_prog_name(),
		.cmdline = rep->cmdline,
		.unit = "us",
		.interval_s = cfg->results.records_interval_s,
		.warmup_s = cfg->results.warmup_s,
	};

	for (int i = 0; i < res->records.n; i++)
		res->windows[i] = rt_pair_part(p, ops->series_part(tool, i))->ws.window;
	if (res->metrics_open)
		rt_metrics_set_flush(&res->metrics, NULL); /* an error is reported at the end */
	/* An error is reported at the end: the run goes on. */
	rt_records_set_start(&res->records, &run, &res->env);
}

/*
 * The participants' CPUs for the JSON's environment, and the preflight
 * warnings: only what is used before the run is read now (all of it for
 * --records' first line), the rest for the JSON after. 0 or RT_EXIT_FAILURE
 * with the error printed.
 */
static int read_environment(const struct pairtool_common *cfg, struct rt_pair *p,
			    struct rt_env *env, struct rt_env_run *how, struct rt_isolation **iso)
{
	struct rt_cpulist allowed, measured = { 0 };
	bool need = rt_cli_results_need_isolation(&cfg->results, cfg->json);
	int err;

	*how = (struct rt_env_run){ .realtime = true };
	if ((err = rt_affinity_allowed(&allowed))) {
		rt_prog_error_errno(-err, "cannot read the CPUs this process may use");
		return RT_EXIT_FAILURE;
	}
	for (int k = 0; k < rt_pair_count(p); k++) {
		const struct rt_pair_role *r = &rt_pair_part(p, k)->role;

		rt_env_add_measured(&measured, r->cpu, &allowed);
		if ((r->policy != SCHED_FIFO && r->policy != SCHED_RR) || r->prio <= 0)
			how->realtime = false;
	}
	/* the isolation checks' reads cost: only for a file or when the warnings are shown */
	how->isolation = need || rt_cli_preflight_shown(cfg->results.preflight);
	if (need && (err = rt_isolation_create(iso, "", &measured)))
		fprintf(stderr, "WARN: no isolation counters: %s\n", strerror(-err));
	return rt_cli_machine_state_begin(env, &measured, how, cfg->results.preflight,
					  cfg->results.records || cfg->results.metrics);
}

/*
 * The participants wait at the gate (rt_pair_start opens it at once after:
 * the start is taken just before). Main thread only.
 */
struct iso_start {
	struct rt_pair *p;
	struct results *res;
};

static void start_isolation(void *ctx)
{
	struct rt_pair *p = ((struct iso_start *)ctx)->p;
	struct results *res = ((struct iso_start *)ctx)->res;
	int err = 0;

	for (int k = 0; res->iso && !err && k < rt_pair_count(p); k++) {
		struct rt_pair_part *pt = rt_pair_part(p, k);

		err = rt_isolation_add_thread(res->iso, pt->tgid, atomic_load(&pt->ws.tid),
					      pt->role.cpu);
	}
	if (res->iso && (err || (err = rt_isolation_start(res->iso)))) {
		fprintf(stderr, "WARN: no isolation counters: %s\n", strerror(-err));
		rt_isolation_free(res->iso);
		res->iso = NULL;
	}
	rt_records_set_isolation(&res->records, res->iso);
}

static int collect(struct results *res, const struct pairtool_ops *ops, void *tool,
		   struct rt_pair *p)
{
	res->n = ops->nseries(tool);
	res->series = calloc((size_t)res->n, sizeof(*res->series));
	if (!res->series)
		return -ENOMEM;
	for (int i = 0; i < res->n; i++) {
		struct rt_pair_part *pt = rt_pair_part(p, ops->series_part(tool, i));

		res->series[i] = rt_worker_state_seal(&pt->ws, -1);
	}
	return 0;
}

/* The fewest samples of a series: the loops a -l run completed. */
static uint64_t loops_done(const struct results *res)
{
	uint64_t n = UINT64_MAX;

	for (int i = 0; i < res->n; i++)
		if (res->series[i].stats.count < n)
			n = res->series[i].stats.count;
	return res->n ? n : 0;
}

/*
 * Judged before the JSON, which carries the verdict and the exit code; a
 * run stopped by a signal before its -D or -l is partial.
 */
static int judge(const struct pairtool_common *cfg, const struct pairtool_ops *ops,
		 void *tool, struct results *res, const struct rt_check_failure *brk, int rc)
{
	double done_s = res->end_ns > res->start_ns ? (double)(res->end_ns - res->start_ns) / 1e9 : 0;

	if (cfg->duration_s)
		rt_cli_verdict_stopped(&res->verdict, res->stop_signal, done_s,
				       (double)cfg->duration_s, "s");
	else if (cfg->loops)
		rt_cli_verdict_stopped(&res->verdict, res->stop_signal, (double)loops_done(res),
				       (double)cfg->loops, "loops");
	else
		rt_cli_verdict_stopped(&res->verdict, 0, done_s, -1, "s");
	rc = rt_cli_judge(&res->verdict, &res->judged, &cfg->results.limits, res->series, res->n,
			  brk, rc);
	res->verdict.naming = (struct rt_verdict_naming){ ops->pair_tasks, tool };
	return rc;
}

/* The series (pair, thread) participant k belongs to: the one of its ring. */
static int series_of(const struct pairtool_ops *ops, void *tool, const struct rt_pair_config *pc,
		     int k)
{
	for (int i = 0; i < ops->nseries(tool); i++)
		if (ops->series_part(tool, i) / pc->ring_size == k / pc->ring_size)
			return i;
	return k / pc->ring_size;
}

/*
 * Participants whose process died: one line each on stderr now, then in
 * the summary, the records and the verdict (mark_failures). Their number.
 */
static int say_failures(struct rt_pair *p)
{
	struct rt_worker_exit how;
	char cause[80];
	int n = 0;

	for (int k = 0; k < rt_pair_count(p); k++) {
		if (!rt_pair_failed(p, k, &how))
			continue;
		pairtool_exit_cause(&how, cause, sizeof(cause));
		rt_prog_error("child %d (#%d) %s", (int)how.pid, k, cause);
		n++;
	}
	return n;
}

/* A "failed" record per dead participant, before the last window and the totals. */
static void record_failure(struct rt_records_set *rs, int series, int k,
			   const struct rt_worker_exit *how, const char *cause)
{
	struct rt_json j;

	if (!rs->open)
		return;
	rt_records_begin(&rs->rec, &j, "failed");
	rt_json_int(&j, "thread", series);
	rt_json_int(&j, "participant", k);
	rt_json_int(&j, "pid", how->pid);
	rt_json_string(&j, "cause", cause);
	/* an error is kept in the records and reported by rt_records_set_finish */
	(void)rt_records_end(&rs->rec, &j);
}

static int mark_failures(const struct pairtool_ops *ops, void *tool,
			 const struct rt_pair_config *pc, struct rt_pair *p, struct results *res)
{
	struct rt_worker_exit how;
	char cause[80], detail[128];
	int rc = 0;

	for (int k = 0; k < rt_pair_count(p); k++) {
		int i = series_of(ops, tool, pc, k);

		if (!rt_pair_failed(p, k, &how))
			continue;
		pairtool_exit_cause(&how, cause, sizeof(cause));
		printf("# Failed: #%d (pid %d) of %s %d: %s\n", k, (int)how.pid,
		       pc->ring_size == 2 ? "pair" : "ring", i, cause);
		record_failure(&res->records, i, k, &how, cause);
		snprintf(detail, sizeof(detail), "child %d (#%d) %s", (int)how.pid, k, cause);
		if (rt_verdict_add_failed(&res->verdict, i, how.pid, detail)) {
			rt_prog_error_errno(ENOMEM, "cannot judge the verdict");
			rc = RT_EXIT_FAILURE;
		}
	}
	return rc;
}

static int write_json(const struct pairtool_common *cfg, const struct rt_report *rep,
		      const struct pairtool_ops *ops, void *tool, struct rt_output *json, int rc,
		      const struct results *res)
{
	struct rt_json j;
	int err;

	rt_json_init(&j, json->f);
	rt_report_json_header(&j, rep, rc);
	ops->write_json(tool, &j);
	rt_env_write_json(&j, &res->env);
	rt_percentiles_write_json_total(&j, "percentiles", res->series, res->n);
	rt_verdict_write_json(&j, &res->verdict);
	if (res->iso)
		rt_isolation_write_json(&j, res->iso, RT_ISOLATION_RUN);
	rt_json_object_end(&j);
	err = rt_json_finish(&j);
	err = err ? err : rt_output_commit(json);
	if (!err)
		return rc;
	rt_output_abort(json);
	rt_prog_error_errno(-err, "cannot write --json file '%s'", cfg->json);
	return RT_EXIT_FAILURE;
}

/* One run's state, shared by pairtool_run's steps. */
struct run {
	const struct pairtool_common *cfg;
	const struct rt_report *rep;
	const struct pairtool_ops *ops;
	void *tool;
	struct rt_pair_config pc;     /* the caller's, with what the run adds */
	struct rt_pair *p;
	struct rt_output json;
	struct rt_trace trace;
	struct results res;
	struct iso_start iso_start;   /* points into res: the run is never moved */
	sigset_t signals;             /* what ends the main loop */
};

static int set_up_signals(sigset_t *signals, bool processes)
{
	int err;

	/* A reader of stdout that goes away (| head) must not end the run: the
	 * writes fail with EPIPE, the files are still written, exit 1 says it. */
	signal(SIGPIPE, SIG_IGN);
	if ((err = rt_signal_setup(signals))) {
		rt_prog_error_errno(-err, "cannot set up signal handling");
		return RT_EXIT_FAILURE;
	}
	/* -f: a child's death wakes the main loop at once. */
	if (processes) {
		sigaddset(signals, SIGCHLD);
		pthread_sigmask(SIG_BLOCK, signals, NULL);
	}
	return 0;
}

/* What the run adds to the caller's engine configuration. */
static void complete_pair_config(struct run *r)
{
	const struct pairtool_common *cfg = r->cfg;

	r->pc.trace = r->trace.on_fd >= 0 ? &r->trace : NULL;
	r->pc.loghist = rt_cli_results_need_hist(&cfg->results, cfg->json != NULL);
	r->pc.windows = rt_cli_results_need_windows(&cfg->results);
	r->pc.warmup_ns = (int64_t)cfg->results.warmup_s * RT_NSEC_PER_SEC;
	r->pc.at_gate = start_isolation;
	r->pc.at_gate_ctx = &r->iso_start;
}

/*
 * The --json file, permission, -b's trace, memory locking and the engine.
 * 0 or the exit code, with the error printed and what was opened closed.
 */
static int set_up(struct run *r)
{
	const struct pairtool_common *cfg = r->cfg;
	bool locked = false;
	int rc, err;

	if (cfg->json && rt_cli_open_output(&r->json, "json", cfg->json))
		return RT_EXIT_FAILURE;
	if ((rc = rt_cli_check_rt_permission(cfg->priority ? SCHED_FIFO : SCHED_OTHER,
					       cfg->priority))) {
		rt_output_abort(&r->json);
		return rc;
	}
	if (r->ops->stops_trace && cfg->breaktrace_us && (err = rt_trace_open(&r->trace)))
		fprintf(stderr, "WARN: tracefs not available (%s): -b stops the test but no trace\n",
			strerror(-err));
	complete_pair_config(r);
	if (!(rc = lock_memory(cfg, &locked)))
		r->pc.lock_memory = locked;
	if (rc || (err = rt_pair_create(&r->p, &r->pc))) {
		if (!rc) {
			rt_prog_error_errno(-err, "cannot set up the %s", r->ops->what);
			rc = RT_EXIT_FAILURE;
		}
		rt_output_abort(&r->json);
		rt_trace_close(&r->trace);
		return rc;
	}
	return 0;
}

/* The started engine's main loop, until -D, -l or a signal, and its times. */
static void run_pair(struct run *r)
{
	const struct pairtool_common *cfg = r->cfg;
	struct results *res = &r->res;
	struct tick_ctx t = { r->ops, r->tool, res };
	int64_t tick_ns = r->ops->tick ? r->ops->tick_ns : -1;
	int64_t warmup_ns = r->pc.warmup_ns;
	int err;

	if (rt_cli_results_need_windows(&cfg->results) &&
	    (tick_ns < 0 || tick_ns > RECORDS_POLL_NS))
		tick_ns = RECORDS_POLL_NS;
	start_records(cfg, r->rep, r->ops, r->tool, r->p, res);
	res->start_ns = rt_time_mono_ns() + warmup_ns;
	/* -D counts the measured time, after the warm-up. */
	res->stop_signal = rt_pair_run(r->p, &r->signals,
		    cfg->duration_s ? (int64_t)cfg->duration_s * RT_NSEC_PER_SEC + warmup_ns : 0,
		    tick_ns, tick, &t);
	res->end_ns = rt_time_mono_ns();
	/* before the stop: the participants' /proc files are still there */
	if (res->iso && (err = rt_isolation_end(res->iso)))
		fprintf(stderr, "WARN: cannot read the isolation counters: %s\n", strerror(-err));
}

/* Environment, records, start and the run itself. 0 or the exit code, said why. */
static int measure(struct run *r)
{
	int rc, err;

	if ((rc = read_environment(r->cfg, r->p, &r->res.env, &r->res.how, &r->res.iso)))
		return rc;
	if ((rc = open_records(r->cfg, r->ops, r->tool, r->p, &r->res)))
		return rc;
	if ((err = rt_pair_start(r->p))) {
		rt_prog_error_errno(-err, "cannot start the %s", r->ops->what);
		return RT_EXIT_FAILURE;
	}
	run_pair(r);
	return 0;
}

/* --records' last lines and --metrics' last state: rc, or 1 when one fails. */
static int finish_records(const struct pairtool_common *cfg, struct results *res, int rc)
{
	int err;

	if ((err = rt_records_set_finish(&res->records, res->windows, res->series))) {
		rt_prog_error_errno(-err, "records '%s'", cfg->results.records);
		rc = RT_EXIT_FAILURE;
	}
	if (res->metrics_open &&
	    (err = rt_metrics_set_finish(&res->metrics, res->series,
					 res->judged ? !strcmp(rt_verdict_result(&res->verdict),
							      "pass") : RT_METRICS_NO_VERDICT,
					 res->iso))) {
		rt_prog_error_errno(-err, "cannot write --metrics file '%s'", cfg->results.metrics);
		rc = RT_EXIT_FAILURE;
	}
	return rc;
}

/* After everything 2.4 prints: the tool's epilogue, then what the user asked for. */
static void write_after_summary(const struct run *r)
{
	const struct results *res = &r->res;

	if (r->ops->epilogue)
		r->ops->epilogue(r->tool);
	if (r->cfg->results.percentiles) {
		rt_percentiles_write_text(stdout, res->series, res->n);
		rt_percentiles_write_ci_text(stdout, res->series, res->n, "us");
	}
	if (r->cfg->results.isolation)
		rt_isolation_write_text(stdout, res->iso);
	if (res->judged)
		rt_verdict_write_text(stdout, &res->verdict, "us");
}

/* -b: the series whose receiver crossed the break threshold, or NULL. */
static const struct rt_check_failure *break_of(const struct run *r, struct rt_cli_break *b)
{
	int64_t value;
	int k = rt_pair_break(r->p, &value);

	if (k < 0)
		return NULL;
	return rt_cli_break(b, RT_SUBJECT_THREAD, series_of(r->ops, r->tool, &r->pc, k), value,
			    r->cfg->breaktrace_us, "us");
}

/* The stopped run's summary, verdict, files and JSON. The exit code. */
static int report(struct run *r, int failed)
{
	struct rt_cli_break brk;
	struct results *res = &r->res;
	int rc;

	if (collect(res, r->ops, r->tool, r->p)) {
		rt_prog_error_errno(ENOMEM, "cannot collect the results");
		return RT_EXIT_FAILURE;
	}
	rc = judge(r->cfg, r->ops, r->tool, res, break_of(r, &brk), r->ops->report(r->tool));
	if (failed) {
		mark_failures(r->ops, r->tool, &r->pc, r->p, res);
		rc = RT_EXIT_FAILURE;
	}
	rc = finish_records(r->cfg, res, rc);
	/* a stdout that failed is in the JSON's return_code too */
	if (rt_output_stdout_check(true))
		rc = RT_EXIT_FAILURE;
	/* the environment's rest: read now, off the measured CPUs' time */
	if (r->json.f && rt_cli_machine_state_end(&res->env, &res->how))
		rc = RT_EXIT_FAILURE;
	if (r->json.f)
		rc = write_json(r->cfg, r->rep, r->ops, r->tool, &r->json, rc, res);
	write_after_summary(r);
	return rc;
}

static void free_results(struct results *res)
{
	free(res->series);
	rt_verdict_free(&res->verdict);
	rt_env_free(&res->env);
	rt_isolation_free(res->iso);
	rt_records_set_close(&res->records);
	rt_metrics_set_close(&res->metrics);
	free(res->windows);
}

int pairtool_run(const struct pairtool_common *cfg, const struct rt_report *rep,
		 struct rt_pair_config pc, const struct pairtool_ops *ops, void *tool,
		 struct rt_pair **pair)
{
	struct run r = {
		.cfg = cfg, .rep = rep, .ops = ops, .tool = tool, .pc = pc,
		.trace = { .marker_fd = -1, .on_fd = -1 },
	};
	int rc, failed;

	r.iso_start.res = &r.res;
	if ((rc = set_up_signals(&r.signals, pc.processes)))
		return rc;
	if ((rc = set_up(&r)))
		return rc;
	*pair = r.p;
	r.iso_start.p = r.p;
	ops->set_roles(tool, r.p);
	rc = measure(&r);
	rt_pair_stop(r.p);
	failed = say_failures(r.p);
	if (!rc)
		rc = report(&r, failed);
	rt_output_abort(&r.json);
	free_results(&r.res);
	rt_pair_destroy(r.p);
	*pair = NULL;
	rt_trace_close(&r.trace);
	return rc || !failed ? rc : RT_EXIT_FAILURE;
}
