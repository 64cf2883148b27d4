// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rt-qualify: is this machine fit for real-time work? The set-up findings,
 * hardware noise, then cyclictest and oslat under load, run as our tools
 * ship, into one result directory with one verdict.
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "rt_affinity.h"
#include "rt_cli.h"
#include "rt_env.h"
#include "rt_metrics.h"
#include "rt_prog.h"
#include "rt_reaper.h"
#include "rt_report.h"
#include "rt_signal.h"
#include "rt_tool.h"

#include "findings.h"
#include "options.h"
#include "progress.h"
#include "qualify.h"
#include "reports.h"
#include "result.h"
#include "run.h"
#include "steps.h"
#include "summary.h"
#include "tools.h"

/* Where each program is: the steps' tools and the load. */
struct rtq_paths {
	char step[RTQ_NSTEPS][PATH_MAX];
	char load[PATH_MAX];
};

/* Beside the control signals rt_tool blocked: a child's end wakes the main loop at once. */
static int block_sigchld(sigset_t *set)
{
	if (sigaddset(set, SIGCHLD) || sigprocmask(SIG_BLOCK, set, NULL)) {
		rt_prog_error_errno(errno, "cannot set up signal handling");
		return RT_EXIT_FAILURE;
	}
	return 0;
}

/* The one reaper of the children (its signalfd beside the main loop's sigtimedwait, only for stops). */
static int reaper_setup(struct rtq_plan *p, struct rt_reaper *r)
{
	int err = rt_reaper_init(r, NULL);

	if (err) {
		rt_reaper_destroy(r);
		rt_prog_error_errno(-err, "cannot set up signal handling");
		return RT_EXIT_FAILURE;
	}
	/* a SIGKILL of rt-qualify ends the tools too; SIGTERM lets them restore the machine */
	r->death_signal = SIGTERM;
	p->reaper = r;
	return 0;
}

/* Measured: --cpus, else the isolated CPUs, else all; the load on the others, else on all. */
static int choose_cpus(struct rtq_plan *p, struct rt_env *env)
{
	struct rt_cpulist allowed, isolated = { 0 };
	int err;

	if ((err = rt_affinity_allowed(&allowed)) || (err = rt_env_read(env, &allowed))) {
		rt_prog_error_errno(-err, "cannot read the machine's state");
		return RT_EXIT_FAILURE;
	}
	for (unsigned i = 0; i < env->ncpus; i++)
		if (env->cpus[i].isolated)
			isolated.cpu[isolated.count++] = env->cpus[i].cpu;
	p->measured = p->cfg->cpus_given ? p->cfg->cpus : isolated.count ? isolated : allowed;
	p->isolated = isolated.count > 0;
	for (unsigned i = 0; i < p->measured.count; i++)
		p->isolated &= rt_affinity_contains(&isolated, p->measured.cpu[i]);
	p->load_cpus.count = 0;
	for (unsigned i = 0; i < allowed.count; i++)
		if (!rt_affinity_contains(&p->measured, allowed.cpu[i]))
			p->load_cpus.cpu[p->load_cpus.count++] = allowed.cpu[i];
	if (!p->load_cpus.count)
		p->load_cpus = allowed;
	if (p->measured.count == allowed.count)
		return 0;
	rt_env_free(env);
	if ((err = rt_env_read(env, &p->measured))) {
		rt_prog_error_errno(-err, "cannot read the machine's state");
		return RT_EXIT_FAILURE;
	}
	return 0;
}

static int find_tool(const struct rtq_plan *p, const char *name, char *path)
{
	if (rtq_tool_path(p->self_dir, name, path, PATH_MAX) == 0)
		return 0;
	rt_prog_error("cannot find %s beside rt-qualify (in %s)", name, p->self_dir);
	return RT_EXIT_FAILURE;
}

static int locate(struct rtq_plan *p, struct rtq_paths *paths)
{
	int err;

	if ((err = rtq_self_dir(p->self_dir, sizeof(p->self_dir)))) {
		rt_prog_error_errno(-err, "cannot find where rt-qualify runs from (/proc/self/exe)");
		return RT_EXIT_FAILURE;
	}
	for (int i = 0; i < RTQ_NSTEPS; i++)
		if (find_tool(p, p->step[i].tool, paths->step[i]))
			return RT_EXIT_FAILURE;
	if (p->cfg->load == RTQ_LOAD_HACKBENCH && find_tool(p, "hackbench", paths->load))
		return RT_EXIT_FAILURE;
	if (p->cfg->load == RTQ_LOAD_STRESS_NG &&
	    rtq_path_lookup("stress-ng", paths->load, sizeof(paths->load))) {
		rt_prog_error("--load=stress-ng: stress-ng is not installed (not on PATH)");
		return RT_EXIT_FAILURE;
	}
	p->load.kind = p->cfg->load;
	p->load.path = p->cfg->load == RTQ_LOAD_NONE ? NULL : paths->load;
	return 0;
}

