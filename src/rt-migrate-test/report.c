// SPDX-License-Identifier: GPL-2.0-or-later
#include <inttypes.h>
#include <signal.h>

#include "rt_cli.h"
#include "rt_json.h"
#include "rt_verdict_write.h"

#include "report.h"

#define REASON_MAX 320

static const struct migrate_sample *sample(const struct migrate_result *res, int nr_tasks,
					   int64_t it, int task)
{
	return &res->samples[it * nr_tasks + task];
}

void migrate_task_stats(const struct migrate_result *res, int nr_tasks, int task,
			struct migrate_task_stats *st)
{
	*st = (struct migrate_task_stats){ 0 };
	for (int64_t it = 0; it < res->iterations; it++) {
		const struct migrate_sample *s = sample(res, nr_tasks, it, task);

		if (it == 0 || s->start_us < st->min_us)
			st->min_us = s->start_us;
		if (it == 0 || s->start_us > st->max_us)
			st->max_us = s->start_us;
		if (it == 0 || s->end_us < st->end_min_us)
			st->end_min_us = s->end_us;
		if (it == 0 || s->end_us > st->end_max_us)
			st->end_max_us = s->end_us;
		if (it == 0 || s->loops < st->loops_min)
			st->loops_min = s->loops;
		if (it == 0 || s->loops > st->loops_max)
			st->loops_max = s->loops;
		st->total_us += s->start_us;
		st->loops_total += s->loops;
	}
	if (res->iterations)
		st->avg_us = st->total_us / res->iterations;
}

static void print_row(FILE *f, const struct migrate_result *res, int nr_tasks, int64_t it,
		      int what)
{
	for (int t = 0; t < nr_tasks; t++) {
		const struct migrate_sample *s = sample(res, nr_tasks, it, t);
		int64_t v = what == 0 ? s->start_us : what == 1 ? s->end_us : (int64_t)s->loops;

		fprintf(f, "%6" PRId64 "  ", v);
	}
	fputc('\n', f);
}

void migrate_print(FILE *f, const struct migrate_config *cfg, const struct migrate_result *res,
		   pid_t parent)
{
	int n = cfg->nr_tasks;

	fputs("Iter: ", f);
	for (int t = 0; t < n; t++)
		fprintf(f, "%6d  ", t);
	fputc('\n', f);
	for (int64_t it = 0; it < res->iterations; it++) {
		fprintf(f, "%4" PRId64 ":   ", it);
		print_row(f, res, n, it, 0);
		fputs(" len:   ", f);
		print_row(f, res, n, it, 1);
		fputs(" loops: ", f);
		print_row(f, res, n, it, 2);
		fputc('\n', f);
	}
	fprintf(f, "Parent pid: %d\n", (int)parent);
	for (int t = 0; t < n; t++) {
		struct migrate_task_stats st;

		migrate_task_stats(res, n, t, &st);
		fprintf(f, " Task %d (prio %d) (pid %d):\n", t, res->prio[t], (int)res->tid[t]);
		fprintf(f, "   Max: %" PRId64 " us\n", st.max_us);
		fprintf(f, "   Min: %" PRId64 " us\n", st.min_us);
		fprintf(f, "   Tot: %" PRId64 " us\n", st.total_us);
		fprintf(f, "   Avg: %" PRId64 " us\n", st.avg_us);
		fputc('\n', f);
	}
	if (cfg->check && res->iterations)
		fputs(res->out_of_order ? " Failed!\n" : " Passed!\n", f);
}

/*
 * The order check on every iteration (-c stopped at the first failure, so
 * res->error is it already): the iterations are the evidence.
 */
void migrate_judge(struct rt_verdict *v, const struct migrate_config *cfg,
		   const struct migrate_result *res)
{
	struct migrate_order_error e = res->error;
	bool in_order = !res->out_of_order;
	char why[REASON_MAX];

	rt_verdict_init(v);
	rt_verdict_add_checked(v, "iterations", (uint64_t)res->iterations);
	for (int64_t it = 0; in_order && !cfg->check && it < res->iterations; it++)
		in_order = migrate_check_iteration(&res->samples[it * cfg->nr_tasks], res->prio,
						   cfg->nr_tasks, cfg->maxerr_us, it, &e);
	if (!in_order) {
		migrate_order_error_format(&e, cfg->maxerr_us, why, sizeof(why));
		rt_verdict_fail_check(v, &(struct rt_check_failure){
			.limit = "order", .subject = RT_SUBJECT_TASK, .index = e.task,
			.value = e.late_us, .bound = cfg->maxerr_us, .unit = "us", .detail = why });
	}
	if (res->stop_signal)
		rt_cli_verdict_stopped(v, res->stop_signal, (double)res->iterations,
				       (double)cfg->loops, "loops");
	else
		rt_verdict_set_done(v, (double)res->iterations, (double)cfg->loops, "loops");
	rt_verdict_finish(v);
}

