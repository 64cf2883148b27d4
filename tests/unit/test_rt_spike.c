// SPDX-License-Identifier: GPL-2.0-or-later
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "unit.h"

#include "rt_spike.h"
#include "rt_spike_write.h"

#define US 1000LL
#define T0 1000000000LL /* due: 1 s */

static struct rt_ev ev[2048];
static size_t nev;

static void sw(int64_t ts, int cpu, int prev, const char *pcomm, int pprio, int next,
	       const char *ncomm, int nprio)
{
	struct rt_ev *e = &ev[nev++];

	*e = (struct rt_ev){ .ts_ns = ts, .cpu = cpu, .type = RT_EV_SWITCH, .pid = next,
			     .prio = nprio, .prev_pid = prev, .prev_prio = pprio };
	snprintf(e->comm, sizeof(e->comm), "%s", ncomm);
	snprintf(e->prev_comm, sizeof(e->prev_comm), "%s", pcomm);
}

static void simple(int64_t ts, int cpu, enum rt_ev_type type, int pid_or_irq, const char *name)
{
	struct rt_ev *e = &ev[nev++];

	*e = (struct rt_ev){ .ts_ns = ts, .cpu = cpu, .type = type, .pid = pid_or_irq,
			     .irq = pid_or_irq };
	snprintf(e->name, sizeof(e->name), "%s", name);
}

/*
 * CPU 1: "blocker" (pid 4711, FIFO 99 = kernel prio 0) runs from before the
 * due time; the timer IRQ fires on time and wakes the thread (pid 100), which
 * gets the CPU only when blocker sleeps, 3 ms later. A 20 us IRQ and a 10 us
 * softirq come in between.
 */
static void blocker_trace(void)
{
	nev = 0;
	sw(T0 - 500 * US, 1, 100, "cyclictest", 19, 4711, "blocker", 0);
	simple(T0 + 2 * US, 1, RT_EV_TIMER_IRQ_ENTRY, 0, "");
	simple(T0 + 3 * US, 1, RT_EV_HRTIMER_ENTRY, 0, "");
	simple(T0 + 4 * US, 1, RT_EV_WAKEUP, 100, "");
	simple(T0 + 5 * US, 1, RT_EV_HRTIMER_EXIT, 0, "");
	simple(T0 + 6 * US, 1, RT_EV_TIMER_IRQ_EXIT, 0, "");
	simple(T0 + 1000 * US, 0, RT_EV_IRQ_ENTRY, 9, "other-cpu"); /* not ours */
	simple(T0 + 1000 * US, 1, RT_EV_IRQ_ENTRY, 12, "virtio0");
	simple(T0 + 1020 * US, 1, RT_EV_IRQ_EXIT, 12, "");
	simple(T0 + 1500 * US, 1, RT_EV_SOFTIRQ_ENTRY, 1, "TIMER");
	simple(T0 + 1510 * US, 1, RT_EV_SOFTIRQ_EXIT, 1, "");
	sw(T0 + 3000 * US, 1, 4711, "blocker", 0, 100, "cyclictest", 19);
}

START_TEST(task_blocker_is_named_with_its_share)
{
	struct rt_spike_query q = { .cpu = 1, .tid = 100, .due_ns = T0,
				    .woke_ns = T0 + 3010 * US, .value = 3010 };
	struct rt_spike_report r;

	blocker_trace();
	rt_spike_analyze(ev, nev, &q, &r);
	ck_assert(r.found_wakeup && r.found_switch);
	ck_assert_int_eq(r.irq_ns, 2 * US);
	ck_assert_int_eq(r.handler_ns, 2 * US);
	ck_assert_int_eq(r.sched_ns, 2996 * US);
	ck_assert_int_eq(r.user_ns, 10 * US);
	ck_assert_uint_ge(r.nblockers, 3);
	ck_assert_int_eq(r.blockers[0].kind, RT_BLOCKER_TASK);
	ck_assert_int_eq(r.blockers[0].id, 4711);
	ck_assert_str_eq(r.blockers[0].name, "blocker");
	/*
	 * 3000 us minus the 2 us before the timer's IRQ entry (no task's), the
	 * 4 us timer IRQ, the 20 us IRQ and the 10 us softirq
	 */
	ck_assert_int_eq(r.blockers[0].ns, 2964 * US);
	ck_assert_int_eq(r.blockers[0].hold, RT_HOLD_PRIORITY);
	ck_assert_int_eq(r.irq_entry_ns, T0 + 2 * US);
	ck_assert_int_eq(r.irq_total_ns, 24 * US);
	ck_assert_int_eq(r.softirq_total_ns, 10 * US);
}
END_TEST

