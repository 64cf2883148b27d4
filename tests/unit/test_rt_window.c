// SPDX-License-Identifier: GPL-2.0-or-later
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "unit.h"

#include "rt_json.h"
#include "rt_window.h"

START_TEST(a_switch_sends_the_next_samples_to_the_other_half)
{
	struct rt_window *w = malloc(sizeof(*w));
	struct rt_window_half *h;
	unsigned old;

	rt_window_init(w);
	rt_window_add(w, 5, 0);
	rt_window_add(w, 300, 2);
	old = rt_window_switch(w);
	ck_assert_uint_eq(old, 0);
	rt_window_add(w, 7, 3);
	ck_assert(rt_window_quiet(w));
	h = rt_window_take(w, old);
	ck_assert_uint_eq(h->stats.count, 2);
	ck_assert_int_eq(h->stats.min, 5);
	ck_assert_int_eq(h->stats.max, 300);
	ck_assert_uint_eq(h->hist.count, 2);
	ck_assert_uint_eq(h->overruns_total, 2);
	rt_window_clear(w, old);
	ck_assert_uint_eq(w->half[0].stats.count, 0);
	h = rt_window_take(w, 1);
	ck_assert_uint_eq(h->stats.count, 1);
	ck_assert_int_eq(h->stats.max, 7);
	ck_assert_uint_eq(h->overruns_total, 3);
	free(w);
}
END_TEST

#define SAMPLES 2000000

struct writer {
	struct rt_window *w;
	atomic_bool done;
	atomic_uint windows; /* taken by the reader so far */
};

/*
 * At each quarter the writer waits for the reader's next window: however
 * the two threads are scheduled, windows are taken while samples are added.
 */
static void *write_samples(void *arg)
{
	struct writer *wr = arg;

	for (int64_t i = 0; i < SAMPLES; i++) {
		if (i && i % (SAMPLES / 4) == 0) {
			unsigned seen = atomic_load(&wr->windows);

			while (atomic_load(&wr->windows) == seen)
				sched_yield();
		}
		rt_window_add(wr->w, i % 1000, (uint64_t)i);
	}
	atomic_store(&wr->done, true);
	return NULL;
}

/* The windows a reader takes while a writer adds add up to what it added. */
START_TEST(windows_taken_while_the_thread_adds_lose_and_repeat_nothing)
{
	struct writer wr = { malloc(sizeof(struct rt_window)), false, 0 };
	uint64_t count = 0, hist = 0;
	int64_t max = -1;
	unsigned windows = 0;
	pthread_t t;

	rt_window_init(wr.w);
	ck_assert_int_eq(pthread_create(&t, NULL, write_samples, &wr), 0);
	while (!atomic_load(&wr.done)) {
		unsigned old = rt_window_switch(wr.w);
		struct rt_window_half *h;

		while (!rt_window_quiet(wr.w))
			;
		h = rt_window_take(wr.w, old);
		count += h->stats.count;
		hist += h->hist.count;
		if (h->stats.count && h->stats.max > max)
			max = h->stats.max;
		rt_window_clear(wr.w, old);
		windows++;
		atomic_store(&wr.windows, windows);
	}
	pthread_join(t, NULL);
	for (unsigned i = 0; i < 2; i++) {
		struct rt_window_half *h = rt_window_take(wr.w, i);

		count += h->stats.count;
		hist += h->hist.count;
	}
	ck_assert_uint_gt(windows, 1);
	ck_assert_uint_eq(count, SAMPLES);
	ck_assert_uint_eq(hist, SAMPLES);
	ck_assert_int_le(max, 999);
	free(wr.w);
}
END_TEST

START_TEST(compact_json_is_one_line)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	struct rt_json j;

	rt_json_init_compact(&j, f);
	rt_json_object_begin(&j, NULL);
	rt_json_string(&j, "type", "window");
	rt_json_array_begin(&j, "a");
	rt_json_int(&j, NULL, 1);
	rt_json_int(&j, NULL, 2);
	rt_json_array_end(&j);
	rt_json_object_begin(&j, "o");
	rt_json_object_end(&j);
	rt_json_object_end(&j);
	ck_assert_int_eq(rt_json_finish(&j), 0);
	fclose(f);
	ck_assert_str_eq(text, "{\"type\":\"window\",\"a\":[1,2],\"o\":{}}\n");
	free(text);
}
END_TEST

Suite *unit_suite(void)
{
	Suite *s = suite_create("rt_window");
	TCase *tc = tcase_create("window");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, a_switch_sends_the_next_samples_to_the_other_half);
	tcase_add_test(tc, windows_taken_while_the_thread_adds_lose_and_repeat_nothing);
	tcase_add_test(tc, compact_json_is_one_line);
	suite_add_tcase(s, tc);
	return s;
}
