// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "unit.h"

#include "rt_hist.h"

/* Render a set into a malloc'd string. */
static char *render(const struct rt_hist_set *set)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(rt_hist_write(f, set), 0);
	fclose(f);
	return buf;
}

START_TEST(init_rejects_zero_buckets)
{
	struct rt_hist h;

	ck_assert_int_eq(rt_hist_init(&h, 0, 4), -EINVAL);
	ck_assert_int_eq(rt_hist_init(&h, 4, 0), 0);
	rt_hist_add(&h, 10, 0); /* overflow without a log must not write anywhere */
	ck_assert_uint_eq(h.overflows, 1);
	ck_assert_uint_eq(rt_hist_unlogged(&h), 1);
	rt_hist_free(&h);
}
END_TEST

START_TEST(buckets_and_overflows_sum_to_samples)
{
	struct rt_hist h;

	ck_assert_int_eq(rt_hist_init(&h, 10, 3), 0);
	for (int i = 0; i < 25; i++)
		rt_hist_add(&h, i, (uint64_t)i);
	ck_assert_uint_eq(h.total, 10);
	ck_assert_uint_eq(h.overflows, 15);
	ck_assert_uint_eq(h.total + h.overflows, 25);
	ck_assert_uint_eq(h.oflow_logged, 3); /* capped */
	ck_assert_uint_eq(h.oflow_log[0], 10);
	ck_assert_uint_eq(h.oflow_log[2], 12);
	ck_assert_uint_eq(rt_hist_unlogged(&h), 12);
	rt_hist_add(&h, -3, 25); /* a clock step back lands in bucket 0 */
	ck_assert_uint_eq(h.buckets[0], 2);
	rt_hist_free(&h);
}
END_TEST

START_TEST(next_nonempty_walks_buckets)
{
	struct rt_hist h;

	ck_assert_int_eq(rt_hist_init(&h, 8, 0), 0);
	rt_hist_add(&h, 2, 0);
	rt_hist_add(&h, 5, 1);
	ck_assert_uint_eq(rt_hist_next_nonempty(&h, 0), 2);
	ck_assert_uint_eq(rt_hist_next_nonempty(&h, 3), 5);
	ck_assert_uint_eq(rt_hist_next_nonempty(&h, 6), 8);
	rt_hist_free(&h);
}
END_TEST

START_TEST(layout_one_thread_matches_2_4)
{
	struct rt_hist h;
	struct rt_stats s;
	struct rt_hist_set set = { .n = 1, .hists = &h, .stats = &s, .flags = RT_HIST_SUM_COLUMN };
	char *out;
	static const char want[] =
		"# Histogram\n"
		"000000 000000\n"
		"000001 000002\n"
		"000002 000000\n"
		"# Total: 000000002\n"
		"# Min Latencies: 00001\n"
		"# Avg Latencies: 00002\n"
		"# Max Latencies: 00005\n"
		"# Histogram Overflows: 00001\n"
		"# Histogram Overflow at cycle number:\n"
		"# Thread 0: 00002\n"
		"\n";

	ck_assert_int_eq(rt_hist_init(&h, 3, 3), 0);
	rt_stats_init(&s);
	int64_t v[] = { 1, 1, 5 };
	for (int i = 0; i < 3; i++) {
		rt_hist_add(&h, v[i], (uint64_t)i);
		rt_stats_add(&s, v[i]);
	}
	out = render(&set); /* -H with one thread: no sum column, as 2.4 */
	ck_assert_str_eq(out, want);
	free(out);
	rt_hist_free(&h);
}
END_TEST

START_TEST(layout_two_threads_sum_column_and_others)
{
	struct rt_hist h[2];
	struct rt_stats s[2];
	struct rt_hist_set set = { .n = 2, .hists = h, .stats = s, .flags = RT_HIST_SUM_COLUMN };
	char *out;
	static const char want[] =
		"# Histogram\n"
		"000000 000001\t000000\t000001\n"
		"000001 000000\t000001\t000001\n"
		"# Total: 000000001 000000001 000000002\n"
		"# Min Latencies: 00000 00001\n"
		"# Avg Latencies: 00003 00001\n"
		"# Max Latencies: 00009 00001 00009\n"
		"# Histogram Overflows: 00003 00000 00003\n"
		"# Histogram Overflow at cycle number:\n"
		"# Thread 0: 00001 00002 # 00001 others\n"
		"# Thread 1:\n"
		"\n";

	for (int t = 0; t < 2; t++) {
		ck_assert_int_eq(rt_hist_init(&h[t], 2, 2), 0);
		rt_stats_init(&s[t]);
	}
	int64_t v0[] = { 0, 2, 3, 9 };
	for (int i = 0; i < 4; i++) {
		rt_hist_add(&h[0], v0[i], (uint64_t)i);
		rt_stats_add(&s[0], v0[i]);
	}
	rt_hist_add(&h[1], 1, 0);
	rt_stats_add(&s[1], 1);
	out = render(&set);
	ck_assert_str_eq(out, want);
	free(out);
	for (int t = 0; t < 2; t++)
		rt_hist_free(&h[t]);
}
END_TEST

START_TEST(layout_thread_without_samples_shows_dashes)
{
	struct rt_hist h[2];
	struct rt_stats s[2];
	struct rt_hist_set set = { .n = 2, .hists = h, .stats = s, .flags = 0 };
	char *out;

	for (int t = 0; t < 2; t++) {
		ck_assert_int_eq(rt_hist_init(&h[t], 1, 1), 0);
		rt_stats_init(&s[t]);
	}
	rt_hist_add(&h[0], 0, 0);
	rt_stats_add(&s[0], 0);
	out = render(&set);
	ck_assert_ptr_nonnull(strstr(out, "# Min Latencies: 00000 -----\n"));
	ck_assert_ptr_nonnull(strstr(out, "# Avg Latencies: 00000 -----\n"));
	ck_assert_ptr_nonnull(strstr(out, "# Max Latencies: 00000 -----\n"));
	ck_assert_ptr_null(strstr(out, "1000000"));
	free(out);
	for (int t = 0; t < 2; t++)
		rt_hist_free(&h[t]);
}
END_TEST

Suite *unit_suite(void)
{
	Suite *s = suite_create("rt_hist");
	TCase *tc = tcase_create("counting");

	tcase_add_test(tc, init_rejects_zero_buckets);
	tcase_add_test(tc, buckets_and_overflows_sum_to_samples);
	tcase_add_test(tc, next_nonempty_walks_buckets);
	suite_add_tcase(s, tc);
	tc = tcase_create("text_layout_2_4");
	tcase_add_test(tc, layout_one_thread_matches_2_4);
	tcase_add_test(tc, layout_two_threads_sum_column_and_others);
	tcase_add_test(tc, layout_thread_without_samples_shows_dashes);
	suite_add_tcase(s, tc);
	return s;
}