START_TEST(report_text_and_json)
{
	struct rt_spike_query q = { .cpu = 1, .tid = 100, .due_ns = T0,
				    .woke_ns = T0 + 3010 * US, .value = 3010 };
	struct rt_spike_report r;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	blocker_trace();
	rt_spike_analyze(ev, nev, &q, &r);
	r.blockers[0].policy = 1; /* SCHED_FIFO, as rt_spike_resolve_policies finds it */
	rt_spike_write_text(f, &r, "us", "/tmp/w.txt");
	fclose(f);
	ck_assert_str_eq(buf,
		"# Spike: 3010 us on CPU 1, blocked by task blocker (pid 4711, FIFO 99) for 2964 us (98%)\n"
		"# Spike: expected wakeup -> IRQ entry 2.0 us, IRQ entry -> wakeup 2.0 us, "
		"wakeup -> switch-in 2996.0 us, switch-in -> user space 10.0 us\n"
		"# Spike:   task blocker (pid 4711, FIFO 99): 2964.0 us\n"
		"# Spike:   irq 12 (virtio0): 20.0 us\n"
		"# Spike:   softirq 1 (TIMER): 10.0 us\n"
		"# Spike:   irq local_timer: 4.0 us\n"
		"# Spike:   no interrupt: 2.0 us\n"
		"# Spike: trace window saved to /tmp/w.txt\n");
	free(buf);
}
END_TEST

START_TEST(interrupt_work_is_not_blamed_on_a_task)
{
	/* The CPU idles; a 900 us softirq storm delays the switch-in. */
	struct rt_spike_query q = { .cpu = 0, .tid = 100, .due_ns = T0,
				    .woke_ns = T0 + 1000 * US, .value = 1000 };
	struct rt_spike_report r;

	nev = 0;
	sw(T0 - 100 * US, 0, 100, "cyclictest", 19, 0, "swapper/0", 120);
	simple(T0 + 1 * US, 0, RT_EV_TIMER_IRQ_ENTRY, 0, "");
	simple(T0 + 2 * US, 0, RT_EV_WAKEUP, 100, "");
	simple(T0 + 3 * US, 0, RT_EV_TIMER_IRQ_EXIT, 0, "");
	simple(T0 + 5 * US, 0, RT_EV_SOFTIRQ_ENTRY, 3, "NET_RX");
	simple(T0 + 905 * US, 0, RT_EV_SOFTIRQ_EXIT, 3, "");
	sw(T0 + 990 * US, 0, 0, "swapper/0", 120, 100, "cyclictest", 19);
	rt_spike_analyze(ev, nev, &q, &r);
	ck_assert_int_eq(r.blockers[0].kind, RT_BLOCKER_SOFTIRQ);
	ck_assert_int_eq(r.blockers[0].id, 3);
	ck_assert_int_eq(r.blockers[0].ns, 900 * US);
	ck_assert_int_eq(r.softirq_total_ns, 900 * US);
}
END_TEST

START_TEST(missing_events_leave_the_decomposition_open)
{
	struct rt_spike_query q = { .cpu = 0, .tid = 100, .due_ns = T0,
				    .woke_ns = T0 + 50 * US, .value = 50 };
	struct rt_spike_report r;

	nev = 0;
	rt_spike_analyze(ev, nev, &q, &r);
	ck_assert(!r.found_wakeup && !r.found_switch);
	ck_assert_int_eq(r.irq_ns, -1);
	ck_assert_int_eq(r.sched_ns, -1);
	ck_assert_uint_eq(r.nblockers, 0);
}
END_TEST


/* An event logged while pid was current (common_pid). */
static void at(int64_t ts, int cpu, enum rt_ev_type type, int cur)
{
	struct rt_ev *e = &ev[nev++];

	*e = (struct rt_ev){ .ts_ns = ts, .cpu = cpu, .type = type, .cur_known = true,
			     .cur_pid = cur, .pid = -1 };
}

static struct rt_spike_query query(int64_t late_us)
{
	return (struct rt_spike_query){ .cpu = 1, .tid = 100, .due_ns = T0,
					.woke_ns = T0 + late_us * US, .value = late_us,
					.rt_runtime_us = 950000, .rt_period_us = 1000000 };
}

