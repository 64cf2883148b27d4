// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <inttypes.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include "rt_prog.h"
#include "rt_tracer.h"

#include "analyze.h"

#define TRACE_BUFFER_KB 4096
#define MAX_DEPTH 8

struct oslat_analysis {
	struct rt_tracer *tracer;
	struct rt_spike_history hist;
	size_t ngaps;
	uint64_t dropped;             /* explained gaps beyond OSLAT_MAX_GAPS */
	struct oslat_gap gaps[OSLAT_MAX_GAPS];
	int64_t threshold_us;
};

static const char *const softirq_names[] = {
	"HI", "TIMER", "NET_TX", "NET_RX", "BLOCK", "IRQ_POLL", "TASKLET", "SCHED", "HRTIMER", "RCU",
};

static void add_time(struct oslat_gap *g, struct rt_blocker *all, size_t *nall, size_t cap,
		     const struct rt_blocker *who, int64_t ns)
{
	(void)g;
	if (ns <= 0)
		return;
	for (size_t i = 0; i < *nall; i++) {
		if (all[i].kind == who->kind && all[i].id == who->id &&
		    strcmp(all[i].name, who->name) == 0) {
			all[i].ns += ns;
			return;
		}
	}
	if (*nall < cap) {
		all[*nall] = *who;
		all[*nall].ns = ns;
		(*nall)++;
	}
}

static int by_time(const void *a, const void *b)
{
	const struct rt_blocker *x = a, *y = b;

	return x->ns < y->ns ? 1 : x->ns > y->ns ? -1 : 0;
}

void oslat_gap_explain(const struct rt_ev *ev, size_t n, int cpu, int tid, int64_t from_ns,
		       int64_t to_ns, struct oslat_gap *g)
{
	struct rt_blocker stack[MAX_DEPTH], all[64];
	size_t depth = 1, nall = 0;
	int64_t last = INT64_MIN, first_ts = INT64_MIN;

	memset(stack, 0, sizeof(stack));
	stack[0].kind = RT_BLOCKER_NONE; /* the task on the CPU: unknown before a switch */
	stack[0].id = -1;
	g->nblockers = 0;
	g->traced_ns = 0;
	g->from_ns = from_ns;
	g->to_ns = to_ns;
	for (size_t i = 0; i < n; i++) {
		const struct rt_ev *e = &ev[i];
		struct rt_blocker *top = &stack[depth - 1];
		int64_t a, b;

		if (e->cpu != cpu)
			continue;
		if (first_ts == INT64_MIN)
			first_ts = e->ts_ns;
		if (e->ts_ns > to_ns)
			break;
		/* the time since the last event belongs to the innermost context */
		a = last > from_ns ? last : from_ns;
		b = e->ts_ns;
		if (last != INT64_MIN && b > a && top->kind != RT_BLOCKER_NONE)
			add_time(g, all, &nall, 64, top, b - a);
		last = e->ts_ns;
		switch (e->type) {
		case RT_EV_SWITCH:
			stack[0].kind = e->pid == tid || e->pid == 0 ? RT_BLOCKER_NONE : RT_BLOCKER_TASK;
			stack[0].id = e->pid;
			stack[0].prio = e->prio;
			stack[0].policy = -1;
			snprintf(stack[0].name, sizeof(stack[0].name), "%s", e->comm);
			break;
		case RT_EV_IRQ_ENTRY:
		case RT_EV_TIMER_IRQ_ENTRY:
		case RT_EV_SOFTIRQ_ENTRY:
			if (depth < MAX_DEPTH) {
				struct rt_blocker *nb = &stack[depth++];

				memset(nb, 0, sizeof(*nb));
				if (e->type == RT_EV_SOFTIRQ_ENTRY) {
					nb->kind = RT_BLOCKER_SOFTIRQ;
					nb->id = e->irq;
					snprintf(nb->name, sizeof(nb->name), "%s",
						 e->name[0] ? e->name
						 : e->irq >= 0 && e->irq < 10 ? softirq_names[e->irq] : "?");
				} else if (e->type == RT_EV_TIMER_IRQ_ENTRY) {
					nb->kind = RT_BLOCKER_IRQ;
					nb->id = -1;
					snprintf(nb->name, sizeof(nb->name), "local_timer");
				} else {
					nb->kind = RT_BLOCKER_IRQ;
					nb->id = e->irq;
					snprintf(nb->name, sizeof(nb->name), "%s", e->name);
				}
			}
			break;
		case RT_EV_IRQ_EXIT:
		case RT_EV_TIMER_IRQ_EXIT:
		case RT_EV_SOFTIRQ_EXIT:
			if (depth > 1)
				depth--;
			break;
		default:
			break;
		}
	}
	if (last != INT64_MIN && last < to_ns && stack[depth - 1].kind != RT_BLOCKER_NONE)
		add_time(g, all, &nall, 64, &stack[depth - 1],
			 to_ns - (last > from_ns ? last : from_ns));
	g->complete = first_ts != INT64_MIN && first_ts <= from_ns;
	qsort(all, nall, sizeof(all[0]), by_time);
	for (size_t i = 0; i < nall; i++) {
		g->traced_ns += all[i].ns;
		if (i < OSLAT_GAP_BLOCKERS)
			g->blockers[g->nblockers++] = all[i];
	}
}

static void blocker_text(FILE *f, const struct rt_blocker *b)
{
	switch (b->kind) {
	case RT_BLOCKER_TASK: fprintf(f, "task %s (pid %d)", b->name, b->id); break;
	case RT_BLOCKER_SOFTIRQ: fprintf(f, "softirq %s", b->name); break;
	case RT_BLOCKER_IRQ:
		if (b->id >= 0)
			fprintf(f, "irq %d (%s)", b->id, b->name);
		else
			fprintf(f, "irq %s", b->name);
		break;
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
	rt_spike_history_init(&a->hist);
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
		g.cpu = note.cpu;
		g.gap_us = note.gap_us;
		oslat_gap_explain(a->hist.ev, a->hist.n, note.cpu, (int)atomic_load(&t->tid),
				  note.end_ns - note.gap_ns, note.end_ns, &g);
		g.cpu = note.cpu;
		g.gap_us = note.gap_us;
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

static const char *kind_name(enum rt_blocker_kind k)
{
	switch (k) {
	case RT_BLOCKER_TASK: return "task";
	case RT_BLOCKER_IRQ: return "irq";
	case RT_BLOCKER_SOFTIRQ: return "softirq";
	default: return "other";
	}
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
			rt_json_string(j, "kind", kind_name(b->kind));
			rt_json_string(j, "name", b->name);
			if (b->kind == RT_BLOCKER_TASK)
				rt_json_int(j, "pid", b->id);
			else if (b->kind == RT_BLOCKER_IRQ && b->id >= 0)
				rt_json_int(j, "irq", b->id);
			rt_json_int(j, "ns", b->ns);
			rt_json_object_end(j);
		}
		rt_json_array_end(j);
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
	free(a);
}
