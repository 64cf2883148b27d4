// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rt_output.h"
#include "rt_time.h"

#include "metrics.h"

int hwlat_metrics_open(struct hwlat_metrics *m, const struct hwlat_config *cfg)
{
	struct rt_output o;
	int err;

	memset(m, 0, sizeof(*m));
	if (!cfg->metrics)
		return 0;
	if ((err = rt_output_open(&o, cfg->metrics)))
		return err;
	rt_output_abort(&o);
	m->path = cfg->metrics;
	m->interval_ns = (int64_t)cfg->records_interval_s * RT_NSEC_PER_SEC;
	return 0;
}

/* The series of cpu, made (zero, in CPU order) when new; NULL: no memory. */
static struct hwlat_metrics_series *series_of(struct hwlat_metrics *m, int cpu)
{
	int at = 0;

	while (at < m->n && m->series[at].cpu < cpu)
		at++;
	if (at < m->n && m->series[at].cpu == cpu)
		return &m->series[at];
	if (m->n == m->cap) {
		int cap = m->cap ? 2 * m->cap : 8;
		struct hwlat_metrics_series *s = realloc(m->series, (size_t)cap * sizeof(*s));

		if (!s)
			return NULL;
		m->series = s;
		m->cap = cap;
	}
	memmove(&m->series[at + 1], &m->series[at], (size_t)(m->n - at) * sizeof(*m->series));
	m->n++;
	memset(&m->series[at], 0, sizeof(m->series[at]));
	m->series[at].cpu = cpu;
	rt_stats_init(&m->series[at].stats);
	return &m->series[at];
}

static int hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

int hwlat_metrics_cpus(struct hwlat_metrics *m, const char *cpumask)
{
	size_t len = strlen(cpumask);
	int nib = 0;

	while (len && strchr(" \t\n", cpumask[len - 1]))
		len--;
	for (size_t i = 0; i < len; i++)
		if (cpumask[i] != ',' && hex_digit(cpumask[i]) < 0)
			return 0;
	/* from the last digit (CPUs 0-3) up */
	for (size_t i = len; i-- > 0;) {
		int d = hex_digit(cpumask[i]);

		if (d < 0)
			continue;
		for (int b = 0; b < 4 && nib * 4 + b < HWLAT_MAX_CPUS; b++)
			if ((d >> b & 1) && !series_of(m, nib * 4 + b))
				return -ENOMEM;
		nib++;
	}
	return 0;
}

int hwlat_metrics_add(struct hwlat_metrics *m, const struct hwlat_sample *s, bool counted)
{
	struct hwlat_metrics_series *e = series_of(m, s->cpu < 0 ? -1 : s->cpu);
	int64_t v = hwlat_sample_max(s);

	if (!e)
		return -ENOMEM;
	if (!e->hist) {
		if (!(e->hist = malloc(sizeof(*e->hist))))
			return -ENOMEM;
		rt_loghist_init(e->hist);
	}
	rt_stats_add(&e->stats, v);
	rt_loghist_add(e->hist, v);
	/* as hwlat_summarize() counts them, so that the CPUs add up to its spikes */
	e->spikes += counted ? (s->count >= 0 ? (uint64_t)s->count : 1) : 1;
	return 0;
}

/* us as seconds, exact: "0.00001", "12.5", "0". */
static void put_seconds(FILE *f, int64_t us)
{
	char frac[8];
	int len;

	len = snprintf(frac, sizeof(frac), "%06" PRId64, us % 1000000);
	while (len > 0 && frac[len - 1] == '0')
		frac[--len] = '\0';
	fprintf(f, "%" PRId64 "%s%s", us / 1000000, len ? "." : "", frac);
}

/* name="value", the value escaped as the exposition format says. */
static void put_label(FILE *f, const char *name, const char *value)
{
	fprintf(f, "%s=\"", name);
	for (; value && *value; value++) {
		if (*value == '\\' || *value == '"')
			fputc('\\', f);
		if (*value == '\n')
			fputs("\\n", f);
		else
			fputc(*value, f);
	}
	fputc('"', f);
}

/* {tool=..,cpu=..,kernel=..,preempt=..} in lib/rt_metrics' order; cpu < -1: none. */
static void put_labels(FILE *f, const struct hwlat_metrics *m, int cpu)
{
	char num[16];

	fputc('{', f);
	put_label(f, "tool", "hwlatdetect");
	if (cpu >= -1) {
		snprintf(num, sizeof(num), cpu < 0 ? "any" : "%d", cpu);
		fputc(',', f);
		put_label(f, "cpu", num);
	}
	fputc(',', f);
	put_label(f, "kernel", m->kernel);
	fputc(',', f);
	put_label(f, "preempt", m->preempt);
	fputc('}', f);
}

