// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
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

START_TEST(lock_all_shows_in_vmlck)
{
	struct rlimit rl;

	ck_assert_int_eq(getrlimit(RLIMIT_MEMLOCK, &rl), 0);
	if (MLOCK_IS_NOOP)
		unit_skip("ASan makes mlockall a no-op that succeeds, VmLck stays 0");
	if (geteuid() != 0 && rl.rlim_cur != RLIM_INFINITY)
		unit_skip("locking everything needs root or an unlimited RLIMIT_MEMLOCK");
	ck_assert_int_eq(rt_mem_locked_bytes(), 0);
	ck_assert_int_eq(rt_mem_lock_all(), 0);
	ck_assert_int_gt(rt_mem_locked_bytes(), 0);
}
END_TEST

START_TEST(lock_all_under_a_small_limit_fails_with_enomem)
{
	struct rlimit small = { 64 * 1024, 64 * 1024 };

	if (MLOCK_IS_NOOP)
		unit_skip("ASan makes mlockall a no-op that succeeds");
	ck_assert_int_eq(setrlimit(RLIMIT_MEMLOCK, &small), 0);
	/* Root may lock past the limit (CAP_IPC_LOCK): this case runs as nobody. */
	if (geteuid() == 0 && (setgid(65534) != 0 || setuid(65534) != 0))
		ck_abort_msg("cannot drop to uid 65534");
	ck_assert_int_eq(rt_mem_lock_all(), -ENOMEM);
	ck_assert_int_eq(rt_mem_locked_bytes(), 0);
}
END_TEST

START_TEST(lock_if_unlimited_only_when_it_cannot_hurt)
{
	struct rlimit small = { 64 * 1024, 64 * 1024 };

	if (geteuid() == 0) {
		if (MLOCK_IS_NOOP)
			unit_skip("ASan makes mlockall a no-op that succeeds, VmLck stays 0");
		ck_assert_int_eq(rt_mem_lock_all_if_unlimited(), 0);
		ck_assert_int_gt(rt_mem_locked_bytes(), 0);
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

/* Pages that [p, p + len) spans. */
static size_t spanned_pages(void *p, size_t len)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	uintptr_t start = (uintptr_t)p & ~(page - 1);

	return ((uintptr_t)p + len - start + page - 1) / page;
}

/* Of those, the pages resident now (mincore). */
static size_t resident_pages(void *p, size_t len)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	uintptr_t start = (uintptr_t)p & ~(page - 1);
	size_t n = spanned_pages(p, len), in = 0;
	unsigned char *vec = calloc(n, 1);

	ck_assert_ptr_nonnull(vec);
	ck_assert_int_eq(mincore((void *)start, n * page, vec), 0);
	for (size_t i = 0; i < n; i++)
		in += vec[i] & 1;
	free(vec);
	return in;
}

START_TEST(prefault_backs_fresh_pages)
{
	size_t len = 4 * 1024 * 1024, page = (size_t)sysconf(_SC_PAGESIZE);
	char *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	ck_assert_ptr_ne(p, MAP_FAILED);
	ck_assert_uint_eq(resident_pages(p, len), 0); /* fresh: nothing backed yet */
	rt_mem_prefault(p, len);
	ck_assert_uint_eq(resident_pages(p, len), len / page);
	munmap(p, len);
	rt_mem_prefault(NULL, 0); /* empty range is a no-op */
}
END_TEST

START_TEST(alloc_pages_are_zeroed_and_untouched_until_used)
{
	size_t len = 30 * 1024 + 1, page = (size_t)sysconf(_SC_PAGESIZE);
	unsigned char *p = rt_mem_alloc_pages(len);

	ck_assert_ptr_nonnull(p);
	ck_assert_uint_eq((uintptr_t)p % page, 0);
	/* Backed only at first touch: by the thread that uses it, on its node. */
	ck_assert_uint_eq(resident_pages(p, len), 0);
	for (size_t i = 0; i < len; i++)
		ck_assert_uint_eq(p[i], 0);
	memset(p, 1, len);
	ck_assert_uint_eq(resident_pages(p, len), (len + page - 1) / page);
	rt_mem_free_pages(p, len);
	rt_mem_free_pages(NULL, len); /* like free(NULL) */
}
END_TEST

#define THREAD_STACK (256 * 1024)
#define PREFAULT (128 * 1024)

struct stack_probe {
	size_t before, after; /* resident pages below the frame, before and after */
	size_t spanned;       /* pages of that range */
};

/* In a thread of its own: a fresh, unlocked stack, untouched below us. */
static void *probe_stack(void *arg)
{
	struct stack_probe *r = arg;
	char here;
	char *below = (char *)((uintptr_t)&here - PREFAULT);

	/* Leave the page we run on and the next out: prefault's own frames. */
	r->before = resident_pages(below, PREFAULT - 2 * 4096);
	rt_mem_prefault_stack(PREFAULT);
	r->after = resident_pages(below, PREFAULT - 2 * 4096);
	r->spanned = spanned_pages(below, PREFAULT - 2 * 4096);
	return NULL;
}

START_TEST(prefault_stack_backs_the_pages_below_the_caller)
{
	struct stack_probe r = { 0, 0, 0 };
	pthread_attr_t attr;
	pthread_t t;

	if (rt_mem_locked_bytes() > 0)
		unit_skip("memory is locked: every stack page is resident from the start");
	ck_assert_int_eq(pthread_attr_init(&attr), 0);
	ck_assert_int_eq(pthread_attr_setstacksize(&attr, THREAD_STACK), 0);
	ck_assert_int_eq(pthread_create(&t, &attr, probe_stack, &r), 0);
	pthread_join(t, NULL);
	pthread_attr_destroy(&attr);
	/* A fresh stack (reused ones are not given to the first thread) ... */
	ck_assert_uint_lt(r.before, 4);
	/* ... and afterwards every page down to PREFAULT below the caller. */
	ck_assert_uint_ge(r.spanned, (PREFAULT - 2 * 4096) / 4096);
	ck_assert_uint_eq(r.after, r.spanned);
}
END_TEST

Suite *unit_suite(void)
{
	Suite *s = suite_create("rt_mem");
	TCase *tc = tcase_create("locking_and_prefault");
	TCase *rt = tcase_create("privileged");

	tcase_add_test(tc, unlocked_process_has_no_vmlck);
	tcase_add_test(tc, lock_all_under_a_small_limit_fails_with_enomem);
	tcase_add_test(tc, lock_if_unlimited_only_when_it_cannot_hurt);
	tcase_add_test(tc, prefault_backs_fresh_pages);
	tcase_add_test(tc, alloc_pages_are_zeroed_and_untouched_until_used);
	tcase_add_test(tc, prefault_stack_backs_the_pages_below_the_caller);
	suite_add_tcase(s, tc);
	/* root or an unlimited RLIMIT_MEMLOCK: make check-rt */
	tcase_set_tags(rt, UNIT_TAG_RT);
	tcase_add_test(rt, lock_all_shows_in_vmlck);
	suite_add_tcase(s, rt);
	return s;
}