START_TEST(a_hog_switched_in_long_before_is_found_after_trimming)
{
	/*
	 * The hog came on 8 s before due: the history keeps 6 s of switches,
	 * its switch-in is folded into the state at the start: still the hog,
	 * 300 ms of it, named as it left.
	 */
	struct rt_spike_query q = query(300000);
	struct rt_spike_history h;
	struct rt_spike_report r;

	nev = 0;
	sw(T0 - 8000000 * US, 1, 100, "cyclictest", 9, 4711, "chrt", 120);
	for (int64_t t = T0 - 7990000 * US; t < T0 + 300000 * US; t += 10000 * US)
		at(t, 1, RT_EV_HRTIMER_ENTRY, 4711);
	sw(T0 + 300000 * US, 1, 4711, "sh", 0, 100, "cyclictest", 9);
	rt_spike_history_init(&h);
	for (size_t i = 0; i < nev; i++) { /* as the reads come, one event at a time */
		ck_assert_int_eq(rt_spike_history_add(&h, &ev[i], 1), 0);
		rt_spike_history_trim(&h);
	}
	ck_assert(h.ev[0].ts_ns > T0 - 8000000 * US); /* the switch-in was dropped ... */
	ck_assert_uint_eq(h.nstart, 1);            /* ... into the state at the start */
	rt_spike_analyze_history(&h, &q, &r);
	ck_assert(r.explained);
	ck_assert_int_eq(r.blockers[0].id, 4711);
	ck_assert_str_eq(r.blockers[0].name, "sh"); /* its name when it left, after exec */
	ck_assert_int_eq(r.blockers[0].prio, 0);    /* and its priority then */
	ck_assert_int_ge(r.blockers[0].ns, 299000 * US);
	rt_spike_history_free(&h);
}
END_TEST

START_TEST(exec_and_a_priority_raised_on_the_cpu_are_seen)
{
	/* In as "sh" at OTHER; raises itself to FIFO 99 and execs "spin". */
	struct rt_spike_query q = query(2000);
	struct rt_spike_report r;

	nev = 0;
	sw(T0 - 100 * US, 1, 100, "cyclictest", 9, 4711, "sh", 120);
	ev[nev] = (struct rt_ev){ .ts_ns = T0 + 500 * US, .cpu = 1, .type = RT_EV_EXEC,
				  .cur_known = true, .cur_pid = 4711, .pid = 4711 };
	snprintf(ev[nev++].comm, RT_SPIKE_COMM, "spin");
	sw(T0 + 2000 * US, 1, 4711, "spin", 0, 100, "cyclictest", 9);
	rt_spike_analyze(ev, nev, &q, &r);
	ck_assert(r.explained);
	ck_assert_str_eq(r.blockers[0].name, "spin");
	ck_assert_int_eq(r.blockers[0].prio, 0);
	/* no switch after the exec: the exec names it */
	nev--;
	rt_spike_analyze(ev, nev, &q, &r);
	ck_assert_str_eq(r.blockers[0].name, "spin");
}
END_TEST

START_TEST(a_switch_the_kernel_did_not_log_is_found)
{
	/* The CPU went idle; the hog's switch-in is missing, its ticks are not. */
	struct rt_spike_query q = query(10000);
	struct rt_spike_report r;

	nev = 0;
	sw(T0 - 100 * US, 1, 100, "cyclictest", 9, 0, "swapper/1", 120);
	simple(T0 - 50 * US, 1, RT_EV_WAKEUP, 4711, "");
	ev[nev - 1].prio = 0;
	snprintf(ev[nev - 1].comm, RT_SPIKE_COMM, "hog");
	for (int64_t t = T0 + 1000 * US; t < T0 + 10000 * US; t += 1000 * US)
		at(t, 1, RT_EV_HRTIMER_ENTRY, 4711);
	sw(T0 + 10000 * US, 1, 4711, "hog", 0, 100, "cyclictest", 9);
	rt_spike_analyze(ev, nev, &q, &r);
	ck_assert(r.explained);
	ck_assert_int_eq(r.blockers[0].kind, RT_BLOCKER_TASK);
	ck_assert_int_eq(r.blockers[0].id, 4711);
	ck_assert_str_eq(r.blockers[0].name, "hog");
	ck_assert_int_eq(r.gaps, 1);
	ck_assert_int_ge(r.blockers[0].ns, 9000 * US);
}
END_TEST

