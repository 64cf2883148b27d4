// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "rt_metrics.h"
#include "rt_output.h"

const int64_t rt_metrics_nominal_ns[RT_METRICS_NBOUNDS] = {
	1000,     2000,     5000,     10000,    20000,    50000,     100000,    200000,
	500000,   1000000,  2000000,  5000000,  10000000, 20000000,  50000000,  100000000,
};

void rt_metrics_bounds(int64_t unit_ns, int64_t out[RT_METRICS_NBOUNDS])
{
	for (int i = 0; i < RT_METRICS_NBOUNDS; i++) {
		int64_t v = rt_metrics_nominal_ns[i] / unit_ns;
		size_t b = rt_loghist_index(v);

		/* v itself when it ends its bucket, else the end of the bucket below */
		out[i] = rt_loghist_bucket_high(b) == v ? v : rt_loghist_bucket_low(b) - 1;
	}
}

/* v units of unit_ns as seconds, exact in decimal: "0.000999", "12.5", "-0.001". */
static void put_seconds(FILE *f, int64_t v, int64_t unit_ns)
{
	uint64_t ns = (uint64_t)(v < 0 ? -v : v) * (uint64_t)unit_ns;
	char frac[16];
	int len;

	len = snprintf(frac, sizeof(frac), "%09" PRIu64, ns % 1000000000u);
	while (len > 0 && frac[len - 1] == '0')
		frac[--len] = '\0';
	fprintf(f, "%s%" PRIu64 "%s%s", v < 0 ? "-" : "", ns / 1000000000u, len ? "." : "", frac);
}

/* A label value, escaped as the exposition format says: \\, \", \n. */
static void put_value(FILE *f, const char *s)
{
	for (; s && *s; s++) {
		if (*s == '\\')
			fputs("\\\\", f);
		else if (*s == '"')
			fputs("\\\"", f);
		else if (*s == '\n')
			fputs("\\n", f);
		else
			fputc(*s, f);
	}
}

static void put_label(FILE *f, const char *name, const char *value, bool comma)
{
	fprintf(f, "%s%s=\"", comma ? "," : "", name);
	put_value(f, value);
	fputc('"', f);
}

/* tool="..",thread="N",cpu="C",kernel="..",preempt=".." (series < 0: no series label). */
static void put_labels(FILE *f, const struct rt_metrics_doc *d, int series, int cpu, bool with_cpu)
{
	char num[24];

	put_label(f, "tool", d->tool, false);
	if (series >= 0) {
		snprintf(num, sizeof(num), "%d", series);
		put_label(f, d->series_label, num, true);
	}
	if (with_cpu) {
		if (cpu >= 0)
			snprintf(num, sizeof(num), "%d", cpu);
		else
			snprintf(num, sizeof(num), "any");
		put_label(f, "cpu", num, true);
	}
	put_label(f, "kernel", d->kernel, true);
	put_label(f, "preempt", d->preempt, true);
}

