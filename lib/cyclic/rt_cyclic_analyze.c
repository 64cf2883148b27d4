// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "rt_cyclic_analyze.h"

#include "rt_affinity.h"
#include "rt_cli.h"
#include "rt_prog.h"
#include "rt_spike.h"
#include "rt_spike_write.h"
#include "rt_time.h"
#include "rt_tracer.h"

#include "rt_cyclic_front.h"

/* Per CPU: at 1 kHz a loaded CPU writes well under 1 MB of these events a second. */
#define TRACE_BUFFER_KB 4096
/* --self-check keeps the whole run: up to CT_SELF_CHECK_MAX_LOOPS wakeups. */
#define SELF_CHECK_BUFFER_KB 16384
/* The saved window: from a little before the expected wakeup to after it. */
#define WINDOW_BEFORE_NS (20 * 1000 * 1000LL)
#define WINDOW_AFTER_NS (1 * 1000 * 1000LL)
/* How long an explanation waits for its CPU's events to be read. */
#define WAIT_MAX_NS (2 * 1000 * 1000 * 1000LL)
/* --self-check reads the whole run from before its first sample. */
#define SELF_CHECK_BEFORE_NS (200 * 1000 * 1000LL)

/*
 * The mono trace clock is CLOCK_MONOTONIC: no offset. For another clock,
 * the offset read between two mono reads, the closest of a few tries.
 */
static int64_t clock_offset_ns(clockid_t clock)
{
	struct timespec m1, other, m2;
	int64_t best = INT64_MAX, off = 0;

	if (clock == CLOCK_MONOTONIC)
		return 0;
	for (int i = 0; i < 16; i++) {
		clock_gettime(CLOCK_MONOTONIC, &m1);
		clock_gettime(clock, &other);
		clock_gettime(CLOCK_MONOTONIC, &m2);
		if (rt_time_diff_ns(&m2, &m1) < best) {
			best = rt_time_diff_ns(&m2, &m1);
			off = rt_time_to_ns(&m1) + best / 2 - rt_time_to_ns(&other);
		}
	}
	return off;
}

/* Steal time and SMIs of the traced CPUs; without them the evidence says less. */
static void open_outside(struct ct_analysis *a, const cpu_set_t *cpus)
{
	int list[CPU_SETSIZE];
	size_t n = 0;

	if (!a->active)
		return;
	for (int c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, cpus))
			list[n++] = c;
	if (rt_outside_open(&a->outside, list, n) == 0)
		rt_outside_sample(a->outside);
}

int cyclictest_analyze_open(struct ct_analysis *a, struct ct_run *run,
			    const struct cyclictest_config *cfg)
{
	char path[64];
	const char *why = "";
	cpu_set_t cpus;
	struct rt_cpulist allowed;
	int err;

	const char *opt = cfg->analyze ? "--analyze" : "--self-check";

	memset(a, 0, sizeof(*a));
	rt_spike_history_init(&a->hist);
	a->unit = cfg->nsecs ? "ns" : "us";
	a->active = cfg->analyze;
	/* --self-check reads the whole buffer at the end: nothing consumed before */
	a->consume = cfg->analyze && !cfg->self_check;
	rt_spike_read_rt_limits(&a->rt_runtime_us, &a->rt_period_us);
	a->tick_ns = rt_outside_tick_ns();
	if (!rt_tracer_built()) {
		rt_prog_error("%s: unavailable, this cyclictest was built without "
			      "libtracefs/libtraceevent", opt);
		return RT_EXIT_FAILURE;
	}
	/* before any file is created: "--analyze needs libtracefs.so.1: ..." */
	if (rt_tracer_load(&why)) {
		rt_prog_error("%s %s", opt, why);
		return RT_EXIT_FAILURE;
	}
	snprintf(path, sizeof(path), "%s-spike-%d.txt", cfg->front ? cfg->front->tool : "cyclictest",
		 (int)getpid());
	snprintf(a->path, sizeof(a->path), "%s", cfg->analyze_output ? cfg->analyze_output : path);
	if (cfg->analyze) {
		if (rt_cli_open_output(&a->out, "analyze-output", a->path))
			return RT_EXIT_FAILURE;
		a->out_open = true;
	}
	CPU_ZERO(&cpus);
	if (cfg->affinity) {
		for (size_t i = 0; i < cfg->affinity_cpus.count; i++)
			CPU_SET(cfg->affinity_cpus.cpu[i], &cpus);
	} else if (rt_affinity_allowed(&allowed) == 0) {
		for (size_t i = 0; i < allowed.count; i++)
			CPU_SET(allowed.cpu[i], &cpus);
	}
	if ((err = rt_tracer_open(&run->tracer, "cyclictest", &cpus,
				  cfg->self_check ? SELF_CHECK_BUFFER_KB : TRACE_BUFFER_KB,
				  cfg->self_check ? RT_TRACER_ARMING : 0, &why))) {
		rt_prog_error_errno(-err, "%s: %s", opt, why);
		return RT_EXIT_FAILURE;
	}
	run->trace_offset_ns = clock_offset_ns(cfg->clock);
	open_outside(a, &cpus);
	return 0;
}

