// SPDX-License-Identifier: GPL-2.0-or-later
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "unit.h"

#include "rt_selfcheck.h"

#define US 1000LL
#define TID 100

static struct rt_ev ev[64];
static size_t nev;

static void add(int64_t ts, enum rt_ev_type type, int pid, int prev, int64_t expires)
{
	ev[nev++] = (struct rt_ev){ .ts_ns = ts, .cpu = 0, .type = type, .pid = pid,
				    .prev_pid = prev, .expires = expires };
}

/* One period: armed at t, due at t + 1000 us, switched in at due + in_us,
 * returned in_us + 1 us after due; another hrtimer armed in between. */
static void period(int64_t t, int64_t in_us)
{
	int64_t due = t + 1000 * US;

	add(t, RT_EV_HRTIMER_START, TID, 0, due);
	add(t + 1 * US, RT_EV_HRTIMER_START, TID, 0, due + 4000 * US); /* the scheduler's */
	add(due + in_us * US, RT_EV_SWITCH, TID, 0, 0);
	add(due + (in_us + 1) * US, RT_EV_SYS_EXIT, TID, 0, 0);
}

START_TEST(agreeing_samples_pass_and_a_late_one_is_caught)
{
	struct rt_selfcheck_sample s[3];
	struct rt_selfcheck_result r;

	nev = 0;
	for (int k = 0; k < 3; k++) {
		int64_t t = k * 2000 * US;

		period(t, 5);
		/* our read: 1.5 us after sys_exit; sample 2 is 10 us late (unexplained) */
		s[k] = (struct rt_selfcheck_sample){ t + 1000 * US,
						     t + 1000 * US + 6 * US + 1500 + (k == 2) * 10 * US };
	}
	ck_assert_int_eq(rt_selfcheck_compare(ev, nev, TID, s, 3, &r), 0);
	ck_assert_uint_eq(r.matched, 3);
	ck_assert_uint_eq(r.agree, 2);
	ck_assert_int_eq(r.expiry_max, 0);     /* the closest arming, not the scheduler's */
	ck_assert_int_eq(r.ret_floor, 1500);
	ck_assert_int_eq(r.diff_max, 10 * US);
	ck_assert(!rt_selfcheck_pass(&r));
	s[2].woke_ns -= 10 * US;
	ck_assert_int_eq(rt_selfcheck_compare(ev, nev, TID, s, 3, &r), 0);
	ck_assert_uint_eq(r.agree, 3);
	ck_assert(rt_selfcheck_pass(&r));
}
END_TEST

START_TEST(an_irq_between_return_and_read_is_explained)
{
	struct rt_selfcheck_sample s[2];
	struct rt_selfcheck_result r;

	nev = 0;
	period(0, 5);
	period(2000 * US, 5);
	/* sample 1: a 30 us IRQ right after sys_exit */
	add(3006 * US + 100, RT_EV_IRQ_ENTRY, 0, 0, 0);
	add(3036 * US + 100, RT_EV_IRQ_EXIT, 0, 0, 0);
	s[0] = (struct rt_selfcheck_sample){ 1000 * US, 1006 * US + 1500 };
	s[1] = (struct rt_selfcheck_sample){ 3000 * US, 3036 * US + 1500 };
	ck_assert_int_eq(rt_selfcheck_compare(ev, nev, TID, s, 2, &r), 0);
	ck_assert_uint_eq(r.agree, 2);
	ck_assert_int_eq(r.diff_max, 0);
}
END_TEST

START_TEST(a_thread_that_arms_after_due_is_found)
{
	struct rt_selfcheck_sample s[2];
	struct rt_selfcheck_result r;

	nev = 0;
	period(0, 5);
	/* held up after the first wakeup: arms at 2100 us for 2000 us, never sleeps */
	add(2100 * US, RT_EV_HRTIMER_START, TID, 0, 2000 * US);
	add(2101 * US, RT_EV_SYS_EXIT, TID, 0, 0);
	s[0] = (struct rt_selfcheck_sample){ 1000 * US, 1006 * US + 1500 };
	s[1] = (struct rt_selfcheck_sample){ 2000 * US, 2101 * US + 1500 };
	ck_assert_int_eq(rt_selfcheck_compare(ev, nev, TID, s, 2, &r), 0);
	ck_assert_uint_eq(r.matched, 2);
	ck_assert_uint_eq(r.agree, 2);
	ck_assert_int_eq(r.expiry_max, 0);
}
END_TEST

START_TEST(the_switch_in_that_ends_the_sleep_is_taken)
{
	struct rt_selfcheck_sample s;
	struct rt_selfcheck_result r;

	nev = 0;
	/* preempted right after arming and back at 5 us; then the real sleep */
	add(0, RT_EV_HRTIMER_START, TID, 0, 1000 * US);
	add(2 * US, RT_EV_SWITCH, 42, TID, 0);
	add(5 * US, RT_EV_SWITCH, TID, 42, 0);
	add(6 * US, RT_EV_SWITCH, 0, TID, 0);
	add(1003 * US, RT_EV_SWITCH, TID, 0, 0);
	add(1004 * US, RT_EV_SYS_EXIT, TID, 0, 0);
	s = (struct rt_selfcheck_sample){ 1000 * US, 1004 * US + 1500 };
	ck_assert_int_eq(rt_selfcheck_compare(ev, nev, TID, &s, 1, &r), 0);
	ck_assert_uint_eq(r.matched, 1);
	ck_assert_int_eq(r.ret_p50, 1 * US);
}
END_TEST

START_TEST(nothing_in_the_trace_fails)
{
	struct rt_selfcheck_sample s = { 1000 * US, 1010 * US };
	struct rt_selfcheck_result r;

	nev = 0;
	ck_assert_int_eq(rt_selfcheck_compare(ev, nev, TID, &s, 1, &r), 0);
	ck_assert_uint_eq(r.matched, 0);
	ck_assert(!rt_selfcheck_pass(&r));
}
END_TEST

Suite *unit_suite(void)
{
	Suite *s = suite_create("rt_selfcheck");
	TCase *tc = tcase_create("compare");

	tcase_add_test(tc, agreeing_samples_pass_and_a_late_one_is_caught);
	tcase_add_test(tc, an_irq_between_return_and_read_is_explained);
	tcase_add_test(tc, a_thread_that_arms_after_due_is_found);
	tcase_add_test(tc, the_switch_in_that_ends_the_sleep_is_taken);
	tcase_add_test(tc, nothing_in_the_trace_fails);
	suite_add_tcase(s, tc);
	return s;
}
