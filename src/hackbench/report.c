// SPDX-License-Identifier: GPL-2.0-or-later
#include <inttypes.h>
#include <signal.h>

#include "rt_cli.h"
#include "rt_json.h"
#include "rt_prog.h"
#include "rt_time.h"
#include "rt_verdict_write.h"

#include "report.h"

static const char *const transport_names[] = {
	[HB_SOCKET] = "socket", [HB_PIPE] = "pipe", [HB_INET] = "inet",
};

void hackbench_print_header(FILE *f, const struct hackbench_config *cfg)
{
	fprintf(f, "Running in %s mode with %d groups using %d file descriptors each "
		"(== %" PRIu64 " tasks)\n", cfg->threads ? "threaded" : "process", cfg->groups,
		2 * cfg->fds, hackbench_tasks(cfg));
	fprintf(f, "Each sender will pass %" PRIu64 " messages of %" PRIu64 " bytes\n", cfg->loops,
		cfg->datasize);
	fflush(f);
}

/* 2.4's "%lu.%03lu": seconds and milliseconds, truncated. */
static void print_time(FILE *f, int64_t ns)
{
	fprintf(f, "%" PRId64 ".%03" PRId64, ns / (int64_t)RT_NSEC_PER_SEC,
		ns % (int64_t)RT_NSEC_PER_SEC / 1000000);
}

void hackbench_print_round(FILE *f, const struct hb_round *r)
{
	if (!r->completed)
		fprintf(f, "signaling %" PRIu64 " worker threads to terminate\n", r->signalled);
	fputs("Time: ", f);
	print_time(f, r->time_ns);
	fputc('\n', f);
	fflush(f);
}

struct totals {
	int completed;
	uint64_t messages;
	int64_t time_ns;
};

static struct totals sum(const struct hb_result *res)
{
	struct totals t = { 0 };

	for (int i = 0; i < res->nrounds; i++) {
		t.completed += res->rounds[i].completed;
		t.messages += res->rounds[i].messages;
		t.time_ns += res->rounds[i].time_ns;
	}
	return t;
}

static double per_second(uint64_t messages, int64_t ns)
{
	return ns > 0 ? (double)messages * 1e9 / (double)ns : 0.0;
}

void hackbench_print_total(FILE *f, const struct hb_result *res)
{
	struct totals t = sum(res);

	fprintf(f, "Rounds: %d (%d completed), messages: %" PRIu64 ", time: ", res->nrounds,
		t.completed, t.messages);
	print_time(f, t.time_ns);
	fprintf(f, " s, %.0f messages/s\n", per_second(t.messages, t.time_ns));
}

static const char *stopped_by(const struct hb_result *res)
{
	if (res->stop_signal == SIGINT)
		return "SIGINT";
	if (res->stop_signal == SIGTERM)
		return "SIGTERM";
	return res->duration_over ? "duration" : NULL;
}

static void json_rounds(struct rt_json *j, const struct hb_result *res)
{
	rt_json_array_begin(j, "rounds");
	for (int i = 0; i < res->nrounds; i++) {
		const struct hb_round *r = &res->rounds[i];

		rt_json_object_begin(j, NULL);
		rt_json_int(j, "time_ns", r->time_ns);
		rt_json_uint(j, "messages", r->messages);
		rt_json_double(j, "messages_per_s", per_second(r->messages, r->time_ns), 2);
		rt_json_int(j, "completed", r->completed);
		rt_json_object_end(j);
	}
	rt_json_array_end(j);
}

void hackbench_judge(struct rt_verdict *v, const struct hackbench_config *cfg,
		     const struct hb_result *res, int rc)
{
	struct totals t = sum(res);
	double asked = cfg->duration_s ? (double)cfg->duration_s : -1;
	double done = (double)t.time_ns / 1e9;

	rt_verdict_init(v);
	rt_verdict_add_checked(v, "messages", t.messages);
	if (rc == RT_EXIT_FAILURE) {
		/* the groups did not all run: what the others did passes nothing */
		const struct rt_check_failure f = {
			.limit = "workers", .index = -1,
			.detail = "a worker failed: not every group ran (its error is on stderr)",
		};

		rt_verdict_set_partial(v, "error: a worker failed", done, asked, "s");
		(void)rt_verdict_fail_check(v, &f); /* -ENOMEM: FAIL all the same */
	} else if (res->stop_signal)
		rt_cli_verdict_stopped(v, res->stop_signal, done, cfg->duration_s ? asked : 0, "s");
	else
		rt_verdict_set_done(v, done, asked, "s");
	rt_verdict_finish(v);
}

int hackbench_write_json(FILE *f, const struct rt_report *rep, int return_code,
			 const struct hackbench_config *cfg, const struct hb_result *res,
			 const struct rt_verdict *v, const struct rt_env *env)
{
	struct rt_report_sched sched = RT_REPORT_SCHED_INIT;
	struct totals t = sum(res);
	struct rt_json j;

	rt_json_init(&j, f);
	rt_report_json_header(&j, rep, return_code);
	rt_json_string(&j, "mode", cfg->threads ? "threaded" : "process");
	rt_json_string(&j, "transport", transport_names[cfg->transport]);
	rt_json_int(&j, "groups", cfg->groups);
	rt_json_int(&j, "fds", cfg->fds);
	rt_json_uint(&j, "tasks", hackbench_tasks(cfg));
	rt_json_uint(&j, "loops", cfg->loops);
	rt_json_uint(&j, "datasize", cfg->datasize);
	rt_json_int(&j, "fifo", cfg->fifo);
	rt_json_uint(&j, "duration_s", cfg->duration_s);
	json_rounds(&j, res);
	rt_json_int(&j, "rounds_completed", t.completed);
	rt_json_uint(&j, "messages", t.messages);
	rt_json_int(&j, "time_ns", t.time_ns);
	rt_json_double(&j, "messages_per_s", per_second(t.messages, t.time_ns), 2);
	rt_json_string(&j, "stopped_by", stopped_by(res));
	rt_verdict_write_json(&j, v);
	if (res->nrounds)
		rt_report_sched_add(&sched, res->workers_policy);
	rt_report_json_scheduling(&j, &sched);
	rt_env_write_json(&j, env);
	rt_json_object_end(&j);
	return rt_json_finish(&j);
}