/* A consistent copy of a thread's note (the thread may be writing it). */
static void read_note(struct ct_spike_note *n, struct ct_spike_note *copy)
{
	uint32_t s1, s2;

	do {
		s1 = atomic_load_explicit(&n->seq, memory_order_acquire);
		copy->value = n->value;
		copy->due_ns = n->due_ns;
		copy->woke_ns = n->woke_ns;
		copy->cpu = n->cpu;
		atomic_thread_fence(memory_order_acquire);
		s2 = atomic_load_explicit(&n->seq, memory_order_relaxed);
	} while ((s1 & 1) || s1 != s2);
}

static int cached_policy(const struct ct_analysis *a, int pid)
{
	unsigned n = a->npolicies < 64 ? a->npolicies : 64;

	for (unsigned i = 0; i < n; i++)
		if (a->policies[i].pid == pid)
			return a->policies[i].policy;
	return -1;
}

static void explain(struct ct_analysis *a, struct ct_run *run, const struct ct_thread *t,
		    const struct ct_spike_note *n)
{
	struct rt_spike_query q = {
		.cpu = n->cpu, .tid = (int)atomic_load(&t->ws.tid), .value = n->value,
		.due_ns = n->due_ns + run->trace_offset_ns,
		.woke_ns = n->woke_ns + run->trace_offset_ns,
		.rt_runtime_us = a->rt_runtime_us, .rt_period_us = a->rt_period_us,
		.tick_ns = a->tick_ns,
	};
	struct rt_spike_report *r = malloc(sizeof(*r));
	char *raw = NULL;
	size_t raw_len = 0;
	int64_t from;
	FILE *f;

	if (!r)
		return;
	rt_spike_analyze_history(&a->hist, &q, r);
	rt_spike_resolve_policies(r); /* now, while the blockers still run */
	rt_outside_fill(a->outside, q.cpu, q.due_ns, q.woke_ns, &r->outside);
	for (size_t i = 0; i < r->nblockers; i++)
		if (r->blockers[i].kind == RT_BLOCKER_TASK && r->blockers[i].policy < 0 &&
		    r->blockers[i].prio >= 0 && r->blockers[i].prio < 100)
			r->blockers[i].policy = cached_policy(a, r->blockers[i].id);
	f = open_memstream(&raw, &raw_len);
	if (!f) {
		free(r);
		return;
	}
	/* from before the stretch without events the report names, where it began earlier */
	from = q.due_ns - WINDOW_BEFORE_NS;
	if (r->quiet_from_ns >= 0 && r->quiet_from_ns - WINDOW_AFTER_NS < from)
		from = r->quiet_from_ns - WINDOW_AFTER_NS;
	rt_spike_write_events(f, a->hist.ev, a->hist.n, from, q.woke_ns + WINDOW_AFTER_NS);
	fclose(f);
	free(run->spike);
	free(a->raw);
	run->spike = r;
	a->raw = raw;
	a->raw_len = raw_len;
}

/*
 * The policy of each RT task switched in or woken (not ours), and of each
 * task that execs (chrt sets the policy, then execs the command on
 * another CPU, whose events may come later), asked at once: a blocker
 * often exits (killed) before its spike is explained.
 */