static void put_head(FILE *f, const char *name, const char *type, const char *help)
{
	fprintf(f, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

static void put_histogram(FILE *f, const struct rt_metrics_doc *d, const int64_t *bounds)
{
	put_head(f, "rt_latency_seconds", "histogram",
		 "Latency of each sample: cumulative counts at or below exact bounds.");
	for (int k = 0; k < d->n; k++) {
		const struct rt_metrics_series *s = &d->series[k];
		uint64_t cum = 0;
		size_t b = 0;

		for (int i = 0; i < RT_METRICS_NBOUNDS; i++) {
			for (; s->hist && b < RT_LOGHIST_BUCKETS &&
			       rt_loghist_bucket_high(b) <= bounds[i]; b++)
				cum += s->hist->bucket[b];
			fputs("rt_latency_seconds_bucket{", f);
			put_labels(f, d, s->id, s->cpu, true);
			fputs(",le=\"", f);
			put_seconds(f, bounds[i], d->unit_ns);
			fprintf(f, "\"} %" PRIu64 "\n", cum);
		}
		for (; s->hist && b < RT_LOGHIST_BUCKETS; b++)
			cum += s->hist->bucket[b];
		fputs("rt_latency_seconds_bucket{", f);
		put_labels(f, d, s->id, s->cpu, true);
		fprintf(f, ",le=\"+Inf\"} %" PRIu64 "\n", cum);
		fputs("rt_latency_seconds_sum{", f);
		put_labels(f, d, s->id, s->cpu, true);
		fputs("} ", f);
		put_seconds(f, cum ? s->stats->sum : 0, d->unit_ns);
		fputs("\nrt_latency_seconds_count{", f);
		put_labels(f, d, s->id, s->cpu, true);
		fprintf(f, "} %" PRIu64 "\n", cum);
	}
}

static uint64_t series_count(const struct rt_metrics_series *s)
{
	uint64_t n = 0;

	for (size_t b = 0; s->hist && b < RT_LOGHIST_BUCKETS; b++)
		n += s->hist->bucket[b];
	return n;
}

static void put_series_values(FILE *f, const struct rt_metrics_doc *d)
{
	bool any_max = false, any_overruns = false;

	for (int k = 0; k < d->n; k++) {
		any_max |= series_count(&d->series[k]) > 0;
		any_overruns |= d->series[k].overruns >= 0;
	}
	if (any_max)
		put_head(f, "rt_latency_max_seconds", "gauge", "Largest latency measured.");
	for (int k = 0; k < d->n; k++) {
		const struct rt_metrics_series *s = &d->series[k];

		if (!series_count(s))
			continue;
		fputs("rt_latency_max_seconds{", f);
		put_labels(f, d, s->id, s->cpu, true);
		fputs("} ", f);
		put_seconds(f, s->stats->max, d->unit_ns);
		fputc('\n', f);
	}
	put_head(f, "rt_samples_total", "counter", "Latency samples measured.");
	for (int k = 0; k < d->n; k++) {
		fputs("rt_samples_total{", f);
		put_labels(f, d, d->series[k].id, d->series[k].cpu, true);
		fprintf(f, "} %" PRIu64 "\n", series_count(&d->series[k]));
	}
	if (!any_overruns)
		return;
	put_head(f, "rt_overruns_total", "counter", "Periods missed: the thread woke too late for them.");
	for (int k = 0; k < d->n; k++) {
		if (d->series[k].overruns < 0)
			continue;
		fputs("rt_overruns_total{", f);
		put_labels(f, d, d->series[k].id, d->series[k].cpu, true);
		fprintf(f, "} %" PRId64 "\n", d->series[k].overruns);
	}
}

static void put_cpu_counter(FILE *f, const struct rt_metrics_doc *d, const char *name,
			    const char *help, int which)
{
	static const char *const kinds[] = { "voluntary", "involuntary" };
	bool head = false;

	for (int i = 0; i < d->ncpus; i++) {
		const struct rt_isolation_sums *s = &d->cpus[i].sums;

		if (!s->known)
			continue;
		if (!head)
			put_head(f, name, "counter", help);
		head = true;
		for (int k = 0; k < (which == 2 ? 2 : 1); k++) {
			uint64_t v = which == 0 ? s->interrupts : which == 1 ? s->softirqs :
				     k == 0 ? s->voluntary : s->involuntary;

			fprintf(f, "%s{", name);
			put_labels(f, d, -1, d->cpus[i].cpu, true);
			if (which == 2)
				put_label(f, "kind", kinds[k], true);
			fprintf(f, "} %" PRIu64 "\n", v);
		}
	}
}

int rt_metrics_write(FILE *f, const struct rt_metrics_doc *d)
{
	int64_t bounds[RT_METRICS_NBOUNDS];

	rt_metrics_bounds(d->unit_ns, bounds);
	put_histogram(f, d, bounds);
	put_series_values(f, d);
	if (d->verdict != RT_METRICS_NO_VERDICT) {
		put_head(f, "rt_verdict", "gauge", "Verdict of the run's limits: 1 PASS, 0 FAIL.");
		fputs("rt_verdict{", f);
		put_labels(f, d, -1, -1, false);
		fprintf(f, "} %d\n", d->verdict ? 1 : 0);
	}
	if (d->cpus) {
		put_cpu_counter(f, d, "rt_cpu_interrupts_total",
				"Interrupts on the measured CPU during the run.", 0);
		put_cpu_counter(f, d, "rt_cpu_softirqs_total",
				"Softirqs on the measured CPU during the run.", 1);
		put_cpu_counter(f, d, "rt_cpu_context_switches_total",
				"Context switches of the measuring threads on the CPU.", 2);
	}
	return ferror(f) ? -EIO : 0;
}

int rt_metrics_check_path(const char *path)
{
	struct rt_output o;
	int err = rt_output_open(&o, path);

	if (!err)
		rt_output_abort(&o);
	return err;
}

int rt_metrics_write_file(const char *path, const struct rt_metrics_doc *d)
{
	struct rt_output o;
	int err = rt_output_open(&o, path);

	if (err)
		return err;
	err = rt_metrics_write(o.f, d);
	if (err) {
		err = rt_output_why(&o, err);
		rt_output_abort(&o);
		return err;
	}
	return rt_output_commit(&o);
}

void rt_metrics_set_close(struct rt_metrics_set *m)
{
	free(m->path);
	free((char *)m->doc.kernel);
	free((char *)m->doc.preempt);
	free(m->acc);
	free(m->series);
	free(m->cpus);
	memset(m, 0, sizeof(*m));
}

int rt_metrics_set_labels(struct rt_metrics_set *m, const char *kernel, const char *preempt)
{
	char *k = strdup(kernel ? kernel : ""), *p = strdup(preempt ? preempt : "");

	if (!k || !p) {
		free(k);
		free(p);
		return -ENOMEM;
	}
	free((char *)m->doc.kernel);
	free((char *)m->doc.preempt);
	m->doc.kernel = k;
	m->doc.preempt = p;
	return 0;
}

int rt_metrics_set_open(struct rt_metrics_set *m, const char *path, const struct rt_metrics_doc *doc,
			int n, const int *cpu, bool overruns)
{
	memset(m, 0, sizeof(*m));
	m->doc = *doc;
	m->doc.kernel = NULL;
	m->doc.preempt = NULL;
	m->doc.verdict = RT_METRICS_NO_VERDICT;
	m->doc.n = n;
	m->doc.cpus = NULL;
	m->doc.ncpus = 0;
	m->overruns = overruns;
	m->path = strdup(path);
	m->acc = calloc((size_t)n ? (size_t)n : 1, sizeof(*m->acc));
	m->series = calloc((size_t)n ? (size_t)n : 1, sizeof(*m->series));
	m->cpus = calloc((size_t)n ? (size_t)n : 1, sizeof(*m->cpus));
	if (!m->path || !m->acc || !m->series || !m->cpus ||
	    rt_metrics_set_labels(m, NULL, NULL)) {
		rt_metrics_set_close(m);
		return -ENOMEM;
	}
	for (int k = 0; k < n; k++) {
		bool seen = false;

		rt_stats_init(&m->acc[k].stats);
		rt_loghist_init(&m->acc[k].hist);
		m->series[k] = (struct rt_metrics_series){
			.id = k, .cpu = cpu ? cpu[k] : -1, .stats = &m->acc[k].stats,
			.hist = &m->acc[k].hist, .overruns = overruns ? 0 : -1,
		};
		for (int i = 0; i < m->ncpus_max; i++)
			seen |= m->cpus[i].cpu == m->series[k].cpu;
		if (!seen)
			m->cpus[m->ncpus_max++].cpu = m->series[k].cpu;
	}
	m->doc.series = m->series;
	return 0;
}

void rt_metrics_set_add(struct rt_metrics_set *m, int k, const struct rt_stats *s,
			const struct rt_loghist *h, uint64_t overruns)
{
	struct rt_metrics_acc_series *a = &m->acc[k];

	rt_stats_merge(&a->stats, s);
	for (size_t b = 0; b < RT_LOGHIST_BUCKETS; b++)
		a->hist.bucket[b] += h->bucket[b];
	a->overruns += overruns;
	if (m->overruns)
		m->series[k].overruns = (int64_t)a->overruns;
}

/* The CPUs' counts of a span, added to (add) or replacing the ones so far. */
static void take_cpus(struct rt_metrics_set *m, const struct rt_isolation *iso,
		      enum rt_isolation_span span, bool add)
{
	if (!iso)
		return;
	for (int i = 0; i < m->ncpus_max; i++) {
		struct rt_isolation_sums s, *d = &m->cpus[i].sums;

		if (rt_isolation_sums(iso, span, m->cpus[i].cpu, &s) || !s.known) {
			if (!add)
				d->known = false;
			continue;
		}
		if (!add || !d->known) {
			*d = s;
			continue;
		}
		d->interrupts += s.interrupts;
		d->softirqs += s.softirqs;
		d->voluntary += s.voluntary;
		d->involuntary += s.involuntary;
	}
	m->doc.cpus = m->cpus;
	m->doc.ncpus = m->ncpus_max;
}

static int write_now(struct rt_metrics_set *m)
{
	int err = rt_metrics_write_file(m->path, &m->doc);

	if (err && !m->error)
		m->error = err;
	return err;
}

int rt_metrics_set_flush(struct rt_metrics_set *m, const struct rt_isolation *iso)
{
	take_cpus(m, iso, RT_ISOLATION_WINDOW, true);
	return write_now(m);
}

int rt_metrics_set_finish(struct rt_metrics_set *m, const struct rt_series *series, int verdict,
			  const struct rt_isolation *iso)
{
	for (int k = 0; k < m->doc.n; k++) {
		m->series[k].stats = &series[k].stats;
		m->series[k].hist = series[k].hist;
		m->series[k].overruns = m->overruns ? series[k].overruns : -1;
	}
	m->doc.verdict = verdict;
	take_cpus(m, iso, RT_ISOLATION_RUN, false);
	write_now(m);
	return m->error;
}
