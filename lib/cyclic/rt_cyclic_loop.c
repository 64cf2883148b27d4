// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What cyclictest's main thread does while the threads measure: it sleeps
 * in sigtimedwait and, between its sleeps, draws the live status, drains
 * the -v samples, polls --analyze and --records and answers SIGUSR1/2.
 */
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "rt_cyclic_loop.h"

#include "rt_cli.h"
#include "rt_output.h"
#include "rt_records.h"
#include "rt_time.h"

#include "rt_cyclic_analyze.h"
#include "rt_cyclic_report.h"
#include "rt_cyclic_status.h"
#include "rt_cyclic_threads.h"

#define FIRST_DRAIN_NS (1000 * 1000LL)         /* -v until thread 0's first sample */
/*
 * -D: threads stop themselves at the end; main stops the ones still asleep
 * (an interval longer than what is left) this long after it.
 */
#define DURATION_GRACE_NS (100 * 1000 * 1000LL)
/* --analyze: how often main looks for spikes the threads noted. */
#define ANALYZE_POLL_NS (50 * 1000 * 1000LL)
/* --records: a window's lines follow its end within this time. */
#define RECORDS_POLL_NS (100 * 1000 * 1000LL)

static bool any_new_max(struct ct_run *run, int64_t *last_max)
{
	bool grew = false;

	for (int i = 0; i < run->nthreads; i++) {
		struct rt_stats s;

		rt_pubstats_read(&run->threads[i].ws.stats, &s);
		if (!rt_stats_empty(&s) && s.max > last_max[i]) {
			last_max[i] = s.max;
			grew = true;
		}
	}
	return grew;
}

void ct_update_smi(struct ct_run *run)
{
	for (int i = 0; i < run->nthreads; i++) {
		struct ct_thread *t = &run->threads[i];
		uint64_t v;

		if (ct_read_smi(t->cpu, &v) == 0)
			t->smi_count = v - t->smi_start;
	}
}

/* What the main thread does between its sleeps. */
struct main_state {
	struct ct_ctx *c;
	bool live;
	bool flush;
	int64_t *last_max;   /* -M: the maxima last drawn */
	char *status_buf;    /* SIGUSR1 */
	size_t status_len;
};

/* -v: drain soon after the start too, so the first sample shows at once. */
static int64_t next_wait(void *ctx, int64_t wait_ns)
{
	struct main_state *m = ctx;
	struct ct_run *run = &m->c->run;

	if (m->c->cfg->verbose && atomic_load(&run->threads[0].ws.ring.head) == 0)
		return FIRST_DRAIN_NS;
	return wait_ns;
}

static void on_wake(void *ctx, int sig)
{
	struct main_state *m = ctx;
	const struct cyclictest_config *cfg = m->c->cfg;
	struct ct_run *run = &m->c->run;

	if (sig == SIGUSR1 && m->status_buf) {
		if (cfg->smi)
			ct_update_smi(run);
		cyclictest_format_status_block(m->status_buf, m->status_len, run);
		fputs(m->status_buf, stderr);
	} else if (sig == SIGUSR2) {
		cyclictest_status_snapshot(&m->c->status);
	}
	if (cfg->verbose)
		cyclictest_print_samples(stdout, run); /* drained even once stdout failed */
	cyclictest_analyze_poll(&m->c->analysis, run);
	rt_records_set_poll(&m->c->records, m->c->windows);
	/* A reader gone or a full disk: the live output stops, the run goes on. */
	if (m->live && sig == 0 && !rt_output_stdout_error()) {
		if (cfg->smi)
			ct_update_smi(run);
		if (!cfg->refresh_on_max || (m->last_max && any_new_max(run, m->last_max))) {
			cyclictest_print_frame(stdout, run, false);
			if (m->flush)
				fflush(stdout);
		}
	}
	rt_output_stdout_check(false);
}

/* The main thread sleeps in sigtimedwait: signals, thread completion, ticks. */
void ct_main_loop(struct ct_ctx *c)
{
	const struct cyclictest_config *cfg = c->cfg;
	struct ct_run *run = &c->run;
	struct main_state m = {
		.c = c,
		.live = !cfg->quiet && !cfg->verbose,
		.flush = cfg->unbuffered || isatty(STDOUT_FILENO),
		.last_max = calloc((size_t)run->nthreads, sizeof(*m.last_max)),
		.status_len = 256 + 128 * (size_t)run->nthreads,
	};
	struct rt_workers_loop loop = {
		.signals = &c->signals,
		.clock = cfg->clock,
		/* -D: threads stop themselves; main stops the ones asleep past the end. */
		.deadline_ns = run->has_end ? rt_time_to_ns(&run->end_ts) + DURATION_GRACE_NS : -1,
		.tick_ns = m.live ? RT_LIVE_REFRESH_NS : cfg->verbose ? RT_VERBOSE_DRAIN_NS : -1,
		.next_wait = next_wait,
		.on_wake = on_wake,
		.ctx = &m,
	};

	if (cfg->analyze && (loop.tick_ns < 0 || loop.tick_ns > ANALYZE_POLL_NS))
		loop.tick_ns = ANALYZE_POLL_NS;
	if (rt_cli_results_need_windows(&cfg->results) &&
	    (loop.tick_ns < 0 || loop.tick_ns > RECORDS_POLL_NS))
		loop.tick_ns = RECORDS_POLL_NS;
	m.status_buf = malloc(m.status_len);
	if (m.live) {
		cyclictest_print_frame(stdout, run, true);
		rt_output_stdout_check(true);
	}
	c->stop_signal = rt_workers_run(run->workers, &loop);
	c->stopped_ns = rt_time_now_ns(cfg->clock);
	free(m.last_max);
	free(m.status_buf);
}
