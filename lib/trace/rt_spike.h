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
#include "rt_outside.h"

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
	RT_EV_IDLE,           /* power:cpu_idle: irq = the state entered, -1 on exit */
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
	int64_t tick_ns;        /* the periodic tick, for ticks missed; 0 unknown */
	/*
	 * The thread was runnable throughout (oslat's busy loop): no timer,
	 * no wakeup; the whole window is judged as time after a wakeup, and
	 * time the trace shows the thread itself on the CPU without seeing it
	 * run is time no interrupt reached the CPU.
	 */
	bool polling;
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
	/* The CPU idled when the timer was due: the time it took to leave idle. */
	RT_BLOCKER_IDLE_EXIT,
	/*
	 * Before the timer's IRQ entry a task was on the CPU and nothing
	 * interrupted it: interrupts were off in the kernel, or the CPU was
	 * not running this kernel (SMI, hypervisor). Never a task's time.
	 */
	RT_BLOCKER_NO_IRQ,
};

/* Why a task could hold the CPU against the thread (after its wakeup). */
enum rt_hold {
	RT_HOLD_UNKNOWN,        /* a priority is not known */
	RT_HOLD_PRIORITY,       /* equal or higher priority */
	RT_HOLD_KERNEL,         /* lower priority, kept the CPU after the interrupt returned */
};

/* Something that ran on the CPU while the thread waited. */
struct rt_blocker {
	enum rt_blocker_kind kind;
	int id;                 /* pid, irq number or softirq vector */
	int prio;               /* tasks: kernel prio */
	int policy;             /* tasks: SCHED_*, -1 unknown (see rt_spike_resolve_policies) */
	enum rt_hold hold;      /* tasks */
	char name[RT_SPIKE_NAME]; /* comm, irq handler or softirq name */
	int64_t ns;             /* time on the CPU in the window */
};

#define RT_SPIKE_MAX_BLOCKERS 16
/*
 * A lower-priority task after the wakeup for less than this is the way to
 * the switch (a return to user space that schedules), and the thread on
 * its CPU for less is its way back to user space: no one's. Generous, for
 * a VM exit on that way is no one's either.
 */
#define RT_SPIKE_HOLD_SLACK_NS 50000

struct rt_spike_report {
	struct rt_spike_query q;
	/* decomposition, -1 where the trace lacks the event */
	int64_t irq_ns;         /* due -> hard IRQ entry (IRQ latency) */
	int64_t handler_ns;     /* IRQ entry -> wakeup of the thread */
	int64_t sched_ns;       /* wakeup -> switch-in (scheduling latency) */
	int64_t user_ns;        /* switch-in -> the thread's timestamp */
	bool found_wakeup, found_switch;
	/* what held the CPU between due and the thread's timestamp, longest first */
	size_t nblockers;
	struct rt_blocker blockers[RT_SPIKE_MAX_BLOCKERS];
	int64_t irq_total_ns, softirq_total_ns;
	/* time between due and the switch-in the trace does not cover */
	int64_t untraced_ns;
	bool events_lost;       /* the trace lost events of the CPU in the window */
	int64_t irq_entry_ns;   /* the timer's IRQ entry (trace clock), -1 not found */
	/*
	 * Lower-priority tasks on the CPU after the wakeup for less than
	 * RT_SPIKE_HOLD_SLACK_NS (the way back from the interrupt to the
	 * switch), or while the thread waited on another CPU's queue: not a
	 * cause, named nowhere.
	 */
	int64_t unblamed_ns;
	/* no_interrupt: the longest stretch without any event of the CPU */
	int64_t quiet_from_ns, quiet_ns; /* -1 none */
	int64_t ticks_missed;   /* periodic ticks that fit in it, -1 unknown */
	struct rt_outside outside; /* evidence of an outside cause (the tool fills it) */
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
 * decomposition has -1 for steps the trace does not show. The time of
 * q->cpu from due to the thread's timestamp is given by phase. Before the
 * timer's IRQ entry (the wakeup where no entry shows; without a wakeup,
 * the first timer event after due): hard IRQs, softirqs, an idle exit, or
 * no interrupt (a task on the CPU, no event) - never a task. After it:
 * hard IRQs, softirqs, RT throttling, an idle exit, and a task (the last
 * switch's, or the common_pid of later events where the kernel logged no
 * switch) only when it holds the CPU against the thread: equal or higher
 * priority, or lower and on the CPU for RT_SPIKE_HOLD_SLACK_NS or more (a
 * non-preemptible kernel section). The thread itself on the CPU without
 * an event for that long is no interrupt too. Each task is named by the
 * latest name and priority the trace shows for it.
 */
void rt_spike_analyze(const struct rt_ev *ev, size_t n, const struct rt_spike_query *q,
		      struct rt_spike_report *r);

/*
 * Ask the kernel for the policy of every task blocker still alive (and its
 * priority and name where the trace had none), and cpuidle for the names
 * of idle states.
 */
void rt_spike_resolve_policies(struct rt_spike_report *r);

/*
 * kernel.sched_rt_runtime_us and _period_us, for a query's RT throttling
 * check: -1 each when it cannot be read.
 */
void rt_spike_read_rt_limits(int64_t *runtime_us, int64_t *period_us);

#endif
