// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <inttypes.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include "rt_prog.h"
#include "rt_spike_write.h"
#include "rt_tracer.h"

#include "analyze.h"

#define TRACE_BUFFER_KB 4096

struct oslat_analysis {
	struct rt_tracer *tracer;
	struct rt_spike_history hist;
	size_t ngaps;
	uint64_t dropped;             /* explained gaps beyond OSLAT_MAX_GAPS */
	struct oslat_gap gaps[OSLAT_MAX_GAPS];
	int64_t threshold_us;
	int64_t rt_limits[2];         /* kernel.sched_rt_runtime_us, _period_us; -1 unknown */
	struct rt_outside_probe *outside;
};

/* The gap [from_ns, to_ns] of the polling task tid on cpu against the history. */
static void oslat_gap_explain_history(const struct rt_spike_history *h, int cpu, int tid,
				      int64_t from_ns, int64_t to_ns, const int64_t rt_limits[2],
				      struct oslat_gap *g)
{
	struct rt_spike_query q = {
		.cpu = cpu, .tid = tid, .due_ns = from_ns, .woke_ns = to_ns,
		.value = (to_ns - from_ns) / 1000, .rt_runtime_us = rt_limits[0],
		.rt_period_us = rt_limits[1], .tick_ns = rt_outside_tick_ns(), .polling = true,
	};
	struct rt_spike_report *r = &g->report;

	rt_spike_analyze_history(h, &q, r);
	g->from_ns = from_ns;
	g->to_ns = to_ns;
	g->nblockers = 0;
	g->traced_ns = 0;
	for (size_t i = 0; i < r->nblockers; i++) {
		g->traced_ns += r->blockers[i].ns;
		if (i < OSLAT_GAP_BLOCKERS)
			g->blockers[g->nblockers++] = r->blockers[i];
	}
	g->complete = !r->events_lost && r->untraced_ns == 0;
}

void oslat_gap_explain(const struct rt_ev *ev, size_t n, int cpu, int tid, int64_t from_ns,
		       int64_t to_ns, struct oslat_gap *g)
{
	struct rt_spike_history h = { .ev = (struct rt_ev *)ev, .n = n, .from_ns = INT64_MIN,
				      .all_from_ns = INT64_MIN };
	static const int64_t unlimited[2] = { -1, -1 };

	oslat_gap_explain_history(&h, cpu, tid, from_ns, to_ns, unlimited, g);
}

static void blocker_text(FILE *f, const struct rt_blocker *b)
{
	switch (b->kind) {
	case RT_BLOCKER_TASK:
		fprintf(f, "task %s (pid %d)%s", b->name, b->id,
			b->hold == RT_HOLD_KERNEL ? " in the kernel" : "");
		break;
	case RT_BLOCKER_SOFTIRQ: fprintf(f, "softirq %s", b->name); break;
	case RT_BLOCKER_IRQ:
		if (b->id >= 0)
			fprintf(f, "irq %d (%s)", b->id, b->name);
		else
			fprintf(f, "irq %s", b->name);
		break;
	case RT_BLOCKER_THROTTLE: fputs("RT throttling", f); break;
	case RT_BLOCKER_IDLE_EXIT: fputs("exit from idle", f); break;
	case RT_BLOCKER_NO_IRQ: fputs("no interrupt", f); break;
	default: fputs("?", f); break;
	}
}

void oslat_gap_write_text(FILE *f, const struct oslat_gap *g)
{
	fprintf(f, "# Gap: CPU %d: %" PRId64 " us:", g->cpu, g->gap_us);
	if (!g->nblockers)
		fputs(" nothing traced ran (the hypervisor, an SMI or the tracer's blind spot)", f);
	for (size_t i = 0; i < g->nblockers; i++) {
		fputs(i ? ", " : " ", f);
		blocker_text(f, &g->blockers[i]);
		fprintf(f, " %" PRId64 " us", (g->blockers[i].ns + 500) / 1000);
	}
	fputc('\n', f);
	/* what the model makes of it, as cyclictest's "# Spike:" headline */
	if (g->report.explained && g->nblockers &&
	    (g->blockers[0].kind == RT_BLOCKER_NO_IRQ || g->blockers[0].kind == RT_BLOCKER_IDLE_EXIT)) {
		fputs("# Gap:   ", f);
		rt_spike_write_headline(f, &g->report);
	}
}

int oslat_analyze_open(struct oslat_analysis **out, struct oslat_run *run,
		       const struct oslat_config *cfg)
{
	struct oslat_analysis *a = calloc(1, sizeof(*a));
	const char *why = "";
	cpu_set_t cpus;
	int err;

	(void)run;
	if (!a) {
		rt_prog_error_errno(ENOMEM, "--analyze");
		return RT_EXIT_FAILURE;
	}
	a->threshold_us = cfg->analyze_us;
	rt_spike_read_rt_limits(&a->rt_limits[0], &a->rt_limits[1]);
	rt_spike_history_init(&a->hist);
	/* without the counters the evidence says less; the analysis goes on */
	if (rt_outside_open(&a->outside, (const int *)cfg->cpus.cpu, cfg->cpus.count) == 0)
		rt_outside_sample(a->outside);
	CPU_ZERO(&cpus);
	for (unsigned i = 0; i < cfg->cpus.count; i++)
		CPU_SET(cfg->cpus.cpu[i], &cpus);
	if ((err = rt_tracer_open(&a->tracer, "oslat", &cpus, TRACE_BUFFER_KB, 0, &why))) {
		rt_prog_error_errno(-err, "--analyze: %s", why);
		free(a);
		return RT_EXIT_FAILURE;
	}
	*out = a;
	return 0;
}