START_TEST(rt_throttling_is_named)
{
	/*
	 * A FIFO 80 hog is throttled: the CPU goes to an OTHER task before the
	 * thread (FIFO 90) wakes, and stays there 50 ms.
	 */
	struct rt_spike_query q = query(50000);
	struct rt_spike_report r;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	nev = 0;
	sw(T0 - 1000 * US, 1, 100, "cyclictest", 9, 4711, "hog", 19);
	sw(T0 - 500 * US, 1, 4711, "hog", 19, 555, "make", 120);
	ev[nev - 1].prev_runnable = true;
	simple(T0 + 1 * US, 1, RT_EV_WAKEUP, 100, "");
	ev[nev - 1].prio = 9;
	sw(T0 + 50000 * US, 1, 555, "make", 120, 100, "cyclictest", 9);
	rt_spike_analyze(ev, nev, &q, &r);
	ck_assert(r.explained);
	ck_assert_int_eq(r.blockers[0].kind, RT_BLOCKER_THROTTLE);
	ck_assert_int_ge(r.blockers[0].ns, 49990 * US);
	f = open_memstream(&buf, &len);
	rt_spike_write_text(f, &r, "us", NULL);
	fclose(f);
	ck_assert_msg(strncmp(buf, "# Spike: 50000 us on CPU 1, blocked by RT throttling "
			      "(sched_rt_runtime_us 950000 of 1000000) for 49999 us (99%)\n", 110) == 0,
		      "%s", buf);
	free(buf);
	/* Nor when the thread waited on another CPU's queue (then migrated). */
	ev[2].has_target = true;
	ev[2].target_cpu = 0;
	rt_spike_analyze(ev, nev, &q, &r);
	ck_assert(!r.explained); /* nor is the task here: it held nothing the thread waited for */
	ck_assert_int_ge(r.unblamed_ns, 49990 * US);
	ev[2].target_cpu = 1;
	/* Not throttling when the kernel does not throttle: the task holds it. */
	q.rt_runtime_us = -1;
	rt_spike_analyze(ev, nev, &q, &r);
	ck_assert_int_eq(r.blockers[0].kind, RT_BLOCKER_TASK);
	ck_assert_int_eq(r.blockers[0].id, 555);
	ck_assert_int_eq(r.blockers[0].hold, RT_HOLD_KERNEL); /* lower, it stayed on: in the kernel */
}
END_TEST

START_TEST(lost_events_or_small_shares_name_nothing)
{
	struct rt_spike_query q = query(10000);
	struct rt_spike_report r;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	nev = 0;
	sw(T0 - 100 * US, 1, 100, "cyclictest", 9, 4711, "hog", 0);
	ev[nev++] = (struct rt_ev){ .ts_ns = T0 + 8000 * US, .cpu = 1, .type = RT_EV_LOST };
	sw(T0 + 10000 * US, 1, 4711, "hog", 0, 100, "cyclictest", 9);
	rt_spike_analyze(ev, nev, &q, &r);
	ck_assert(!r.explained);
	ck_assert(r.events_lost);
	ck_assert_int_eq(r.untraced_ns, 8000 * US);
	f = open_memstream(&buf, &len);
	rt_spike_write_text(f, &r, "us", NULL);
	fclose(f);
	ck_assert_msg(strstr(buf, "# Spike: 10000 us on CPU 1, not explained: the trace lost events "
				  "of this CPU (its buffer overran)\n") == buf, "%s", buf);
	free(buf);

	/* Only a switch before due: the state is a guess, nothing is named. */
	nev = 0;
	sw(T0 - 100 * US, 1, 100, "cyclictest", 9, 4711, "hog", 0);
	rt_spike_analyze(ev, nev, &q, &r);
	ck_assert(!r.explained);
	ck_assert_str_eq(r.reason, "the trace does not cover the time the thread waited");

	/* Three RT tasks above the thread, a third each: none is the headline. */
	nev = 0;
	sw(T0 - 100 * US, 1, 100, "cyclictest", 9, 1, "a", 5);
	sw(T0 + 3000 * US, 1, 1, "a", 5, 2, "b", 5);
	sw(T0 + 6000 * US, 1, 2, "b", 5, 3, "c", 5);
	sw(T0 + 9000 * US, 1, 3, "c", 5, 100, "cyclictest", 9);
	q = query(9000);
	rt_spike_analyze(ev, nev, &q, &r);
	ck_assert(!r.explained);
	ck_assert_str_eq(r.reason, "nothing held the CPU for half of it");
}
END_TEST

/* A tick on cpu while pid runs: local_timer_entry and _exit 1 us apart. */
static void tick(int64_t ts, int cpu, int pid)
{
	at(ts, cpu, RT_EV_TIMER_IRQ_ENTRY, pid);
	at(ts + 1 * US, cpu, RT_EV_TIMER_IRQ_EXIT, pid);
}

/* The thread's timer IRQ at ts: entry, hrtimer, its wakeup, exits (4 us). */
static void timer_irq(int64_t ts, int cpu, int cur)
{
	at(ts, cpu, RT_EV_TIMER_IRQ_ENTRY, cur);
	at(ts + 1 * US, cpu, RT_EV_HRTIMER_ENTRY, cur);
	at(ts + 2 * US, cpu, RT_EV_WAKEUP, cur);
	ev[nev - 1].pid = 100;
	ev[nev - 1].prio = 9;
	ev[nev - 1].has_target = true;
	ev[nev - 1].target_cpu = cpu;
	at(ts + 3 * US, cpu, RT_EV_HRTIMER_EXIT, cur);
	at(ts + 4 * US, cpu, RT_EV_TIMER_IRQ_EXIT, cur);
}

