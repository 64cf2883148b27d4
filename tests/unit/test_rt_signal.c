// SPDX-License-Identifier: GPL-2.0-or-later
/* Control signals taken synchronously; the wake signal interrupts a sleep. */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <time.h>
#include <unistd.h>

#include "unit.h"

#include "rt_signal.h"
#include "rt_time.h"

START_TEST(control_signals_are_blocked_and_waited_for)
{
	sigset_t set, cur;
	int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGUSR1, SIGUSR2, SIGALRM };

	ck_assert_int_eq(rt_signal_setup(&set), 0);
	ck_assert_int_eq(pthread_sigmask(SIG_BLOCK, NULL, &cur), 0);
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
		ck_assert(sigismember(&set, sigs[i]));
		ck_assert(sigismember(&cur, sigs[i]));
		/* Delivered while blocked: it waits until taken, it does not kill us. */
		ck_assert_int_eq(kill(getpid(), sigs[i]), 0);
		ck_assert_int_eq(rt_signal_wait(&set, 1000 * 1000 * 1000LL), sigs[i]);
	}
	ck_assert(sigismember(&set, RT_SIGNAL_DONE));
	ck_assert(!sigismember(&set, RT_SIGNAL_WAKE));
}
END_TEST

START_TEST(sigpipe_is_ignored_so_a_gone_reader_is_epipe)
{
	sigset_t set;
	int fds[2];

	ck_assert_int_eq(rt_signal_setup(&set), 0);
	ck_assert_int_eq(pipe(fds), 0);
	close(fds[0]);
	/* Forked by check: a SIGPIPE would end this process, failing the test. */
	ck_assert_int_eq(write(fds[1], "x", 1), -1);
	ck_assert_int_eq(errno, EPIPE);
	close(fds[1]);
}
END_TEST

START_TEST(wait_times_out_with_zero)
{
	sigset_t set;
	struct timespec a, b;

	ck_assert_int_eq(rt_signal_setup(&set), 0);
	clock_gettime(CLOCK_MONOTONIC, &a);
	ck_assert_int_eq(rt_signal_wait(&set, 30 * 1000 * 1000LL), 0);
	clock_gettime(CLOCK_MONOTONIC, &b);
	ck_assert_int_ge(rt_time_diff_ns(&b, &a), 29 * 1000 * 1000LL);
}
END_TEST

static _Atomic int sleep_result;
static _Atomic int sleeping;

static void *sleeper(void *arg)
{
	struct timespec ten = { 10, 0 };

	(void)arg;
	atomic_store(&sleeping, 1);
	atomic_store(&sleep_result, clock_nanosleep(CLOCK_MONOTONIC, 0, &ten, NULL));
	return NULL;
}

START_TEST(wake_signal_interrupts_a_sleeping_thread)
{
	sigset_t set;
	pthread_t t;
	struct timespec a, b, tick = { 0, 20 * 1000 * 1000 };

	ck_assert_int_eq(rt_signal_setup(&set), 0);
	atomic_store(&sleep_result, -1);
	atomic_store(&sleeping, 0);
	clock_gettime(CLOCK_MONOTONIC, &a);
	ck_assert_int_eq(pthread_create(&t, NULL, sleeper, NULL), 0);
	while (!atomic_load(&sleeping))
		nanosleep(&tick, NULL);
	nanosleep(&tick, NULL);
	ck_assert_int_eq(pthread_kill(t, RT_SIGNAL_WAKE), 0);
	pthread_join(t, NULL);
	clock_gettime(CLOCK_MONOTONIC, &b);
	ck_assert_int_eq(atomic_load(&sleep_result), EINTR); /* no SA_RESTART */
	ck_assert_int_lt(rt_time_diff_ns(&b, &a), 5 * RT_NSEC_PER_SEC);
}
END_TEST

Suite *unit_suite(void)
{
	Suite *s = suite_create("rt_signal");
	TCase *tc = tcase_create("signals");

	tcase_add_test(tc, control_signals_are_blocked_and_waited_for);
	tcase_add_test(tc, sigpipe_is_ignored_so_a_gone_reader_is_epipe);
	tcase_add_test(tc, wait_times_out_with_zero);
	tcase_add_test(tc, wake_signal_interrupts_a_sleeping_thread);
	suite_add_tcase(s, tc);
	return s;
}
