// SPDX-License-Identifier: GPL-2.0-or-later
#include <signal.h>
#include <stdbool.h>
#include <string.h>

#include "rt_json.h"
#include "rt_prog.h"
#include "rt_sched.h"

#include "report.h"

#define LINE_RESOLVED "Successfully used priority inheritance to handle an inversion"
#define LINE_NO_INVERSION "No inversion incurred"

static const char *const role_names[PIP_ROLES] = {
	[PIP_LOW] = "low", [PIP_MEDIUM] = "medium", [PIP_HIGH] = "high",
};

int pip_exit_code(const struct pip_result *res)
{
	switch (res->outcome) {
	case PIP_RESOLVED: return RT_EXIT_OK;
	case PIP_UNRESOLVED: return RT_EXIT_VERDICT;
	default: return RT_EXIT_FAILURE;
	}
}

static const char *signal_name(int sig)
{
	return sig == SIGINT ? "SIGINT" : sig == SIGTERM ? "SIGTERM" : NULL;
}

const char *pip_fail_reason(const struct pip_config *cfg, const struct pip_result *res,
			    char *buf, size_t len)
{
	switch (res->outcome) {
	case PIP_RESOLVED:
		return NULL;
	case PIP_UNRESOLVED:
		snprintf(buf, len, "unresolved priority inversion: the medium priority process "
			 "finished its %lld ms of busy work before the high priority process got "
			 "the mutex (%s; the low priority process released it at priority %d)",
			 cfg->work_ms, cfg->no_pi ? "--no-pi: no priority inheritance"
						  : "priority inheritance did not take effect",
			 res->low_prio_at_unlock);
		break;
	case PIP_NO_INVERSION:
		snprintf(buf, len, "no inversion was set up: the high priority process got the "
			 "mutex before the medium priority process started");
		break;
	case PIP_STOPPED:
		snprintf(buf, len, "stopped by %s before the high priority process got the mutex",
			 signal_name(res->stop_signal) ? signal_name(res->stop_signal) : "a signal");
		break;
	case PIP_ERROR:
		snprintf(buf, len, "the test could not run to its end");
		break;
	}
	return buf;
}

void pip_print_result(FILE *f, const struct pip_config *cfg, const struct pip_result *res)
{
	char why[512];
	const char *reason = pip_fail_reason(cfg, res, why, sizeof(why));

	if (res->outcome == PIP_RESOLVED)
		fputs(LINE_RESOLVED "\n", f);
	else if (res->outcome == PIP_NO_INVERSION)
		fputs(LINE_NO_INVERSION "\n", f);
	if (reason)
		fprintf(f, "# Verdict: FAIL: %s\n", reason);
	else
		fputs("# Verdict: PASS\n", f);
	fflush(f);
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

static void json_verdict(struct rt_json *j, const struct pip_config *cfg,
			 const struct pip_result *res)
{
	char why[512];
	const char *reason = pip_fail_reason(cfg, res, why, sizeof(why));

	rt_json_object_begin(j, "verdict");
	rt_json_string(j, "result", reason ? "fail" : "pass");
	rt_json_string(j, "reason", reason);
	rt_json_object_end(j);
}

int pip_write_json(FILE *f, const struct rt_report *rep, int return_code,
		   const struct pip_config *cfg, const struct pip_result *res,
		   const struct rt_env *env)
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
	json_verdict(&j, cfg, res);
	for (int r = 0; r < PIP_ROLES; r++)
		rt_report_sched_add(&sched, res->policy[r]);
	rt_report_json_scheduling(&j, &sched);
	rt_env_write_json(&j, env);
	rt_json_object_end(&j);
	return rt_json_finish(&j);
}
