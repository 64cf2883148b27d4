// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The thread-pair engine apart from any signal or mutex: a pipe per
 * participant carries the token (wait = read a byte, pass = write one).
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "unit.h"

#include "rt_pair.h"
#include "rt_signal.h"

#define MAXP 8

static int pipes[MAXP][2];
static sigset_t signals;

static void pipe_wait(struct rt_pair *p, int k)
{
	char c;

	(void)p;
	while (read(pipes[k][0], &c, 1) < 0 && errno == EINTR)
		;
}

static void pipe_pass(struct rt_pair *p, int from, int to)
{
	(void)p;
	(void)from;
	(void)!write(pipes[to][1], "t", 1);
}

static void pipe_wake(struct rt_pair *p, int k)
{
	pipe_pass(p, k, k);
}

static const struct rt_pair_mech pipe_mech = {
	.wait = pipe_wait, .pass = pipe_pass, .wake = pipe_wake,
};

static void setup(void)
{
	ck_assert_int_eq(rt_signal_setup(&signals), 0);
	for (int k = 0; k < MAXP; k++)
		ck_assert_int_eq(pipe(pipes[k]), 0);
}

static void teardown(void)
{
	for (int k = 0; k < MAXP; k++) {
		close(pipes[k][0]);
		close(pipes[k][1]);
	}
}

static struct rt_pair *make(int rings, int size, int starter, uint64_t loops, bool procs,
			    bool all_record)
{
	struct rt_pair_config cfg = {
		.rings = rings, .ring_size = size, .starter = starter, .counter = 0,
		.loops = loops, .processes = procs, .verbose = !procs, .ring_samples = 1024,
		.mech = &pipe_mech,
	};
	struct rt_pair *p = NULL;

	ck_assert_int_eq(rt_pair_create(&p, &cfg), 0);
	for (int k = 0; k < rings * size; k++)
		rt_pair_part(p, k)->role.records = all_record || k % size == 0;
	return p;
}

START_TEST(rejects_bad_config)
{
	struct rt_pair_config cfg = { .rings = 1, .ring_size = 1, .mech = &pipe_mech };
	struct rt_pair *p;

	ck_assert_int_eq(rt_pair_create(&p, &cfg), -EINVAL);
	cfg.ring_size = 2;
	cfg.starter = 2;
	ck_assert_int_eq(rt_pair_create(&p, &cfg), -EINVAL);
	cfg.starter = 0;
	cfg.verbose = true; /* a process's ring would be its private copy */
	cfg.processes = true;
	ck_assert_int_eq(rt_pair_create(&p, &cfg), -EINVAL);
	cfg.verbose = false;
	cfg.processes = false;
	cfg.mech = NULL;
	ck_assert_int_eq(rt_pair_create(&p, &cfg), -EINVAL);
}
END_TEST

START_TEST(ring_every_member_counts_loops)
{
	struct rt_pair *p = make(1, 3, 0, 50, false, true);
	struct rt_ring_sample s;

	ck_assert_int_eq(rt_pair_start(p), 0);
	ck_assert_int_eq(rt_pair_run(p, &signals, 10LL * 1000000000, -1, NULL, NULL), 0);
	rt_pair_stop(p);
	for (int k = 0; k < 3; k++) {
		struct rt_pair_part *pt = rt_pair_part(p, k);
		uint64_t n = 0;

		ck_assert_uint_eq(pt->ws.stats.stats.count, 50);
		ck_assert_int_le(pt->ws.stats.stats.min, pt->ws.stats.stats.max);
		ck_assert_int_ge(pt->ws.stats.stats.min, 0);
		ck_assert_int_gt(atomic_load(&pt->ws.tid), 0);
		ck_assert(rt_pair_done(p, k));
		while (rt_ring_pop(&pt->ws.ring, &s))
			ck_assert_uint_eq(s.cycle, n++);
		ck_assert_uint_eq(n, 50); /* every sample kept, numbered from 0 */
	}
	ck_assert_int_eq(rt_pair_break(p, NULL), -1);
	rt_pair_destroy(p);
}
END_TEST

