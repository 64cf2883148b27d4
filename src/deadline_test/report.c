// SPDX-License-Identifier: GPL-2.0-or-later
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>

#include "rt_deadline.h"
#include "rt_json.h"
#include "rt_verdict_write.h"

#include "report.h"

struct dl_totals deadline_test_totals(const struct dl_thread *threads, int n)
{
	struct dl_totals t = { 0 };

	for (int i = 0; i < n; i++) {
		t.missed_deadlines += threads[i].st.missed_deadlines;
		t.missed_periods += threads[i].st.missed_periods;
		t.nr_periods += threads[i].st.nr_periods;
		if (!threads[i].st.nr_periods)
			t.idle_threads++;
	}
	return t;
}

/* A thread that missed: deadlines and periods alike (a starved thread misses periods). */
static int fail_thread(struct rt_verdict *v, const struct deadline_test_config *cfg,
		       const struct dl_thread *t)
{
	const struct dl_stats *s = &t->st;
	char detail[160];
	struct rt_check_failure c = {
		.limit = "max-misses", .subject = RT_SUBJECT_THREAD, .index = t->index,
		.value = (int64_t)(s->missed_deadlines + s->missed_periods),
		.bound = (int64_t)cfg->max_misses, .unit = "", .detail = detail,
	};

	snprintf(detail, sizeof(detail), "%" PRIu64 " deadline(s) and %" PRIu64 " period(s) "
		 "missed in %" PRIu64 " periods (runtime %" PRIu64 " us, deadline %" PRIu64 " us)",
		 s->missed_deadlines, s->missed_periods, s->nr_periods, t->runtime_us,
		 s->deadline_us);
	return rt_verdict_fail_check(v, &c);
}

static void judge_stop(struct rt_verdict *v, const struct deadline_test_config *cfg,
		       const struct dl_result *res)
{
	double done = (double)res->elapsed_ns / 1e9;
	double asked = cfg->duration_s ? (double)cfg->duration_s : -1;
	char buf[32];

	if (res->stop_signal && cfg->duration_s)
		rt_verdict_set_partial(v, rt_verdict_signal_cause(res->stop_signal, buf, sizeof(buf)),
				       done, asked, "s");
	else
		rt_verdict_set_done(v, done, asked, "s");
}

int deadline_test_judge(struct rt_verdict *v, const struct deadline_test_config *cfg,
			const struct dl_result *res, const struct dl_totals *tot)
{
	int err = 0;

	rt_verdict_init(v);
	judge_stop(v, cfg, res);
	if (tot->nr_periods)
		err = rt_verdict_add_checked(v, "periods", tot->nr_periods);
	for (int i = 0; i < res->nthreads; i++) {
		const struct dl_thread *t = &res->threads[i];
		int e = 0;

		/*
		 * Stopped early, a thread may still be waiting for its first
		 * period (it yields first, for up to one): nothing proven.
		 * Ended as asked, it FAILs.
		 */
		if (!t->st.nr_periods)
			e = rt_verdict_unproven(v, RT_SUBJECT_THREAD, i, !v->stop.partial,
						"no period completed");
		else if (tot->missed_deadlines + tot->missed_periods > cfg->max_misses &&
			 t->st.missed_deadlines + t->st.missed_periods)
			e = fail_thread(v, cfg, t);
		if (e)
			err = e;
	}
	rt_verdict_finish(v);
	return err;
}

