// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "rt_cli.h"
#include "rt_mem.h"
#include "rt_prog.h"

#include "records.h"

int oslat_records_open(struct oslat_records *r, const struct oslat_config *cfg)
{
	int n = (int)cfg->cpus.count, err;

	memset(r, 0, sizeof(*r));
	if (!rt_cli_results_need_windows(&cfg->results))
		return 0;
	r->n = n;
	r->buckets = (int)cfg->buckets;
	r->windows = calloc((size_t)n, sizeof(*r->windows));
	r->seen = calloc((size_t)n * (size_t)cfg->buckets, sizeof(*r->seen));
	r->seen_extra = calloc((size_t)n, sizeof(*r->seen_extra));
	r->seen_ovf = rt_mem_alloc_pages((size_t)n * sizeof(*r->seen_ovf));
	for (int i = 0; r->windows && i < n; i++) {
		r->windows[i] = rt_mem_alloc_pages(sizeof(*r->windows[i]));
		if (!r->windows[i])
			break;
		rt_window_init(r->windows[i]);
	}
	if (!r->windows || !r->seen || !r->seen_extra || !r->seen_ovf ||
	    !r->windows[n - 1]) {
		rt_prog_error_errno(ENOMEM, "--records: cannot allocate the windows");
		return RT_EXIT_FAILURE;
	}
	for (int i = 0; i < n; i++)
		rt_loghist_init(&r->seen_ovf[i]);
	if ((err = rt_records_set_open(&r->set, cfg->results.records,
				       cfg->results.records_interval_s, n, false))) {
		rt_prog_error_errno(-err, "records '%s'", cfg->results.records);
		return RT_EXIT_FAILURE;
	}
	r->on = true;
	if (cfg->results.metrics) {
		const struct rt_metrics_doc doc = {
			.tool = "oslat", .series_label = "thread", .unit_ns = 1000,
		};

		err = rt_metrics_check_path(cfg->results.metrics);
		if (!err && !(err = rt_metrics_set_open(&r->metrics, cfg->results.metrics, &doc, n,
							cfg->cpus.cpu, false)))
			r->metrics_on = true;
		if (!err)
			err = rt_records_set_metrics(&r->set, &r->metrics,
						     cfg->results.records_interval_s, n, false);
		if (err) {
			rt_prog_error_errno(-err, "cannot write --metrics file '%s'",
					    cfg->results.metrics);
			return RT_EXIT_FAILURE;
		}
	}
	return 0;
}

int oslat_records_metrics_finish(struct oslat_records *r, const struct oslat_config *cfg,
				 const struct rt_series *series, int verdict,
				 const struct rt_isolation *iso)
{
	int err;

	if (!r->metrics_on || !series)
		return 0;
	if (!(err = rt_metrics_set_finish(&r->metrics, series, verdict, iso)))
		return 0;
	rt_prog_error_errno(-err, "cannot write --metrics file '%s'", cfg->results.metrics);
	return RT_EXIT_FAILURE;
}

void oslat_records_start(struct oslat_records *r, const struct oslat_config *cfg,
			 const struct rt_report *rep, const struct rt_env *env,
			 const struct oslat_run *run)
{
	const struct rt_records_run how = {
		.tool = "oslat",
		.cmdline = rep->cmdline,
		.unit = "us",
		.interval_s = cfg->results.records_interval_s,
		.warmup_s = 0, /* the pre-heat is over */
	};

	(void)run;
	if (r->metrics_on && !rt_metrics_set_labels(&r->metrics, env->release, env->preempt_model))
		rt_metrics_set_flush(&r->metrics, NULL); /* an error shows at the end */
	if (r->on)
		rt_records_set_start(&r->set, &how, env); /* an error shows at the end */
}

