// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>

#include "rt_cli.h"
#include "rt_json.h"
#include "rt_prog.h"
#include "rt_time.h"
#include "rt_verdict_write.h"

#include "report.h"

void ssdd_summarize(const struct ssdd_config *cfg, const struct ssdd_result *res,
		    struct ssdd_summary *s)
{
	memset(s, 0, sizeof(*s));
	s->first_failed = s->first_cannot = s->first_died = -1;
	for (int i = 0; i < cfg->forks; i++) {
		const struct ssdd_pair_result *p = &res->pairs[i];

		s->steps += p->steps;
		switch (p->outcome) {
		case SSDD_PASSED: s->passed++; break;
		case SSDD_FAILED:
			if (!s->failed++)
				s->first_failed = i;
			break;
		case SSDD_CANNOT:
			if (!s->cannot++)
				s->first_cannot = i;
			break;
		case SSDD_STOPPED: s->stopped++; break;
		case SSDD_DIED:
			if (!s->died++)
				s->first_died = i;
			break;
		case SSDD_NOT_STARTED:
		case SSDD_RUNNING: s->not_started++; break;
		}
	}
}

int ssdd_exit_code(const struct ssdd_result *res, const struct ssdd_summary *s)
{
	if (s->failed)
		return RT_EXIT_FAIL;
	if (s->cannot || s->died || res->fork_err || (s->not_started && !res->stop_signal))
		return RT_EXIT_FAILURE;
	return RT_EXIT_OK;
}

void ssdd_print_header(FILE *f, const struct ssdd_config *cfg, int main_pid)
{
	if (cfg->quiet)
		return;
	fprintf(f, "#main : %d\n#forks: %d\n#steps: %" PRId64 "\n\n", main_pid, cfg->forks,
		cfg->iters);
	fflush(f);
}

static const char *signal_name(int sig)
{
	return sig == SIGINT ? "SIGINT" : sig == SIGTERM ? "SIGTERM" : "a signal";
}

/* "killed by SIGKILL" or "exited with status 1 without a result". */
static void tracer_death(const struct ssdd_pair_result *p, char *buf, size_t len)
{
	char b[24];

	if (WIFSIGNALED(p->tracer_status))
		snprintf(buf, len, "the tracer was killed by %s",
			 ssdd_signal_name(WTERMSIG(p->tracer_status), b, sizeof(b)));
	else
		snprintf(buf, len, "the tracer exited with status %d without a result",
			 WEXITSTATUS(p->tracer_status));
}

void ssdd_print_end(FILE *f, const struct ssdd_config *cfg, const struct ssdd_result *res,
		    const struct ssdd_summary *s, int rc)
{
	char why[96];

	for (int i = 0; i < cfg->forks && !cfg->quiet; i++) {
		const struct ssdd_pair_result *p = &res->pairs[i];

		if (p->outcome == SSDD_STOPPED) {
			fprintf(f, "forktest#%d/%d: STOPPED%s%s after %" PRIu64 " of %" PRId64
				" steps, no error\n", i, p->tracer_pid,
				res->stop_signal ? " by " : "",
				res->stop_signal ? signal_name(res->stop_signal) : "", p->steps,
				cfg->iters);
		} else if (p->outcome == SSDD_DIED) {
			tracer_death(p, why, sizeof(why));
			fprintf(f, "forktest#%d/%d: EXITING, ERROR: %s after %" PRIu64 " steps\n", i,
				p->tracer_pid, why, p->steps);
		}
	}
	if (res->stop_signal && !cfg->quiet)
		fprintf(f, "# Stopped by %s: %" PRIu64 " of %" PRIu64 " steps done\n",
			signal_name(res->stop_signal), s->steps,
			(uint64_t)cfg->forks * (uint64_t)cfg->iters);
	/* a stopped run did not pass all tests: 2.4 had no line for it */
	if (s->failed || rc == RT_EXIT_FAILURE)
		fputs("One or more tests FAILED.\n", f);
	else if (!res->stop_signal)
		fputs("All tests PASSED.\n", f);
	fflush(f);
}

