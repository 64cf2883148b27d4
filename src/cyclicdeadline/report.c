// SPDX-License-Identifier: GPL-2.0-or-later
#include <inttypes.h>
#include <stdatomic.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "rt_cyclic_measure.h"
#include "rt_deadline.h"
#include "rt_deadline_explain.h"
#include "rt_prog.h"
#include "rt_report.h"
#include "rt_stats.h"
#include "rt_time.h"

#include "report.h"

/* The front's callbacks get the run, not cyclicdeadline's config: kept here. */
static const struct cyclicdeadline_config *the_cfg;

size_t cyclicdeadline_format_line(char *buf, size_t len, int index, int tid,
				  int64_t interval_us, const struct rt_stats *s)
{
	int n;

	if (len == 0)
		return 0;
	if (rt_stats_empty(s))
		n = snprintf(buf, len, "T:%2d (%5d) I:%" PRId64 " C:%7" PRIu64
			     " Min:%7s Act:%5s Avg:%5s Max:%8s", index, tid, interval_us, s->count,
			     "-", "-", "-", "-");
	else
		n = snprintf(buf, len, "T:%2d (%5d) I:%" PRId64 " C:%7" PRIu64 " Min:%7" PRId64
			     " Act:%5" PRId64 " Avg:%5" PRId64 " Max:%8" PRId64, index, tid,
			     interval_us, s->count, s->min, s->last, rt_stats_avg_int(s), s->max);
	if (n < 0)
		return 0;
	return (size_t)n < len ? (size_t)n : len - 1;
}

static size_t format_status(char *buf, size_t len, struct ct_thread *t)
{
	struct rt_stats s;

	rt_pubstats_read(&t->ws.stats, &s);
	return cyclicdeadline_format_line(buf, len, t->index, (int)atomic_load(&t->ws.tid),
					  t->interval_ns / 1000, &s);
}

/* 2.4's live block: the threads' lines, the cursor back up over them. */
static void print_frame(FILE *out, struct ct_run *run, bool first)
{
	char line[256];

	if (!first)
		fprintf(out, "\033[%dA", run->nthreads);
	for (int i = 0; i < run->nthreads; i++) {
		format_status(line, sizeof(line), &run->threads[i]);
		fprintf(out, "%s\n", line);
	}
}

static void print_break(FILE *out, struct ct_run *run)
{
	int64_t value;

	rt_workers_break(run->workers, &value);
	fprintf(out, "# Break thread: %d\n# Break value: %" PRId64 "\n", (int)run->break_tid,
		value);
}

/* 2.4's members first, in its order; ours after them. */
static void json_thread(struct rt_json *j, const struct ct_thread *t)
{
	rt_report_json_cycles_min_max_avg(j, &t->ws.stats.stats);
	rt_json_int(j, "interval_us", t->interval_ns / 1000);
	rt_json_int(j, "runtime_us", t->runtime_ns / 1000);
	rt_json_uint(j, "overruns", t->overruns);
	rt_percentiles_write_json(j, "percentiles", t->ws.loghist);
	if (t->ws.loghist)
		rt_loghist_write_json(j, "latency_histogram", t->ws.loghist);
}

static void started(struct ct_run *run)
{
	for (int i = 0; i < run->nthreads; i++)
		printf("deadline thread %d\n", (int)atomic_load(&run->threads[i].ws.tid));
	printf("main thread %d\n", (int)getpid());
	for (int i = 0; i < run->nthreads; i++)
		printf("thread[%d] runtime=%" PRId64 "us deadline=%" PRId64 "us\n",
		       (int)atomic_load(&run->threads[i].ws.tid), run->threads[i].runtime_ns / 1000,
		       run->threads[i].interval_ns / 1000);
	fflush(stdout);
}

static void setup_failed(struct ct_run *run, const struct ct_thread *t)
{
	const struct cyclicdeadline_config *cfg = the_cfg;
	struct rt_deadline_refusal r = {
		.err = -t->ws.error,
		.thread = t->index,
		.runtime_us = (uint64_t)t->runtime_ns / 1000,
		.deadline_us = (uint64_t)t->interval_ns / 1000,
		.nthreads = run->nthreads,
		.nr_cpus = cfg->nr_cpus,
		.rt_runtime_us = -2,
		.rt_period_us = -2,
		.bw_fix = "run fewer threads (-t) or stop the other SCHED_DEADLINE tasks",
		.param_fix = "change -i or -s",
	};
	char line[1024];

	if (!t->ws.error_what || strcmp(t->ws.error_what, "sched_setattr") != 0) {
		rt_prog_error_errno(t->ws.error, "thread %d: %s failed", t->index,
				    t->ws.error_what ? t->ws.error_what : "set-up");
		return;
	}
	rt_deadline_read_limits_at("", &r.rt_runtime_us, &r.rt_period_us);
	for (int i = 0; i < run->nthreads; i++) {
		struct rt_deadline_params p = {
			.runtime_ns = (uint64_t)run->threads[i].runtime_ns,
			.deadline_ns = (uint64_t)run->threads[i].interval_ns,
		};

		r.asked_bw += rt_deadline_bw(&p);
	}
	rt_deadline_explain(line, sizeof(line), &r);
	rt_prog_error("%s", line);
}

/* What one sample costs: a clock read and the arithmetic, in us (2.4's test of a period). */
static int64_t tested_us(void)
{
	struct timespec a, b, c;

	clock_gettime(CLOCK_MONOTONIC, &a);
	clock_gettime(CLOCK_MONOTONIC, &b);
	(void)rt_time_diff_ns(&b, &a);
	clock_gettime(CLOCK_MONOTONIC, &c);
	return rt_time_diff_ns(&c, &a) / 1000;
}

void cyclicdeadline_print_setup(FILE *out, const struct cyclicdeadline_config *cfg)
{
	if (cfg->all_cpus)
		fputs("Using all CPUS\n", out);
	for (int i = 0; i < cfg->ct.threads; i++) {
		int64_t runtime = cyclicdeadline_runtime_us(cfg, i);

		fprintf(out, "interval: %" PRId64 ":%" PRId64 "\n", runtime,
			cyclictest_thread_interval_us(&cfg->ct, i));
		fprintf(out, "  Tested at %" PRId64 "us of %" PRId64 "us\n", tested_us(), runtime);
	}
}

void cyclicdeadline_front_init(struct cyclictest_front *front,
			       const struct cyclicdeadline_config *cfg)
{
	the_cfg = cfg;
	*front = (struct cyclictest_front){
		.tool = "cyclicdeadline",
		.no_pm_qos = true,
		.no_status = true,
		.format_status = format_status,
		.print_frame = print_frame,
		.print_break = print_break,
		.json_thread = json_thread,
		.started = started,
		.setup_failed = setup_failed,
	};
}
