// SPDX-License-Identifier: GPL-2.0-or-later
#include <inttypes.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include "rt_spike.h"

/* Trace and clock timestamps agree to well under this (same clock). */
#define CLOCK_SLACK_NS 5000

static bool on(const struct rt_ev *e, int cpu)
{
	return e->cpu == cpu;
}

/* The thread's wakeup: the first after due, before it ran. */
static size_t find_wakeup(const struct rt_ev *ev, size_t n, const struct rt_spike_query *q)
{
	for (size_t i = 0; i < n; i++)
		if (ev[i].type == RT_EV_WAKEUP && ev[i].pid == q->tid &&
		    ev[i].ts_ns >= q->due_ns - CLOCK_SLACK_NS && ev[i].ts_ns <= q->woke_ns)
			return i;
	return n;
}

static size_t find_switch_in(const struct rt_ev *ev, size_t n, size_t from,
			     const struct rt_spike_query *q)
{
	for (size_t i = from; i < n && ev[i].ts_ns <= q->woke_ns + CLOCK_SLACK_NS; i++)
		if (ev[i].type == RT_EV_SWITCH && ev[i].pid == q->tid &&
		    ev[i].ts_ns >= q->due_ns - CLOCK_SLACK_NS)
			return i;
	return n;
}

/* The interrupt entry that led to the wakeup at index w (same CPU, after due). */
static size_t find_irq_entry(const struct rt_ev *ev, size_t w, const struct rt_spike_query *q)
{
	size_t found = w;

	for (size_t i = w; i-- > 0 && ev[i].ts_ns >= q->due_ns - CLOCK_SLACK_NS;) {
		if (!on(&ev[i], ev[w].cpu))
			continue;
		if (ev[i].type == RT_EV_TIMER_IRQ_ENTRY || ev[i].type == RT_EV_IRQ_ENTRY)
			return i;
		if (ev[i].type == RT_EV_HRTIMER_ENTRY && found == w)
			found = i; /* no IRQ event (hrtimer run from softirq or idle): use this */
	}
	return found;
}

static void add_blocker(struct rt_spike_report *r, enum rt_blocker_kind kind, int id, int prio,
			const char *name, int64_t ns)
{
	struct rt_blocker *b;

	if (ns <= 0)
		return;
	for (size_t i = 0; i < r->nblockers; i++) {
		b = &r->blockers[i];
		if (b->kind == kind && b->id == id) {
			b->ns += ns;
			return;
		}
	}
	if (r->nblockers == RT_SPIKE_MAX_BLOCKERS)
		return; /* the longest ones are found long before 16 */
	b = &r->blockers[r->nblockers++];
	*b = (struct rt_blocker){ kind, id, prio, -1, "", ns };
	snprintf(b->name, sizeof(b->name), "%s", name);
}

static int by_time_desc(const void *a, const void *b)
{
	int64_t x = ((const struct rt_blocker *)a)->ns, y = ((const struct rt_blocker *)b)->ns;

	return (x < y) - (x > y);
}

/* Who held the CPU while the thread waited: tasks, hard IRQs and softirqs. */
struct cpu_state {
	int pid, prio;
	char comm[RT_SPIKE_COMM];
	int irq_depth, irq;        /* innermost hard IRQ */
	char irq_name[RT_SPIKE_NAME];
	int softirq_depth, vec;
	char vec_name[RT_SPIKE_NAME];
};

static void account(struct rt_spike_report *r, const struct cpu_state *s, int64_t ns)
{
	if (s->irq_depth > 0) {
		add_blocker(r, RT_BLOCKER_IRQ, s->irq, 0, s->irq_name, ns);
		r->irq_total_ns += ns;
	} else if (s->softirq_depth > 0) {
		add_blocker(r, RT_BLOCKER_SOFTIRQ, s->vec, 0, s->vec_name, ns);
		r->softirq_total_ns += ns;
	} else if (s->pid >= 0 && s->pid != r->q.tid) {
		add_blocker(r, RT_BLOCKER_TASK, s->pid, s->prio, s->pid ? s->comm : "idle", ns);
	}
}