/* A pair in the verdict: "pair P (#TRACER -> #TRACEE)", by their pids. */
static void pair_pids(void *ctx, int pair, int *tracer, int *tracee)
{
	const struct ssdd_result *res = ctx;

	*tracer = res->pairs[pair].tracer_pid;
	*tracee = res->pairs[pair].tracee_pid;
}

void ssdd_judge(struct rt_verdict *v, const struct ssdd_config *cfg, const struct ssdd_result *res,
		const struct ssdd_summary *s)
{
	char why[320]; /* the verdict keeps 159 bytes of it */

	rt_verdict_init(v);
	v->naming.pair_tasks = pair_pids;
	v->naming.ctx = (void *)res;
	rt_verdict_add_checked(v, "steps", s->steps);
	for (int i = 0; i < cfg->forks; i++) {
		const struct ssdd_pair_result *p = &res->pairs[i];

		if (p->outcome == SSDD_FAILED) {
			snprintf(why, sizeof(why), "step %" PRIu64 ": expected %s, got %s",
				 p->mismatch.step, p->mismatch.expected, p->mismatch.got);
			rt_verdict_fail_check(v, &(struct rt_check_failure){
				.limit = "step", .subject = RT_SUBJECT_PAIR, .index = i,
				.value = (int64_t)p->mismatch.step, .bound = cfg->iters, .unit = "steps",
				.detail = why });
		} else if (p->outcome == SSDD_DIED) {
			tracer_death(p, why, sizeof(why));
			rt_verdict_unproven(v, RT_SUBJECT_PAIR, i, true, why);
		} else if (p->outcome == SSDD_CANNOT) {
			snprintf(why, sizeof(why), "%s failed: %s", p->what, strerror(p->err));
			rt_verdict_unproven(v, RT_SUBJECT_PAIR, i, true, why);
		}
	}
	if (res->fork_err) {
		snprintf(why, sizeof(why), "cannot create the tracer of pair %d: %s", res->fork_pair,
			 strerror(res->fork_err));
		rt_verdict_unproven(v, RT_SUBJECT_NONE, -1, true, why);
	} else if (s->not_started && !res->stop_signal) {
		rt_verdict_unproven(v, RT_SUBJECT_NONE, -1, true, "pairs did not start");
	}
	if (res->stop_signal)
		rt_cli_verdict_stopped(v, res->stop_signal, (double)s->steps,
				       (double)cfg->forks * (double)cfg->iters, "steps");
	else
		rt_verdict_set_done(v, (double)s->steps, (double)cfg->forks * (double)cfg->iters,
				    "steps");
	rt_verdict_finish(v);
}

/* The reason the test could not run, for stderr and the JSON. */
static void error_reason(const struct ssdd_config *cfg, const struct ssdd_result *res,
			 const struct ssdd_summary *s, const struct ssdd_ptrace_policy *pol,
			 char *buf, size_t len)
{
	char why[320];

	buf[0] = '\0';
	if (res->fork_err) {
		snprintf(buf, len, "cannot create the tracer of pair %d of %d: %s%s", res->fork_pair,
			 cfg->forks, strerror(res->fork_err),
			 res->fork_err == EAGAIN ? " (too many processes: see ulimit -u)" : "");
	} else if (s->cannot) {
		const struct ssdd_pair_result *p = &res->pairs[s->first_cannot];

		if (strcmp(p->what, "PTRACE_ATTACH") == 0)
			ssdd_explain_refusal(p->err, pol, why, sizeof(why));
		else
			snprintf(why, sizeof(why), "%s%s", strerror(p->err),
				 p->err == EAGAIN ? " (too many processes: see ulimit -u)" : "");
		snprintf(buf, len, "pair %d: %s failed: %s", s->first_cannot, p->what, why);
	} else if (s->died) {
		tracer_death(&res->pairs[s->first_died], why, sizeof(why));
		snprintf(buf, len, "pair %d: %s", s->first_died, why);
	} else if (s->not_started) {
		snprintf(buf, len, "%d pairs did not start", s->not_started);
	}
}