static void read_trace(struct oslat_analysis *a)
{
	struct rt_ev *ev = NULL;
	size_t n = 0;

	if (rt_tracer_consume(a->tracer, &ev, &n) == 0 && n &&
	    rt_spike_history_add(&a->hist, ev, n) < 0)
		rt_spike_history_free(&a->hist); /* out of memory: start again from here */
	free(ev);
	rt_spike_history_trim(&a->hist);
	if (a->outside)
		rt_outside_sample(a->outside); /* steal and SMIs, for the gaps to come */
}

/* The thread's pending note, if one is there: a consistent copy. */
static bool take_note(struct oslat_thread *t, struct oslat_note *copy)
{
	struct oslat_note *n = &t->note;
	uint32_t s1, s2;

	if (!atomic_load_explicit(&n->pending, memory_order_acquire))
		return false;
	do {
		s1 = atomic_load_explicit(&n->seq, memory_order_acquire);
		copy->gap_us = n->gap_us;
		copy->gap_ns = n->gap_ns;
		copy->end_ns = n->end_ns;
		copy->cpu = n->cpu;
		atomic_thread_fence(memory_order_acquire);
		s2 = atomic_load_explicit(&n->seq, memory_order_relaxed);
	} while ((s1 & 1) || s1 != s2);
	atomic_store_explicit(&n->pending, false, memory_order_release);
	return true;
}

void oslat_analyze_poll(struct oslat_analysis *a, struct oslat_run *run)
{
	read_trace(a);
	for (int i = 0; i < run->nthreads; i++) {
		struct oslat_thread *t = &run->threads[i];
		struct oslat_note note;
		struct oslat_gap g = { 0 };

		if (!take_note(t, &note))
			continue;
		oslat_gap_explain_history(&a->hist, note.cpu, (int)atomic_load(&t->tid),
					  note.end_ns - note.gap_ns, note.end_ns, a->rt_limits, &g);
		g.cpu = note.cpu;
		g.gap_us = note.gap_us;
		rt_spike_resolve_policies(&g.report);
		rt_outside_fill(a->outside, note.cpu, g.from_ns, g.to_ns, &g.report.outside);
		if (a->ngaps < OSLAT_MAX_GAPS)
			a->gaps[a->ngaps++] = g;
		else
			a->dropped++;
	}
}

int oslat_analyze_finish(struct oslat_analysis *a, struct oslat_run *run)
{
	oslat_analyze_poll(a, run);
	return 0;
}

void oslat_analyze_print(const struct oslat_analysis *a, const struct oslat_run *run, FILE *out)
{
	(void)run;
	fprintf(out, "# Gaps of %" PRId64 " us or more explained: %zu\n", a->threshold_us,
		a->ngaps);
	for (size_t i = 0; i < a->ngaps; i++)
		oslat_gap_write_text(out, &a->gaps[i]);
	if (a->dropped)
		fprintf(out, "# Gaps not kept: %" PRIu64 "\n", a->dropped);
}

void oslat_analyze_json(const struct oslat_analysis *a, const struct oslat_run *run,
			struct rt_json *j)
{
	(void)run;
	rt_json_object_begin(j, "analysis");
	rt_json_int(j, "threshold_us", a->threshold_us);
	rt_json_uint(j, "gaps_not_kept", a->dropped);
	rt_json_array_begin(j, "gaps");
	for (size_t i = 0; i < a->ngaps; i++) {
		const struct oslat_gap *g = &a->gaps[i];

		rt_json_object_begin(j, NULL);
		rt_json_int(j, "cpu", g->cpu);
		rt_json_int(j, "gap_us", g->gap_us);
		rt_json_bool(j, "trace_complete", g->complete);
		rt_json_array_begin(j, "blockers");
		for (size_t k = 0; k < g->nblockers; k++) {
			const struct rt_blocker *b = &g->blockers[k];

			rt_json_object_begin(j, NULL);
			rt_json_string(j, "kind", rt_spike_kind_name(b->kind));
			rt_json_string(j, "name", b->name);
			if (b->kind == RT_BLOCKER_TASK)
				rt_json_int(j, "pid", b->id);
			else if (b->kind == RT_BLOCKER_IRQ && b->id >= 0)
				rt_json_int(j, "irq", b->id);
			rt_json_int(j, "ns", b->ns);
			rt_json_object_end(j);
		}
		rt_json_array_end(j);
		/* the same shape as cyclictest's "analysis" */
		rt_json_object_begin(j, "analysis");
		rt_spike_write_json_body(j, &g->report, NULL);
		rt_json_object_end(j);
		rt_json_object_end(j);
	}
	rt_json_array_end(j);
	rt_json_object_end(j);
}

void oslat_analyze_close(struct oslat_analysis *a)
{
	if (!a)
		return;
	if (a->tracer)
		rt_tracer_close(a->tracer);
	rt_spike_history_free(&a->hist);
	rt_outside_close(a->outside);
	free(a);
}