/* -o DIR, or rt-qualify-HOST-YYYYmmdd-HHMMSS here; named now, made by make_dir(). */
static void name_dir(struct rtq_plan *p)
{
	struct utsname u;
	char stamp[32];
	time_t now = time(NULL);
	struct tm tm;

	char cwd[PATH_MAX / 2];

	/* absolute, so that the closing lines say where the results are */
	if (!getcwd(cwd, sizeof(cwd)))
		snprintf(cwd, sizeof(cwd), ".");
	if (p->cfg->output) {
		snprintf(p->dir, sizeof(p->dir), "%s%s%s", p->cfg->output[0] == '/' ? "" : cwd,
			 p->cfg->output[0] == '/' ? "" : "/", p->cfg->output);
	} else {
		if (uname(&u))
			snprintf(u.nodename, sizeof(u.nodename), "host");
		for (char *c = u.nodename; *c; c++)
			if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
			      (*c >= '0' && *c <= '9') || *c == '.' || *c == '-'))
				*c = '_';
		localtime_r(&now, &tm);
		strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", &tm);
		snprintf(p->dir, sizeof(p->dir), "%s/rt-qualify-%s-%s", cwd, u.nodename, stamp);
	}
}

/* May we make files in dir, as the effective user (setuid, setpriv)? 0 or the errno. */
static int writable(const char *dir)
{
	return faccessat(AT_FDCWD, dir, W_OK | X_OK, AT_EACCESS) ? errno : 0;
}

/* The result directory: one we may write in, or one mkdir can make; nothing made yet. */
static int check_dir(const struct rtq_plan *p)
{
	char parent[PATH_MAX];
	struct stat st;
	bool exists = false;
	int err;

	if (stat(p->dir, &st) == 0) {
		exists = true;
		err = S_ISDIR(st.st_mode) ? writable(p->dir) : ENOTDIR;
	} else if (errno == ENOENT) {
		snprintf(parent, sizeof(parent), "%s", p->dir);
		err = writable(dirname(parent));
	} else {
		err = errno;
	}
	if (!err)
		return 0;
	rt_prog_error_errno(err, "cannot %s the result directory '%s'",
			    exists ? "use" : "create", p->dir);
	return RT_EXIT_FAILURE; /* as every tool's --json and --metrics */
}

/* --metrics is written at the end: probe it now (rt_metrics leaves no file behind). */
static int check_metrics(const char *path)
{
	int err;

	if (!path || !(err = rt_metrics_check_path(path)))
		return 0;
	rt_prog_error_errno(-err, "cannot write --metrics file '%s'", path);
	return RT_EXIT_FAILURE;
}