/*
 * Issue 30's spike: a SCHED_OTHER task in user space on CPU 1 takes a
 * tick every ms up to 976 us before due, then the CPU logs nothing until
 * the timer enters 3650 us late. Its time before the IRQ entry is no
 * interrupt reaching the CPU, not the task's.
 */
static void vm_trace(void)
{
	nev = 0;
	sw(T0 - 20000 * US, 1, 100, "cyclictest", 9, 24598, "oslat", 120);
	for (int64_t t = T0 - 19976 * US; t <= T0 - 976 * US; t += 1000 * US)
		tick(t, 1, 24598);
	timer_irq(T0 + 3650 * US, 1, 24598);
	sw(T0 + 3660 * US, 1, 24598, "oslat", 120, 100, "cyclictest", 9);
}

START_TEST(a_late_irq_under_a_lower_task_is_no_interrupt)
{
	struct rt_spike_query q = query(3687);
	struct rt_spike_report r;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	q.tick_ns = 1000 * US;
	vm_trace();
	rt_spike_analyze(ev, nev, &q, &r);
	ck_assert(r.explained);
	ck_assert_int_eq(r.irq_ns, 3650 * US);
	ck_assert_int_eq(r.blockers[0].kind, RT_BLOCKER_NO_IRQ);
	ck_assert_int_eq(r.blockers[0].ns, 3650 * US);
	/* from the last tick's exit to the late entry: 4625 us, four ticks */
	ck_assert_int_eq(r.quiet_ns, 4625 * US);
	ck_assert_int_eq(r.quiet_from_ns, T0 - 975 * US);
	ck_assert_int_eq(r.ticks_missed, 4);
	/*
	 * the task is blamed for nothing: 6 us after the IRQ's exit is the way
	 * to the switch, 27 us of the thread's the way to user space
	 */
	for (size_t i = 0; i < r.nblockers; i++)
		ck_assert_int_ne(r.blockers[i].kind, RT_BLOCKER_TASK);
	ck_assert_int_eq(r.unblamed_ns, 33 * US);
	f = open_memstream(&buf, &len);
	rt_spike_write_text(f, &r, "us", NULL);
	fclose(f);
	ck_assert_msg(strstr(buf, "# Spike: 3687 us on CPU 1, no interrupt reached CPU 1 for 4625 us "
				  "(ticks missed: 4): interrupts were off in the kernel, or the CPU was "
				  "not running this kernel (SMI, hypervisor); not visible from inside; "
				  "3650 us (98%) of it\n") == buf, "%s", buf);
	free(buf);
	/* with what the tool saw from outside */
	r.outside = (struct rt_outside){ .hypervisor = 1, .hypervisor_name = "KVM",
					 .steal_ns = 3000 * US, .smi = 0, .window_ns = 10 * 1000 * US };
	buf = NULL;
	f = open_memstream(&buf, &len);
	rt_spike_write_headline(f, &r);
	fclose(f);
	ck_assert_msg(strstr(buf, "(SMI, hypervisor); seen: a hypervisor (KVM), steal time 3000 us on "
				  "CPU 1 within 10 ms; 3650 us (98%) of it\n") != NULL, "%s", buf);
	free(buf);
}
END_TEST

/* What was seen from outside, in each combination: one separator between parts, none first. */
START_TEST(what_was_seen_outside_is_listed_without_a_stray_separator)
{
	static const struct {
		struct rt_outside o;
		const char *want;
	} cases[] = {
		{ { .hypervisor = 0, .steal_ns = -1, .smi = 1, .window_ns = 10000000 },
		  "seen: 1 SMI within 10 ms" },
		{ { .hypervisor = 0, .steal_ns = -1, .smi = 3, .window_ns = 10000000 },
		  "seen: 3 SMIs within 10 ms" },
		{ { .hypervisor = -1, .steal_ns = 2000000, .smi = 0, .window_ns = 10000000 },
		  "seen: steal time 2000 us on CPU 1 within 10 ms" },
		{ { .hypervisor = -1, .steal_ns = 2000000, .smi = 2, .window_ns = 10000000 },
		  "seen: steal time 2000 us on CPU 1 within 10 ms, 2 SMIs within 10 ms" },
		{ { .hypervisor = 1, .hypervisor_name = "KVM", .steal_ns = 0, .smi = 1,
		    .window_ns = 10000000 },
		  "seen: a hypervisor (KVM), no steal time counted, 1 SMI within 10 ms" },
		{ { .hypervisor = 0, .steal_ns = 0, .smi = 0, .window_ns = 10000000 },
		  "not visible from inside" },
	};

	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		char *buf = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&buf, &len);

		rt_spike_write_outside(f, &cases[k].o, 1);
		fclose(f);
		ck_assert_str_eq(buf, cases[k].want);
		free(buf);
	}
}
END_TEST

