// SPDX-License-Identifier: GPL-2.0-or-later
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "unit.h"

#include "rt_spike.h"

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
	/* 3000 us minus the 4 us timer IRQ, the 20 us IRQ and the 10 us softirq */
	ck_assert_int_eq(r.blockers[0].ns, 2966 * US);
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
		"# Spike: 3010 us on CPU 1, blocked by task blocker (pid 4711, FIFO 99) for 2966 us (98%)\n"
		"# Spike: expected wakeup -> IRQ entry 2.0 us, IRQ entry -> wakeup 2.0 us, "
		"wakeup -> switch-in 2996.0 us, switch-in -> user space 10.0 us\n"
		"# Spike:   task blocker (pid 4711, FIFO 99): 2966.0 us\n"
		"# Spike:   irq 12 (virtio0): 20.0 us\n"
		"# Spike:   softirq 1 (TIMER): 10.0 us\n"
		"# Spike:   irq local_timer: 4.0 us\n"
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
			      "(sched_rt_runtime_us 950000 of 1000000) for 50000 us (100%)\n", 111) == 0,
		      "%s", buf);
	free(buf);
	/* Nor when the thread waited on another CPU's queue (then migrated). */
	ev[2].has_target = true;
	ev[2].target_cpu = 0;
	rt_spike_analyze(ev, nev, &q, &r);
	ck_assert_int_eq(r.blockers[0].kind, RT_BLOCKER_TASK);
	ev[2].target_cpu = 1;
	/* Not throttling when the kernel does not throttle: the task holds it. */
	q.rt_runtime_us = -1;
	rt_spike_analyze(ev, nev, &q, &r);
	ck_assert_int_eq(r.blockers[0].kind, RT_BLOCKER_TASK);
	ck_assert_int_eq(r.blockers[0].id, 555);
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
	suite_add_tcase(s, tc);
	return s;
}
