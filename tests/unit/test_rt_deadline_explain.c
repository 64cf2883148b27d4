// SPDX-License-Identifier: GPL-2.0-or-later
/* rt_deadline_explain's lines that do not depend on the machine. */
#include <errno.h>
#include <string.h>

#include "unit.h"

#include "rt_deadline_explain.h"

static const struct rt_deadline_refusal base = {
	.thread = 1, .runtime_us = 600, .deadline_us = 1000, .nthreads = 2,
	.asked_bw = 1200000, .nr_cpus = 2, .rt_runtime_us = -2, .rt_period_us = -2,
	.bw_fix = "run fewer threads (-t)", .param_fix = "change -i or -s",
};

START_TEST(ebusy_with_unknown_limits_says_what_was_asked)
{
	struct rt_deadline_refusal r = base;
	char buf[1024];

	r.err = -EBUSY;
	rt_deadline_explain(buf, sizeof(buf), &r);
	ck_assert_str_eq(buf, "SCHED_DEADLINE refused (EBUSY): 2 thread(s) ask 120.0% of a CPU in "
			      "all, more than admission control leaves free; run fewer threads "
			      "(-t), or raise /proc/sys/kernel/sched_rt_runtime_us");
}
END_TEST

START_TEST(e2big_and_others)
{
	struct rt_deadline_refusal r = base;
	char buf[1024];

	r.err = -E2BIG;
	rt_deadline_explain(buf, sizeof(buf), &r);
	ck_assert_str_eq(buf, "SCHED_DEADLINE refused (E2BIG): the kernel does not take this "
			      "struct sched_attr");
	r.err = -ENOMEM;
	rt_deadline_explain(buf, sizeof(buf), &r);
	ck_assert_str_eq(buf, "thread 1: cannot switch to SCHED_DEADLINE: Cannot allocate memory");
}
END_TEST

START_TEST(einval_names_the_parameters_and_the_fix)
{
	struct rt_deadline_refusal r = base;
	char buf[1024];

	r.err = -EINVAL;
	rt_deadline_explain(buf, sizeof(buf), &r);
	ck_assert_msg(strncmp(buf, "SCHED_DEADLINE refused (EINVAL): thread 1: runtime 600 us, "
			      "deadline = period 1000 us: ", 86) == 0, "%s", buf);
	ck_assert_msg(strstr(buf, ": change -i or -s") &&
		      strcmp(strstr(buf, ": change -i or -s"), ": change -i or -s") == 0, "%s", buf);
}
END_TEST

START_TEST(eperm_without_sched_rt_runtime)
{
	struct rt_deadline_refusal r = base;
	char buf[1024], caps[1024];

	if (rt_deadline_explain_caps(caps, sizeof(caps), false))
		unit_skip("no CAP_SYS_NICE or in a user namespace: the caps line comes first");
	r.err = -EPERM;
	r.rt_runtime_us = 0;
	rt_deadline_explain(buf, sizeof(buf), &r);
	ck_assert_str_eq(buf, "SCHED_DEADLINE refused (EPERM): /proc/sys/kernel/sched_rt_runtime_us "
			      "is 0, which leaves SCHED_DEADLINE no bandwidth: set it to 950000 (or "
			      "-1, no admission control)");
}
END_TEST

START_TEST(forced_caps_line)
{
	char buf[1024];

	ck_assert(rt_deadline_explain_caps(buf, sizeof(buf), true));
	ck_assert_msg(strncmp(buf, "SCHED_DEADLINE refused (EPERM): ", 32) == 0, "%s", buf);
}
END_TEST

Suite *unit_suite(void)
{
	Suite *s = suite_create("rt_deadline_explain");
	TCase *tc = tcase_create("lines");
	TCase *rt = tcase_create("privileged");

	tcase_add_test(tc, ebusy_with_unknown_limits_says_what_was_asked);
	tcase_add_test(tc, e2big_and_others);
	tcase_add_test(tc, einval_names_the_parameters_and_the_fix);
	tcase_add_test(tc, forced_caps_line);
	suite_add_tcase(s, tc);
	/* CAP_SYS_NICE outside a user namespace: make check-rt */
	tcase_set_tags(rt, UNIT_TAG_RT);
	tcase_add_test(rt, eperm_without_sched_rt_runtime);
	suite_add_tcase(s, rt);
	return s;
}
