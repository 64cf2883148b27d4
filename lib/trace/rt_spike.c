// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt_spike.h"

/* A priority the trace does not show (-1 is SCHED_DEADLINE's). */
#define PRIO_UNKNOWN INT_MIN

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
	*b = (struct rt_blocker){ .kind = kind, .id = id, .prio = prio, .policy = -1, .ns = ns };
	snprintf(b->name, sizeof(b->name), "%s", name);
}

static int by_time_desc(const void *a, const void *b)
{
	int64_t x = ((const struct rt_blocker *)a)->ns, y = ((const struct rt_blocker *)b)->ns;

	return (x < y) - (x > y);
}
/* Who held the CPU while the thread waited: tasks, hard IRQs and softirqs. */
struct cpu_state {
	int pid, prio;             /* -1: unknown */
	int64_t chosen_ns;         /* when a switch put it there; -1: unknown */
	bool throttled;            /* an RT task left runnable for a non-RT one: RT held back */
	int irq_depth, irq;        /* innermost hard IRQ */
	char irq_name[RT_SPIKE_NAME];
	int softirq_depth, vec;
	char vec_name[RT_SPIKE_NAME];
	int idle_state;            /* cpu_idle's state while idle, -1 unknown */
	int64_t last_ev_ns;        /* the CPU's last event, -1 none */
};

/* What the accounting needs to know about the thread. */
struct waiter {
	int prio;                  /* its kernel prio (-1 deadline), PRIO_UNKNOWN */
	int64_t runnable_ns;       /* its wakeup */
	bool elsewhere;            /* woken onto another CPU's run queue */
	/*
	 * The timer's IRQ entry (or the wakeup where the trace shows no
	 * entry): time before it is no task's. INT64_MIN: no such phase.
	 */
	int64_t irq_at;
};

/*
 * A task of lower priority than the runnable thread, put on the CPU after
 * the thread became runnable: the scheduler held the RT class back.
 */
static bool throttled(const struct rt_spike_report *r, const struct cpu_state *s,
		      const struct waiter *w)
{
	return r->q.rt_runtime_us >= 0 && !w->elsewhere && w->prio >= 0 && w->prio < 100 &&
	       s->prio > w->prio &&
	       (s->throttled ||
		(s->chosen_ns >= 0 && s->chosen_ns >= w->runnable_ns - CLOCK_SLACK_NS));
}

/* Time no interrupt reached the CPU; the longest stretch without its events is kept. */
static void no_interrupt(struct rt_spike_report *r, const struct cpu_state *s, int64_t t,
			 int64_t ns)
{
	int64_t from = s->last_ev_ns >= 0 && s->last_ev_ns <= t ? s->last_ev_ns : t;

	add_blocker(r, RT_BLOCKER_NO_IRQ, -1, 0, "no interrupt", ns);
	if (t + ns - from > r->quiet_ns) {
		r->quiet_ns = t + ns - from;
		r->quiet_from_ns = from;
	}
}

/*
 * The time ns from t on the CPU, by phase: before the timer's IRQ entry
 * it is interrupt work, an idle exit or no interrupt at all, never a
 * task's; after it, what held the CPU against the thread.
 */
static void account(struct rt_spike_report *r, const struct cpu_state *s,
		    const struct waiter *w, int64_t t, int64_t ns)
{
	bool mine = s->pid == r->q.tid;

	if (ns <= 0)
		return;
	if (s->irq_depth > 0) {
		add_blocker(r, RT_BLOCKER_IRQ, s->irq, 0, s->irq_name, ns);
		r->irq_total_ns += ns;
	} else if (s->softirq_depth > 0) {
		add_blocker(r, RT_BLOCKER_SOFTIRQ, s->vec, 0, s->vec_name, ns);
		r->softirq_total_ns += ns;
	} else if (s->pid < 0) {
		r->untraced_ns += ns;
	} else if (mine && ns < RT_SPIKE_HOLD_SLACK_NS) {
		r->unblamed_ns += ns; /* the way back to its loop after a handler or switch */
	} else if (t < w->irq_at || mine) {
		/* on the CPU, it would have run (or logged) unless nothing ran at all */
		if (s->pid == 0)
			add_blocker(r, RT_BLOCKER_IDLE_EXIT, s->idle_state, 0, "", ns);
		else
			no_interrupt(r, s, t, ns);
	} else if (w->elsewhere) {
		r->unblamed_ns += ns; /* it waited on another CPU's queue */
	} else if (throttled(r, s, w)) {
		add_blocker(r, RT_BLOCKER_THROTTLE, -1, 0, "RT throttling", ns);
	} else if (s->pid == 0) {
		add_blocker(r, RT_BLOCKER_IDLE_EXIT, s->idle_state, 0, "", ns);
	} else {
		add_blocker(r, RT_BLOCKER_TASK, s->pid, s->prio, "", ns);
	}
}