static void note_policies(struct ct_analysis *a, struct ct_run *run, const struct rt_ev *ev,
			  size_t n)
{
	for (size_t i = 0; i < n; i++) {
		int pid = ev[i].pid, policy;
		bool ours = false;
		/* switched in or woken at an RT priority, or exec'd (chrt ... exec) */
		bool rt = (ev[i].type == RT_EV_SWITCH || ev[i].type == RT_EV_WAKEUP) &&
			  ev[i].prio >= 0 && ev[i].prio < 100;

		if (pid <= 0 || (!rt && ev[i].type != RT_EV_EXEC))
			continue;
		for (int k = 0; k < run->nthreads && !ours; k++)
			ours = pid == (int)atomic_load(&run->threads[k].ws.tid);
		if (ours || cached_policy(a, pid) >= 0)
			continue;
		policy = sched_getscheduler(pid);
		if (policy == SCHED_FIFO || policy == SCHED_RR) {
			a->policies[a->npolicies % 64].pid = pid;
			a->policies[a->npolicies % 64].policy = policy & ~SCHED_RESET_ON_FORK;
			a->npolicies++;
		}
	}
}

/* What the trace recorded since the last call, into the history. */
static void consume(struct ct_analysis *a, struct ct_run *run)
{
	struct rt_ev *ev = NULL;
	size_t n = 0;

	if (rt_tracer_consume(run->tracer, &ev, &n) == 0)
		note_policies(a, run, ev, n);
	if (a->outside)
		rt_outside_sample(a->outside);
	if (n && rt_spike_history_add(&a->hist, ev, n) < 0) {
		/* out of memory: start again from here */
		rt_spike_history_free(&a->hist);
	}
	free(ev);
}

/*
 * The trace gives a CPU's events a page at a time while it records: the
 * spike's are all read once an event of its CPU after the wakeup is (or
 * after WAIT_MAX_NS, when the CPU logs nothing more).
 */
static bool read_past(const struct ct_analysis *a, const struct ct_run *run,
		      const struct ct_spike_note *n)
{
	int64_t woke = n->woke_ns + run->trace_offset_ns;
	struct timespec now;

	for (size_t i = a->hist.n; i-- > 0;) {
		if (a->hist.ev[i].ts_ns <= woke)
			break;
		if (a->hist.ev[i].cpu == n->cpu)
			return true;
	}
	clock_gettime(CLOCK_MONOTONIC, &now);
	return rt_time_to_ns(&now) > woke + WAIT_MAX_NS;
}

void cyclictest_analyze_poll(struct ct_analysis *a, struct ct_run *run)
{
	if (!run->tracer || !a->active)
		return;
	if (a->consume)
		consume(a, run);
	else if (!a->finishing)
		return; /* the events come at the end (--self-check) */
	for (int i = 0; i < run->nthreads; i++) {
		struct ct_thread *t = &run->threads[i];
		struct ct_spike_note n;

		if (!atomic_exchange_explicit(&t->note.pending, false, memory_order_acquire))
			continue;
		read_note(&t->note, &n);
		if ((!run->spike || n.value > run->spike->q.value) &&
		    (!a->waiting || n.value > a->wait_note.value)) {
			a->wait_note.value = n.value;
			a->wait_note.due_ns = n.due_ns;
			a->wait_note.woke_ns = n.woke_ns;
			a->wait_note.cpu = n.cpu;
			a->wait_thread = t;
			a->waiting = true;
		}
	}
	if (a->waiting && (a->finishing || read_past(a, run, &a->wait_note))) {
		explain(a, run, a->wait_thread, &a->wait_note);
		a->waiting = false;
	}
	if (!a->waiting)
		rt_spike_history_trim(&a->hist); /* what the notes needed is explained */
}