void oslat_records_add(struct rt_window_half *h, int buckets, const uint64_t *cnt,
		       uint64_t *seen, const struct rt_loghist *ovf, struct rt_loghist *seen_ovf,
		       uint64_t extra, uint64_t *seen_extra, int64_t ovf_max_us)
{
	struct rt_stats *s = &h->stats;
	int last = buckets - 1;
	uint64_t novf;

	for (int b = 0; b < last; b++) {
		uint64_t k = cnt[b] - seen[b];
		int64_t label = b + 1;

		if (!k)
			continue;
		seen[b] = cnt[b];
		if (!s->count || label < s->min)
			s->min = label;
		if (!s->count || label > s->max)
			s->max = label;
		s->count += k;
		s->sum += (int64_t)k * label;
		s->last = label;
		h->hist.bucket[rt_loghist_index(label)] += k;
	}
	novf = cnt[last] - seen[last];
	if (!novf)
		return;
	seen[last] = cnt[last];
	for (size_t i = 0; i < RT_LOGHIST_BUCKETS; i++) {
		uint64_t k = ovf->bucket[i] - seen_ovf->bucket[i];
		int64_t high;

		if (!k)
			continue;
		seen_ovf->bucket[i] = ovf->bucket[i];
		h->hist.bucket[i] += k;
		/* a bucket's bound, never above the thread's true maximum */
		high = rt_loghist_bucket_high(i);
		if (high > ovf_max_us)
			high = ovf_max_us;
		if (!s->count || rt_loghist_bucket_low(i) < s->min)
			s->min = rt_loghist_bucket_low(i);
		if (!s->count || high > s->max)
			s->max = high;
	}
	s->count += novf;
	s->sum += (int64_t)(novf * (uint64_t)buckets + (extra - *seen_extra));
	*seen_extra = extra;
}

/*
 * The thread's counters as they are now. It writes them while we read:
 * each counter only grows, so a read is its value at some moment of the
 * tick; the overflow histogram, extra and max are written before the
 * overflow counter they belong to is, so they are read after it.
 */
static void add_thread(struct oslat_records *r, const struct oslat_run *run, int i)
{
	const struct oslat_thread *t = &run->threads[i];
	struct rt_window *w = r->windows[i];
	uint64_t cnt[OSLAT_MAX_BUCKETS];

	if (!t->tested || !t->buckets)
		return;
	for (int b = 0; b < r->buckets; b++)
		cnt[b] = atomic_load_explicit(&t->buckets[b], memory_order_relaxed);
	atomic_thread_fence(memory_order_acquire);
	oslat_records_add(&w->half[atomic_load(&w->cur) & 1], r->buckets, cnt,
			  &r->seen[(size_t)i * (size_t)r->buckets], t->ovf_hist, &r->seen_ovf[i],
			  t->ovf_extra_us, &r->seen_extra[i], t->ovf_max_us);
}

void oslat_records_poll(struct oslat_records *r, const struct oslat_run *run)
{
	if (!r->on)
		return;
	for (int i = 0; i < r->n; i++)
		add_thread(r, run, i);
	rt_records_set_poll(&r->set, r->windows);
}

int oslat_records_finish(struct oslat_records *r, const struct oslat_run *run,
			 const struct rt_series *series)
{
	if (!r->on)
		return 0;
	for (int i = 0; i < r->n; i++)
		add_thread(r, run, i);
	return rt_records_set_finish(&r->set, r->windows, series);
}

void oslat_records_close(struct oslat_records *r)
{
	if (r->on)
		rt_records_set_close(&r->set);
	rt_metrics_set_close(&r->metrics);
	for (int i = 0; r->windows && i < r->n; i++)
		rt_mem_free_pages(r->windows[i], sizeof(*r->windows[i]));
	free(r->windows);
	free(r->seen);
	free(r->seen_extra);
	if (r->seen_ovf)
		rt_mem_free_pages(r->seen_ovf, (size_t)r->n * sizeof(*r->seen_ovf));
	memset(r, 0, sizeof(*r));
}