void ssdd_print_error(const struct ssdd_config *cfg, const struct ssdd_result *res,
		      const struct ssdd_summary *s, const struct ssdd_ptrace_policy *pol)
{
	char buf[512];

	error_reason(cfg, res, s, pol, buf, sizeof(buf));
	if (buf[0])
		rt_prog_error("%s", buf);
}

static const char *const outcome_names[] = {
	[SSDD_NOT_STARTED] = "not started", [SSDD_RUNNING] = "not started",
	[SSDD_PASSED] = "pass", [SSDD_FAILED] = "fail", [SSDD_CANNOT] = "could not run",
	[SSDD_STOPPED] = "stopped", [SSDD_DIED] = "tracer died",
};

static void json_mismatch(struct rt_json *j, const struct ssdd_mismatch *m)
{
	rt_json_uint(j, "step", m->step);
	rt_json_string(j, "expected", m->expected);
	rt_json_string(j, "got", m->got);
}

static void json_pairs(struct rt_json *j, const struct ssdd_config *cfg,
		       const struct ssdd_result *res)
{
	char buf[128];

	rt_json_array_begin(j, "pairs");
	for (int i = 0; i < cfg->forks; i++) {
		const struct ssdd_pair_result *p = &res->pairs[i];

		rt_json_object_begin(j, NULL);
		rt_json_int(j, "pair", i);
		rt_json_int(j, "tracer_pid", p->tracer_pid);
		rt_json_int(j, "tracee_pid", p->tracee_pid);
		rt_json_uint(j, "steps", p->steps);
		rt_json_string(j, "result", outcome_names[p->outcome]);
		if (p->time_ns >= 0) {
			rt_json_int(j, "time_ns", p->time_ns);
			rt_json_double(j, "steps_per_s", p->time_ns > 0 ? (double)p->steps * 1e9 /
									  (double)p->time_ns
									: 0.0, 1);
		} else {
			rt_json_null(j, "time_ns");
			rt_json_null(j, "steps_per_s");
		}
		if (p->outcome == SSDD_FAILED)
			json_mismatch(j, &p->mismatch);
		if (p->outcome == SSDD_CANNOT) {
			snprintf(buf, sizeof(buf), "%s: %s", p->what, strerror(p->err));
			rt_json_string(j, "error", buf);
		}
		if (p->outcome == SSDD_DIED) {
			tracer_death(p, buf, sizeof(buf));
			rt_json_string(j, "error", buf);
		}
		rt_json_object_end(j);
	}
	rt_json_array_end(j);
}

int ssdd_write_json(FILE *f, const struct rt_report *rep, int return_code,
		    const struct ssdd_config *cfg, const struct ssdd_result *res,
		    const struct ssdd_summary *s, const struct ssdd_ptrace_policy *pol,
		    const struct rt_verdict *v, const struct rt_env *env)
{
	char reason[512];

	struct rt_report_sched sched = RT_REPORT_SCHED_INIT;
	struct rt_json j;

	rt_json_init(&j, f);
	rt_report_json_header(&j, rep, return_code);
	rt_json_int(&j, "forks", cfg->forks);
	rt_json_int(&j, "iters", cfg->iters);
	json_pairs(&j, cfg, res);
	rt_json_uint(&j, "steps", s->steps);
	rt_json_uint(&j, "steps_expected", (uint64_t)cfg->forks * (uint64_t)cfg->iters);
	rt_json_string(&j, "stopped_by", res->stop_signal ? signal_name(res->stop_signal) : NULL);
	error_reason(cfg, res, s, pol, reason, sizeof(reason));
	rt_json_string(&j, "error", reason[0] ? reason : NULL);
	rt_verdict_write_json(&j, v);
	if (s->passed + s->failed + s->stopped)
		rt_report_sched_add(&sched, res->tracers_policy);
	rt_report_json_scheduling(&j, &sched);
	rt_env_write_json(&j, env);
	rt_json_object_end(&j);
	return rt_json_finish(&j);
}
