// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "rt_output.h"
#include "rt_prog.h"
#include "rt_time.h"

#include "summary.h"

static void reason(struct rtq_overall *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void reason(struct rtq_overall *o, const char *fmt, ...)
{
	va_list ap;

	if (o->nreasons == (int)(sizeof(o->reasons) / sizeof(o->reasons[0])))
		return;
	va_start(ap, fmt);
	vsnprintf(o->reasons[o->nreasons++], sizeof(o->reasons[0]), fmt, ap);
	va_end(ap);
}

static const char *signame(int sig)
{
	return sig == SIGINT ? "SIGINT" : sig == SIGTERM ? "SIGTERM" : "SIGHUP";
}

/* FAIL when a step failed; PASS only when every step ran whole and passed under its load. */
void rtq_overall_judge(const struct rtq_plan *p, struct rtq_overall *o)
{
	bool fail = false, proven = true, error = false;

	memset(o, 0, sizeof(*o));
	for (int i = 0; i < RTQ_NSTEPS; i++) {
		const struct rtq_step *st = &p->step[i];

		if (!strcmp(st->result, "fail") && st->stopped && !st->samples) {
			/* stopped by us before its first sample: nothing was judged */
			proven = false;
			reason(o, "%s: stopped before it measured", st->name);
		} else if (!strcmp(st->result, "fail")) {
			fail = true;
			if (st->max_us >= 0)
				reason(o, "%s: FAIL, max %lld us (limit %lld us)", st->name,
				       (long long)st->max_us, (long long)p->cfg->max_latency_us);
			else
				reason(o, "%s: FAIL, no samples", st->name);
		} else if (!strcmp(st->result, "error")) {
			/* a tool stopped by a signal may not have written its result */
			error |= !st->stopped;
			proven = false;
			reason(o, "%s: %s wrote no verdict (exit %d)", st->name, st->tool,
			       st->exit_code);
		} else if (!strcmp(st->result, "inconclusive")) {
			proven = false;
			reason(o, "%s: INCONCLUSIVE", st->name);
		} else if (strcmp(st->result, "pass")) {
			proven = false;
		}
		if (st->stopped)
			proven = false;
	}
	if (p->stop_signal) {
		o->partial = true;
		reason(o, "stopped by %s: not every step measured", signame(p->stop_signal));
	}
	if (p->load.ended_early) {
		proven = false;
		reason(o, "the load (%s) ended early, exit %d", rtq_load_name(p->cfg->load),
		       p->load.exit_code);
	}
	o->result = fail ? "fail" : proven && !o->partial ? "pass" : "inconclusive";
	o->exit_code = fail ? RT_EXIT_FAIL : error ? RT_EXIT_FAILURE
			    : proven && !o->partial ? RT_EXIT_OK : RT_EXIT_INCONCLUSIVE;
}

bool rtq_load_figures(const struct rtq_plan *p, double *cpu_s, double *wall_s)
{
	const struct rtq_load_run *l = &p->load;

	if (!l->started || !l->cpu_known || l->measure_end_ns <= l->measure_start_ns)
		return false;
	*cpu_s = (double)(l->cpu_at_end_ns - l->cpu_at_start_ns) / RT_NSEC_PER_SEC;
	*wall_s = (double)(l->measure_end_ns - l->measure_start_ns) / RT_NSEC_PER_SEC;
	return true;
}

void rtq_summary_print(const struct rtq_plan *p, const struct rtq_overall *o,
		       const struct rtq_files *files)
{
	char cpus[256];
	double cpu_s, wall_s;

	rt_affinity_format(&p->load_cpus, cpus, sizeof(cpus));
	if (rtq_load_figures(p, &cpu_s, &wall_s))
		printf("load: %s used %.1f CPU s in %.1f s of measurement on CPU(s) %s (%.0f %% "
		       "of them)\n", rtq_load_name(p->cfg->load), cpu_s, wall_s, cpus,
		       100.0 * cpu_s / (wall_s * p->load_cpus.count));
	else if (p->load.started)
		printf("load: %s on CPU(s) %s, its CPU time unknown\n",
		       rtq_load_name(p->cfg->load), cpus);
	printf("Verdict: %s\n", !strcmp(o->result, "pass") ? "FIT (PASS)"
				: !strcmp(o->result, "fail") ? "NOT FIT (FAIL)"
							     : "NOT PROVEN (INCONCLUSIVE)");
	for (int i = 0; i < o->nreasons; i++)
		printf("  %s\n", o->reasons[i]);
	printf("Results: %s/summary.json%s%s\n", p->dir, files->junit ? ", junit.xml" : "",
	       files->html ? ", report.html" : "");
	if (files->html_note[0])
		printf("  note: %s\n", files->html_note);
	fflush(stdout);
}

/* A Prometheus label value: backslash, quote and newline escaped. */
static void label(FILE *f, const char *name, const char *v)
{
	fprintf(f, "%s=\"", name);
	for (; v && *v; v++) {
		if (*v == '\\' || *v == '"')
			fputc('\\', f);
		if (*v == '\n')
			fputs("\\n", f);
		else
			fputc(*v, f);
	}
	fputc('"', f);
}

static void metrics_text(FILE *f, const struct rtq_plan *p, const struct rtq_overall *o,
			 const struct rt_env *env)
{
	double cpu_s, wall_s;

	fputs("# HELP rt_qualify_verdict 1 when the machine qualified (PASS), else 0.\n"
	      "# TYPE rt_qualify_verdict gauge\nrt_qualify_verdict{", f);
	label(f, "kernel", env->release);
	fputc(',', f);
	label(f, "result", o->result);
	fprintf(f, "} %d\n", !strcmp(o->result, "pass"));
	fputs("# HELP rt_qualify_step_max_latency_seconds The largest latency of each step.\n"
	      "# TYPE rt_qualify_step_max_latency_seconds gauge\n", f);
	for (int i = 0; i < RTQ_NSTEPS; i++) {
		if (p->step[i].max_us < 0)
			continue;
		fputs("rt_qualify_step_max_latency_seconds{", f);
		label(f, "step", p->step[i].name);
		fputc(',', f);
		label(f, "tool", p->step[i].tool);
		fputc(',', f);
		label(f, "result", p->step[i].result);
		fprintf(f, "} %.6f\n", (double)p->step[i].max_us / 1e6);
	}
	if (rtq_load_figures(p, &cpu_s, &wall_s)) {
		fputs("# HELP rt_qualify_load_cpu_seconds CPU time the load used while the tools "
		      "measured.\n# TYPE rt_qualify_load_cpu_seconds gauge\n"
		      "rt_qualify_load_cpu_seconds{", f);
		label(f, "load", rtq_load_name(p->cfg->load));
		fprintf(f, "} %.3f\n", cpu_s);
	}
}

int rtq_summary_metrics(const struct rtq_plan *p, const struct rtq_overall *o,
			const struct rt_env *env)
{
	struct rt_output out;
	int err;

	if ((err = rt_output_open(&out, p->cfg->metrics)))
		return err;
	metrics_text(out.f, p, o, env);
	err = ferror(out.f) ? rt_output_why(&out, -EIO) : rt_output_commit(&out);
	rt_output_abort(&out);
	return err;
}