static void forget(struct cpu_state *s)
{
	*s = (struct cpu_state){ .pid = -1, .prio = -1, .chosen_ns = -1, .idle_state = -1,
				 .last_ev_ns = s->last_ev_ns };
}

static void step(struct cpu_state *s, const struct rt_ev *e)
{
	switch (e->type) {
	case RT_EV_SWITCH:
		if (e->prio < 100)
			s->throttled = false;
		else if (e->prev_prio >= 0 && e->prev_prio < 100 && e->prev_runnable)
			s->throttled = true;
		s->pid = e->pid;
		s->prio = e->prio;
		s->chosen_ns = e->ts_ns;
		if (e->pid != 0)
			s->idle_state = -1;
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
	case RT_EV_LOST:
		forget(s);
		break;
	case RT_EV_IDLE:
		if (e->irq >= 0)
			s->idle_state = e->irq;
		break;
	default:
		break;
	}
}

/*
 * The task current when e was logged differs from the last switch: the
 * kernel logged no switch (or it was lost). The event is right.
 */
static void correct(struct rt_spike_report *r, struct cpu_state *s, const struct rt_ev *e)
{
	int cur = e->type == RT_EV_SWITCH ? e->prev_pid : e->cur_pid;

	if (e->type == RT_EV_LOST || (e->type != RT_EV_SWITCH && !e->cur_known))
		return;
	if (s->irq_depth > 0 || s->softirq_depth > 0 || cur < 0 || cur == s->pid)
		return;
	if (s->pid >= 0 && r)
		r->gaps++;
	s->pid = cur;
	s->prio = e->type == RT_EV_SWITCH ? e->prev_prio : -1;
	s->chosen_ns = -1;
}

static const struct rt_spike_cpu *start_of(const struct rt_spike_history *h, int cpu)
{
	for (size_t i = 0; i < h->nstart; i++)
		if (h->start[i].cpu == cpu)
			return &h->start[i];
	return NULL;
}

/* The thread's priority an event shows, PRIO_UNKNOWN when it shows none. */
static int prio_in(const struct rt_ev *e, int tid)
{
	if ((e->type == RT_EV_SWITCH || e->type == RT_EV_WAKEUP) && e->pid == tid)
		return e->prio;
	if (e->type == RT_EV_SWITCH && e->prev_pid == tid)
		return e->prev_prio;
	return PRIO_UNKNOWN;
}

/*
 * The thread's priority (its wakeup's, else the latest switch's up to its
 * timestamp, else the first after: a thread may change its policy as it
 * ends): -1 is SCHED_DEADLINE's, PRIO_UNKNOWN when the trace does not show it.
 */
static int waiter_prio(const struct rt_spike_history *h, const struct rt_spike_query *q, size_t w)
{
	size_t i = h->n;

	if (w < h->n && h->ev[w].prio >= -1)
		return h->ev[w].prio;
	while (i > 0 && h->ev[i - 1].ts_ns > q->woke_ns)
		i--;
	for (size_t k = i; k-- > 0;)
		if (prio_in(&h->ev[k], q->tid) != PRIO_UNKNOWN)
			return prio_in(&h->ev[k], q->tid);
	for (size_t k = i; k < h->n; k++)
		if (prio_in(&h->ev[k], q->tid) != PRIO_UNKNOWN)
			return prio_in(&h->ev[k], q->tid);
	return PRIO_UNKNOWN;
}

