// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "unit.h"

#include "rt_sched.h"

START_TEST(names_round_trip)
{
	int pols[] = { SCHED_OTHER, SCHED_BATCH, SCHED_IDLE, SCHED_FIFO, SCHED_RR };

	for (size_t i = 0; i < sizeof(pols) / sizeof(pols[0]); i++) {
		int p = -1;

		ck_assert_int_eq(rt_sched_policy_from_name(rt_sched_policy_name(pols[i]), &p), 0);
		ck_assert_int_eq(p, pols[i]);
	}
	ck_assert_str_eq(rt_sched_policy_name(12345), "unknown");
	ck_assert(rt_sched_policy_is_rt(SCHED_FIFO));
	ck_assert(!rt_sched_policy_is_rt(SCHED_BATCH));
}
END_TEST

START_TEST(priority_must_match_policy)
{
	ck_assert_int_eq(rt_sched_set(0, SCHED_FIFO, 0), -EINVAL);
	ck_assert_int_eq(rt_sched_set(0, SCHED_FIFO, 100), -EINVAL);
	ck_assert_int_eq(rt_sched_set(0, SCHED_OTHER, 5), -EINVAL);
}
END_TEST

START_TEST(sets_and_reads_back_batch)
{
	int policy, prio;

	ck_assert_int_eq(rt_sched_set(0, SCHED_BATCH, 0), 0);
	ck_assert_int_eq(rt_sched_get(0, &policy, &prio), 0);
	ck_assert_int_eq(policy, SCHED_BATCH);
	ck_assert_int_eq(prio, 0);
	ck_assert_int_eq(rt_sched_policy_in_force(), SCHED_BATCH);
}
END_TEST

START_TEST(sets_fifo_when_permitted)
{
	int policy, prio;

	if (rt_sched_check_permission(SCHED_FIFO, 10) == -EPERM) {
		unit_skip("SCHED_FIFO not permitted here (eperm_without_privilege covers that case)");
	}
	ck_assert_int_eq(rt_sched_set(rt_sched_gettid(), SCHED_FIFO, 10), 0);
	ck_assert_int_eq(rt_sched_get(0, &policy, &prio), 0);
	ck_assert_int_eq(policy, SCHED_FIFO);
	ck_assert_int_eq(prio, 10);
	ck_assert_int_eq(rt_sched_policy_in_force(), SCHED_FIFO);
	ck_assert_int_eq(rt_sched_set(0, SCHED_OTHER, 0), 0);
}
END_TEST

START_TEST(eperm_without_privilege_and_explained)
{
	struct rlimit rl = { 0, 0 };
	char why[512];

	/* Forked test: give up root and any RT limit, then ask for FIFO. */
	if (geteuid() == 0 && (setgid(65534) != 0 || setuid(65534) != 0))
		ck_abort_msg("cannot drop to uid 65534");
	ck_assert_int_eq(setrlimit(RLIMIT_RTPRIO, &rl), 0);
	ck_assert_int_eq(rt_sched_set(0, SCHED_FIFO, 80), -EPERM);
	ck_assert_int_eq(rt_sched_check_permission(SCHED_FIFO, 80), -EPERM);
	rt_sched_explain_eperm(SCHED_FIFO, 80, why, sizeof(why));
	ck_assert_ptr_nonnull(strstr(why, "SCHED_FIFO priority 80"));
	ck_assert_ptr_nonnull(strstr(why, "root"));
	ck_assert_ptr_nonnull(strstr(why, "CAP_SYS_NICE"));
	ck_assert_ptr_nonnull(strstr(why, "RLIMIT_RTPRIO"));
	ck_assert_ptr_nonnull(strstr(why, "soft 0, hard 0"));
}
END_TEST

START_TEST(soft_rtprio_limit_is_raised)
{
	struct rlimit rl = { .rlim_cur = 0, .rlim_max = 50 };
	int policy, prio;

	if (geteuid() != 0) {
		unit_skip("setting RLIMIT_RTPRIO's hard limit needs root");
	}
	/* Unprivileged with hard 50 / soft 0: FIFO 40 works after raising soft. */
	if (setrlimit(RLIMIT_RTPRIO, &rl) != 0) {
		/* Raising a hard limit needs CAP_SYS_RESOURCE, which this root lacks. */
		unit_skip("raising RLIMIT_RTPRIO needs CAP_SYS_RESOURCE, which this root lacks");
	}
	if (setgid(65534) != 0 || setuid(65534) != 0)
		ck_abort_msg("cannot drop to uid 65534");
	ck_assert_int_eq(rt_sched_set(0, SCHED_FIFO, 40), 0);
	ck_assert_int_eq(rt_sched_get(0, &policy, &prio), 0);
	ck_assert_int_eq(prio, 40);
	ck_assert_int_eq(getrlimit(RLIMIT_RTPRIO, &rl), 0);
	ck_assert_uint_eq(rl.rlim_cur, 40);
	ck_assert_int_eq(rt_sched_set(0, SCHED_FIFO, 60), -EPERM); /* above hard */
}
END_TEST

Suite *unit_suite(void)
{
	Suite *s = suite_create("rt_sched");
	TCase *tc = tcase_create("policies");
	TCase *rt = tcase_create("privileged");

	tcase_add_test(tc, names_round_trip);
	tcase_add_test(tc, priority_must_match_policy);
	tcase_add_test(tc, sets_and_reads_back_batch);
	tcase_add_test(tc, eperm_without_privilege_and_explained);
	suite_add_tcase(s, tc);
	/* root, or a process allowed SCHED_FIFO: make check-rt */
	tcase_set_tags(rt, UNIT_TAG_RT);
	tcase_add_test(rt, sets_fifo_when_permitted);
	tcase_add_test(rt, soft_rtprio_limit_is_raised);
	suite_add_tcase(s, rt);
	return s;
}
