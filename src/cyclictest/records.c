// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <stdlib.h>
#include <time.h>

#include "rt_prog.h"
#include "rt_time.h"

#include "records.h"

int cyclictest_records_open(struct ct_records *cr, const struct cyclictest_config *cfg, int nthreads)
{
	int err;

	if (!cfg->records)
		return 0;
	cr->overruns_seen = calloc((size_t)nthreads, sizeof(*cr->overruns_seen));
	if (!cr->overruns_seen) {
		rt_prog_error_errno(ENOMEM, "cannot set up --records");
		return RT_EXIT_FAILURE;
	}
	if ((err = rt_records_open(&cr->rec, cfg->records, cfg->records_interval_s))) {
		rt_prog_error_errno(-err, "cannot open --records file '%s'", cfg->records);
		return RT_EXIT_FAILURE;
	}
	cr->open = true;
	return 0;
}

static void note(struct ct_records *cr, int err)
{
	if (err && !cr->error)
		cr->error = err;
}

void cyclictest_records_start(struct ct_records *cr, const struct ct_run *run,
			      const struct rt_report *rep, const struct rt_env *env)
{
	const struct cyclictest_config *cfg = run->threads[0].cfg;
	struct rt_json j;

	if (!cr->open)
		return;
	rt_records_start(&cr->rec);
	rt_records_begin(&cr->rec, &j, "run");
	rt_json_string(&j, "tool", "cyclictest");
	rt_json_string(&j, "version", PACKAGE_VERSION);
	rt_json_string(&j, "rt_test_version", RT_INTERFACE_VERSION);
	rt_json_string(&j, "cmdline", rep->cmdline);
	rt_records_time(&cr->rec, &j, "start", cr->rec.start_ns);
	rt_json_string(&j, "unit", cfg->nsecs ? "ns" : "us");
	rt_json_uint(&j, "records_interval_s", cfg->records_interval_s);
	rt_json_int(&j, "num_threads", run->nthreads);
	rt_env_write_json(&j, env);
	note(cr, rt_records_end(&cr->rec, &j));
	note(cr, rt_records_sync(&cr->rec));
}

/* One line per thread for the window ending at end_ns, from half i of each. */
static void write_window(struct ct_records *cr, struct ct_run *run, unsigned i, int64_t end_ns)
{
	for (int k = 0; k < run->nthreads; k++) {
		struct rt_window *w = run->threads[k].window; /* NULL: never started */
		struct rt_window_half *h = w ? rt_window_take(w, i) : NULL;
		struct rt_stats none;
		uint64_t overruns = h && h->has_overruns ? h->overruns_total - cr->overruns_seen[k] : 0;
		struct rt_json j;

		rt_stats_init(&none);
		if (h && h->has_overruns)
			cr->overruns_seen[k] = h->overruns_total;
		rt_records_begin(&cr->rec, &j, "window");
		rt_json_int(&j, "thread", k);
		rt_records_window_times(&cr->rec, &j, end_ns);
		rt_records_series(&j, h ? &h->stats : &none, h ? &h->hist : NULL);
		rt_json_uint(&j, "overruns", overruns);
		note(cr, rt_records_end(&cr->rec, &j));
		if (w)
			rt_window_clear(w, i);
	}
	note(cr, rt_records_sync(&cr->rec));
	rt_records_next_window(&cr->rec, end_ns);
}

static bool all_quiet(struct ct_run *run)
{
	for (int k = 0; k < run->nthreads; k++)
		if (run->threads[k].window && !rt_window_quiet(run->threads[k].window))
			return false;
	return true;
}

static int64_t mono_ns(void)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return rt_time_to_ns(&now);
}

void cyclictest_records_poll(struct ct_records *cr, struct ct_run *run)
{
	int64_t now = mono_ns();

	if (!cr->open)
		return;
	if (!cr->pending && rt_records_window_due(&cr->rec, now)) {
		/* Every thread switches at once: the halves stay in step. */
		for (int k = 0; k < run->nthreads; k++)
			if (run->threads[k].window)
				rt_window_switch(run->threads[k].window);
		cr->old = cr->cur;
		cr->cur ^= 1;
		cr->pending = true;
		cr->pending_end_ns = now;
	}
	if (cr->pending && all_quiet(run)) {
		write_window(cr, run, cr->old, cr->pending_end_ns);
		cr->pending = false;
	}
}

int cyclictest_records_finish(struct ct_records *cr, struct ct_run *run,
			      const struct rt_series *series)
{
	int64_t end = mono_ns();
	struct rt_json j;

	if (!cr->open)
		return 0;
	/* The threads have ended: every half is quiet. */
	if (cr->pending)
		write_window(cr, run, cr->old, cr->pending_end_ns);
	cr->pending = false;
	write_window(cr, run, cr->cur, end);
	rt_records_begin(&cr->rec, &j, "total");
	rt_records_time(&cr->rec, &j, "end", end);
	rt_json_double(&j, "duration_s", (double)(end - cr->rec.start_ns) / 1e9, 3);
	rt_json_array_begin(&j, "threads");
	for (int k = 0; k < run->nthreads; k++) {
		rt_json_object_begin(&j, NULL);
		rt_json_int(&j, "thread", k);
		rt_records_series(&j, &series[k].stats, series[k].hist);
		rt_json_int(&j, "overruns", series[k].overruns);
		rt_json_object_end(&j);
	}
	rt_json_array_end(&j);
	if (rt_percentiles_write_json_total(&j, "percentiles", series, run->nthreads))
		note(cr, -ENOMEM);
	note(cr, rt_records_end(&cr->rec, &j));
	note(cr, rt_records_sync(&cr->rec));
	if (cr->error) {
		rt_prog_error_errno(-cr->error, "cannot write --records file '%s'",
				    run->threads[0].cfg->records);
		return RT_EXIT_FAILURE;
	}
	return 0;
}

void cyclictest_records_close(struct ct_records *cr)
{
	if (cr->open)
		rt_records_close(&cr->rec);
	cr->open = false;
	free(cr->overruns_seen);
	cr->overruns_seen = NULL;
}
