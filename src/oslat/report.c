// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "rt_json.h"
#include "rt_verdict_write.h"

#include "report.h"

static const char *workload_name(enum oslat_workload w)
{
	return w == OSLAT_WORKLOAD_MEMMOVE ? "memmove" : "no";
}

void oslat_print_header(FILE *out, const struct oslat_config *cfg, int preheaters,
			uint64_t preheat_s)
{
	char cpus[256];

	if (cfg->cpus_given)
		rt_affinity_format(&cfg->cpus, cpus, sizeof(cpus));
	else
		strcpy(cpus, "all");
	fprintf(out, "Total runtime: \t\t%" PRIu64 " seconds\n", cfg->duration_s);
	if (cfg->rtprio)
		fprintf(out, "Thread priority: \tSCHED_FIFO:%d\n", cfg->rtprio);
	else
		fputs("Thread priority: \tdefault\n", out);
	fprintf(out, "CPU list: \t\t%s\n", cpus);
	fprintf(out, "CPU for main thread: \t%d\n", cfg->main_cpu);
	fprintf(out, "Workload: \t\t%s\n", workload_name(cfg->workload));
	fprintf(out, "Workload mem: \t\t%" PRIu64 " (KiB)\n",
		cfg->workload == OSLAT_WORKLOAD_MEMMOVE ? cfg->workload_bytes / 1024 : 0);
	fprintf(out, "Preheat cores: \t\t%d\n\n", preheaters);
	fprintf(out, "Pre-heat for %" PRIu64 " seconds...\n", preheat_s);
}

double oslat_average(const struct oslat_result *r, int bias_us)
{
	if (!r->stats.count)
		return 0;
	return (double)r->stats.sum / (double)r->stats.count + bias_us;
}

static bool all_zero(const struct oslat_summary *s, int b)
{
	for (int i = 0; i < s->n; i++)
		if (s->res[i].buckets[b])
			return false;
	return true;
}

/* " v v v" for one row of numbers, "-" for a thread without gaps. */
static void row(FILE *out, const char *label, const struct oslat_summary *s, int which,
		const char *unit)
{
	fprintf(out, "%12s:\t", label);
	for (int i = 0; i < s->n; i++) {
		const struct oslat_result *r = &s->res[i];

		if (!r->stats.count && which != 4) {
			fputs(" -", out);
			continue;
		}
		switch (which) {
		case 0: fprintf(out, " %" PRId64, r->stats.min); break;
		case 1: fprintf(out, " %.3f", oslat_average(r, s->bias_us)); break;
		case 2: fprintf(out, " %" PRId64, r->stats.max); break;
		case 3: fprintf(out, " %" PRId64, r->stats.max - r->stats.min); break;
		default: fprintf(out, " %.3f", r->duration_s); break;
		}
	}
	fprintf(out, " %s\n", unit);
}

void oslat_print_summary(FILE *out, const struct oslat_summary *s)
{
	char label[32];
	bool dots = false;

	fprintf(out, "%12s:\t", "Core");
	for (int i = 0; i < s->n; i++)
		fprintf(out, " %d", s->res[i].cpu);
	fprintf(out, "\n%12s:\t", "Counter Freq");
	for (int i = 0; i < s->n; i++)
		fprintf(out, " %" PRIu32, s->res[i].mhz);
	fputs(" (Mhz)\n", out);
	for (int b = 0; b < s->buckets; b++) {
		bool last = b == s->buckets - 1;

		if (s->zero_omit && !last && all_zero(s, b)) {
			if (!dots)
				fputs("    ...\n", out);
			dots = true;
			continue;
		}
		dots = false;
		snprintf(label, sizeof(label), "%03d (us)", s->bias_us + b + 1);
		fprintf(out, "%12s:\t", label);
		for (int i = 0; i < s->n; i++)
			fprintf(out, " %" PRIu64, s->res[i].buckets[b]);
		fputs(last ? " (including overflows)\n" : "\n", out);
	}
	row(out, "Minimum", s, 0, "(us)");
	row(out, "Average", s, 1, "(us)");
	row(out, "Maximum", s, 2, "(us)");
	row(out, "Max-Min", s, 3, "(us)");
	row(out, "Duration", s, 4, "(sec)");
	fputc('\n', out);
}

struct rt_series *oslat_series(const struct oslat_summary *s)
{
	struct rt_series *ser = calloc((size_t)s->n, sizeof(*ser));

	for (int i = 0; ser && i < s->n; i++)
		ser[i] = (struct rt_series){ s->res[i].stats, s->res[i].hist, -1 };
	return ser;
}

static void json_thread(struct rt_json *j, const struct oslat_summary *s, int i)
{
	const struct oslat_result *r = &s->res[i];
	char key[32];

	snprintf(key, sizeof(key), "%d", i);
	rt_json_object_begin(j, key);
	rt_json_int(j, "cpu", r->cpu);
	rt_json_uint(j, "freq", r->mhz);
	if (r->stats.count) {
		rt_json_int(j, "min", r->stats.min);
		rt_json_double(j, "avg", oslat_average(r, s->bias_us), 6);
		rt_json_int(j, "max", r->stats.max);
	} else {
		rt_json_null(j, "min");
		rt_json_null(j, "avg");
		rt_json_null(j, "max");
	}
	rt_json_double(j, "duration", r->duration_s, 3);
	rt_json_object_begin(j, "histogram");
	for (int b = 0; b < s->buckets; b++) {
		if (!r->buckets[b])
			continue;
		snprintf(key, sizeof(key), "%d", s->bias_us + b + 1);
		rt_json_uint(j, key, r->buckets[b]);
	}
	rt_json_object_end(j);
	/* beyond 2.4 */
	rt_json_uint(j, "samples", r->stats.count);
	rt_percentiles_write_json(j, "percentiles", r->hist);
	if (r->hist)
		rt_loghist_write_json(j, "latency_histogram", r->hist);
	rt_json_object_end(j);
}

int oslat_write_json(FILE *out, const struct oslat_summary *s, const struct rt_report *rep,
		     int return_code, const struct rt_series *series,
		     const struct rt_verdict *verdict, const struct rt_env *env,
		     void (*extra)(struct rt_json *j, void *ctx), void *ctx)
{
	struct rt_report_sched sched = RT_REPORT_SCHED_INIT;
	struct rt_json j;

	rt_json_init(&j, out);
	rt_report_json_header(&j, rep, return_code);
	rt_json_int(&j, "num_threads", s->n);
	rt_json_object_begin(&j, "thread");
	for (int i = 0; i < s->n; i++) {
		json_thread(&j, s, i);
		rt_report_sched_add(&sched, s->res[i].ran_policy);
	}
	rt_json_object_end(&j);
	/* beyond 2.4 */
	rt_json_int(&j, "bias_us", s->bias_us);
	rt_report_json_scheduling(&j, &sched);
	if (env)
		rt_env_write_json(&j, env);
	if (series && rt_percentiles_write_json_total(&j, "percentiles", series, s->n))
		return -ENOMEM;
	if (extra)
		extra(&j, ctx);
	if (verdict)
		rt_verdict_write_json(&j, verdict);
	rt_json_object_end(&j);
	return rt_json_finish(&j);
}