START_TEST(a_late_irq_while_another_handler_ran_names_the_handler)
{
	/* The lower task is interrupted by virtio just before due; its handler runs 800 us. */
	struct rt_spike_query q = query(820);
	struct rt_spike_report r;

	nev = 0;
	sw(T0 - 5000 * US, 1, 100, "cyclictest", 9, 555, "make", 120);
	tick(T0 - 1000 * US, 1, 555);
	at(T0 - 10 * US, 1, RT_EV_IRQ_ENTRY, 555);
	ev[nev - 1].irq = 12;
	snprintf(ev[nev - 1].name, RT_SPIKE_NAME, "virtio0");
	at(T0 + 800 * US, 1, RT_EV_IRQ_EXIT, 555);
	ev[nev - 1].irq = 12;
	timer_irq(T0 + 802 * US, 1, 555);
	sw(T0 + 810 * US, 1, 555, "make", 120, 100, "cyclictest", 9);
	rt_spike_analyze(ev, nev, &q, &r);
	ck_assert(r.explained);
	ck_assert_int_eq(r.blockers[0].kind, RT_BLOCKER_IRQ);
	ck_assert_int_eq(r.blockers[0].id, 12);
	ck_assert_int_eq(r.blockers[0].ns, 800 * US);
	ck_assert_int_eq(r.irq_ns, 802 * US);
	for (size_t i = 0; i < r.nblockers; i++)
		ck_assert_int_ne(r.blockers[i].kind, RT_BLOCKER_TASK);
}
END_TEST

START_TEST(softirq_before_the_irq_entry_is_named)
{
	struct rt_spike_query q = query(720);
	struct rt_spike_report r;

	nev = 0;
	sw(T0 - 5000 * US, 1, 100, "cyclictest", 9, 555, "make", 120);
	at(T0 - 5 * US, 1, RT_EV_SOFTIRQ_ENTRY, 555);
	ev[nev - 1].irq = 3;
	snprintf(ev[nev - 1].name, RT_SPIKE_NAME, "NET_RX");
	at(T0 + 700 * US, 1, RT_EV_SOFTIRQ_EXIT, 555);
	timer_irq(T0 + 700 * US, 1, 555);
	sw(T0 + 710 * US, 1, 555, "make", 120, 100, "cyclictest", 9);
	rt_spike_analyze(ev, nev, &q, &r);
	ck_assert(r.explained);
	ck_assert_int_eq(r.blockers[0].kind, RT_BLOCKER_SOFTIRQ);
	ck_assert_str_eq(r.blockers[0].name, "NET_RX");
	ck_assert_int_eq(r.blockers[0].ns, 700 * US);
}
END_TEST

START_TEST(a_late_irq_in_idle_is_an_idle_exit)
{
	struct rt_spike_query q = query(915);
	struct rt_spike_report r;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	nev = 0;
	sw(T0 - 1000 * US, 1, 100, "cyclictest", 9, 0, "swapper/1", 120);
	at(T0 - 990 * US, 1, RT_EV_IDLE, 0);
	ev[nev - 1].irq = 2;
	at(T0 + 900 * US, 1, RT_EV_IDLE, 0);
	ev[nev - 1].irq = -1;
	timer_irq(T0 + 900 * US, 1, 0);
	sw(T0 + 910 * US, 1, 0, "swapper/1", 120, 100, "cyclictest", 9);
	rt_spike_analyze(ev, nev, &q, &r);
	ck_assert(r.explained);
	ck_assert_int_eq(r.blockers[0].kind, RT_BLOCKER_IDLE_EXIT);
	ck_assert_int_eq(r.blockers[0].id, 2);
	ck_assert_int_ge(r.blockers[0].ns, 900 * US);
	snprintf(r.blockers[0].name, RT_SPIKE_NAME, "C3"); /* as cpuidle names it */
	f = open_memstream(&buf, &len);
	rt_spike_write_headline(f, &r);
	fclose(f);
	ck_assert_str_eq(buf, "exit from idle (state C3) took 906 us (99%); not visible from inside\n");
	free(buf);
}
END_TEST

