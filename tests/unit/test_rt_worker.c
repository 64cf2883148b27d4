// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The worker lifecycle apart from any tool: workers that count their loops
 * until told to stop, finish on their own or break a limit. (Forked
 * workers: test_rt_pair.)
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "unit.h"

#include "rt_signal.h"
#include "rt_time.h"
#include "rt_worker.h"

#define N 4

static struct rt_workers *w;
static sigset_t signals;
static _Atomic int counted[N];
static int finish_after; /* iterations before a worker leaves on its own, 0 = never */

struct arg {
	int i;
};
static struct arg args[N];

static void *worker(void *p)
{
	int i = ((struct arg *)p)->i;
	struct timespec ms = { 0, 1000 * 1000 };

	rt_workers_arrive(w);
	for (int n = 0; !rt_workers_stopping(w); n++) {
		if (finish_after && n == finish_after)
			break;
		atomic_fetch_add(&counted[i], 1);
		if (i == 2 && n == 5 && finish_after < 0 && rt_workers_claim_break(w, i, 1234))
			rt_workers_request_stop(w);
		clock_nanosleep(CLOCK_MONOTONIC, 0, &ms, NULL);
	}
	rt_workers_finish(w, i);
	return NULL;
}

static void setup(void)
{
	ck_assert_int_eq(rt_signal_setup(&signals), 0);
	ck_assert_int_eq(rt_workers_new(&w, N), 0);
	ck_assert_ptr_nonnull(w);
	for (int i = 0; i < N; i++) {
		atomic_store(&counted[i], 0);
		args[i].i = i;
	}
}

static void teardown(void)
{
	rt_workers_free(&w);
	ck_assert_ptr_null(w);
	rt_workers_free(&w); /* a cleared set twice: nothing */
}

static void wake(void *ctx, int i)
{
	(void)ctx;
	pthread_kill(w->slot[i].thread, RT_SIGNAL_WAKE);
}

static void start_all(void)
{
	for (int i = 0; i < N; i++)
		ck_assert_int_eq(rt_workers_spawn_thread(w, i, NULL, worker, &args[i]), 0);
	ck_assert_int_eq(w->started, N);
	rt_workers_wait_ready(w);
	for (int i = 0; i < N; i++)
		ck_assert_int_eq(atomic_load(&counted[i]), 0); /* all at the gate, none past it */
	rt_workers_open(w);
}

START_TEST(workers_leaving_on_their_own_end_the_run)
{
	struct rt_workers_loop loop = { .signals = &signals, .clock = CLOCK_MONOTONIC,
					.deadline_ns = -1, .tick_ns = -1 };

	finish_after = 20;
	start_all();
	ck_assert_int_eq(rt_workers_run(w, &loop), 0);
	ck_assert(rt_workers_over(w));
	rt_workers_stop(w, wake, NULL, NULL);
	for (int i = 0; i < N; i++) {
		ck_assert_int_eq(atomic_load(&counted[i]), 20);
		ck_assert(atomic_load(&w->slot[i].done));
	}
	ck_assert_int_eq(rt_workers_break(w, NULL), -1);
}
END_TEST

static int ticks;
static void count_tick(void *ctx, int sig)
{
	(void)ctx;
	ticks += sig == 0;
}

START_TEST(deadline_ends_an_endless_run_and_ticks_come)
{
	struct timespec now;
	struct rt_workers_loop loop = { .signals = &signals, .clock = CLOCK_MONOTONIC,
					.tick_ns = 20 * 1000 * 1000LL, .on_wake = count_tick };

	finish_after = 0;
	ticks = 0;
	start_all();
	clock_gettime(CLOCK_MONOTONIC, &now);
	loop.deadline_ns = rt_time_to_ns(&now) + 200 * 1000 * 1000LL;
	ck_assert_int_eq(rt_workers_run(w, &loop), 0);
	clock_gettime(CLOCK_MONOTONIC, &now);
	ck_assert_int_ge(rt_time_to_ns(&now), loop.deadline_ns);
	ck_assert(!rt_workers_over(w));
	rt_workers_stop(w, wake, NULL, NULL);
	ck_assert_int_ge(ticks, 5);
	for (int i = 0; i < N; i++) {
		ck_assert_int_gt(atomic_load(&counted[i]), 10);
		ck_assert(atomic_load(&w->slot[i].done));
	}
}
END_TEST

START_TEST(sigint_ends_the_run_with_its_number)
{
	struct rt_workers_loop loop = { .signals = &signals, .clock = CLOCK_MONOTONIC,
					.deadline_ns = -1, .tick_ns = -1 };

	finish_after = 0;
	start_all();
	kill(getpid(), SIGINT);
	ck_assert_int_eq(rt_workers_run(w, &loop), SIGINT);
	rt_workers_stop(w, wake, NULL, NULL);
	for (int i = 0; i < N; i++)
		ck_assert(atomic_load(&w->slot[i].done));
}
END_TEST

START_TEST(first_break_wins_and_stops_everyone)
{
	struct rt_workers_loop loop = { .signals = &signals, .clock = CLOCK_MONOTONIC,
					.deadline_ns = -1, .tick_ns = -1 };
	int64_t v = 0;

	finish_after = -1;
	start_all();
	ck_assert_int_eq(rt_workers_run(w, &loop), 0);
	rt_workers_stop(w, wake, NULL, NULL);
	ck_assert_int_eq(rt_workers_break(w, &v), 2);
	ck_assert_int_eq(v, 1234);
	ck_assert(!rt_workers_claim_break(w, 1, 1)); /* only the first one */
	ck_assert_int_eq(atomic_load(&counted[2]), 6);
}
END_TEST

Suite *unit_suite(void)
{
	Suite *s = suite_create("rt_worker");
	TCase *tc = tcase_create("lifecycle");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, workers_leaving_on_their_own_end_the_run);
	tcase_add_test(tc, deadline_ends_an_endless_run_and_ticks_come);
	tcase_add_test(tc, sigint_ends_the_run_with_its_number);
	tcase_add_test(tc, first_break_wins_and_stops_everyone);
	suite_add_tcase(s, tc);
	return s;
}