void deadline_test_print_thread(FILE *f, const struct dl_thread *t)
{
	const struct dl_stats *s = &t->st;

	fprintf(f, "\n[%d]\n", (int)t->tid);
	fprintf(f, "missed deadlines  = %" PRIu64 "\n", s->missed_deadlines);
	fprintf(f, "missed periods    = %" PRIu64 "\n", s->missed_periods);
	fprintf(f, "Total adjustments = %" PRIu64 " us\n", s->total_adjust_us);
	if (s->nr_adjust)
		fprintf(f, "# adjustments = %" PRIu64 " avg: %" PRIu64 " us\n", s->nr_adjust,
			s->total_adjust_us / s->nr_adjust);
	fprintf(f, "deadline   : %" PRIu64 " us\n", s->deadline_us);
	fprintf(f, "runtime    : %" PRIu64 " us\n", t->runtime_us);
	fprintf(f, "nr_periods : %" PRIu64 "\n", s->nr_periods);
	if (s->nr_periods)
		fprintf(f, "max_time: %" PRIu64 "us\tmin_time: %" PRIu64 "us\tavg_time: %" PRIu64
			"us\n", s->max_time_us, s->min_time_us, s->total_time_us / s->nr_periods);
	else
		fputs("max_time: -\tmin_time: -\tavg_time: -\n", f);
	fprintf(f, "ctx switches vol:%d nonvol:%d migration:%d\n", t->vol, t->nonvol, t->migrate);
	fprintf(f, "highest prime: %" PRIu64 "\n", s->prime);
	fputc('\n', f);
}

static const char *stopped_by(const struct dl_result *res)
{
	switch (res->stop_signal) {
	case SIGINT: return "SIGINT";
	case SIGTERM: return "SIGTERM";
	case SIGHUP: return "SIGHUP";
	}
	return res->duration_over ? "duration" : NULL;
}

static uint64_t thread_bw(const struct dl_thread *t)
{
	struct rt_deadline_params p = {
		.runtime_ns = t->runtime_us * 1000,
		.deadline_ns = t->st.deadline_us * 1000,
	};

	return rt_deadline_bw(&p);
}

static uint64_t total_bw(const struct dl_result *res)
{
	uint64_t bw = 0;

	for (int i = 0; i < res->nthreads; i++)
		bw += thread_bw(&res->threads[i]);
	return bw;
}

void deadline_test_print_verdict(FILE *f, const struct dl_result *res, const struct dl_totals *tot,
				 const struct rt_verdict *v)
{
	uint64_t bw = total_bw(res);

	fprintf(f, "# Bandwidth: %d thread(s), %" PRIu64 ".%" PRIu64 "%% of a CPU on %u CPU(s) "
		"(%s)\n", res->nthreads, bw / 10000, bw / 1000 % 10, res->nr_cpus, res->cpus_text);
	fprintf(f, "# Missed deadlines: %" PRIu64 " of %" PRIu64 " periods, missed periods: %"
		PRIu64 "\n", tot->missed_deadlines, tot->nr_periods, tot->missed_periods);
	rt_verdict_write_text(f, v, "us");
}

static void json_thread(struct rt_json *j, const struct dl_thread *t)
{
	const struct dl_stats *s = &t->st;
	char key[16];

	snprintf(key, sizeof(key), "%d", t->index);
	rt_json_object_begin(j, key);
	rt_json_int(j, "tid", t->tid);
	rt_json_uint(j, "runtime_us", t->runtime_us);
	rt_json_uint(j, "deadline_us", s->deadline_us);
	rt_json_uint(j, "period_us", s->deadline_us);
	rt_json_double(j, "bandwidth_percent", (double)thread_bw(t) / 10000.0, 2);
	rt_json_uint(j, "loops", s->loops);
	rt_json_uint(j, "missed_deadlines", s->missed_deadlines);
	rt_json_uint(j, "missed_periods", s->missed_periods);
	rt_json_uint(j, "total_adjust_us", s->total_adjust_us);
	rt_json_uint(j, "nr_adjust", s->nr_adjust);
	rt_json_uint(j, "nr_periods", s->nr_periods);
	if (s->nr_periods) {
		rt_json_uint(j, "max_time_us", s->max_time_us);
		rt_json_uint(j, "min_time_us", s->min_time_us);
		rt_json_uint(j, "avg_time_us", s->total_time_us / s->nr_periods);
	} else {
		rt_json_null(j, "max_time_us");
		rt_json_null(j, "min_time_us");
		rt_json_null(j, "avg_time_us");
	}
#define OPT_INT(name, v) ((v) >= 0 ? rt_json_int(j, name, v) : rt_json_null(j, name))
	OPT_INT("ctx_switches_vol", t->vol);
	OPT_INT("ctx_switches_nonvol", t->nonvol);
	OPT_INT("migrations", t->migrate);
#undef OPT_INT
	rt_json_uint(j, "highest_prime", s->prime);
	rt_json_object_end(j);
}

