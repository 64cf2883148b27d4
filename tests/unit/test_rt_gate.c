// SPDX-License-Identifier: GPL-2.0-or-later
/* The start gate: nobody passes before it opens; main sees every arrival. */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "unit.h"

#include "rt_gate.h"

#define N 6

static struct rt_gate gate;
static _Atomic int passed;

static void *participant(void *arg)
{
	(void)arg;
	rt_gate_arrive(&gate);
	atomic_fetch_add(&passed, 1);
	return NULL;
}

START_TEST(nobody_passes_before_open_and_all_pass_after)
{
	pthread_t t[N];
	struct timespec pause = { 0, 50 * 1000 * 1000 };

	ck_assert_int_eq(rt_gate_init(&gate, false), 0);
	atomic_store(&passed, 0);
	for (int i = 0; i < N; i++)
		ck_assert_int_eq(pthread_create(&t[i], NULL, participant, NULL), 0);
	rt_gate_wait_arrived(&gate, N);
	ck_assert_int_eq(gate.arrived, N);
	nanosleep(&pause, NULL); /* time to run past a broken gate */
	ck_assert_int_eq(atomic_load(&passed), 0);
	rt_gate_open(&gate);
	for (int i = 0; i < N; i++)
		pthread_join(t[i], NULL);
	ck_assert_int_eq(atomic_load(&passed), N);
	rt_gate_destroy(&gate);
}
END_TEST

START_TEST(opened_gate_lets_late_arrivals_through)
{
	ck_assert_int_eq(rt_gate_init(&gate, false), 0);
	rt_gate_open(&gate);
	rt_gate_wait_arrived(&gate, 3); /* open: does not wait for participants that never came */
	rt_gate_arrive(&gate);          /* does not block */
	ck_assert_int_eq(gate.arrived, 1);
	rt_gate_destroy(&gate);
}
END_TEST

START_TEST(shared_gate_holds_a_forked_process)
{
	struct rt_gate *g = mmap(NULL, sizeof(*g) + sizeof(int), PROT_READ | PROT_WRITE,
				 MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	_Atomic int *flag = (_Atomic int *)(g + 1);
	struct timespec pause = { 0, 50 * 1000 * 1000 };
	int status;
	pid_t pid;

	ck_assert_ptr_ne(g, MAP_FAILED);
	ck_assert_int_eq(rt_gate_init(g, true), 0);
	atomic_store(flag, 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		rt_gate_arrive(g);
		atomic_store(flag, 1);
		_exit(0);
	}
	rt_gate_wait_arrived(g, 1);
	nanosleep(&pause, NULL);
	ck_assert_int_eq(atomic_load(flag), 0);
	rt_gate_open(g);
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	ck_assert_int_eq(atomic_load(flag), 1);
	rt_gate_destroy(g);
	munmap(g, sizeof(*g) + sizeof(int));
}
END_TEST

/* ------------------------------------------------------------ cyclic: the barrier */

#define THREADS 3
#define PASSES 20000

struct bar_ctx {
	struct rt_gate b;
	_Atomic int stop;
	_Atomic unsigned arrived;  /* incremented before each pass */
	_Atomic int bad;           /* a passage that saw another round's count */
};

static void *passer(void *arg)
{
	struct bar_ctx *c = arg;

	for (unsigned i = 0; i < PASSES; i++) {
		atomic_fetch_add(&c->arrived, 1);
		if (!rt_gate_pass(&c->b, &c->stop))
			return NULL;
		/* everyone of this round has arrived; no one of the next can pass */
		if (atomic_load(&c->arrived) != THREADS * (i + 1))
			atomic_store(&c->bad, 1);
		if (!rt_gate_pass(&c->b, &c->stop))
			return NULL;
	}
	return NULL;
}

START_TEST(cyclic_gate_passes_whole_rounds)
{
	static struct bar_ctx c;
	pthread_t t[THREADS];

	memset(&c, 0, sizeof(c));
	ck_assert_int_eq(rt_gate_init_cyclic(&c.b, THREADS, false), 0);
	for (int i = 0; i < THREADS; i++)
		ck_assert_int_eq(pthread_create(&t[i], NULL, passer, &c), 0);
	for (int i = 0; i < THREADS; i++)
		pthread_join(t[i], NULL);
	ck_assert_int_eq(atomic_load(&c.bad), 0);
	ck_assert_uint_eq(atomic_load(&c.arrived), THREADS * PASSES);
	ck_assert_int_eq(rt_gate_init_cyclic(&c.b, 0, false), -EINVAL);
}
END_TEST

static void *waiter(void *arg)
{
	struct bar_ctx *c = arg;

	return (void *)(long)rt_gate_pass(&c->b, &c->stop);
}

START_TEST(cyclic_gate_break_releases_waiters_with_false)
{
	static struct bar_ctx c;
	pthread_t t[2];
	void *r;
	struct timespec ms = { 0, 1000 * 1000 };

	memset(&c, 0, sizeof(c));
	ck_assert_int_eq(rt_gate_init_cyclic(&c.b, 3, false), 0);
	for (int i = 0; i < 2; i++)
		ck_assert_int_eq(pthread_create(&t[i], NULL, waiter, &c), 0);
	while (atomic_load(&c.b.arrived) < 2)
		nanosleep(&ms, NULL);
	atomic_store(&c.stop, 1);
	rt_gate_break(&c.b);
	for (int i = 0; i < 2; i++) {
		pthread_join(t[i], &r);
		ck_assert_int_eq((long)r, 0);
	}
	/* once stopped, a late arrival does not wait */
	ck_assert(!rt_gate_pass(&c.b, &c.stop));
	rt_gate_destroy(&c.b);
}
END_TEST

/* A shared cyclic gate works across fork(): the child and the parent pass rounds together. */
START_TEST(shared_cyclic_gate_across_fork)
{
	struct bar_ctx *c = mmap(NULL, sizeof(*c), PROT_READ | PROT_WRITE,
				 MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	int status;
	pid_t pid;

	ck_assert_ptr_ne(c, MAP_FAILED);
	memset(c, 0, sizeof(*c));
	ck_assert_int_eq(rt_gate_init_cyclic(&c->b, 2, true), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		for (int i = 0; i < 1000; i++)
			if (!rt_gate_pass(&c->b, &c->stop))
				_exit(1);
		_exit(0);
	}
	for (int i = 0; i < 1000; i++)
		ck_assert(rt_gate_pass(&c->b, &c->stop));
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	munmap(c, sizeof(*c));
}
END_TEST

Suite *unit_suite(void)
{
	Suite *s = suite_create("rt_gate");
	TCase *tc = tcase_create("start_gate");

	tcase_add_test(tc, nobody_passes_before_open_and_all_pass_after);
	tcase_add_test(tc, opened_gate_lets_late_arrivals_through);
	tcase_add_test(tc, shared_gate_holds_a_forked_process);
	tcase_add_test(tc, cyclic_gate_passes_whole_rounds);
	tcase_add_test(tc, cyclic_gate_break_releases_waiters_with_false);
	tcase_add_test(tc, shared_cyclic_gate_across_fork);
	suite_add_tcase(s, tc);
	return s;
}