static void account_window(const struct rt_spike_history *h, struct rt_spike_report *r,
			   const struct waiter *w, int64_t end)
{
	const struct rt_spike_query *q = &r->q;
	const struct rt_spike_cpu *st = start_of(h, q->cpu);
	const struct rt_ev *ev = h->ev;
	struct cpu_state s = { .last_ev_ns = -1 };
	int64_t t = q->due_ns;
	size_t i, n = h->n;

	forget(&s);
	if (st) {
		s.pid = st->pid;
		s.prio = st->prio;
	}
	/* The state at due: replay what came before. */
	for (i = 0; i < n && ev[i].ts_ns <= q->due_ns; i++)
		if (on(&ev[i], q->cpu)) {
			correct(NULL, &s, &ev[i]);
			step(&s, &ev[i]);
			s.last_ev_ns = ev[i].ts_ns;
		}
	for (; i < n && ev[i].ts_ns < end; i++) {
		if (!on(&ev[i], q->cpu))
			continue;
		if (ev[i].type == RT_EV_LOST) {
			r->untraced_ns += ev[i].ts_ns - t;
			r->events_lost = true;
		} else {
			correct(r, &s, &ev[i]);
			account(r, &s, w, t, ev[i].ts_ns - t);
		}
		t = ev[i].ts_ns;
		step(&s, &ev[i]);
		s.last_ev_ns = t;
	}
	/* The next event of the CPU (the switch-in) says who ran up to end. */
	while (i < n && !on(&ev[i], q->cpu))
		i++;
	if (i < n)
		correct(r, &s, &ev[i]);
	account(r, &s, w, t, end - t);
}

/* The latest name and priority the trace shows for the task b. */
static void name_task(const struct rt_spike_history *h, struct rt_blocker *b)
{
	bool named = false, prio = false;

	for (size_t i = h->n; i-- > 0 && !(named && prio);) {
		const struct rt_ev *e = &h->ev[i];
		const char *comm = NULL;
		int p = -1;

		if (e->type == RT_EV_SWITCH && e->prev_pid == b->id) {
			comm = e->prev_comm;
			p = e->prev_prio;
		} else if ((e->type == RT_EV_SWITCH || e->type == RT_EV_WAKEUP) && e->pid == b->id) {
			comm = e->comm;
			p = e->prio;
		} else if (e->type == RT_EV_EXEC && e->pid == b->id) {
			comm = e->comm;
		}
		if (comm && comm[0] && !named) {
			snprintf(b->name, sizeof(b->name), "%s", comm);
			named = true;
		}
		if (p >= 0 && !prio) {
			b->prio = p;
			prio = true;
		}
	}
	for (size_t i = 0; i < h->nstart; i++) {
		const struct rt_spike_cpu *st = &h->start[i];

		if (st->pid != b->id)
			continue;
		if (!named && st->comm[0]) {
			snprintf(b->name, sizeof(b->name), "%s", st->comm);
			named = true;
		}
		if (!prio && st->prio >= 0) {
			b->prio = st->prio;
			prio = true;
		}
	}
	if (!prio)
		b->prio = -1;
}

static int64_t spike_ns(const struct rt_spike_report *r)
{
	return r->q.woke_ns - r->q.due_ns;
}

/* A headline only for what held at least half of the spike. */
static void judge(struct rt_spike_report *r)
{
	int64_t total = spike_ns(r);

	r->explained = r->nblockers && total > 0 && r->blockers[0].ns * 2 >= total;
	if (r->explained)
		r->reason = NULL;
	else if (r->events_lost)
		r->reason = "the trace lost events of this CPU (its buffer overran)";
	else if (r->untraced_ns * 2 >= total)
		r->reason = "the trace does not cover the time the thread waited";
	else if ((!r->found_switch && !r->nblockers) ||
		 (!r->found_wakeup && !r->q.polling && r->unblamed_ns * 2 >= total))
		r->reason = "the trace holds no event of the thread's wakeup";
	else
		r->reason = "nothing held the CPU for half of it";
}

static bool events_on(const struct rt_spike_history *h, const struct rt_spike_query *q)
{
	for (size_t i = 0; i < h->n; i++)
		if (h->ev[i].cpu == q->cpu && h->ev[i].ts_ns >= q->due_ns &&
		    h->ev[i].ts_ns <= q->woke_ns)
			return true;
	return false;
}

