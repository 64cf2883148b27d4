// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pi_stress's pure parts: the option parser's configuration (--sched per
 * thread type, -r, the defaults) and the breakable futex barrier (every
 * passage is a whole generation; a stop releases the waiters with false).
 */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "unit.h"

#include "rt_prog.h"

#include "../../src/pi_stress/barrier.h"
#include "../../src/pi_stress/options.h"
#include "../../src/pi_stress/sched_attr.h"

static struct pi_stress_config cfg;

static int parse(const char *args)
{
	static char words[1024];
	char *argv[64];
	int argc = 0;

	snprintf(words, sizeof(words), "%s", args);
	argv[argc++] = (char *)"pi_stress";
	for (char *w = strtok(words, " "); w && argc < 63; w = strtok(NULL, " "))
		argv[argc++] = w;
	argv[argc] = NULL;
	rt_prog_init("pi_stress");
	return pi_stress_parse_args(&cfg, argc, argv);
}

START_TEST(defaults_are_2_4s)
{
	long online = sysconf(_SC_NPROCESSORS_ONLN);

	ck_assert_int_eq(parse(""), 0);
	ck_assert_int_eq(cfg.groups, online > 1 ? online - 1 : 1);
	ck_assert_uint_eq(cfg.inversions, 0);
	ck_assert_uint_eq(cfg.duration_s, 0);
	ck_assert_uint_eq(cfg.watchdog_ms, 3750);
	for (int r = 0; r < PIS_ROLES; r++) {
		ck_assert_int_eq(cfg.sched[r].policy, SCHED_FIFO);
		ck_assert_int_eq(cfg.sched[r].priority, r + 1);
	}
	ck_assert(!cfg.no_pi && !cfg.uniprocessor && !cfg.quiet);
}
END_TEST

START_TEST(values_land_in_the_config)
{
	ck_assert_int_eq(parse("-g 3 -i 5 -D 2m -u -q -m -d -v -p --no-pi --watchdog=2 -r "
			       "-s id=high,policy=deadline,runtime=1000,deadline=2000,period=3000 "
			       "--sched=id=med,policy=other,nice=5"), 0);
	ck_assert_int_eq(cfg.groups, 3);
	ck_assert_uint_eq(cfg.inversions, 5);
	ck_assert_uint_eq(cfg.duration_s, 120);
	ck_assert(cfg.uniprocessor && cfg.quiet && cfg.mlockall && cfg.debug && cfg.verbose &&
		  cfg.prompt && cfg.no_pi);
	ck_assert_uint_eq(cfg.watchdog_ms, 2000);
	ck_assert_int_eq(cfg.sched[PIS_HIGH].policy, SCHED_DEADLINE);
	ck_assert_uint_eq(cfg.sched[PIS_HIGH].runtime_ns, 1000);
	ck_assert_uint_eq(cfg.sched[PIS_HIGH].deadline_ns, 2000);
	ck_assert_uint_eq(cfg.sched[PIS_HIGH].period_ns, 3000);
	ck_assert_int_eq(cfg.sched[PIS_MED].policy, SCHED_OTHER);
	ck_assert_int_eq(cfg.sched[PIS_MED].nice, 5);
	/* -r: RR where --sched did not say otherwise, the priorities kept */
	ck_assert_int_eq(cfg.sched[PIS_LOW].policy, SCHED_RR);
	ck_assert_int_eq(cfg.sched[PIS_LOW].priority, 1);
	ck_assert_int_eq(cfg.sched[PIS_ADMIN].policy, SCHED_RR);
	ck_assert_int_eq(cfg.sched[PIS_ADMIN].priority, 4);
}
END_TEST

START_TEST(sched_priority_alone_keeps_the_policy)
{
	ck_assert_int_eq(parse("-s id=high,priority=20 -s id=med,policy=rr,priority=10"), 0);
	ck_assert_int_eq(cfg.sched[PIS_HIGH].policy, SCHED_FIFO);
	ck_assert_int_eq(cfg.sched[PIS_HIGH].priority, 20);
	ck_assert_int_eq(cfg.sched[PIS_MED].policy, SCHED_RR);
	ck_assert_int_eq(cfg.sched[PIS_MED].priority, 10);
	ck_assert_int_eq(cfg.sched[PIS_LOW].priority, 1);
}
END_TEST

/* ------------------------------------------------------------ the barrier */

#define THREADS 3
#define PASSES 20000

struct bar_ctx {
	struct pis_barrier b;
	int stop;
	unsigned arrived;   /* incremented before each wait */
	int bad;            /* a passage that saw another generation's count */
};

static void *passer(void *arg)
{
	struct bar_ctx *c = arg;

	for (unsigned i = 0; i < PASSES; i++) {
		__atomic_add_fetch(&c->arrived, 1, __ATOMIC_ACQ_REL);
		if (!pis_barrier_wait(&c->b))
			return NULL;
		/* everyone of this generation has arrived; no one of the next can pass */
		unsigned seen = __atomic_load_n(&c->arrived, __ATOMIC_ACQUIRE);
		if (seen != THREADS * (i + 1))
			__atomic_store_n(&c->bad, 1, __ATOMIC_RELAXED);
		if (!pis_barrier_wait(&c->b))
			return NULL;
	}
	return NULL;
}

START_TEST(barrier_passes_whole_generations)
{
	static struct bar_ctx c;
	pthread_t t[THREADS];

	memset(&c, 0, sizeof(c));
	pis_barrier_init(&c.b, THREADS, &c.stop);
	for (int i = 0; i < THREADS; i++)
		ck_assert_int_eq(pthread_create(&t[i], NULL, passer, &c), 0);
	for (int i = 0; i < THREADS; i++)
		pthread_join(t[i], NULL);
	ck_assert_int_eq(c.bad, 0);
	ck_assert_uint_eq(c.arrived, THREADS * PASSES);
}
END_TEST

static void *waiter(void *arg)
{
	struct bar_ctx *c = arg;

	return (void *)(long)pis_barrier_wait(&c->b);
}

START_TEST(barrier_break_releases_waiters_with_false)
{
	static struct bar_ctx c;
	pthread_t t[2];
	void *r;

	memset(&c, 0, sizeof(c));
	pis_barrier_init(&c.b, 3, &c.stop);
	for (int i = 0; i < 2; i++)
		ck_assert_int_eq(pthread_create(&t[i], NULL, waiter, &c), 0);
	while (__atomic_load_n(&c.b.count, __ATOMIC_ACQUIRE) < 2)
		usleep(1000);
	__atomic_store_n(&c.stop, 1, __ATOMIC_RELEASE);
	pis_barrier_break(&c.b);
	for (int i = 0; i < 2; i++) {
		pthread_join(t[i], &r);
		ck_assert_int_eq((long)r, 0);
	}
	/* once stopped, a late arrival does not wait */
	ck_assert(!pis_barrier_wait(&c.b));
}
END_TEST

Suite *unit_suite(void)
{
	Suite *s = suite_create("pi_stress");
	TCase *tc = tcase_create("pi_stress");

	tcase_add_test(tc, defaults_are_2_4s);
	tcase_add_test(tc, values_land_in_the_config);
	tcase_add_test(tc, sched_priority_alone_keeps_the_policy);
	tcase_add_test(tc, barrier_passes_whole_generations);
	tcase_add_test(tc, barrier_break_releases_waiters_with_false);
	tcase_set_timeout(tc, 30);
	suite_add_tcase(s, tc);
	return s;
}