static void pairs_count_loops(bool procs)
{
	struct rt_pair *p = make(2, 2, 1, 40, procs, false);

	ck_assert_int_eq(rt_pair_start(p), 0);
	rt_pair_run(p, &signals, 10LL * 1000000000, -1, NULL, NULL);
	rt_pair_stop(p);
	for (int i = 0; i < 2; i++) {
		struct rt_pair_part *rx = rt_pair_part(p, 2 * i), *tx = rt_pair_part(p, 2 * i + 1);

		ck_assert_uint_eq(rx->ws.stats.stats.count, 40); /* the receiver measures */
		ck_assert_uint_eq(tx->ws.stats.stats.count, 0);  /* the sender does not */
		ck_assert_uint_eq(atomic_load(&tx->sends), 40);
		if (procs)
			ck_assert_int_eq(tx->tgid, atomic_load(&tx->ws.tid)); /* its own process */
		else
			ck_assert_int_eq(tx->tgid, getpid());
	}
	rt_pair_destroy(p);
	if (procs)
		ck_assert_int_eq(waitpid(-1, NULL, WNOHANG), -1); /* every child reaped */
}

START_TEST(pairs_of_threads_count_loops)
{
	pairs_count_loops(false);
}
END_TEST

START_TEST(pairs_of_processes_count_loops)
{
	pairs_count_loops(true);
}
END_TEST

static int ticks;

static void count_tick(void *ctx)
{
	(void)ctx;
	ticks++;
}

START_TEST(endless_run_stops_on_duration_and_reaps)
{
	struct rt_pair *p = make(1, 2, 1, 0, true, false);

	ticks = 0;
	ck_assert_int_eq(rt_pair_start(p), 0);
	ck_assert_int_eq(rt_pair_run(p, &signals, 200 * 1000000LL, 20 * 1000000LL, count_tick, NULL), 0);
	ck_assert_int_ge(ticks, 3);
	rt_pair_stop(p);
	ck_assert_uint_gt(rt_pair_part(p, 0)->ws.stats.stats.count, 10);
	ck_assert(rt_pair_done(p, 0));
	ck_assert(rt_pair_done(p, 1));
	rt_pair_destroy(p);
	ck_assert_int_eq(waitpid(-1, NULL, WNOHANG), -1);
}
END_TEST

START_TEST(sigint_ends_the_run)
{
	struct rt_pair *p = make(1, 2, 1, 0, false, false);

	ck_assert_int_eq(rt_pair_start(p), 0);
	kill(getpid(), SIGINT); /* blocked by rt_signal_setup: taken by rt_pair_run */
	ck_assert_int_eq(rt_pair_run(p, &signals, 0, -1, NULL, NULL), SIGINT);
	rt_pair_stop(p);
	rt_pair_destroy(p);
}
END_TEST

START_TEST(break_stops_at_first_latency_over_limit)
{
	struct rt_pair_config cfg = {
		.rings = 1, .ring_size = 2, .starter = 1, .counter = 0, .break_us = 1,
		.mech = &pipe_mech,
	};
	struct rt_pair *p;
	int64_t v = 0;

	ck_assert_int_eq(rt_pair_create(&p, &cfg), 0);
	rt_pair_part(p, 0)->role.records = true;
	/* A hand-over through a pipe and a wakeup takes well over 1 us. */
	ck_assert_int_eq(rt_pair_start(p), 0);
	rt_pair_run(p, &signals, 10LL * 1000000000, -1, NULL, NULL);
	rt_pair_stop(p);
	ck_assert_int_eq(rt_pair_break(p, &v), 0);
	ck_assert_int_gt(v, 1);
	ck_assert_uint_le(rt_pair_part(p, 0)->ws.stats.stats.count, 1);
	rt_pair_destroy(p);
}
END_TEST

Suite *unit_suite(void)
{
	Suite *s = suite_create("rt_pair");
	TCase *tc = tcase_create("engine_with_pipe_mechanism");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 20);
	tcase_add_test(tc, rejects_bad_config);
	tcase_add_test(tc, ring_every_member_counts_loops);
	tcase_add_test(tc, pairs_of_threads_count_loops);
	tcase_add_test(tc, pairs_of_processes_count_loops);
	tcase_add_test(tc, endless_run_stops_on_duration_and_reaps);
	tcase_add_test(tc, sigint_ends_the_run);
	tcase_add_test(tc, break_stops_at_first_latency_over_limit);
	suite_add_tcase(s, tc);
	return s;
}