/*
 * Without the thread's wakeup in the trace: the first timer interrupt or
 * hrtimer expiry on its CPU after due ran its timer (every expired timer
 * runs then). INT64_MIN when the trace shows none before end.
 */
static int64_t first_timer_event(const struct rt_spike_history *h, const struct rt_spike_query *q,
				 int64_t end)
{
	for (size_t i = 0; i < h->n && h->ev[i].ts_ns < end; i++) {
		const struct rt_ev *e = &h->ev[i];

		if (on(e, q->cpu) && e->ts_ns >= q->due_ns - CLOCK_SLACK_NS &&
		    (e->type == RT_EV_TIMER_IRQ_ENTRY || e->type == RT_EV_HRTIMER_ENTRY))
			return e->ts_ns;
	}
	return INT64_MIN;
}

/*
 * A task after the wakeup holds the CPU by priority, or, lower, by staying
 * on after the interrupt returned (a non-preemptible kernel section); a
 * lower one for less than the slack is the way back to the switch.
 */
static void judge_holds(struct rt_spike_report *r, int waiter_prio)
{
	/* without its wakeup, when the thread became runnable is not known */
	bool runnable_known = r->q.polling || r->found_wakeup;

	size_t k = 0;

	for (size_t i = 0; i < r->nblockers; i++) {
		struct rt_blocker *b = &r->blockers[i];

		if (b->kind == RT_BLOCKER_TASK) {
			if (b->prio < 0 || waiter_prio == PRIO_UNKNOWN)
				b->hold = RT_HOLD_UNKNOWN;
			else if (b->prio <= waiter_prio)
				b->hold = RT_HOLD_PRIORITY;
			else
				b->hold = RT_HOLD_KERNEL;
			if (b->hold == RT_HOLD_KERNEL &&
			    (b->ns < RT_SPIKE_HOLD_SLACK_NS || !runnable_known)) {
				r->unblamed_ns += b->ns;
				continue;
			}
		}
		r->blockers[k++] = *b;
	}
	r->nblockers = k;
}

/* The decomposition from the thread's wakeup and switch-in (not when it polls). */
static void decompose(const struct rt_spike_history *h, struct rt_spike_report *r,
		      struct waiter *wt, int64_t *end)
{
	const struct rt_ev *ev = h->ev;
	const struct rt_spike_query *q = &r->q;
	size_t n = h->n, w, sw, irq;

	w = find_wakeup(ev, n, q);
	sw = find_switch_in(ev, n, w < n ? w : 0, q);
	r->found_wakeup = w < n;
	r->found_switch = sw < n;
	if (w < n) {
		irq = find_irq_entry(ev, w, q);
		wt->irq_at = ev[irq].ts_ns;
		if (irq < w) {
			r->irq_ns = ev[irq].ts_ns > q->due_ns ? ev[irq].ts_ns - q->due_ns : 0;
			r->handler_ns = ev[w].ts_ns - ev[irq].ts_ns;
			r->irq_entry_ns = ev[irq].ts_ns;
		}
	}
	if (sw < n) {
		/* up to its own timestamp: a thread on the CPU that does not run is a cause too */
		if (ev[sw].ts_ns > *end)
			*end = ev[sw].ts_ns;
		if (w < n)
			r->sched_ns = ev[sw].ts_ns - ev[w].ts_ns;
		r->user_ns = q->woke_ns > ev[sw].ts_ns ? q->woke_ns - ev[sw].ts_ns : 0;
	}
	if (w == n)
		wt->irq_at = first_timer_event(h, q, *end);
	/* Without its wakeup in the trace: the timer fires at due. */
	wt->runnable_ns = w < n ? ev[w].ts_ns : q->due_ns;
	wt->prio = waiter_prio(h, q, w);
	/* Waiting on another CPU's queue, this one's tasks do not hold it. */
	wt->elsewhere = w < n && ev[w].has_target && ev[w].target_cpu != q->cpu;
}

void rt_spike_analyze_history(const struct rt_spike_history *h, const struct rt_spike_query *q,
			      struct rt_spike_report *r)
{
	int64_t end = q->woke_ns;
	struct waiter wt = { .irq_at = INT64_MIN, .runnable_ns = q->due_ns };