static const char *hrtick_name(enum dl_hrtick h)
{
	switch (h) {
	case DL_HRTICK_ON: return "on";
	case DL_HRTICK_ENABLED: return "enabled for the run";
	case DL_HRTICK_UNAVAILABLE: return "unavailable";
	default: return "not needed";
	}
}

int deadline_test_write_json(FILE *f, const struct rt_report *rep, int return_code,
			     const struct deadline_test_config *cfg, const struct dl_result *res,
			     const struct dl_totals *tot, const struct rt_verdict *v,
			     const struct rt_env *env)
{
	struct rt_report_sched sched = RT_REPORT_SCHED_INIT;
	uint64_t bw = total_bw(res);
	uint64_t limit = rt_deadline_bw_limit(res->rt_runtime_us, res->rt_period_us, res->nr_cpus);
	struct rt_json j;

	rt_json_init(&j, f);
	rt_report_json_header(&j, rep, return_code);
	rt_json_uint(&j, "interval_us", cfg->interval_us);
	rt_json_uint(&j, "step_us", cfg->step_us);
	rt_json_int(&j, "percent", cfg->percent);
	rt_json_int(&j, "percent_per_task", res->percent_per_task);
	rt_json_int(&j, "run_percent", cfg->run_percent);
	rt_json_int(&j, "rt_prio", cfg->rt_prio);
	rt_json_int(&j, "nr_cpus", res->nr_cpus);
	rt_json_string(&j, "cpus", res->cpus_text);
	rt_json_uint(&j, "duration_s", cfg->duration_s);
	rt_json_uint(&j, "loops_per_ms", res->cal.loops_per_ms);
	rt_json_uint(&j, "overhead_us", res->cal.overhead_us);
	rt_json_string(&j, "hrtick", hrtick_name(res->hrtick));
	rt_json_int(&j, "num_threads", res->nthreads);
	rt_json_object_begin(&j, "thread");
	for (int i = 0; i < res->nthreads; i++)
		json_thread(&j, &res->threads[i]);
	rt_json_object_end(&j);
	rt_json_object_begin(&j, "bandwidth");
	rt_json_double(&j, "requested_percent", (double)bw / 10000.0, 2);
	if (limit == UINT64_MAX || res->rt_runtime_us < -1)
		rt_json_null(&j, "admitted_percent");
	else
		rt_json_double(&j, "admitted_percent", (double)limit / 10000.0, 2);
	rt_json_int(&j, "sched_rt_runtime_us", res->rt_runtime_us);
	rt_json_int(&j, "sched_rt_period_us", res->rt_period_us);
	rt_json_object_end(&j);
	rt_json_uint(&j, "missed_deadlines", tot->missed_deadlines);
	rt_json_uint(&j, "missed_periods", tot->missed_periods);
	rt_json_uint(&j, "nr_periods", tot->nr_periods);
	rt_json_string(&j, "stopped_by", stopped_by(res));
	if (cfg->common.verdict)
		rt_json_uint(&j, "max_misses", cfg->max_misses);
	else
		rt_json_null(&j, "max_misses");
	rt_verdict_write_json(&j, v);
	for (int i = 0; i < res->nthreads && res->started; i++)
		rt_report_sched_add(&sched, res->threads[i].policy);
	rt_report_json_scheduling(&j, &sched);
	rt_env_write_json(&j, env);
	rt_json_object_end(&j);
	return rt_json_finish(&j);
}
