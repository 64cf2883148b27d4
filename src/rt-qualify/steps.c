// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "steps.h"

static void push(struct rtq_argv *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void push(struct rtq_argv *a, const char *fmt, ...)
{
	size_t room = sizeof(a->store) - a->used;
	va_list ap;
	int n;

	if (a->overflow || a->n == RTQ_ARGV_MAX) {
		a->overflow = true;
		return;
	}
	va_start(ap, fmt);
	n = vsnprintf(a->store + a->used, room, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= room) {
		a->overflow = true;
		return;
	}
	a->v[a->n++] = a->store + a->used;
	a->v[a->n] = NULL;
	a->used += (size_t)n + 1;
}

static void cpus_text(const struct rt_cpulist *l, char *buf, size_t len)
{
	rt_affinity_format(l, buf, len);
}

void rtq_steps_plan(struct rtq_plan *p)
{
	uint64_t d = p->cfg->duration_s, noise = d / 6 ? d / 6 : 1, ct = d / 2 ? d / 2 : 1;
	struct rtq_step *s = p->step;

	s[RTQ_STEP_NOISE] = (struct rtq_step){ .name = "hardware-noise", .file = "hardware-noise",
					       .tool = p->hwlat ? "hwlatdetect" : "oslat",
					       .duration_s = noise };
	if (!p->hwlat)
		snprintf(s[RTQ_STEP_NOISE].note, sizeof(s[RTQ_STEP_NOISE].note),
			 "the kernel has no hwlat tracer: oslat's busy loop on the measured CPUs, "
			 "without load, stands in for hwlatdetect");
	s[RTQ_STEP_CYCLICTEST] = (struct rtq_step){ .name = "cyclictest", .file = "cyclictest",
						    .tool = "cyclictest", .duration_s = ct,
						    .under_load = true };
	s[RTQ_STEP_OSLAT] = (struct rtq_step){ .name = "oslat", .file = "oslat", .tool = "oslat",
					       .duration_s = d > noise + ct ? d - noise - ct : 1,
					       .under_load = true };
	if (!p->isolated)
		snprintf(s[RTQ_STEP_OSLAT].note, sizeof(s[RTQ_STEP_OSLAT].note),
			 "the measured CPUs are not isolated: oslat polls at SCHED_OTHER, beside "
			 "the load");
	for (int i = 0; i < RTQ_NSTEPS; i++) {
		s[i].exit_code = -1;
		s[i].max_us = -1;
		snprintf(s[i].result, sizeof(s[i].result), "not run");
	}
	/* about 30 windows a run, one a minute at most: a 24 h run stays small */
	p->records_interval_s = d / 30 < 1 ? 1 : d / 30 > 60 ? 60 : d / 30;
}

/* --json, --records, --metrics and the interval: the same for every tool. */
static void result_files(const struct rtq_plan *p, const struct rtq_step *st,
			 struct rtq_argv *a)
{
	push(a, "--json=%s.json", st->file);
	push(a, "--records=%s.records", st->file);
	push(a, "--records-interval=%llus", (unsigned long long)p->records_interval_s);
	push(a, "--metrics=%s.prom", st->file);
	push(a, "--no-preflight");
}

static void limits(const struct rtq_plan *p, struct rtq_argv *a, bool percentiles)
{
	push(a, "--max-latency=%lld", (long long)p->cfg->max_latency_us);
	for (int k = 0; percentiles && k < p->cfg->npct; k++)
		push(a, "--max-percentile=%s", p->cfg->pct[k]);
}

static void oslat_args(const struct rtq_plan *p, const struct rtq_step *st, const char *cpus,
		       struct rtq_argv *a, bool percentiles)
{
	push(a, "-c");
	push(a, "%s", cpus);
	push(a, "-D");
	push(a, "%llus", (unsigned long long)st->duration_s);
	push(a, "-q");
	if (p->isolated)
		push(a, "--rtprio=1");
	limits(p, a, percentiles);
	result_files(p, st, a);
}

int rtq_step_argv(const struct rtq_plan *p, int i, const char *path, struct rtq_argv *a)
{
	const struct rtq_step *st = &p->step[i];
	char cpus[512];

	memset(a, 0, sizeof(*a));
	cpus_text(&p->measured, cpus, sizeof(cpus));
	push(a, "%s", path);
	if (i == RTQ_STEP_NOISE && p->hwlat) {
		push(a, "--duration=%llus", (unsigned long long)st->duration_s);
		push(a, "--hardlimit=%lld", (long long)p->cfg->max_latency_us);
		push(a, "--cpu-list=%s", cpus);
		push(a, "--quiet");
		result_files(p, st, a);
	} else if (i == RTQ_STEP_CYCLICTEST) {
		push(a, "-q");
		push(a, "-m");
		push(a, "-p");
		push(a, "%d", RTQ_CYCLICTEST_PRIO);
		push(a, "-t");
		push(a, "%u", p->measured.count);
		push(a, "-a");
		push(a, "%s", cpus);
		push(a, "-i");
		push(a, "1000");
		push(a, "-d");
		push(a, "0");
		push(a, "-D");
		push(a, "%llus", (unsigned long long)st->duration_s);
		push(a, "--analyze=%lld", (long long)p->cfg->max_latency_us);
		push(a, "--analyze-output=%s-spike.txt", st->file);
		limits(p, a, true);
		result_files(p, st, a);
	} else {
		oslat_args(p, st, cpus, a, i == RTQ_STEP_OSLAT);
	}
	return a->overflow ? -E2BIG : 0;
}

int rtq_load_argv(const struct rtq_plan *p, const char *path, uint64_t seconds,
		  struct rtq_argv *a)
{
	memset(a, 0, sizeof(*a));
	push(a, "%s", path);
	if (p->cfg->load == RTQ_LOAD_STRESS_NG) {
		push(a, "--cpu");
		push(a, "%u", p->load_cpus.count);
		push(a, "--timeout");
		push(a, "%llus", (unsigned long long)seconds);
	} else {
		/* as rteval runs it: processes, three groups per load CPU */
		push(a, "-P");
		push(a, "-g");
		push(a, "%u", 3 * p->load_cpus.count);
		push(a, "-l");
		push(a, "1000");
		push(a, "-s");
		push(a, "1000");
		push(a, "-D");
		push(a, "%llus", (unsigned long long)seconds);
		push(a, "--json=load-hackbench.json");
		push(a, "--no-preflight");
	}
	return a->overflow ? -E2BIG : 0;
}
