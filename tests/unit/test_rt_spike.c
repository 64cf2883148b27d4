// SPDX-License-Identifier: GPL-2.0-or-later
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "unit.h"

#include "rt_spike.h"

#define US 1000LL
#define T0 1000000000LL /* due: 1 s */

static struct rt_ev ev[64];
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

Suite *unit_suite(void)
{
	Suite *s = suite_create("rt_spike");
	TCase *tc = tcase_create("analysis");

	tcase_add_test(tc, task_blocker_is_named_with_its_share);
	tcase_add_test(tc, report_text_and_json);
	tcase_add_test(tc, interrupt_work_is_not_blamed_on_a_task);
	tcase_add_test(tc, missing_events_leave_the_decomposition_open);
	suite_add_tcase(s, tc);
	return s;
}