static const char *stopped_by(const struct migrate_result *res)
{
	switch (res->stop_signal) {
	case SIGINT: return "SIGINT";
	case SIGTERM: return "SIGTERM";
	case SIGHUP: return "SIGHUP";
	default: break;
	}
	if (res->duration_over)
		return "duration";
	return res->out_of_order ? "check" : NULL;
}

static void json_threads(struct rt_json *j, const struct migrate_config *cfg,
			 const struct migrate_result *res)
{
	char key[16];

	rt_json_int(j, "num_threads", cfg->nr_tasks);
	rt_json_object_begin(j, "thread");
	for (int t = 0; t < cfg->nr_tasks; t++) {
		struct migrate_task_stats st;

		migrate_task_stats(res, cfg->nr_tasks, t, &st);
		snprintf(key, sizeof(key), "%d", t);
		rt_json_object_begin(j, key);
		/* 2.4's keys, in its order */
		rt_json_int(j, "prio", res->prio[t]);
		rt_json_int(j, "min", st.min_us);
		rt_json_int(j, "avg", st.avg_us);
		rt_json_int(j, "max", st.max_us);
		rt_json_int(j, "total", st.total_us);
		/* ours */
		rt_json_int(j, "tid", res->tid[t]);
		rt_json_int(j, "end_min", st.end_min_us);
		rt_json_int(j, "end_max", st.end_max_us);
		rt_json_uint(j, "loops_min", st.loops_min);
		rt_json_uint(j, "loops_max", st.loops_max);
		rt_json_uint(j, "loops_total", st.loops_total);
		rt_json_object_end(j);
	}
	rt_json_object_end(j);
}

static void json_iterations(struct rt_json *j, const struct migrate_config *cfg,
			    const struct migrate_result *res)
{
	rt_json_array_begin(j, "iterations");
	for (int64_t it = 0; it < res->iterations; it++) {
		rt_json_object_begin(j, NULL);
		rt_json_array_begin(j, "start");
		for (int t = 0; t < cfg->nr_tasks; t++)
			rt_json_int(j, NULL, sample(res, cfg->nr_tasks, it, t)->start_us);
		rt_json_array_end(j);
		rt_json_array_begin(j, "len");
		for (int t = 0; t < cfg->nr_tasks; t++)
			rt_json_int(j, NULL, sample(res, cfg->nr_tasks, it, t)->end_us);
		rt_json_array_end(j);
		rt_json_array_begin(j, "loops");
		for (int t = 0; t < cfg->nr_tasks; t++)
			rt_json_uint(j, NULL, sample(res, cfg->nr_tasks, it, t)->loops);
		rt_json_array_end(j);
		rt_json_object_end(j);
	}
	rt_json_array_end(j);
}

int migrate_write_json(FILE *f, const struct rt_report *rep, int return_code,
		       const struct migrate_config *cfg, const struct migrate_result *res,
		       const struct rt_verdict *v, const struct rt_env *env)
{
	struct rt_report_sched sched = RT_REPORT_SCHED_INIT;
	struct rt_json j;

	rt_json_init(&j, f);
	rt_report_json_header(&j, rep, return_code);
	json_threads(&j, cfg, res);
	rt_json_int(&j, "loops", cfg->loops);
	rt_json_int(&j, "iterations_done", res->iterations);
	rt_json_int(&j, "run_time_ms", cfg->run_time_ms);
	rt_json_int(&j, "sleep_time_ms", cfg->sleep_time_ms);
	rt_json_int(&j, "maxerr_us", cfg->maxerr_us);
	rt_json_bool(&j, "equal", cfg->equal);
	rt_json_bool(&j, "check", cfg->check);
	rt_json_uint(&j, "duration_s", cfg->duration_s);
	rt_json_int(&j, "main_prio", migrate_task_prio(cfg, cfg->nr_tasks));
	rt_json_string(&j, "stopped_by", stopped_by(res));
	json_iterations(&j, cfg, res);
	rt_verdict_write_json(&j, v);
	for (int t = 0; t < cfg->nr_tasks; t++)
		rt_report_sched_add(&sched, res->policy[t]);
	rt_report_json_scheduling(&j, &sched);
	rt_env_write_json(&j, env);
	rt_json_object_end(&j);
	return rt_json_finish(&j);
}