START_TEST(a_lower_task_after_the_wakeup_only_in_the_kernel)
{
	/* The IRQ is on time; "make" (OTHER) keeps the CPU 2 ms after it returned. */
	struct rt_spike_query q = query(2010);
	struct rt_spike_report r;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	nev = 0;
	sw(T0 - 5000 * US, 1, 100, "cyclictest", 9, 555, "make", 120);
	timer_irq(T0 + 2 * US, 1, 555);
	sw(T0 + 2000 * US, 1, 555, "make", 120, 100, "cyclictest", 9);
	rt_spike_analyze(ev, nev, &q, &r);
	ck_assert(r.explained);
	ck_assert_int_eq(r.blockers[0].kind, RT_BLOCKER_TASK);
	ck_assert_int_eq(r.blockers[0].hold, RT_HOLD_KERNEL);
	ck_assert_int_eq(r.blockers[0].ns, 1994 * US);
	f = open_memstream(&buf, &len);
	rt_spike_write_headline(f, &r);
	fclose(f);
	ck_assert_str_eq(buf, "blocked by task make (pid 555, OTHER nice 0) in a non-preemptible "
			      "kernel section for 1994 us (99%)\n");
	free(buf);
	/* 40 us after the IRQ's exit: the way to the switch, no one's (and 4 us of the thread's) */
	ev[nev - 1].ts_ns = T0 + 46 * US;
	q = query(50);
	rt_spike_analyze(ev, nev, &q, &r);
	ck_assert_int_eq(r.unblamed_ns, 44 * US);
	for (size_t i = 0; i < r.nblockers; i++)
		ck_assert_int_ne(r.blockers[i].kind, RT_BLOCKER_TASK);
}
END_TEST

START_TEST(a_polling_thread_gap_without_events_is_no_interrupt)
{
	/* oslat (pid 100, FIFO 90) polls CPU 1; 3.2 ms without an event of the CPU. */
	struct rt_spike_query q = { .cpu = 1, .tid = 100, .due_ns = T0, .woke_ns = T0 + 3200 * US,
				    .value = 3200, .rt_runtime_us = -1, .rt_period_us = -1,
				    .tick_ns = 1000 * US, .polling = true };
	struct rt_spike_report r;

	nev = 0;
	sw(T0 - 5000 * US, 1, 555, "make", 120, 100, "oslat", 9);
	tick(T0 - 1 * US, 1, 100);
	tick(T0 + 3200 * US, 1, 100);
	rt_spike_analyze(ev, nev, &q, &r);
	ck_assert(r.explained);
	ck_assert_int_eq(r.blockers[0].kind, RT_BLOCKER_NO_IRQ);
	ck_assert_int_eq(r.blockers[0].ns, 3200 * US);
	ck_assert_int_eq(r.ticks_missed, 3);
	ck_assert_int_eq(r.irq_ns, -1); /* no phases for a polling thread */
	/* an equal-priority task in between is the task's */
	nev = 0;
	sw(T0 - 5000 * US, 1, 555, "make", 120, 100, "oslat", 120);
	sw(T0 + 10 * US, 1, 100, "oslat", 120, 555, "make", 120);
	ev[nev - 1].prev_runnable = true;
	sw(T0 + 3200 * US, 1, 555, "make", 120, 100, "oslat", 120);
	rt_spike_analyze(ev, nev, &q, &r);
	ck_assert(r.explained);
	ck_assert_int_eq(r.blockers[0].kind, RT_BLOCKER_TASK);
	ck_assert_int_eq(r.blockers[0].hold, RT_HOLD_PRIORITY);
	ck_assert_int_eq(r.blockers[0].ns, 3190 * US);
}
END_TEST

START_TEST(the_thread_switched_in_but_not_running_is_no_interrupt)
{
	/* In on time, it reaches user space 23 ms later: no event of the CPU in between. */
	struct rt_spike_query q = query(23000);
	struct rt_spike_report r;

	q.tick_ns = 4000 * US;
	nev = 0;
	sw(T0 - 5000 * US, 1, 100, "cyclictest", 9, 555, "make", 120);
	timer_irq(T0 + 2 * US, 1, 555);
	sw(T0 + 10 * US, 1, 555, "make", 120, 100, "cyclictest", 9);
	rt_spike_analyze(ev, nev, &q, &r);
	ck_assert(r.explained);
	ck_assert_int_eq(r.user_ns, 22990 * US);
	ck_assert_int_eq(r.blockers[0].kind, RT_BLOCKER_NO_IRQ);
	ck_assert_int_eq(r.blockers[0].ns, 22992 * US); /* and the 2 us before the IRQ entry */
	ck_assert_int_eq(r.quiet_from_ns, T0 + 10 * US);
	ck_assert_int_eq(r.ticks_missed, 5);
}
END_TEST

