// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "unit.h"

#include "rt_deadline.h"

START_TEST(bandwidth_rounds_up_like_the_kernel)
{
	struct rt_deadline_params p = { .runtime_ns = 2000000, .deadline_ns = 10000000 };

	ck_assert_uint_eq(rt_deadline_bw(&p), 200000); /* 20 % */
	p.period_ns = 20000000;
	ck_assert_uint_eq(rt_deadline_bw(&p), 100000); /* the period, not the deadline */
	p = (struct rt_deadline_params){ .runtime_ns = 1, .deadline_ns = 3 };
	ck_assert_uint_eq(rt_deadline_bw(&p), 333334);
	p = (struct rt_deadline_params){ .runtime_ns = 5 };
	ck_assert_uint_eq(rt_deadline_bw(&p), 0);
}
END_TEST

START_TEST(limit_is_rt_share_times_cpus)
{
	ck_assert_uint_eq(rt_deadline_bw_limit(950000, 1000000, 2), 1900000);
	ck_assert_uint_eq(rt_deadline_bw_limit(10000, 1000000, 4), 40000);
	ck_assert_uint_eq(rt_deadline_bw_limit(0, 1000000, 2), 0);
	ck_assert_uint_eq(rt_deadline_bw_limit(-1, 1000000, 2), UINT64_MAX);
	ck_assert_uint_eq(rt_deadline_bw_limit(5, 0, 2), 0);
}
END_TEST

static void write_file(const char *dir, const char *name, const char *text)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	ck_assert_ptr_nonnull(f = fopen(path, "w"));
	fputs(text, f);
	fclose(f);
}

START_TEST(reads_limits_from_a_fake_proc)
{
	char root[] = "/tmp/test_rt_deadline.XXXXXX", dir[600];
	int64_t rt, per;
	uint64_t lo, hi;

	ck_assert_ptr_nonnull(mkdtemp(root));
	snprintf(dir, sizeof(dir), "%s/proc", root);
	mkdir(dir, 0700);
	snprintf(dir, sizeof(dir), "%s/proc/sys", root);
	mkdir(dir, 0700);
	snprintf(dir, sizeof(dir), "%s/proc/sys/kernel", root);
	mkdir(dir, 0700);
	ck_assert_int_eq(rt_deadline_read_limits_at(root, &rt, &per), -ENOENT);
	write_file(dir, "sched_rt_runtime_us", "-1\n");
	write_file(dir, "sched_rt_period_us", "1000000\n");
	ck_assert_int_eq(rt_deadline_read_limits_at(root, &rt, &per), 0);
	ck_assert_int_eq(rt, -1);
	ck_assert_int_eq(per, 1000000);
	write_file(dir, "sched_rt_runtime_us", "95x\n");
	ck_assert_int_eq(rt_deadline_read_limits_at(root, &rt, &per), -EINVAL);
	write_file(dir, "sched_deadline_period_min_us", "100\n");
	write_file(dir, "sched_deadline_period_max_us", "4194304\n");
	ck_assert_int_eq(rt_deadline_read_period_range_at(root, &lo, &hi), 0);
	ck_assert_uint_eq(lo, 100);
	ck_assert_uint_eq(hi, 4194304);
	snprintf(dir, sizeof(dir), "rm -rf '%s'", root);
	ck_assert_int_eq(system(dir), 0);
}
END_TEST

