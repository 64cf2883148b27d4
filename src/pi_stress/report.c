// SPDX-License-Identifier: GPL-2.0-or-later
#include <inttypes.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>

#include "rt_cli.h"
#include "rt_json.h"
#include "rt_time.h"
#include "rt_verdict_write.h"

#include "report.h"
#include "run.h"
#include "sched_attr.h"

const char *pi_stress_policy_label(int policy)
{
	switch (policy) {
	case SCHED_FIFO: return "SCHED_FIFO";
	case SCHED_RR: return "SCHED_RR";
	case SCHED_OTHER: return "SCHED_OTHER";
	case SCHED_BATCH: return "SCHED_BATCH";
	case SCHED_IDLE: return "SCHED_IDLE";
	case SCHED_DEADLINE: return "SCHED_DEADLINE";
	default: return "SCHED_UNKNOWN";
	}
}

static void print_role(FILE *f, const struct pi_stress_config *cfg, enum pis_role r)
{
	const struct pis_sched *s = &cfg->sched[r];

	/* 2.4 right-aligns the names: "     Admin thread", "      High thread" */
	fprintf(f, "%10s thread %s", pi_stress_role_name(r), pi_stress_policy_label(s->policy));
	if (s->policy == SCHED_FIFO || s->policy == SCHED_RR)
		fprintf(f, " priority %d\n", s->priority);
	else if (s->policy == SCHED_DEADLINE)
		fprintf(f, " runtime %" PRIu64 " deadline %" PRIu64 " period %" PRIu64 "\n",
			s->runtime_ns, s->deadline_ns, s->period_ns);
	else
		fprintf(f, " nice %d\n", s->nice);
}

void pi_stress_print_banner(FILE *f, const struct pi_stress_config *cfg)
{
	fputs("Starting PI Stress Test\n", f);
	fprintf(f, "Number of thread groups: %d\n", cfg->groups);
	if (cfg->duration_set)
		fprintf(f, "Duration of test run: %" PRIu64 " seconds\n", cfg->duration_s);
	else
		fputs("Duration of test run: infinite\n", f);
	if (cfg->inversions)
		fprintf(f, "Number of inversions per group: %" PRIu64 "\n", cfg->inversions);
	else
		fputs("Number of inversions per group: unlimited\n", f);
	print_role(f, cfg, PIS_ADMIN);
	fprintf(f, "%d groups of 3 threads will be created\n", cfg->groups);
	print_role(f, cfg, PIS_HIGH);
	print_role(f, cfg, PIS_MED);
	print_role(f, cfg, PIS_LOW);
	fputc('\n', f);
	fflush(f);
}

void pi_stress_print_progress(FILE *f, uint64_t total)
{
	fprintf(f, "\033[1ACurrent Inversions: %" PRIu64 "\n", total);
	fflush(f);
}

void pi_stress_print_stopping(FILE *f, bool started)
{
	if (!started)
		return;
	fputs("\033[1BStopping test\n", f);
	fflush(f);
}

void pi_stress_print_summary(FILE *f, const struct pis_result *res)
{
	int64_t s = res->elapsed_ns / RT_NSEC_PER_SEC;

	fprintf(f, "Total inversion performed: %" PRIu64 "\n", res->total);
	fprintf(f, "Test Duration: %" PRId64 " days, %" PRId64 " hours, %" PRId64 " minutes, %"
		PRId64 " seconds\n", s / 86400, s / 3600 % 24, s / 60 % 60, s % 60);
}

double pi_stress_rate(uint64_t inversions, int64_t elapsed_ns)
{
	return elapsed_ns > 0 ? (double)inversions * 1e9 / (double)elapsed_ns : 0.0;
}

/* Time in s with two decimals, for the reasons: "3.75". */
static void seconds(char *buf, size_t len, int64_t ms)
{
	snprintf(buf, len, "%" PRId64 ".%02" PRId64, ms / 1000, ms % 1000 / 10);
}

static void judge_groups(struct rt_verdict *v, const struct pi_stress_config *cfg,
			 const struct pis_result *res)
{
	char why[160], wd[24], quiet[24];

	seconds(wd, sizeof(wd), (int64_t)cfg->watchdog_ms);
	for (int g = 0; g < res->ngroups; g++) {
		if (res->stuck[g]) {
			snprintf(why, sizeof(why), "no inversion resolved in %s s (the high priority "
				 "thread never got the mutex%s)", wd,
				 cfg->no_pi ? "; --no-pi: no priority inheritance" : "");
			rt_verdict_fail_check(v, &(struct rt_check_failure){
				.limit = "stuck", .subject = RT_SUBJECT_GROUP, .index = g,
				.value = res->quiet_ns[g] / 1000000, .bound = (int64_t)cfg->watchdog_ms,
				.unit = "ms", .detail = why });
			continue;
		}
		/* a stall the watchdog had no time to catch: not proven free of it */
		if (res->finished[g] || res->quiet_ns[g] < PIS_STALL_NS ||
		    res->elapsed_ns < (int64_t)cfg->watchdog_ms * 1000000)
			continue;
		seconds(quiet, sizeof(quiet), res->quiet_ns[g] / 1000000);
		snprintf(why, sizeof(why), "no inversion in the last %s s of the run, which ended "
			 "before the %s s watchdog could tell a stuck group", quiet, wd);
		rt_verdict_unproven(v, RT_SUBJECT_GROUP, g, false, why);
	}
}