static void step(struct cpu_state *s, const struct rt_ev *e)
{
	switch (e->type) {
	case RT_EV_SWITCH:
		s->pid = e->pid;
		s->prio = e->prio;
		memcpy(s->comm, e->comm, sizeof(s->comm));
		break;
	case RT_EV_IRQ_ENTRY:
	case RT_EV_TIMER_IRQ_ENTRY:
		s->irq_depth++;
		s->irq = e->type == RT_EV_IRQ_ENTRY ? e->irq : -1;
		snprintf(s->irq_name, sizeof(s->irq_name), "%s",
			 e->type == RT_EV_IRQ_ENTRY ? e->name : "local_timer");
		break;
	case RT_EV_IRQ_EXIT:
	case RT_EV_TIMER_IRQ_EXIT:
		if (s->irq_depth > 0)
			s->irq_depth--;
		break;
	case RT_EV_SOFTIRQ_ENTRY:
		s->softirq_depth++;
		s->vec = e->irq;
		memcpy(s->vec_name, e->name, sizeof(s->vec_name));
		break;
	case RT_EV_SOFTIRQ_EXIT:
		if (s->softirq_depth > 0)
			s->softirq_depth--;
		break;
	default:
		break;
	}
}

static void account_window(const struct rt_ev *ev, size_t n, struct rt_spike_report *r,
			   int64_t end)
{
	const struct rt_spike_query *q = &r->q;
	struct cpu_state s = { .pid = -1 };
	int64_t t = q->due_ns;
	size_t i;

	/* The state at due: replay what came before. */
	for (i = 0; i < n && ev[i].ts_ns <= q->due_ns; i++)
		if (on(&ev[i], q->cpu))
			step(&s, &ev[i]);
	for (; i < n && ev[i].ts_ns < end; i++) {
		if (!on(&ev[i], q->cpu))
			continue;
		if (s.pid < 0 && ev[i].type == RT_EV_SWITCH) {
			/* No switch before the window: the one leaving says who ran. */
			s.pid = ev[i].prev_pid;
			s.prio = ev[i].prev_prio;
			memcpy(s.comm, ev[i].prev_comm, sizeof(s.comm));
		}
		account(r, &s, ev[i].ts_ns - t);
		t = ev[i].ts_ns;
		step(&s, &ev[i]);
	}
	account(r, &s, end - t);
}

void rt_spike_analyze(const struct rt_ev *ev, size_t n, const struct rt_spike_query *q,
		      struct rt_spike_report *r)
{
	size_t w, sw, irq;
	int64_t end = q->woke_ns;

	memset(r, 0, sizeof(*r));
	r->q = *q;
	r->irq_ns = r->handler_ns = r->sched_ns = r->user_ns = -1;
	w = find_wakeup(ev, n, q);
	sw = find_switch_in(ev, n, w < n ? w : 0, q);
	r->found_wakeup = w < n;
	r->found_switch = sw < n;
	if (w < n) {
		irq = find_irq_entry(ev, w, q);
		if (irq < w) {
			r->irq_ns = ev[irq].ts_ns > q->due_ns ? ev[irq].ts_ns - q->due_ns : 0;
			r->handler_ns = ev[w].ts_ns - ev[irq].ts_ns;
		}
	}
	if (sw < n) {
		end = ev[sw].ts_ns;
		if (w < n)
			r->sched_ns = ev[sw].ts_ns - ev[w].ts_ns;
		r->user_ns = q->woke_ns > ev[sw].ts_ns ? q->woke_ns - ev[sw].ts_ns : 0;
	}
	account_window(ev, n, r, end);
	qsort(r->blockers, r->nblockers, sizeof(r->blockers[0]), by_time_desc);
}

void rt_spike_resolve_policies(struct rt_spike_report *r)
{
	for (size_t i = 0; i < r->nblockers; i++) {
		struct rt_blocker *b = &r->blockers[i];

		if (b->kind == RT_BLOCKER_TASK && b->id > 0)
			b->policy = sched_getscheduler(b->id); /* -1 once it has exited */
	}
}

void rt_spike_prio_label(int prio, int policy, char *buf, size_t len)
{
	if (prio >= 0 && prio < 100)
		snprintf(buf, len, "%s %d", policy == SCHED_FIFO ? "FIFO" : policy == SCHED_RR ? "RR" : "RT",
			 99 - prio);
	else if (prio >= 100 && prio < 140)
		snprintf(buf, len, "OTHER nice %d", prio - 120);
	else
		snprintf(buf, len, "prio %d", prio);
}

static const char *kind_name(enum rt_blocker_kind k)
{
	switch (k) {
	case RT_BLOCKER_TASK: return "task";
	case RT_BLOCKER_IRQ: return "irq";
	case RT_BLOCKER_SOFTIRQ: return "softirq";
	default: return "none";
	}
}

