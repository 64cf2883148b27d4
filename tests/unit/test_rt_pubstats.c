// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The published statistics: a reader racing the one writer never sees a
 * torn snapshot. The writer adds 0, 1, 2, ... so every consistent snapshot
 * satisfies count = last + 1 = max + 1, min = 0, sum = count(count-1)/2; a
 * copy mixing two updates breaks one of them.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <time.h>

#include "unit.h"

#include "rt_pubstats.h"

#define WANT_MOVING 20000      /* snapshots taken while the writer runs */
#define BUDGET_NS 3000000000LL  /* at most this long, also on a loaded machine */

static struct rt_pubstats pub;
static _Atomic int writer_stop;

static void *writer(void *arg)
{
	(void)arg;
	for (int64_t v = 0; !atomic_load_explicit(&writer_stop, memory_order_relaxed); v++) {
		rt_pubstats_add(&pub, v);
		/* A short pause: a reader may retry, but must not starve. */
		for (volatile int k = 0; k < 100; k++)
			;
	}
	return NULL;
}

static int64_t now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (int64_t)t.tv_sec * 1000000000LL + t.tv_nsec;
}

/* The snapshot could have been taken between two updates. */
static bool consistent(const struct rt_stats *s)
{
	int64_t n = (int64_t)s->count;

	return n == 0 || (s->min == 0 && s->max == n - 1 && s->last == n - 1 &&
			  s->sum == n * (n - 1) / 2);
}

START_TEST(reader_racing_the_writer_sees_only_whole_snapshots)
{
	pthread_t t;
	struct rt_stats s;
	uint64_t reads = 0, torn = 0, backwards = 0, seen_moving = 0, prev = 0;

	int64_t end = now_ns() + BUDGET_NS;

	rt_pubstats_init(&pub);
	atomic_store(&writer_stop, 0);
	ck_assert_int_eq(pthread_create(&t, NULL, writer, NULL), 0);
	/* No assertion in the loop: check's bookkeeping would slow the reader. */
	while (seen_moving < WANT_MOVING && (reads % 1024 || now_ns() < end)) {
		rt_pubstats_read(&pub, &s);
		torn += !consistent(&s);
		backwards += s.count < prev;
		seen_moving += s.count != prev && prev != 0;
		prev = s.count;
		reads++;
	}
	atomic_store(&writer_stop, 1);
	pthread_join(t, NULL);
	ck_assert_uint_eq(torn, 0);
	ck_assert_uint_eq(backwards, 0);
	rt_pubstats_read(&pub, &s);
	ck_assert(consistent(&s));
	ck_assert_uint_ge(s.count, prev);
	/* The race really happened: snapshots taken while the writer ran. */
	ck_assert_uint_gt(seen_moving, 50);
}
END_TEST

START_TEST(sequence_is_even_after_every_update)
{
	rt_pubstats_init(&pub);
	for (int i = 0; i < 10; i++) {
		rt_pubstats_add(&pub, i);
		ck_assert_uint_eq(atomic_load(&pub.seq), 2u * (unsigned)(i + 1));
	}
}
END_TEST

Suite *unit_suite(void)
{
	Suite *s = suite_create("rt_pubstats");
	TCase *tc = tcase_create("seqlock");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, reader_racing_the_writer_sees_only_whole_snapshots);
	tcase_add_test(tc, sequence_is_even_after_every_update);
	suite_add_tcase(s, tc);
	return s;
}
