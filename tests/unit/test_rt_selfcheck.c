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

START_TEST(the_share_of_late_irqs_is_counted)
{
	/* Four sleeps; the timer's IRQ enters 3 us after the expiry, once 500 us. */
	struct rt_selfcheck_sample s[4];
	struct rt_selfcheck_result r;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	nev = 0;
	for (int k = 0; k < 4; k++) {
		int64_t t = k * 2000 * US, due = t + 1000 * US, irq = k == 3 ? 500 : 3;

		add(t, RT_EV_HRTIMER_START, TID, 0, due);
		add(t + 400 * US, RT_EV_TIMER_IRQ_ENTRY, 0, 0, 0); /* a tick before due: not it */
		add(due + irq * US, RT_EV_TIMER_IRQ_ENTRY, 0, 0, 0);
		add(due + (irq + 5) * US, RT_EV_SWITCH, TID, 0, 0);
		add(due + (irq + 6) * US, RT_EV_SYS_EXIT, TID, 0, 0);
		s[k] = (struct rt_selfcheck_sample){ due, due + (irq + 6) * US + 1500 };
	}
	ck_assert_int_eq(rt_selfcheck_compare(ev, nev, TID, s, 4, &r), 0);
	ck_assert_uint_eq(r.irq_found, 4);
	ck_assert_uint_eq(r.irq_late, 1);
	ck_assert_int_eq(r.irq_p50, 3 * US);
	ck_assert_int_eq(r.irq_max, 500 * US);
	f = open_memstream(&buf, &len);
	rt_selfcheck_write_text(f, &r, 0);
	fclose(f);
	ck_assert_msg(strstr(buf, "# Self-check: IRQ late (more than 20 us after the expiry): 25.0% "
				  "of 4 samples; expiry -> IRQ entry p50 3.0 us, p99 500.0 us, "
				  "max 500.0 us\n"), "%s", buf);
	free(buf);
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
	ck_assert_int_eq(rt_selfcheck_verdict(&r), RT_SELFCHECK_NOT_CHECKED);
}
END_TEST

START_TEST(no_switch_in_is_not_checked_not_passed)
{
	/* Armed and returned, but the trace of the CPU has no switch-in. */
	struct rt_selfcheck_sample s[3];
	struct rt_selfcheck_result r;
	char *buf = NULL, *jbuf = NULL;
	size_t len = 0, jlen = 0;
	struct rt_json j;
	FILE *f;

	nev = 0;
	for (int k = 0; k < 3; k++) {
		int64_t t = k * 2000 * US, due = t + 1000 * US;

		add(t, RT_EV_HRTIMER_START, TID, 0, due);
		add(due + 6 * US, RT_EV_SYS_EXIT, TID, 0, 0);
		s[k] = (struct rt_selfcheck_sample){ due, due + 6 * US + 1500 };
	}
	ck_assert_int_eq(rt_selfcheck_compare(ev, nev, TID, s, 3, &r), 0);
	ck_assert_uint_eq(r.matched, 3);
	ck_assert_uint_eq(r.switched, 0);
	ck_assert_int_eq(rt_selfcheck_verdict(&r), RT_SELFCHECK_NOT_CHECKED);
	f = open_memstream(&buf, &len);
	rt_selfcheck_write_text(f, &r, 1);
	fclose(f);
	ck_assert_msg(strstr(buf, "# Self-check: switch-in -> sys_exit: not checked "
				  "(no switch-in in the trace)\n"
				  "# Self-check: not checked on CPU 1: the trace holds no switch-in "
				  "of the thread\n"), "%s", buf);
	ck_assert_msg(!strstr(buf, "PASS") && !strstr(buf, "sys_exit: p50"), "%s", buf);
	f = open_memstream(&jbuf, &jlen);
	rt_json_init_compact(&j, f);
	rt_json_object_begin(&j, NULL);
	rt_selfcheck_write_json(&j, &r, 1);
	rt_json_object_end(&j);
	ck_assert_int_eq(rt_json_finish(&j), 0);
	fclose(f);
	ck_assert_msg(strstr(jbuf, "\"switch_in_to_sys_exit_us\":{\"p50\":null,\"p99\":null}"),
		      "%s", jbuf);
	ck_assert_msg(strstr(jbuf, "\"verdict\":\"not checked\""), "%s", jbuf);
	free(buf);
	free(jbuf);
}
END_TEST

START_TEST(a_check_that_ran_and_failed_is_fail)
{
	struct rt_selfcheck_sample s[3];
	struct rt_selfcheck_result r;

	nev = 0;
	for (int k = 0; k < 3; k++) {
		int64_t t = k * 2000 * US;

		period(t, 5);
		s[k] = (struct rt_selfcheck_sample){ t + 1000 * US,
						     t + 1000 * US + 6 * US + 1500 + k * 10 * US };
	}
	ck_assert_int_eq(rt_selfcheck_compare(ev, nev, TID, s, 3, &r), 0);
	ck_assert_int_eq(rt_selfcheck_verdict(&r), RT_SELFCHECK_FAIL);
	ck_assert_ptr_null(rt_selfcheck_why_not(&r));
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
	tcase_add_test(tc, no_switch_in_is_not_checked_not_passed);
	tcase_add_test(tc, a_check_that_ran_and_failed_is_fail);
	tcase_add_test(tc, the_share_of_late_irqs_is_counted);
	suite_add_tcase(s, tc);
	return s;
}