int cyclictest_analyze_finish(struct ct_analysis *a, struct ct_run *run)
{
	int err = 0;

	if (!run->tracer)
		return 0;
	a->finishing = true;
	if (a->consume)
		rt_tracer_stop(run->tracer); /* so the last pages can be read */
	cyclictest_analyze_poll(a, run);
	if (!run->spike || !a->out_open)
		return 0;
	if (fwrite(a->raw, 1, a->raw_len, a->out.f) != a->raw_len)
		err = -EIO;
	err = err ? err : rt_output_commit(&a->out);
	if (err)
		rt_output_abort(&a->out);
	a->out_open = false;
	a->saved = !err;
	return err;
}

void cyclictest_analyze_print(const struct ct_analysis *a, const struct ct_run *run, FILE *out)
{
	if (a->self_checked)
		rt_selfcheck_write_text(out, &a->result, run->threads[0].cpu);
	if (!run->tracer || !a->active)
		return;
	if (!run->spike)
		fprintf(out, "# Spike: none above the --analyze threshold\n");
	else
		rt_spike_write_text(out, run->spike, a->unit, a->saved ? a->path : NULL);
}

void cyclictest_analyze_json(const struct ct_analysis *a, const struct ct_run *run,
			     struct rt_json *j)
{
	if (a->self_checked)
		rt_selfcheck_write_json(j, &a->result, run->threads[0].cpu);
	if (!run->tracer || !a->active)
		return;
	if (run->spike)
		rt_spike_write_json(j, run->spike, a->saved ? a->path : NULL);
	else
		rt_json_null(j, "analysis");
}

int cyclictest_self_check_filter(struct ct_run *run)
{
	int err = rt_tracer_filter_pid(run->tracer, (int)atomic_load(&run->threads[0].ws.tid));

	if (err)
		rt_prog_error_errno(-err, "--self-check: cannot filter the trace");
	/* What came before the filter is of no use. */
	return err ? RT_EXIT_FAILURE : rt_tracer_restart(run->tracer) ? RT_EXIT_FAILURE : 0;
}

int cyclictest_self_check(struct ct_analysis *a, struct ct_run *run)
{
	struct ct_thread *t = &run->threads[0];
	struct rt_selfcheck_sample *s;
	struct rt_ring_sample rs;
	struct rt_ev *ev = NULL;
	size_t n = 0, ns = 0;
	int err;

	s = calloc((size_t)t->ws.stats.stats.count + 1, sizeof(*s));
	if (!s)
		return RT_EXIT_FAILURE;
	while (ns <= t->ws.stats.stats.count && rt_ring_pop(&t->ws.ring, &rs))
		s[ns++] = (struct rt_selfcheck_sample){ (int64_t)rs.cycle + run->trace_offset_ns,
						       rs.value + run->trace_offset_ns };
	rt_tracer_stop(run->tracer);
	err = ns ? rt_tracer_read(run->tracer, s[0].due_ns - SELF_CHECK_BEFORE_NS,
				  s[ns - 1].woke_ns + WINDOW_AFTER_NS, &ev, &n) : 0;
	if (!err)
		err = rt_selfcheck_compare(ev, n, (int)atomic_load(&t->ws.tid), s, ns, &a->result);
	/* --analyze too: its spikes are explained from the same events */
	if (!err && a->active && rt_spike_history_add(&a->hist, ev, n) < 0)
		rt_spike_history_free(&a->hist);
	free(ev);
	free(s);
	if (err) {
		rt_prog_error_errno(-err, "--self-check: cannot read the trace");
		return RT_EXIT_FAILURE;
	}
	a->self_checked = true;
	switch (rt_selfcheck_verdict(&a->result)) {
	case RT_SELFCHECK_PASS:
		return 0;
	case RT_SELFCHECK_FAIL:
		return RT_EXIT_FAIL; /* it ran and the measurement disagrees */
	default:
		return RT_EXIT_FAILURE; /* it could not be checked */
	}
}

void cyclictest_analyze_close(struct ct_analysis *a, struct ct_run *run)
{
	if (a->out_open)
		rt_output_abort(&a->out);
	a->out_open = false;
	rt_tracer_close(run->tracer);
	run->tracer = NULL;
	free(run->spike);
	run->spike = NULL;
	free(a->raw);
	a->raw = NULL;
	rt_spike_history_free(&a->hist);
	rt_outside_close(a->outside);
	a->outside = NULL;
}
