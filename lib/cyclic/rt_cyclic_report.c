// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <inttypes.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include "rt_cyclic_report.h"

#include "rt_affinity.h"
#include "rt_isolation.h"
#include "rt_json.h"
#include "rt_sched.h"
#include "rt_sysinfo.h"
#include "rt_verdict_write.h"

#include "rt_cyclic_front.h"

size_t cyclictest_format_status(char *buf, size_t len, struct ct_thread *t)
{
	const struct cyclictest_config *cfg = t->cfg;
	struct rt_stats s;
	struct rt_report_line l = {
		.index = t->index, .tid = (int)atomic_load(&t->ws.tid), .prio = t->prio,
		.interval_us = t->interval_ns / 1000, .stats = &s,
		.act_avg_width = cfg->nsecs ? 8 : 5,
	};
	size_t n;

	if (cfg->front && cfg->front->format_status)
		return cfg->front->format_status(buf, len, t);
	rt_pubstats_read(&t->ws.stats, &s);
	n = rt_report_status_line(buf, len, &l);
	if (cfg->smi && n < len)
		n += (size_t)snprintf(buf + n, len - n, " SMI:%8" PRIu64, t->smi_count);
	return n < len ? n : len - 1;
}

size_t cyclictest_format_status_lines(char *buf, size_t len, struct ct_run *run)
{
	size_t used = 0;

	if (len)
		buf[0] = '\0';
	for (int i = 0; i < run->nthreads && used + 1 < len; i++) {
		used += cyclictest_format_status(buf + used, len - used, &run->threads[i]);
		if (used + 1 < len) {
			buf[used++] = '\n';
			buf[used] = '\0';
		}
	}
	return used;
}

size_t cyclictest_format_status_block(char *buf, size_t len, struct ct_run *run)
{
	static const char sep[] = "#---------------------------\n";
	const struct cyclictest_front *front = run->threads[0].cfg->front;
	size_t used;

	used = (size_t)snprintf(buf, len, "%s# %s current status:\n", sep,
				front ? front->tool : "cyclictest");
	if (used >= len)
		return strlen(buf);
	used += cyclictest_format_status_lines(buf + used, len - used, run);
	if (used + sizeof(sep) <= len) {
		memcpy(buf + used, sep, sizeof(sep));
		used += sizeof(sep) - 1;
	}
	return used;
}

const char *cyclictest_policy_label(const struct cyclictest_config *cfg)
{
	/* 2.4 shows threads running SCHED_OTHER as "other/other". */
	return cfg->policy == SCHED_OTHER ? "other/other" : rt_sched_policy_name(cfg->policy);
}

void cyclictest_print_frame(FILE *out, struct ct_run *run, bool first)
{
	char loadavg[128] = "";
	char line[256];

	if (run->threads[0].cfg->front && run->threads[0].cfg->front->print_frame) {
		run->threads[0].cfg->front->print_frame(out, run, first);
		return;
	}
	if (!first)
		fprintf(out, "\033[%dA", run->nthreads + 2);
	rt_sysinfo_loadavg(&run->loadavg_fd, loadavg, sizeof(loadavg));
	fprintf(out, "policy: %s: loadavg: %s          \n\n",
		cyclictest_policy_label(run->threads[0].cfg), loadavg);
	for (int i = 0; i < run->nthreads; i++) {
		cyclictest_format_status(line, sizeof(line), &run->threads[i]);
		fprintf(out, "%s\n", line);
	}
}

void cyclictest_print_summary(FILE *out, struct ct_run *run)
{
	char line[256];

	for (int i = 0; i < run->nthreads; i++) {
		cyclictest_format_status(line, sizeof(line), &run->threads[i]);
		fprintf(out, "%s\n", line);
	}
}

static void print_sample(FILE *out, int thread, uint64_t cycle, int64_t value)
{
	fprintf(out, "%8d:%8" PRIu64 ":%8" PRId64 "\n", thread, cycle, value);
}

void cyclictest_print_samples(FILE *out, struct ct_run *run)
{
	struct rt_ring_sample s;

	for (int i = 0; i < run->nthreads; i++) {
		struct ct_thread *t = &run->threads[i];
		int64_t red = t->cfg->oscope;

		while (rt_ring_pop(&t->ws.ring, &s)) {
			if (red <= 1) {
				print_sample(out, i, s.cycle, s.value);
				continue;
			}
			if (t->osc_n == 0 || s.value > t->osc_max) {
				t->osc_max = s.value;
				t->osc_max_cycle = s.cycle;
			}
			if (++t->osc_n == (uint64_t)red) {
				print_sample(out, i, t->osc_max_cycle, t->osc_max);
				t->osc_n = 0;
			}
		}
	}
}

int cyclictest_print_histogram(FILE *out, struct ct_run *run)
{
	struct rt_hist *hists = calloc((size_t)run->nthreads, sizeof(*hists));
	struct rt_stats *stats = calloc((size_t)run->nthreads, sizeof(*stats));
	struct rt_hist_set set;
	int err;

	if (!hists || !stats) {
		free(hists);
		free(stats);
		return -ENOMEM;
	}
	for (int i = 0; i < run->nthreads; i++) {
		hists[i] = run->threads[i].ws.hist;
		stats[i] = run->threads[i].ws.stats.stats;
	}
	set = (struct rt_hist_set){ .n = (size_t)run->nthreads, .hists = hists, .stats = stats,
				    .flags = run->threads[0].cfg->hist_sum ? RT_HIST_SUM_COLUMN : 0 };
	err = rt_hist_write(out, &set);
	free(hists);
	free(stats);
	return err;
}

