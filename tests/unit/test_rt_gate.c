// SPDX-License-Identifier: GPL-2.0-or-later
/* The start gate: nobody passes before it opens; main sees every arrival. */
#include <pthread.h>
#include <stdatomic.h>
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

Suite *unit_suite(void)
{
	Suite *s = suite_create("rt_gate");
	TCase *tc = tcase_create("start_gate");

	tcase_add_test(tc, nobody_passes_before_open_and_all_pass_after);
	tcase_add_test(tc, opened_gate_lets_late_arrivals_through);
	tcase_add_test(tc, shared_gate_holds_a_forked_process);
	suite_add_tcase(s, tc);
	return s;
}