int hwlat_metrics_write(FILE *f, const struct hwlat_metrics *m, int verdict)
{
	struct rt_metrics_series *s = calloc((size_t)m->n + 1, sizeof(*s));
	struct rt_metrics_doc d = {
		.tool = "hwlatdetect", .series_label = "thread", .kernel = m->kernel,
		.preempt = m->preempt, .unit_ns = 1000, .verdict = verdict, .series = s,
		.n = m->n,
	};
	int err;

	if (!s)
		return -ENOMEM;
	/* id -1: no thread label */
	for (int k = 0; k < m->n; k++)
		s[k] = (struct rt_metrics_series){ .id = -1, .cpu = m->series[k].cpu,
						   .stats = &m->series[k].stats,
						   .hist = m->series[k].hist, .overruns = -1 };
	err = rt_metrics_write(f, &d);
	free(s);
	if (err)
		return err;
	fputs("# HELP rt_hwlat_spikes_total Latencies above the threshold: the samples' count "
	      "fields summed, else the samples.\n# TYPE rt_hwlat_spikes_total counter\n", f);
	for (int k = 0; k < m->n; k++) {
		fputs("rt_hwlat_spikes_total", f);
		put_labels(f, m, m->series[k].cpu);
		fprintf(f, " %" PRIu64 "\n", m->series[k].spikes);
	}
	fputs("# HELP rt_hwlat_threshold_seconds The hwlat tracer's threshold (tracing_thresh): "
	      "only latencies above it are samples.\n"
	      "# TYPE rt_hwlat_threshold_seconds gauge\nrt_hwlat_threshold_seconds", f);
	put_labels(f, m, -2);
	fputc(' ', f);
	put_seconds(f, m->threshold_us);
	fputc('\n', f);
	return ferror(f) ? -EIO : 0;
}

static int write_file(struct hwlat_metrics *m, int verdict)
{
	struct rt_output o;
	int err;

	if (!(err = rt_output_open(&o, m->path))) {
		err = hwlat_metrics_write(o.f, m, verdict);
		err = err ? rt_output_why(&o, err) : rt_output_commit(&o);
		rt_output_abort(&o);
	}
	if (err && !m->error)
		m->error = err;
	return err;
}

/* The samples of res not taken yet. */
static void take(struct hwlat_metrics *m, const struct hwlat_result *res)
{
	if (!m->seen && res->n)
		m->counted = res->samples[0].count >= 0;
	for (; m->seen < res->n; m->seen++) {
		int err = hwlat_metrics_add(m, &res->samples[m->seen], m->counted);

		if (err && !m->error)
			m->error = err;
	}
}


void hwlat_metrics_start(struct hwlat_metrics *m, const struct hwlat_config *cfg,
			 const char *cpumask, const struct hwlat_result *res,
			 const struct rt_env *env)
{
	int err;

	if (!m->path)
		return;
	m->kernel = env->release;
	m->preempt = env->preempt_model;
	m->threshold_us = res->threshold_us;
	if ((err = hwlat_metrics_cpus(m, cfg->cpu_list ? cfg->cpumask : cpumask)) && !m->error)
		m->error = err;
	take(m, res);
	write_file(m, RT_METRICS_NO_VERDICT);
	m->due_ns = rt_time_mono_ns() + m->interval_ns;
}

void hwlat_metrics_poll(struct hwlat_metrics *m, const struct hwlat_result *res)
{
	int64_t now;

	if (!m->path)
		return;
	take(m, res);
	now = rt_time_mono_ns();
	if (now < m->due_ns)
		return;
	write_file(m, RT_METRICS_NO_VERDICT);
	while (m->due_ns <= now)
		m->due_ns += m->interval_ns;
}

int hwlat_metrics_finish(struct hwlat_metrics *m, const struct hwlat_result *res, int verdict)
{
	if (!m->path)
		return 0;
	take(m, res);
	write_file(m, verdict);
	return m->error;
}

void hwlat_metrics_close(struct hwlat_metrics *m)
{
	for (int k = 0; k < m->n; k++)
		free(m->series[k].hist);
	free(m->series);
	memset(m, 0, sizeof(*m));
}