void cyclictest_print_spikes(FILE *out, struct ct_run *run)
{
	uint64_t total = 0, shown = 0, cap = (uint64_t)run->threads[0].cfg->spike_nodes;

	for (int i = 0; i < run->nthreads; i++)
		total += run->threads[i].spike_count;
	if (!total)
		return;
	fputc('\n', out);
	for (int i = 0; i < run->nthreads; i++) {
		const struct ct_thread *t = &run->threads[i];
		uint64_t n = t->spike_count < t->spike_cap ? t->spike_count : t->spike_cap;

		for (uint64_t k = 0; k < n && shown < cap; k++, shown++)
			fprintf(out, "T:%2d Spike:%8" PRId64 ": TS: %12" PRId64 "\n", i,
				t->spikes[k].value, t->spikes[k].ts_us);
	}
	fprintf(out, "spikes = %" PRIu64 "\n\n", total);
}

void cyclictest_print_break(FILE *out, struct ct_run *run)
{
	int64_t value;

	if (!run->workers || rt_workers_break(run->workers, &value) < 0)
		return;
	if (run->threads[0].cfg->front && run->threads[0].cfg->front->print_break) {
		run->threads[0].cfg->front->print_break(out, run);
		return;
	}
	fputs("# Thread Ids:", out);
	for (int i = 0; i < run->nthreads; i++)
		fprintf(out, " %05d", (int)atomic_load(&run->threads[i].ws.tid));
	fprintf(out, "\n# Break thread: %d\n# Break value: %" PRId64 "\n", (int)run->break_tid,
		value);
}

struct rt_series *cyclictest_series(struct ct_run *run)
{
	struct rt_series *s = calloc((size_t)run->nthreads, sizeof(*s));

	for (int i = 0; s && i < run->nthreads; i++) {
		struct ct_thread *t = &run->threads[i];

		s[i] = rt_worker_state_seal(&t->ws, (int64_t)t->overruns);
	}
	return s;
}

static void json_thread(struct rt_json *j, const struct ct_thread *t)
{
	const struct rt_stats *s = &t->ws.stats.stats;
	char key[24];

	snprintf(key, sizeof(key), "%d", t->index);
	rt_json_object_begin(j, key);
	if (t->cfg->front && t->cfg->front->json_thread) {
		t->cfg->front->json_thread(j, t);
		rt_json_object_end(j);
		return;
	}
	rt_json_object_begin(j, "histogram");
	if (t->cfg->hist_buckets) {
		for (size_t b = rt_hist_next_nonempty(&t->ws.hist, 0); b < t->ws.hist.nbuckets;
		     b = rt_hist_next_nonempty(&t->ws.hist, b + 1)) {
			snprintf(key, sizeof(key), "%zu", b);
			rt_json_uint(j, key, t->ws.hist.buckets[b]);
		}
	}
	rt_json_object_end(j);
	rt_report_json_cycles_min_max_avg(j, s);
	rt_json_int(j, "cpu", t->cpu);
	rt_json_int(j, "node", t->cpu >= 0 ? rt_affinity_node_of_cpu(t->cpu) : -1);
	/* beyond 2.4 */
	rt_json_uint(j, "overruns", t->overruns);
	rt_percentiles_write_json(j, "percentiles", t->ws.loghist);
	if (t->ws.loghist)
		rt_loghist_write_json(j, "latency_histogram", t->ws.loghist);
	rt_json_object_end(j);
}

int cyclictest_write_json(FILE *out, struct ct_run *run, const struct rt_report *rep,
			  int return_code, const struct rt_series *series,
			  const struct rt_verdict *verdict, const struct ct_analysis *analysis,
			  const struct rt_env *env,
			  const struct rt_isolation *iso)
{
	struct rt_report_sched sched = RT_REPORT_SCHED_INIT;
	struct rt_json j;

	rt_json_init(&j, out);
	rt_report_json_header(&j, rep, return_code);
	rt_json_int(&j, "num_threads", run->nthreads);
	rt_json_int(&j, "resolution_in_ns", run->threads[0].cfg->nsecs ? 1 : 0);
	rt_json_object_begin(&j, "thread");
	for (int i = 0; i < run->nthreads; i++) {
		json_thread(&j, &run->threads[i]);
		rt_report_sched_add(&sched, run->threads[i].ws.ran_policy);
	}
	rt_json_object_end(&j);
	rt_report_json_scheduling(&j, &sched);
	rt_env_write_json(&j, env);
	if (rt_percentiles_write_json_total(&j, "percentiles", series, run->nthreads))
		return -ENOMEM;
	cyclictest_analyze_json(analysis, run, &j);
	if (verdict)
		rt_verdict_write_json(&j, verdict);
	if (iso)
		rt_isolation_write_json(&j, iso, RT_ISOLATION_RUN);
	rt_json_object_end(&j);
	return rt_json_finish(&j);
}
