// SPDX-License-Identifier: GPL-2.0-or-later
/* rt_spike's report as text and JSON: one shape for every tool that analyses. */
#include <inttypes.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include "rt_spike.h"
#include "rt_spike_write.h"

static int64_t spike_ns(const struct rt_spike_report *r)
{
	return r->q.woke_ns - r->q.due_ns;
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

const char *rt_spike_kind_name(enum rt_blocker_kind k)
{
	switch (k) {
	case RT_BLOCKER_TASK: return "task";
	case RT_BLOCKER_IRQ: return "irq";
	case RT_BLOCKER_SOFTIRQ: return "softirq";
	case RT_BLOCKER_THROTTLE: return "rt_throttling";
	case RT_BLOCKER_IDLE_EXIT: return "idle_exit";
	case RT_BLOCKER_NO_IRQ: return "no_interrupt";
	default: return "none";
	}
}

static const char *hold_name(enum rt_hold h)
{
	return h == RT_HOLD_PRIORITY ? "priority" : h == RT_HOLD_KERNEL ? "in_kernel" : "unknown";
}

/*
 * "task blocker (pid 4711, FIFO 99)", "task make (pid 555, OTHER nice 0)
 * in a non-preemptible kernel section", "irq 12 (virtio0)", "softirq 1
 * (TIMER)", "RT throttling (sched_rt_runtime_us 950000 of 1000000)",
 * "exit from idle (state C1)", "no interrupt".
 */
static void describe(const struct rt_spike_report *r, const struct rt_blocker *b, char *buf,
		     size_t len)
{
	const char *in_kernel = b->hold == RT_HOLD_KERNEL ? " in a non-preemptible kernel section" : "";
	char prio[24];

	if (b->kind == RT_BLOCKER_TASK && b->prio < 0) {
		snprintf(buf, len, "task %s (pid %d)%s", b->name[0] ? b->name : "?", b->id, in_kernel);
	} else if (b->kind == RT_BLOCKER_TASK) {
		rt_spike_prio_label(b->prio, b->policy, prio, sizeof(prio));
		snprintf(buf, len, "task %s (pid %d, %s)%s", b->name[0] ? b->name : "?", b->id, prio,
			 in_kernel);
	} else if (b->kind == RT_BLOCKER_THROTTLE) {
		snprintf(buf, len, "RT throttling (sched_rt_runtime_us %" PRId64 " of %" PRId64 ")",
			 r->q.rt_runtime_us, r->q.rt_period_us);
	} else if (b->kind == RT_BLOCKER_IDLE_EXIT && b->name[0]) {
		snprintf(buf, len, "exit from idle (state %s)", b->name);
	} else if (b->kind == RT_BLOCKER_IDLE_EXIT && b->id >= 0) {
		snprintf(buf, len, "exit from idle (state %d)", b->id);
	} else if (b->kind == RT_BLOCKER_IDLE_EXIT) {
		snprintf(buf, len, "exit from idle");
	} else if (b->kind == RT_BLOCKER_NO_IRQ) {
		snprintf(buf, len, "no interrupt");
	} else if (b->kind == RT_BLOCKER_IRQ && b->id < 0) {
		snprintf(buf, len, "irq %s", b->name);
	} else {
		snprintf(buf, len, "%s %d (%s)", rt_spike_kind_name(b->kind), b->id, b->name);
	}
}

void rt_spike_write_us(FILE *f, const char *label, int64_t ns)
{
	if (ns < 0)
		fprintf(f, "%s -", label);
	else
		fprintf(f, "%s %" PRId64 ".%" PRId64 " us", label, ns / 1000, ns % 1000 / 100);
}

/* An outside cause can be seen (or only guessed). */
static bool outside_seen(const struct rt_outside *o)
{
	return o->hypervisor == 1 || o->steal_ns > 0 || o->smi > 0;
}

void rt_spike_write_outside(FILE *f, const struct rt_outside *o, int cpu)
{
	const char *sep = "";

	if (!outside_seen(o)) {
		fputs("not visible from inside", f);
		return;
	}
	fputs("seen: ", f);
	if (o->hypervisor == 1) {
		if (o->hypervisor_name[0])
			fprintf(f, "a hypervisor (%s)", o->hypervisor_name);
		else
			fputs("a hypervisor", f);
		sep = ", ";
	}
	if (o->steal_ns > 0) {
		fprintf(f, "%ssteal time %" PRId64 " us on CPU %d within %" PRId64 " ms", sep,
			o->steal_ns / 1000, cpu, o->window_ns / 1000000);
		sep = ", ";
	} else if (o->steal_ns == 0 && o->hypervisor == 1) {
		fprintf(f, "%sno steal time counted", sep);
		sep = ", ";
	}
	/* SMIs alone (bare metal): no separator before them */
	if (o->smi > 0)
		fprintf(f, "%s%" PRId64 " SMI%s within %" PRId64 " ms", sep, o->smi,
			o->smi > 1 ? "s" : "", o->window_ns / 1000000);
}

/* What held at least half of it. */
static void headline(FILE *f, const struct rt_spike_report *r)
{
	const struct rt_blocker *b = &r->blockers[0];
	int64_t total = spike_ns(r), pct = total > 0 ? b->ns * 100 / total : 0;
	char what[112];

	if (b->kind == RT_BLOCKER_NO_IRQ) {
		fprintf(f, "no interrupt reached CPU %d for %" PRId64 " us (ticks missed: ", r->q.cpu,
			(r->quiet_ns >= 0 ? r->quiet_ns : b->ns) / 1000);
		if (r->ticks_missed >= 0)
			fprintf(f, "%" PRId64 "): ", r->ticks_missed);
		else
			fputs("unknown): ", f);
		fputs("interrupts were off in the kernel, or the CPU was not running this kernel "
		      "(SMI, hypervisor); ", f);
		rt_spike_write_outside(f, &r->outside, r->q.cpu);
		fprintf(f, "; %" PRId64 " us (%" PRId64 "%%) of it\n", b->ns / 1000, pct);
		return;
	}
	describe(r, b, what, sizeof(what));
	if (b->kind == RT_BLOCKER_IDLE_EXIT) {
		fprintf(f, "%s took %" PRId64 " us (%" PRId64 "%%); ", what, b->ns / 1000, pct);
		rt_spike_write_outside(f, &r->outside, r->q.cpu);
		fputc('\n', f);
		return;
	}
	fprintf(f, "blocked by %s for %" PRId64 " us (%" PRId64 "%%)\n", what, b->ns / 1000, pct);
}

void rt_spike_write_headline(FILE *f, const struct rt_spike_report *r)
{
	if (r->explained)
		headline(f, r);
	else
		fprintf(f, "not explained: %s\n", r->reason ? r->reason : "no blocker in the trace");
}

void rt_spike_write_text(FILE *f, const struct rt_spike_report *r, const char *unit,
			 const char *file)
{
	char what[112];

	fprintf(f, "# Spike: %" PRId64 " %s on CPU %d, ", r->q.value, unit, r->q.cpu);
	rt_spike_write_headline(f, r);
	if (!r->q.polling) {
		rt_spike_write_us(f, "# Spike: expected wakeup -> IRQ entry", r->irq_ns);
		rt_spike_write_us(f, ", IRQ entry -> wakeup", r->handler_ns);
		rt_spike_write_us(f, ", wakeup -> switch-in", r->sched_ns);
		rt_spike_write_us(f, ", switch-in -> user space", r->user_ns);
		fputc('\n', f);
	}
	for (size_t i = 0; i < r->nblockers; i++) {
		describe(r, &r->blockers[i], what, sizeof(what));
		fprintf(f, "# Spike:   %s: %" PRId64 ".%" PRId64 " us\n", what, r->blockers[i].ns / 1000,
			r->blockers[i].ns % 1000 / 100);
	}
	if (r->untraced_ns > 0)
		fprintf(f, "# Spike:   not in the trace%s: %" PRId64 ".%" PRId64 " us\n",
			r->events_lost ? " (events lost)" : "", r->untraced_ns / 1000,
			r->untraced_ns % 1000 / 100);
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

static void json_count(struct rt_json *j, const char *key, int64_t v)
{
	if (v < 0)
		rt_json_null(j, key);
	else
		rt_json_int(j, key, v);
}

static void json_blocker(struct rt_json *j, const char *key, const struct rt_spike_report *r,
			 const struct rt_blocker *b)
{
	int64_t total = spike_ns(r);
	char prio[24];

	rt_json_object_begin(j, key);
	rt_json_string(j, "kind", rt_spike_kind_name(b->kind));
	rt_json_int(j, "id", b->id);
	rt_json_string(j, "name", b->kind == RT_BLOCKER_IDLE_EXIT && !b->name[0] ? "idle" : b->name);
	if (b->kind == RT_BLOCKER_TASK && b->prio < 0) {
		rt_json_null(j, "priority");
	} else if (b->kind == RT_BLOCKER_TASK) {
		rt_spike_prio_label(b->prio, b->policy, prio, sizeof(prio));
		rt_json_string(j, "priority", prio);
	}
	if (b->kind == RT_BLOCKER_TASK)
		rt_json_string(j, "hold", hold_name(b->hold));
	if (b->kind == RT_BLOCKER_NO_IRQ) {
		json_us(j, "quiet_us", r->quiet_ns);
		json_count(j, "quiet_from_ns", r->quiet_from_ns);
		json_count(j, "ticks_missed", r->ticks_missed);
	}
	if (b->kind == RT_BLOCKER_NO_IRQ || b->kind == RT_BLOCKER_IDLE_EXIT) {
		json_us(j, "steal_us", r->outside.steal_ns);
		json_count(j, "smi", r->outside.smi);
	}
	json_us(j, "us", b->ns);
	rt_json_double(j, "share", total > 0 ? (double)b->ns / (double)total : 0.0, 3);
	rt_json_object_end(j);
}

static void json_outside(struct rt_json *j, const struct rt_outside *o)
{
	rt_json_object_begin(j, "outside");
	if (o->hypervisor < 0)
		rt_json_null(j, "hypervisor");
	else
		rt_json_bool(j, "hypervisor", o->hypervisor == 1);
	rt_json_string(j, "hypervisor_name", o->hypervisor_name[0] ? o->hypervisor_name : NULL);
	json_us(j, "steal_us", o->steal_ns);
	json_count(j, "smi", o->smi);
	json_us(j, "window_us", o->window_ns);
	rt_json_bool(j, "seen", outside_seen(o));
	rt_json_object_end(j);
}

/* The headline as one string (null when nothing is named). */
static void json_headline(struct rt_json *j, const struct rt_spike_report *r)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	if (!r->explained || !(f = open_memstream(&buf, &len))) {
		rt_json_null(j, "headline");
		return;
	}
	rt_spike_write_headline(f, r);
	fclose(f);
	if (len && buf[len - 1] == '\n')
		buf[len - 1] = '\0';
	rt_json_string(j, "headline", buf);
	free(buf);
}

void rt_spike_write_json_body(struct rt_json *j, const struct rt_spike_report *r,
			      const char *file)
{
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
	json_count(j, "irq_entry_ns", r->irq_entry_ns);
	rt_json_bool(j, "explained", r->explained);
	if (r->reason)
		rt_json_string(j, "reason", r->reason);
	else
		rt_json_null(j, "reason");
	json_headline(j, r);
	if (r->explained)
		json_blocker(j, "main_blocker", r, &r->blockers[0]);
	else
		rt_json_null(j, "main_blocker");
	rt_json_array_begin(j, "blockers");
	for (size_t i = 0; i < r->nblockers; i++)
		json_blocker(j, NULL, r, &r->blockers[i]);
	rt_json_array_end(j);
	json_us(j, "untraced_us", r->untraced_ns);
	json_us(j, "unblamed_us", r->unblamed_ns);
	rt_json_bool(j, "events_lost", r->events_lost);
	rt_json_int(j, "unlogged_switches", r->gaps);
	json_outside(j, &r->outside);
	json_count(j, "rt_runtime_us", r->q.rt_runtime_us);
	json_count(j, "rt_period_us", r->q.rt_period_us);
	rt_json_string(j, "trace_file", file);
}

void rt_spike_write_json(struct rt_json *j, const struct rt_spike_report *r, const char *file)
{
	rt_json_object_begin(j, "analysis");
	rt_spike_write_json_body(j, r, file);
	rt_json_object_end(j);
}