	memset(r, 0, sizeof(*r));
	r->q = *q;
	r->irq_ns = r->handler_ns = r->sched_ns = r->user_ns = -1;
	r->irq_entry_ns = r->quiet_ns = r->quiet_from_ns = r->ticks_missed = -1;
	rt_outside_init(&r->outside);
	if (q->polling)
		wt.prio = waiter_prio(h, q, h->n);
	else
		decompose(h, r, &wt, &end);
	account_window(h, r, &wt, end);
	if (!r->found_switch && !r->found_wakeup && !events_on(h, q)) {
		/* nothing of the CPU while the thread waited: the state is a guess */
		r->nblockers = 0;
		r->irq_total_ns = r->softirq_total_ns = r->unblamed_ns = 0;
		r->quiet_ns = r->quiet_from_ns = -1;
		r->untraced_ns = spike_ns(r);
	}
	for (size_t i = 0; i < r->nblockers; i++)
		if (r->blockers[i].kind == RT_BLOCKER_TASK && r->blockers[i].id > 0)
			name_task(h, &r->blockers[i]);
	judge_holds(r, wt.prio);
	if (r->quiet_ns >= 0 && q->tick_ns > 0)
		r->ticks_missed = r->quiet_ns / q->tick_ns;
	qsort(r->blockers, r->nblockers, sizeof(r->blockers[0]), by_time_desc);
	judge(r);
}

void rt_spike_analyze(const struct rt_ev *ev, size_t n, const struct rt_spike_query *q,
		      struct rt_spike_report *r)
{
	struct rt_spike_history h = { .ev = (struct rt_ev *)ev, .n = n, .from_ns = INT64_MIN,
				      .all_from_ns = INT64_MIN };

	rt_spike_analyze_history(&h, q, r);
}

void rt_spike_history_init(struct rt_spike_history *h)
{
	*h = (struct rt_spike_history){ .from_ns = INT64_MIN, .all_from_ns = INT64_MIN };
}

void rt_spike_history_free(struct rt_spike_history *h)
{
	free(h->ev);
	free(h->start);
	rt_spike_history_init(h);
}

static bool sched_kind(enum rt_ev_type t)
{
	return t == RT_EV_SWITCH || t == RT_EV_WAKEUP || t == RT_EV_EXEC || t == RT_EV_LOST;
}

/* Fold a dropped event into the state at the history's start. */
static int fold(struct rt_spike_history *h, const struct rt_ev *e)
{
	struct rt_spike_cpu *st = NULL;

	if (e->type != RT_EV_SWITCH && e->type != RT_EV_LOST && e->type != RT_EV_EXEC)
		return 0;
	for (size_t i = 0; i < h->nstart; i++)
		if (h->start[i].cpu == e->cpu)
			st = &h->start[i];
	if (!st) {
		struct rt_spike_cpu *m = realloc(h->start, (h->nstart + 1) * sizeof(*m));

		if (!m)
			return -ENOMEM;
		h->start = m;
		st = &m[h->nstart++];
		*st = (struct rt_spike_cpu){ .cpu = e->cpu, .pid = -1, .prio = -1 };
	}
	if (e->type == RT_EV_SWITCH) {
		st->pid = e->pid;
		st->prio = e->prio;
		snprintf(st->comm, sizeof(st->comm), "%s", e->comm);
	} else if (e->type == RT_EV_LOST) {
		*st = (struct rt_spike_cpu){ .cpu = e->cpu, .pid = -1, .prio = -1 };
	} else if (e->pid == st->pid) {
		snprintf(st->comm, sizeof(st->comm), "%s", e->comm);
	}
	return 0;
}