/* A real thread: switched to SCHED_DEADLINE, read back, counted, switched back. */
START_TEST(sets_reads_back_and_counts)
{
	struct rt_deadline_params p = { .runtime_ns = 1000000, .deadline_ns = 100000000 }, got;
	uint64_t bw_self, bw_others;
	unsigned n_self, n_others;
	int policy, err;

	err = rt_deadline_set(0, &p);
	if (err == -EPERM || err == -EBUSY || err == -ENOSYS)
		unit_skip("SCHED_DEADLINE not available to this process here");
	ck_assert_int_eq(err, 0);
	ck_assert_int_eq(rt_deadline_get(0, &policy, &got), 0);
	ck_assert_int_eq(policy, SCHED_DEADLINE);
	ck_assert_uint_eq(got.runtime_ns, 1000000);
	ck_assert_uint_eq(got.deadline_ns, 100000000);
	/*
	 * Everything else at least; this thread (1 %) only in the first sum.
	 * Other tests' SCHED_DEADLINE threads may come and go between the two
	 * scans: a few tries, until one pair of scans saw the same others.
	 */
	for (int tries = 0; tries < 20; tries++) {
		ck_assert_int_eq(rt_deadline_bw_in_use(0, &bw_self, &n_self), 0);
		ck_assert_int_eq(rt_deadline_bw_in_use(getpid(), &bw_others, &n_others), 0);
		if (n_self >= n_others + 1 && bw_self >= bw_others + 10000)
			break;
		usleep(50000);
	}
	ck_assert_uint_ge(n_self, n_others + 1);
	ck_assert_uint_ge(bw_self, bw_others + 10000);
	ck_assert_int_eq(rt_deadline_clear(0), 0);
	ck_assert_int_eq(rt_deadline_get(0, &policy, &got), 0);
	ck_assert_int_eq(policy, SCHED_OTHER);
	p.runtime_ns = 200000000; /* runtime above the deadline */
	ck_assert_int_eq(rt_deadline_set(0, &p), -EINVAL);
}
END_TEST

/*
 * SCHED_BATCH at nice 7, read back; then SCHED_OTHER at nice 7 (anyone
 * may keep or raise its nice value).
 */
START_TEST(fair_policy_and_nice_in_one_call)
{
	ck_assert_int_eq(rt_deadline_clear_to(0, SCHED_BATCH, 7), 0);
	ck_assert_int_eq(sched_getscheduler(0), SCHED_BATCH);
	errno = 0;
	ck_assert_int_eq(getpriority(PRIO_PROCESS, 0), 7);
	ck_assert_int_eq(rt_deadline_clear_to(0, SCHED_OTHER, 7), 0);
	ck_assert_int_eq(sched_getscheduler(0), SCHED_OTHER);
	ck_assert_int_eq(getpriority(PRIO_PROCESS, 0), 7);
	ck_assert_int_eq(rt_deadline_clear_to(0, 42, 0), -EINVAL); /* no such policy */
}
END_TEST

/* rt_deadline_clear puts nice 0 back: lowering nice needs CAP_SYS_NICE. */
START_TEST(clear_puts_nice_zero_back)
{
	ck_assert_int_eq(rt_deadline_clear_to(0, SCHED_BATCH, 7), 0);
	ck_assert_int_eq(rt_deadline_clear(0), 0);
	ck_assert_int_eq(sched_getscheduler(0), SCHED_OTHER);
	errno = 0;
	ck_assert_int_eq(getpriority(PRIO_PROCESS, 0), 0);
}
END_TEST

Suite *unit_suite(void)
{
	Suite *s = suite_create("rt_deadline");
	TCase *tc = tcase_create("deadline");
	TCase *rt = tcase_create("privileged");

	tcase_add_test(tc, bandwidth_rounds_up_like_the_kernel);
	tcase_add_test(tc, limit_is_rt_share_times_cpus);
	tcase_add_test(tc, reads_limits_from_a_fake_proc);
	tcase_add_test(tc, fair_policy_and_nice_in_one_call);
	suite_add_tcase(s, tc);
	/* SCHED_DEADLINE and CAP_SYS_NICE: make check-rt */
	tcase_set_tags(rt, UNIT_TAG_RT);
	tcase_add_test(rt, sets_reads_back_and_counts);
	tcase_add_test(rt, clear_puts_nice_zero_back);
	suite_add_tcase(s, rt);
	return s;
}
