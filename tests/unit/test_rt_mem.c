// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "unit.h"

#include "rt_mem.h"

/* AddressSanitizer intercepts mlockall and makes it a no-op that succeeds. */
#if defined(__SANITIZE_ADDRESS__)
#define MLOCK_IS_NOOP 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define MLOCK_IS_NOOP 1
#endif
#endif
#ifndef MLOCK_IS_NOOP
#define MLOCK_IS_NOOP 0
#endif

/* VmLck after a successful lock: more than 0, except under ASan. */
static void assert_locked(void)
{
	if (MLOCK_IS_NOOP) {
		printf("not tested: ASan makes mlockall a no-op, VmLck stays 0\n");
		ck_assert_int_eq(rt_mem_locked_bytes(), 0);
		return;
	}
	ck_assert_int_gt(rt_mem_locked_bytes(), 0);
}

START_TEST(lock_all_shows_in_vmlck)
{
	struct rlimit rl;

	ck_assert_int_eq(getrlimit(RLIMIT_MEMLOCK, &rl), 0);
	if (geteuid() != 0 && rl.rlim_cur != RLIM_INFINITY) {
		/* Not root: a small limit makes mlockall fail; that must be an errno. */
		int err = rt_mem_lock_all();
		ck_assert(err == 0 || err == -ENOMEM || err == -EPERM);
		return;
	}
	ck_assert_int_eq(rt_mem_lock_all(), 0);
	assert_locked();
}
END_TEST

START_TEST(lock_if_unlimited_only_when_it_cannot_hurt)
{
	struct rlimit small = { 64 * 1024, 64 * 1024 };

	if (geteuid() == 0) {
		ck_assert_int_eq(rt_mem_lock_all_if_unlimited(), 0);
		assert_locked();
		return;
	}
	/* Not root: a finite limit means no attempt, so nothing can fail later. */
	ck_assert_int_eq(setrlimit(RLIMIT_MEMLOCK, &small), 0);
	ck_assert_int_eq(rt_mem_lock_all_if_unlimited(), -EPERM);
	ck_assert_int_eq(rt_mem_locked_bytes(), 0);
}
END_TEST

START_TEST(unlocked_process_has_no_vmlck)
{
	ck_assert_int_eq(rt_mem_locked_bytes(), 0);
}
END_TEST

START_TEST(prefault_backs_pages)
{
	size_t len = 8 * 1024 * 1024;
	char *p = malloc(len);
	struct rusage before, after;

	ck_assert_ptr_nonnull(p);
	rt_mem_prefault(p, len);
	ck_assert_int_eq(getrusage(RUSAGE_SELF, &before), 0);
	memset(p, 1, len); /* every page already present: no new minor faults */
	ck_assert_int_eq(getrusage(RUSAGE_SELF, &after), 0);
	ck_assert_int_lt(after.ru_minflt - before.ru_minflt, 16);
	free(p);
	rt_mem_prefault(NULL, 0); /* empty range is a no-op */
}
END_TEST

START_TEST(prefault_stack_then_no_faults)
{
	struct rusage before, after;

	rt_mem_keep_heap();
	rt_mem_prefault_stack(256 * 1024);
	ck_assert_int_eq(getrusage(RUSAGE_SELF, &before), 0);
	rt_mem_prefault_stack(256 * 1024);
	ck_assert_int_eq(getrusage(RUSAGE_SELF, &after), 0);
	ck_assert_int_lt(after.ru_minflt - before.ru_minflt, 4);
}
END_TEST

Suite *unit_suite(void)
{
	Suite *s = suite_create("rt_mem");
	TCase *tc = tcase_create("locking_and_prefault");

	tcase_add_test(tc, unlocked_process_has_no_vmlck);
	tcase_add_test(tc, lock_all_shows_in_vmlck);
	tcase_add_test(tc, lock_if_unlimited_only_when_it_cannot_hurt);
	tcase_add_test(tc, prefault_backs_pages);
	tcase_add_test(tc, prefault_stack_then_no_faults);
	suite_add_tcase(s, tc);
	return s;
}