void rt_spike_history_trim(struct rt_spike_history *h)
{
	int64_t newest, all_cut, sched_cut;
	size_t k = 0, i = 0;

	if (!h->n) /* empty (or freed after running out of memory) */
		return;
	newest = h->ev[h->n - 1].ts_ns;
	all_cut = newest - RT_SPIKE_KEEP_ALL_NS;
	sched_cut = newest - RT_SPIKE_KEEP_SCHED_NS;
	if (h->n > RT_SPIKE_MAX_EVENTS) /* a very busy trace: keep the newest only */
		sched_cut = all_cut = h->ev[h->n - RT_SPIKE_MAX_EVENTS].ts_ns;
	if (h->ev[0].ts_ns >= all_cut)
		return;
	for (; i < h->n && h->ev[i].ts_ns < sched_cut; i++)
		if (fold(h, &h->ev[i]) < 0)
			break; /* keep the rest: the state stays right */
	if (i)
		h->from_ns = h->ev[i - 1].ts_ns;
	for (; i < h->n; i++)
		if (h->ev[i].ts_ns >= all_cut || sched_kind(h->ev[i].type))
			h->ev[k++] = h->ev[i];
	h->n = k;
	if (all_cut > h->all_from_ns)
		h->all_from_ns = all_cut;
}

int rt_spike_history_add(struct rt_spike_history *h, const struct rt_ev *batch, size_t n)
{
	size_t i, j, k;
	struct rt_ev *m;

	if (!n)
		return 0;
	if (h->n + n > h->cap) {
		size_t cap = h->cap ? h->cap : 4096;

		while (cap < h->n + n)
			cap *= 2;
		m = realloc(h->ev, cap * sizeof(*m));
		if (!m)
			return -ENOMEM;
		h->ev = m;
		h->cap = cap;
	}
	/* Merge from the back: both are sorted; a batch may reach back on one CPU. */
	i = h->n;
	j = n;
	k = h->n + n;
	while (j > 0) {
		if (i > 0 && h->ev[i - 1].ts_ns > batch[j - 1].ts_ns)
			h->ev[--k] = h->ev[--i];
		else
			h->ev[--k] = batch[--j];
	}
	h->n += n;
	return 0;
}

static const char *ev_name(enum rt_ev_type t)
{
	static const char *const names[] = {
		[RT_EV_SWITCH] = "sched_switch",
		[RT_EV_WAKEUP] = "sched_wakeup",
		[RT_EV_IRQ_ENTRY] = "irq_handler_entry",
		[RT_EV_IRQ_EXIT] = "irq_handler_exit",
		[RT_EV_SOFTIRQ_ENTRY] = "softirq_entry",
		[RT_EV_SOFTIRQ_EXIT] = "softirq_exit",
		[RT_EV_TIMER_IRQ_ENTRY] = "local_timer_entry",
		[RT_EV_TIMER_IRQ_EXIT] = "local_timer_exit",
		[RT_EV_HRTIMER_ENTRY] = "hrtimer_expire_entry",
		[RT_EV_HRTIMER_EXIT] = "hrtimer_expire_exit",
		[RT_EV_HRTIMER_START] = "hrtimer_start",
		[RT_EV_SYS_EXIT] = "sys_exit",
		[RT_EV_EXEC] = "sched_process_exec",
		[RT_EV_LOST] = "events_lost",
		[RT_EV_IDLE] = "cpu_idle",
	};

	return (unsigned)t < sizeof(names) / sizeof(names[0]) && names[t] ? names[t] : "?";
}

void rt_spike_write_events(FILE *f, const struct rt_ev *ev, size_t n, int64_t from_ns,
			   int64_t to_ns)
{
	for (size_t i = 0; i < n; i++) {
		const struct rt_ev *e = &ev[i];
		char cur[16] = "-";

		if (e->ts_ns < from_ns || e->ts_ns > to_ns)
			continue;
		if (e->cur_known)
			snprintf(cur, sizeof(cur), "%d", e->cur_pid);
		fprintf(f, "%7s [%03d] %" PRId64 ".%06" PRId64 ": %s:", cur, e->cpu,
			e->ts_ns / 1000000000, e->ts_ns % 1000000000 / 1000, ev_name(e->type));
		switch (e->type) {
		case RT_EV_SWITCH:
			fprintf(f, " prev_comm=%s prev_pid=%d prev_prio=%d ==> next_comm=%s "
				"next_pid=%d next_prio=%d\n", e->prev_comm, e->prev_pid, e->prev_prio,
				e->comm, e->pid, e->prio);
			break;
		case RT_EV_WAKEUP:
			fprintf(f, " comm=%s pid=%d prio=%d\n", e->comm, e->pid, e->prio);
			break;
		case RT_EV_EXEC:
			fprintf(f, " comm=%s pid=%d\n", e->comm, e->pid);
			break;
		case RT_EV_IRQ_ENTRY:
			fprintf(f, " irq=%d name=%s\n", e->irq, e->name);
			break;
		case RT_EV_IRQ_EXIT:
			fprintf(f, " irq=%d\n", e->irq);
			break;
		case RT_EV_SOFTIRQ_ENTRY:
		case RT_EV_SOFTIRQ_EXIT:
			fprintf(f, " vec=%d [action=%s]\n", e->irq, e->name);
			break;
		case RT_EV_HRTIMER_START:
			fprintf(f, " pid=%d softexpires=%" PRId64 "\n", e->pid, e->expires);
			break;
		case RT_EV_IDLE:
			fprintf(f, " state=%d\n", e->irq);
			break;
		default:
			fputc('\n', f);
			break;
		}
	}
}

