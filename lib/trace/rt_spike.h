/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Spike root cause from standard tracepoints (sched, irq, timer): given
 * the events of a window around one late wakeup, decompose it (timer
 * expiry -> hard IRQ -> wakeup -> switch-in -> user space) and account what
 * ran on the CPU between the expected wakeup and the switch-in. Pure logic
 * on a list of events; reading them is rt_tracer's job.
 */
#ifndef RT_SPIKE_H
#define RT_SPIKE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "rt_json.h"

#define RT_SPIKE_COMM 16
#define RT_SPIKE_NAME 32

enum rt_ev_type {
	RT_EV_SWITCH,         /* sched_switch: prev -> next */
	RT_EV_WAKEUP,         /* sched_wakeup(_new): pid woken */
	RT_EV_IRQ_ENTRY,      /* irq_handler_entry: irq, name */
	RT_EV_IRQ_EXIT,
	RT_EV_SOFTIRQ_ENTRY,  /* softirq_entry: vec */
	RT_EV_SOFTIRQ_EXIT,
	RT_EV_TIMER_IRQ_ENTRY, /* local_timer_entry: the timer interrupt itself */
	RT_EV_TIMER_IRQ_EXIT,
	RT_EV_HRTIMER_ENTRY,  /* hrtimer_expire_entry */
	RT_EV_HRTIMER_EXIT,
	RT_EV_HRTIMER_START,  /* hrtimer_start: pid = the task arming it, expires */
	RT_EV_SYS_EXIT,       /* raw_syscalls:sys_exit: pid = the task returning */
	RT_EV_EXEC,           /* sched_process_exec: pid, comm = its new name */
	RT_EV_LOST,           /* the trace lost events on cpu before this point */
};

/* One event, reduced to what the analysis needs. */
struct rt_ev {
	int64_t ts_ns;          /* trace clock (mono: CLOCK_MONOTONIC) */
	int cpu;
	enum rt_ev_type type;
	bool cur_known;         /* cur_pid is set */
	int cur_pid;            /* the task on the CPU when it was logged (common_pid) */
	int pid;                /* switch: next; wakeup: woken */
	int prio;               /* kernel prio of pid (0..99 RT, 100..139 normal) */
	char comm[RT_SPIKE_COMM];
	int prev_pid;           /* switch only */
	int prev_prio;
	bool prev_runnable;     /* switch: prev left still runnable (state R, R+) */
	char prev_comm[RT_SPIKE_COMM];
	int64_t expires;        /* hrtimer_start: the soft expiry it armed (trace clock) */
	bool has_target;        /* wakeup: target_cpu is set */
	int target_cpu;         /* wakeup: the CPU whose run queue it joins */
	int irq;                /* irq number or softirq vector */
	char name[RT_SPIKE_NAME]; /* irq handler name or softirq name */
};

/* The late wakeup to explain. */
struct rt_spike_query {
	int cpu;                /* the measuring thread's CPU */
	int tid;                /* the measuring thread */
	int64_t due_ns;         /* expected wakeup (the timer's expiry) */
	int64_t woke_ns;        /* the thread's own timestamp after waking */
	int64_t value;          /* the latency it reported, in its unit */
	/* kernel.sched_rt_runtime_us and _period_us (-1: unlimited / unknown) */
	int64_t rt_runtime_us, rt_period_us;
};

enum rt_blocker_kind {
	RT_BLOCKER_NONE,
	RT_BLOCKER_TASK,
	RT_BLOCKER_IRQ,
	RT_BLOCKER_SOFTIRQ,
	/*
	 * The scheduler ran a task of lower priority than the runnable thread
	 * (or let the CPU idle): only RT throttling (or the fair server that
	 * replaces it) does that.
	 */
	RT_BLOCKER_THROTTLE,
};

/* Something that ran on the CPU while the thread waited. */
struct rt_blocker {
	enum rt_blocker_kind kind;
	int id;                 /* pid, irq number or softirq vector */
	int prio;               /* tasks: kernel prio */
	int policy;             /* tasks: SCHED_*, -1 unknown (see rt_spike_resolve_policies) */
	char name[RT_SPIKE_NAME]; /* comm, irq handler or softirq name */
	int64_t ns;             /* time on the CPU in the window */
};

#define RT_SPIKE_MAX_BLOCKERS 16