/* Create the directory name_dir() named and check_dir() checked. */
static int make_dir(struct rtq_plan *p)
{
	if (mkdir(p->dir, 0755) && errno != EEXIST) {
		rt_prog_error_errno(errno, "cannot create the result directory '%s'", p->dir);
		return RT_EXIT_FAILURE;
	}
	if ((p->dirfd = open(p->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0) {
		rt_prog_error_errno(errno, "cannot open the result directory '%s'", p->dir);
		return RT_EXIT_FAILURE;
	}
	return 0;
}

static void print_header(const struct rtq_plan *p, const struct rt_env *env)
{
	char measured[256], load[256];
	struct utsname u;

	if (uname(&u))
		snprintf(u.nodename, sizeof(u.nodename), "?");
	rt_affinity_format(&p->measured, measured, sizeof(measured));
	rt_affinity_format(&p->load_cpus, load, sizeof(load));
	printf("rt-qualify: %s, kernel %s (%s); measured CPU(s) %s (%s)", u.nodename,
	       env->release ? env->release : "?", env->preempt_model ? env->preempt_model : "?",
	       measured, p->isolated ? "isolated" : "not isolated");
	if (!p->cfg->setup_only)
		printf(", load %s%s%s, %llu s", rtq_load_name(p->cfg->load),
		       p->cfg->load == RTQ_LOAD_NONE ? "" : " on CPU(s) ",
		       p->cfg->load == RTQ_LOAD_NONE ? "" : load,
		       (unsigned long long)p->cfg->duration_s);
	putchar('\n');
}

/* Run step i unless a stop came; its line either way. */
static int step(struct rtq_plan *p, int i, const struct rtq_paths *paths)
{
	struct rtq_argv a;
	int rc = 0;

	if (!rtq_stop_requested(p)) {
		if (rtq_step_argv(p, i, paths->step[i], &a)) {
			rt_prog_error("the command line of %s is too long", p->step[i].tool);
			return RT_EXIT_FAILURE;
		}
		if (!(rc = rtq_run_step(p, i, &a)))
			rtq_result_read(&p->step[i], p->dirfd);
	}
	rtq_progress_step(p, i);
	return rc;
}

static int measure(struct rtq_plan *p, const struct rtq_paths *paths)
{
	uint64_t loaded = p->step[RTQ_STEP_CYCLICTEST].duration_s +
			  p->step[RTQ_STEP_OSLAT].duration_s + 4 * RTQ_STEP_GRACE_S;
	int rc, sig;

	if ((rc = step(p, RTQ_STEP_NOISE, paths)))
		return rc;
	if (!rtq_stop_requested(p)) {
		if ((rc = rtq_load_start(p, loaded)))
			return rc;
		/* let the load's workers start before the first sample; a stop then is kept */
		if (p->load.started && (sig = rt_signal_wait(p->signals, 500 * 1000 * 1000LL)) > 0) {
			if (sig == SIGINT || sig == SIGTERM || sig == SIGHUP)
				p->stop_signal = sig;
			(void)rtq_stop_requested(p);
		}
	}
	rtq_load_mark(p, true);
	if (!(rc = step(p, RTQ_STEP_CYCLICTEST, paths)))
		rc = step(p, RTQ_STEP_OSLAT, paths);
	rtq_load_mark(p, false);
	rtq_load_stop(p);
	return rc;
}

static int conclude(struct rtq_plan *p, const struct rtq_findings *f, const struct rt_env *env,
		    const struct rt_report *rep)
{
	struct rtq_overall o;
	struct rtq_files files;
	int err;

	rtq_reports_make(p, &files);
	rtq_overall_judge(p, &o);
	if ((err = rtq_summary_write(p, &o, f, env, rep, &files))) {
		rt_prog_error_errno(-err, "cannot write %s/summary.json", p->dir);
		return RT_EXIT_FAILURE;
	}
	if (p->cfg->metrics && (err = rtq_summary_metrics(p, &o, env))) {
		rt_prog_error_errno(-err, "cannot write --metrics file '%s'", p->cfg->metrics);
		return RT_EXIT_FAILURE;
	}
	rtq_summary_print(p, &o, &files);
	return o.exit_code;
}

/* What the run needs beside the configuration. */
struct rtq_own {
	struct rtq_plan plan;
	struct rtq_paths paths;
	struct rtq_findings findings;
	struct rt_reaper reaper;
};

static int parse(struct rt_tool *t, int argc, char *argv[])
{
	return rtq_parse_args(t->cfg, argc, argv);
}

/* The paths the user gave, before anything runs: a long run must not fail at its end. */
static int check_paths(struct rtq_plan *p)
{
	int rc;

	if (p->cfg->setup_only)
		return 0; /* it writes nothing */
	name_dir(p);
	if ((rc = check_dir(p)))
		return rc;
	return check_metrics(p->cfg->metrics);
}

/*
 * Before any output: the paths, SIGCHLD, the reaper, the CPUs, the set-up
 * findings; then, unless --setup-only, every step's program and
 * cyclictest's priority, so that nothing starts that could not end.
 */
static int setup(struct rt_tool *t)
{
	const struct rtq_config *cfg = t->cfg;
	struct rtq_own *o = t->own;
	struct rtq_plan *p = &o->plan;
	int rc, err;

	p->cfg = cfg;
	/* here, with the stop signals blocked: a SIGTERM cannot leave the probe's file */
	if ((rc = check_paths(p)))
		return rc;
	p->tty = isatty(STDOUT_FILENO);
	p->signals = &t->signals;
	if ((rc = block_sigchld(&t->signals)) || (rc = reaper_setup(p, &o->reaper)) ||
	    (rc = choose_cpus(p, &t->env)))
		return rc;
	if ((err = rtq_findings_collect(&o->findings, &t->env, p->isolated))) {
		rt_prog_error_errno(-err, "cannot judge the set-up");
		return RT_EXIT_FAILURE;
	}
	if (cfg->setup_only)
		return 0;
	p->hwlat = rtq_hwlat_available();
	rtq_steps_plan(p);
	if ((rc = locate(p, &o->paths)))
		return rc;
	return rt_cli_check_rt_permission(SCHED_FIFO, RTQ_CYCLICTEST_PRIO);
}

static int run(struct rt_tool *t)
{
	const struct rtq_config *cfg = t->cfg;
	struct rtq_own *o = t->own;
	struct rtq_plan *p = &o->plan;
	int rc, err;

	print_header(p, &t->env);
	rtq_findings_print(stdout, &o->findings);
	fflush(stdout);
	if (cfg->setup_only)
		return o->findings.problems ? RT_EXIT_FAIL : RT_EXIT_OK;
	if ((rc = make_dir(p)))
		return rc;
	/* a tool that could not start is a run-time error, after the summary of the rest */
	err = measure(p, &o->paths);
	rc = conclude(p, &o->findings, &t->env, &t->rep);
	return err ? err : rc;
}

static void restore(struct rt_tool *t, int rc)
{
	struct rtq_own *o = t->own;
	struct rtq_plan *p = &o->plan;

	(void)rc;
	for (int i = 0; i < RTQ_NSTEPS; i++)
		rtq_result_free(&p->step[i]);
	rtq_load_stop(p);
	if (p->reaper)
		rt_reaper_destroy(p->reaper);
	if (p->dirfd >= 0)
		close(p->dirfd);
	rtq_findings_free(&o->findings);
}

static const struct rt_tool_ops ops = { .parse = parse, .setup = setup, .run = run,
					.restore = restore };

int main(int argc, char *argv[])
{
	struct rtq_config cfg;
	struct rtq_own own = { .plan = { .dirfd = -1 } };
	struct rt_tool t = { .ops = &ops, .cfg = &cfg, .own = &own };

	return rt_tool_main(&t, argc, argv);
}
