// SPDX-License-Identifier: GPL-2.0-or-later
#include <signal.h>
#include <stdbool.h>
#include <string.h>

#include "rt_json.h"
#include "rt_verdict.h"
#include "rt_verdict_write.h"
#include "rt_prog.h"
#include "rt_sched.h"

#include "report.h"

#define LINE_RESOLVED "Successfully used priority inheritance to handle an inversion"
#define LINE_NO_INVERSION "No inversion incurred"

static const char *const role_names[PIP_ROLES] = {
	[PIP_LOW] = "low", [PIP_MEDIUM] = "medium", [PIP_HIGH] = "high",
};

static const char *signal_name(int sig)
{
	return sig == SIGINT ? "SIGINT" : sig == SIGTERM ? "SIGTERM" : NULL;
}

static void judge_unresolved(struct rt_verdict *v, const struct pip_config *cfg,
			     const struct pip_result *res)
{
	char why[320];

	/* at most 159 bytes (the verdict's detail) */
	snprintf(why, sizeof(why), "medium finished its %lld ms of work before high got the "
		 "mutex (%s; low released it at priority %d)", cfg->work_ms,
		 cfg->no_pi ? "--no-pi: no priority inheritance" : "priority inheritance failed",
		 res->low_prio_at_unlock);
	rt_verdict_fail_check(v, &(struct rt_check_failure){
		.limit = "inversion", .subject = RT_SUBJECT_PROCESS, .index = PIP_HIGH,
		.value = res->medium_ran_ns / 1000000, .bound = cfg->work_ms, .unit = "ms",
		.detail = why });
}

void pip_judge(struct rt_verdict *v, const struct pip_config *cfg, const struct pip_result *res)
{
	rt_verdict_init(v);
	switch (res->outcome) {
	case PIP_RESOLVED:
		rt_verdict_add_checked(v, "inversions", 1);
		break;
	case PIP_UNRESOLVED:
		rt_verdict_add_checked(v, "inversions", 1);
		judge_unresolved(v, cfg, res);
		break;
	case PIP_NO_INVERSION:
		rt_verdict_unproven(v, RT_SUBJECT_NONE, -1, false, "no inversion was set up: the "
				    "high priority process got the mutex before the medium one "
				    "started");
		break;
	case PIP_STOPPED:
		/* judged on what it measured: nothing was decided before the stop */
		rt_verdict_set_partial(v, signal_name(res->stop_signal) ? signal_name(res->stop_signal)
									: "signal", -1, -1, "");
		break;
	case PIP_ERROR:
		rt_verdict_set_partial(v, "error: the test could not run to its end", -1, -1, "");
		break;
	}
	rt_verdict_finish(v);
}

void pip_print_result(FILE *f, const struct pip_result *res)
{
	if (res->outcome == PIP_RESOLVED)
		fputs(LINE_RESOLVED "\n", f);
	else if (res->outcome == PIP_NO_INVERSION)
		fputs(LINE_NO_INVERSION "\n", f);
}

static void json_ns(struct rt_json *j, const char *key, int64_t ns)
{
	if (ns < 0)
		rt_json_null(j, key);
	else
		rt_json_int(j, key, ns);
}

static void json_processes(struct rt_json *j, const struct pip_result *res)
{
	rt_json_array_begin(j, "processes");
	for (int r = 0; r < PIP_ROLES; r++) {
		rt_json_object_begin(j, NULL);
		rt_json_string(j, "role", role_names[r]);
		if (res->policy[r] < 0) {
			rt_json_null(j, "policy");
			rt_json_null(j, "priority");
		} else {
			rt_json_string(j, "policy", rt_sched_policy_name(res->policy[r]));
			rt_json_int(j, "priority", res->prio[r]);
		}
		rt_json_object_end(j);
	}
	rt_json_array_end(j);
}

int pip_write_json(FILE *f, const struct rt_report *rep, int return_code,
		   const struct pip_config *cfg, const struct pip_result *res,
		   const struct rt_verdict *v, const struct rt_env *env)
{
	struct rt_report_sched sched = RT_REPORT_SCHED_INIT;
	bool decided = res->outcome == PIP_RESOLVED || res->outcome == PIP_UNRESOLVED;
	struct rt_json j;

	rt_json_init(&j, f);
	rt_report_json_header(&j, rep, return_code);
	rt_json_int(&j, "usleep_us", cfg->usleep_us);
	rt_json_int(&j, "work_ms", cfg->work_ms);
	rt_json_int(&j, "priority_inheritance", !cfg->no_pi);
	if (res->cpu < 0)
		rt_json_null(&j, "cpu");
	else
		rt_json_int(&j, "cpu", res->cpu);
	json_processes(&j, res);
	rt_json_int(&j, "inversion", decided);
	if (decided)
		rt_json_int(&j, "resolved", res->outcome == PIP_RESOLVED);
	else
		rt_json_null(&j, "resolved");
	rt_json_string(&j, "result", res->outcome == PIP_RESOLVED ? LINE_RESOLVED :
				     res->outcome == PIP_NO_INVERSION ? LINE_NO_INVERSION : NULL);
	json_ns(&j, "high_wait_ns", res->high_wait_ns);
	json_ns(&j, "medium_ran_ns", res->medium_ran_ns);
	rt_json_int(&j, "medium_finished", res->medium_finished);
	if (res->low_prio_at_unlock < 0)
		rt_json_null(&j, "low_priority_at_unlock");
	else
		rt_json_int(&j, "low_priority_at_unlock", res->low_prio_at_unlock);
	rt_json_string(&j, "stopped_by", signal_name(res->stop_signal));
	rt_verdict_write_json(&j, v);
	for (int r = 0; r < PIP_ROLES; r++)
		rt_report_sched_add(&sched, res->policy[r]);
	rt_report_json_scheduling(&j, &sched);
	rt_env_write_json(&j, env);
	rt_json_object_end(&j);
	return rt_json_finish(&j);
}