void pi_stress_judge(struct rt_verdict *v, const struct pi_stress_config *cfg,
		     const struct pis_result *res)
{
	char why[160], wd[24], ran[24];

	rt_verdict_init(v);
	rt_verdict_add_checked(v, "inversions", res->total);
	judge_groups(v, cfg, res);
	if (!res->nstuck && res->elapsed_ns < (int64_t)cfg->watchdog_ms * 1000000 &&
	    !res->all_finished) {
		seconds(wd, sizeof(wd), (int64_t)cfg->watchdog_ms);
		seconds(ran, sizeof(ran), res->elapsed_ns / 1000000);
		snprintf(why, sizeof(why), "the run (%s s) was shorter than the watchdog (%s s): a "
			 "stuck group could not be caught", ran, wd);
		rt_verdict_unproven(v, RT_SUBJECT_NONE, -1, false, why);
	}
	if (res->stop_signal)
		rt_cli_verdict_stopped(v, res->stop_signal, (double)res->elapsed_ns / 1e9,
				       cfg->duration_set ? (double)cfg->duration_s : 0, "s");
	else
		rt_verdict_set_done(v, (double)res->elapsed_ns / 1e9,
				    cfg->duration_set ? (double)cfg->duration_s : -1, "s");
	rt_verdict_finish(v);
}

static const char *stopped_by(const struct pis_result *res)
{
	if (res->stop_signal == SIGINT)
		return "SIGINT";
	if (res->stop_signal == SIGTERM)
		return "SIGTERM";
	if (res->nstuck)
		return "watchdog";
	if (res->all_finished)
		return "inversions";
	return res->duration_over ? "duration" : NULL;
}

static void json_sched(struct rt_json *j, const char *key, const struct pis_sched *s)
{
	rt_json_object_begin(j, key);
	rt_json_string(j, "policy", pi_stress_policy_label(s->policy));
	if (s->policy == SCHED_FIFO || s->policy == SCHED_RR) {
		rt_json_int(j, "priority", s->priority);
	} else if (s->policy == SCHED_DEADLINE) {
		rt_json_uint(j, "runtime_ns", s->runtime_ns);
		rt_json_uint(j, "deadline_ns", s->deadline_ns);
		rt_json_uint(j, "period_ns", s->period_ns);
	} else {
		rt_json_int(j, "nice", s->nice);
	}
	rt_json_object_end(j);
}

int pi_stress_write_json(FILE *f, const struct rt_report *rep, int return_code,
			 const struct pi_stress_config *cfg, const struct pis_result *res,
			 const struct rt_verdict *v, const struct rt_env *env)
{
	struct rt_report_sched sched = RT_REPORT_SCHED_INIT;
	struct rt_json j;

	rt_json_init(&j, f);
	rt_report_json_header(&j, rep, return_code);
	rt_json_uint(&j, "inversion", res->total); /* 2.4's key (Linaro reads it) */
	rt_json_int(&j, "groups", cfg->groups);
	rt_json_uint(&j, "inversions_limit", cfg->inversions);
	rt_json_uint(&j, "duration_s", cfg->duration_s);
	rt_json_int(&j, "uniprocessor", cfg->uniprocessor);
	rt_json_int(&j, "priority_inheritance", !cfg->no_pi);
	rt_json_int(&j, "elapsed_ns", res->elapsed_ns);
	rt_json_double(&j, "inversions_per_s", pi_stress_rate(res->total, res->elapsed_ns), 2);
	rt_json_array_begin(&j, "group");
	for (int g = 0; g < res->ngroups; g++) {
		rt_json_object_begin(&j, NULL);
		rt_json_int(&j, "group", g);
		rt_json_uint(&j, "inversions", res->per_group[g]);
		rt_json_double(&j, "inversions_per_s",
			       pi_stress_rate(res->per_group[g], res->elapsed_ns), 2);
		rt_json_int(&j, "stuck", res->stuck[g]);
		rt_json_object_end(&j);
	}
	rt_json_array_end(&j);
	rt_json_object_begin(&j, "threads");
	json_sched(&j, "admin", &cfg->sched[PIS_ADMIN]);
	json_sched(&j, "high", &cfg->sched[PIS_HIGH]);
	json_sched(&j, "med", &cfg->sched[PIS_MED]);
	json_sched(&j, "low", &cfg->sched[PIS_LOW]);
	rt_json_object_end(&j);
	rt_json_int(&j, "watchdog_ms", (int64_t)cfg->watchdog_ms);
	rt_json_string(&j, "stopped_by", stopped_by(res));
	rt_verdict_write_json(&j, v);
	for (int r = 0; r < 3; r++)
		rt_report_sched_add(&sched, res->policy[r]);
	rt_report_json_scheduling(&j, &sched);
	rt_env_write_json(&j, env);
	rt_json_object_end(&j);
	return rt_json_finish(&j);
}