START_TEST(without_its_wakeup_a_lower_task_is_not_blamed)
{
	/*
	 * A SCHED_DEADLINE thread (prio -1) made runnable by its replenishment
	 * (no sched_wakeup): when it became runnable is not known, so an OTHER
	 * task on the CPU cannot be said to have held it.
	 */
	struct rt_spike_query q = query(5000);
	struct rt_spike_report r;

	nev = 0;
	sw(T0 - 100 * US, 1, 100, "cyclicdeadline", -1, 555, "make", 120);
	tick(T0 + 1 * US, 1, 555);
	sw(T0 + 5000 * US, 1, 555, "make", 120, 100, "cyclicdeadline", -1);
	rt_spike_analyze(ev, nev, &q, &r);
	ck_assert(!r.explained);
	ck_assert_str_eq(r.reason, "the trace holds no event of the thread's wakeup");
	for (size_t i = 0; i < r.nblockers; i++)
		ck_assert_int_ne(r.blockers[i].kind, RT_BLOCKER_TASK);
	/* another deadline task (prio -1 too, which names no priority) is named */
	ev[0].prio = -1;
	ev[nev - 1].prev_prio = -1;
	rt_spike_analyze(ev, nev, &q, &r);
	ck_assert(r.explained);
	ck_assert_int_eq(r.blockers[0].kind, RT_BLOCKER_TASK);
	ck_assert_int_eq(r.blockers[0].hold, RT_HOLD_UNKNOWN);
}
END_TEST

START_TEST(the_json_has_one_shape)
{
	struct rt_spike_query q = query(3687);
	struct rt_spike_report r;
	struct rt_json j;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	q.tick_ns = 1000 * US;
	vm_trace();
	rt_spike_analyze(ev, nev, &q, &r);
	f = open_memstream(&buf, &len);
	rt_json_init(&j, f);
	rt_json_object_begin(&j, NULL);
	rt_spike_write_json(&j, &r, "/tmp/w.txt");
	rt_json_object_end(&j);
	ck_assert_int_eq(rt_json_finish(&j), 0);
	fclose(f);
	ck_assert_msg(strstr(buf, "\"explained\": true"), "%s", buf);
	ck_assert_msg(strstr(buf, "\"reason\": null"), "%s", buf);
	ck_assert_msg(strstr(buf, "\"irq_latency_us\": 3650.0"), "%s", buf);
	ck_assert_msg(strstr(buf, "\"kind\": \"no_interrupt\""), "%s", buf);
	ck_assert_msg(strstr(buf, "\"ticks_missed\": 4"), "%s", buf);
	ck_assert_msg(strstr(buf, "\"steal_us\": null"), "%s", buf);
	ck_assert_msg(strstr(buf, "\"headline\": \"no interrupt reached CPU 1 for 4625 us"), "%s", buf);
	ck_assert_msg(strstr(buf, "\"outside\": {"), "%s", buf);
	free(buf);
}
END_TEST

START_TEST(trimming_an_empty_history_is_safe)
{
	struct rt_spike_history h;
	struct rt_spike_query q = query(100);
	struct rt_spike_report r;

	rt_spike_history_init(&h);
	rt_spike_history_trim(&h);          /* nothing read yet */
	rt_spike_analyze_history(&h, &q, &r);
	ck_assert(!r.explained);
	rt_spike_history_free(&h);          /* as after running out of memory */
	rt_spike_history_trim(&h);
	ck_assert_uint_eq(h.n, 0);
}
END_TEST

Suite *unit_suite(void)
{
	Suite *s = suite_create("rt_spike");
	TCase *tc = tcase_create("analysis");

	tcase_add_test(tc, task_blocker_is_named_with_its_share);
	tcase_add_test(tc, report_text_and_json);
	tcase_add_test(tc, interrupt_work_is_not_blamed_on_a_task);
	tcase_add_test(tc, missing_events_leave_the_decomposition_open);
	tcase_add_test(tc, a_hog_switched_in_long_before_is_found_after_trimming);
	tcase_add_test(tc, exec_and_a_priority_raised_on_the_cpu_are_seen);
	tcase_add_test(tc, a_switch_the_kernel_did_not_log_is_found);
	tcase_add_test(tc, rt_throttling_is_named);
	tcase_add_test(tc, lost_events_or_small_shares_name_nothing);
	tcase_add_test(tc, a_late_irq_under_a_lower_task_is_no_interrupt);
	tcase_add_test(tc, a_late_irq_while_another_handler_ran_names_the_handler);
	tcase_add_test(tc, softirq_before_the_irq_entry_is_named);
	tcase_add_test(tc, a_late_irq_in_idle_is_an_idle_exit);
	tcase_add_test(tc, a_lower_task_after_the_wakeup_only_in_the_kernel);
	tcase_add_test(tc, a_polling_thread_gap_without_events_is_no_interrupt);
	tcase_add_test(tc, the_thread_switched_in_but_not_running_is_no_interrupt);
	tcase_add_test(tc, without_its_wakeup_a_lower_task_is_not_blamed);
	tcase_add_test(tc, the_json_has_one_shape);
	tcase_add_test(tc, trimming_an_empty_history_is_safe);
	tcase_add_test(tc, what_was_seen_outside_is_listed_without_a_stray_separator);
	suite_add_tcase(s, tc);
	return s;
}