/*
 * /proc/<pid>/stat: the name, the kernel prio from rt_priority (field 40)
 * or nice (19), and the policy (41). False once the task has exited.
 */
static bool proc_stat(int pid, char *comm, size_t len, int *prio, int *policy)
{
	char path[64], buf[1024], *open, *close, *p;
	long rt_prio = 0, nice = 0;
	int field = 3;
	size_t got;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	f = fopen(path, "re");
	if (!f)
		return false;
	got = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[got] = '\0';
	open = strchr(buf, '(');
	close = strrchr(buf, ')');
	if (!open || !close || close < open || !close[1])
		return false;
	snprintf(comm, len, "%.*s", (int)(close - open - 1), open + 1);
	for (p = close + 2; field < 41; field++) {
		if (field == 19)
			nice = strtol(p, NULL, 10);
		else if (field == 40)
			rt_prio = strtol(p, NULL, 10);
		p = strchr(p, ' ');
		if (!p)
			return false;
		p++;
	}
	*policy = (int)strtol(p, NULL, 10) & ~SCHED_RESET_ON_FORK;
	*prio = rt_prio > 0 ? 99 - (int)rt_prio : 120 + (int)nice;
	return true;
}

/* cpuidle's name of an idle state ("C1"); left empty where cpuidle does not say. */
static void idle_state_name(int cpu, int state, char *buf, size_t len)
{
	char path[96];
	FILE *f;

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/cpuidle/state%d/name", cpu,
		 state);
	f = fopen(path, "re");
	if (!f)
		return;
	if (!fgets(buf, (int)len, f))
		buf[0] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	fclose(f);
}

void rt_spike_resolve_policies(struct rt_spike_report *r)
{
	for (size_t i = 0; i < r->nblockers; i++) {
		struct rt_blocker *b = &r->blockers[i];
		char comm[RT_SPIKE_NAME];
		int prio, policy;

		if (b->kind == RT_BLOCKER_IDLE_EXIT && b->id >= 0 && !b->name[0])
			idle_state_name(r->q.cpu, b->id, b->name, sizeof(b->name));
		if (b->kind != RT_BLOCKER_TASK || b->id <= 0 ||
		    !proc_stat(b->id, comm, sizeof(comm), &prio, &policy))
			continue; /* exited: what the trace says */
		if (!b->name[0])
			snprintf(b->name, sizeof(b->name), "%s", comm);
		if (b->prio < 0)
			b->prio = prio;
		/* The policy, where it fits the priority the trace shows. */
		if ((policy == SCHED_FIFO || policy == SCHED_RR) == (b->prio < 100))
			b->policy = policy;
	}
}

/* A number from /proc/sys, -1 when it cannot be read. */
static int64_t sysctl_i64(const char *path)
{
	long long v = -1;
	FILE *f = fopen(path, "re");

	if (!f)
		return -1;
	if (fscanf(f, "%lld", &v) != 1)
		v = -1;
	fclose(f);
	return v;
}

void rt_spike_read_rt_limits(int64_t *runtime_us, int64_t *period_us)
{
	*runtime_us = sysctl_i64("/proc/sys/kernel/sched_rt_runtime_us");
	*period_us = sysctl_i64("/proc/sys/kernel/sched_rt_period_us");
}