/* "task blocker (pid 4711, RT 99)", "irq 12 (virtio0)", "softirq 1 (TIMER)". */
static void describe(const struct rt_blocker *b, char *buf, size_t len)
{
	char prio[24];

	if (b->kind == RT_BLOCKER_TASK) {
		rt_spike_prio_label(b->prio, b->policy, prio, sizeof(prio));
		snprintf(buf, len, "task %s (pid %d, %s)", b->name, b->id, prio);
	} else if (b->kind == RT_BLOCKER_IRQ && b->id < 0) {
		snprintf(buf, len, "irq %s", b->name);
	} else {
		snprintf(buf, len, "%s %d (%s)", kind_name(b->kind), b->id, b->name);
	}
}

static int64_t spike_ns(const struct rt_spike_report *r)
{
	return r->q.woke_ns - r->q.due_ns;
}

void rt_spike_write_us(FILE *f, const char *label, int64_t ns)
{
	if (ns < 0)
		fprintf(f, "%s -", label);
	else
		fprintf(f, "%s %" PRId64 ".%" PRId64 " us", label, ns / 1000, ns % 1000 / 100);
}

void rt_spike_write_text(FILE *f, const struct rt_spike_report *r, const char *unit,
			 const char *file)
{
	char what[96];
	int64_t total = spike_ns(r);

	fprintf(f, "# Spike: %" PRId64 " %s on CPU %d", r->q.value, unit, r->q.cpu);
	if (r->nblockers) {
		describe(&r->blockers[0], what, sizeof(what));
		fprintf(f, ", blocked by %s for %" PRId64 " us (%" PRId64 "%%)\n", what,
			r->blockers[0].ns / 1000,
			total > 0 ? r->blockers[0].ns * 100 / total : 0);
	} else {
		fputs(", no blocker in the trace\n", f);
	}
	rt_spike_write_us(f, "# Spike: expected wakeup -> IRQ entry", r->irq_ns);
	rt_spike_write_us(f, ", IRQ entry -> wakeup", r->handler_ns);
	rt_spike_write_us(f, ", wakeup -> switch-in", r->sched_ns);
	rt_spike_write_us(f, ", switch-in -> user space", r->user_ns);
	fputc('\n', f);
	for (size_t i = 0; i < r->nblockers; i++) {
		describe(&r->blockers[i], what, sizeof(what));
		fprintf(f, "# Spike:   %s: %" PRId64 ".%" PRId64 " us\n", what, r->blockers[i].ns / 1000,
			r->blockers[i].ns % 1000 / 100);
	}
	if (file)
		fprintf(f, "# Spike: trace window saved to %s\n", file);
}

static void json_us(struct rt_json *j, const char *key, int64_t ns)
{
	if (ns < 0)
		rt_json_null(j, key);
	else
		rt_json_double(j, key, (double)ns / 1000.0, 1);
}

static void json_blocker(struct rt_json *j, const char *key, const struct rt_blocker *b,
			 int64_t total)
{
	char prio[24];

	rt_json_object_begin(j, key);
	rt_json_string(j, "kind", kind_name(b->kind));
	rt_json_int(j, "id", b->id);
	rt_json_string(j, "name", b->name);
	if (b->kind == RT_BLOCKER_TASK) {
		rt_spike_prio_label(b->prio, b->policy, prio, sizeof(prio));
		rt_json_string(j, "priority", prio);
	}
	json_us(j, "us", b->ns);
	rt_json_double(j, "share", total > 0 ? (double)b->ns / (double)total : 0.0, 3);
	rt_json_object_end(j);
}

void rt_spike_write_json(struct rt_json *j, const struct rt_spike_report *r, const char *file)
{
	rt_json_object_begin(j, "analysis");
	rt_json_int(j, "cpu", r->q.cpu);
	rt_json_int(j, "tid", r->q.tid);
	rt_json_int(j, "value", r->q.value);
	rt_json_int(j, "due_ns", r->q.due_ns);
	rt_json_int(j, "woke_ns", r->q.woke_ns);
	rt_json_object_begin(j, "decomposition");
	json_us(j, "irq_latency_us", r->irq_ns);
	json_us(j, "irq_to_wakeup_us", r->handler_ns);
	json_us(j, "sched_latency_us", r->sched_ns);
	json_us(j, "to_user_us", r->user_ns);
	rt_json_object_end(j);
	if (r->nblockers)
		json_blocker(j, "main_blocker", &r->blockers[0], spike_ns(r));
	else
		rt_json_null(j, "main_blocker");
	rt_json_array_begin(j, "blockers");
	for (size_t i = 0; i < r->nblockers; i++)
		json_blocker(j, NULL, &r->blockers[i], spike_ns(r));
	rt_json_array_end(j);
	rt_json_string(j, "trace_file", file);
	rt_json_object_end(j);
}