struct rt_spike_report {
	struct rt_spike_query q;
	/* decomposition, -1 where the trace lacks the event */
	int64_t irq_ns;         /* due -> hard IRQ entry (IRQ latency) */
	int64_t handler_ns;     /* IRQ entry -> wakeup of the thread */
	int64_t sched_ns;       /* wakeup -> switch-in (scheduling latency) */
	int64_t user_ns;        /* switch-in -> the thread's timestamp */
	bool found_wakeup, found_switch;
	/* what ran between due and switch-in, longest first */
	size_t nblockers;
	struct rt_blocker blockers[RT_SPIKE_MAX_BLOCKERS];
	int64_t irq_total_ns, softirq_total_ns;
	/* time between due and the switch-in the trace does not cover */
	int64_t untraced_ns;
	bool events_lost;       /* the trace lost events of the CPU in the window */
	int gaps;               /* switches the kernel did not log (found from common_pid) */
	/*
	 * The first blocker holds at least half of the spike: the headline.
	 * Otherwise reason says why nothing is named.
	 */
	bool explained;
	const char *reason;
};

/* State of a CPU where a history begins (replayed from trimmed events). */
struct rt_spike_cpu {
	int cpu;
	int pid, prio;          /* -1: unknown */
	char comm[RT_SPIKE_COMM];
};

/*
 * The events read so far, in time order, trimmed as it grows: everything of
 * the last RT_SPIKE_KEEP_ALL_NS, and the switches, wakeups and execs of the
 * last RT_SPIKE_KEEP_SCHED_NS, so a task that held a CPU for seconds is still
 * seen switching in. What is dropped is replayed into the per-CPU state at
 * from_ns.
 */
#define RT_SPIKE_KEEP_ALL_NS (1000 * 1000 * 1000LL)
#define RT_SPIKE_KEEP_SCHED_NS (6 * 1000 * 1000 * 1000LL)
#define RT_SPIKE_MAX_EVENTS 400000

struct rt_spike_history {
	struct rt_ev *ev;
	size_t n, cap;
	int64_t from_ns;        /* complete from here (INT64_MIN: from the start) */
	int64_t all_from_ns;    /* interrupts and timers only from here */
	struct rt_spike_cpu *start;
	size_t nstart;
};

void rt_spike_history_init(struct rt_spike_history *h);

/* Merge a batch (sorted by time) in. 0 or -ENOMEM. */
int rt_spike_history_add(struct rt_spike_history *h, const struct rt_ev *batch, size_t n);

/*
 * Drop what is older than the limits above, folding it into the start
 * state. After the spikes the new events show have been explained.
 */
void rt_spike_history_trim(struct rt_spike_history *h);

void rt_spike_history_free(struct rt_spike_history *h);

/* Analyze the late wakeup q against a history. Always fills r. */
void rt_spike_analyze_history(const struct rt_spike_history *h, const struct rt_spike_query *q,
			      struct rt_spike_report *r);

/* The events of [from_ns, to_ns] as text, one line each, like the trace file. */
void rt_spike_write_events(FILE *f, const struct rt_ev *ev, size_t n, int64_t from_ns,
			   int64_t to_ns);

/*
 * Analyze events (sorted by time, any CPUs) for q. Always fills r; the
 * decomposition has -1 for steps the trace does not show. Time is given to
 * what ran on q->cpu between due and the switch-in: the task the trace shows
 * current (the last switch, or the common_pid of later events where the
 * kernel logged no switch), hard IRQs, softirqs, RT throttling; each task is
 * named by the latest name and priority the trace shows for it.
 */
void rt_spike_analyze(const struct rt_ev *ev, size_t n, const struct rt_spike_query *q,
		      struct rt_spike_report *r);

/*
 * Ask the kernel for the policy of every task blocker still alive (and its
 * priority and name where the trace had none).
 */
void rt_spike_resolve_policies(struct rt_spike_report *r);

/*
 * From the kernel prio sched_switch shows: "FIFO 99" (prio 0, policy
 * known), "RT 99" (policy unknown), "OTHER nice 0" (120).
 */
void rt_spike_prio_label(int prio, int policy, char *buf, size_t len);

/* "label 12.3 us" (one decimal, truncated), or "label -" for ns < 0. */
void rt_spike_write_us(FILE *f, const char *label, int64_t ns);

/*
 * The report, after the summary:
 * "# Spike: 3120 us on CPU 1, blocked by task blocker (pid 4711, FIFO 99)
 *  for 2990 us (96%)", then the decomposition and one line per blocker.
 * unit: "us" or "ns" (the run's); file: where the raw window was saved.
 */
void rt_spike_write_text(FILE *f, const struct rt_spike_report *r, const char *unit,
			 const char *file);

/* "analysis": {...} with the same content. */
void rt_spike_write_json(struct rt_json *j, const struct rt_spike_report *r, const char *file);

#endif
