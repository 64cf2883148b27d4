// SPDX-License-Identifier: GPL-2.0-or-later
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "unit.h"

#include "rt_json.h"
#include "rt_percentiles.h"
#include "rt_sample_plan.h"
#include "rt_verdict.h"
#include "rt_verdict_write.h"

static struct rt_loghist hist[3];
static struct rt_series series[3];

/* Series 0: 1..1000; series 1: 1..1000 and one 5000; series 2: empty. */
static void fill(void)
{
	for (int i = 0; i < 3; i++) {
		rt_loghist_init(&hist[i]);
		rt_stats_init(&series[i].stats);
		series[i].hist = &hist[i];
		series[i].overruns = i;
	}
	for (int v = 1; v <= 1000; v++)
		for (int i = 0; i < 2; i++) {
			rt_loghist_add(&hist[i], v);
			rt_stats_add(&series[i].stats, v);
		}
	rt_loghist_add(&hist[1], 5000);
	rt_stats_add(&series[1].stats, 5000);
	for (int i = 0; i < 3; i++)
		rt_loghist_seal(&hist[i], series[i].stats.max);
}

static char *text_of(void (*fn)(FILE *, const void *), const void *arg)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	ck_assert_ptr_nonnull(f);
	fn(f, arg);
	fclose(f);
	return buf;
}

static void verdict_text(FILE *f, const void *v)
{
	rt_verdict_write_text(f, v, "us");
}

static void verdict_json(FILE *f, const void *v)
{
	struct rt_json j;

	rt_json_init(&j, f);
	rt_json_object_begin(&j, NULL);
	rt_verdict_write_json(&j, v);
	rt_json_object_end(&j);
	ck_assert_int_eq(rt_json_finish(&j), 0);
}

START_TEST(no_limit_broken_passes)
{
	struct rt_limits l;
	struct rt_verdict v;
	char *t;

	fill();
	rt_limits_init(&l);
	ck_assert(!rt_limits_any(&l));
	l.max_latency = 5000;
	l.pct[l.npct++] = (struct rt_pct_limit){ 990000, 1000 };
	l.max_overruns = 1;
	ck_assert(rt_limits_any(&l));
	ck_assert_int_eq(rt_verdict_judge(&v, &l, series, 2), 0);
	ck_assert(v.pass);
	ck_assert_uint_eq(v.nbroken, 0);
	t = text_of(verdict_text, &v);
	ck_assert_str_eq(t, "# Verdict: PASS\n");
	free(t);
	rt_verdict_free(&v);
}
END_TEST

START_TEST(each_broken_limit_names_thread_value_and_bound)
{
	struct rt_limits l;
	struct rt_verdict v;
	char *t;

	fill();
	rt_limits_init(&l);
	l.max_latency = 1000;                                   /* series 1: 5000 */
	/* p99.9: rank 999 of 1000 is 999, bucket 996..999; of 1001 rank 1000 is 1000, bucket 1000..1003 */
	l.pct[l.npct++] = (struct rt_pct_limit){ 999000, 990 };
	l.max_overruns = 0;                                     /* series 1: 1 */
	ck_assert_int_eq(rt_verdict_judge(&v, &l, series, 3), 0);
	ck_assert(!v.pass);
	t = text_of(verdict_text, &v);
	ck_assert_str_eq(t, "# Verdict: FAIL\n"
			    "# Verdict: thread 0: max-percentile=99.9: 999 > 990 us\n"
			    "# Verdict: thread 1: max-latency: 5000 > 1000 us\n"
			    "# Verdict: thread 1: max-percentile=99.9: 1003 > 990 us\n"
			    "# Verdict: thread 1: max-overruns: 1 > 0\n"
			    "# Verdict: thread 2: no samples, nothing was measured\n");
	free(t);
	rt_verdict_free(&v);
}
END_TEST

/* A pair tool's numbering: receiver #2i, sender #2i+1 (src/pairtool/pairs.c). */
static void pair_tasks(void *ctx, int i, int *sender, int *receiver)
{
	*sender = 2 * i + 1 + *(int *)ctx;
	*receiver = 2 * i + *(int *)ctx;
}

START_TEST(pairs_are_named_as_the_display_numbers_their_tasks)
{
	struct rt_limits l;
	struct rt_verdict v;
	struct rt_json j;
	int offset = 0;
	char *t, *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	fill();
	rt_limits_init(&l);
	l.max_latency = 1000;                                   /* series 1: 5000 */
	ck_assert_int_eq(rt_verdict_judge(&v, &l, series, 3), 0);
	ck_assert_ptr_null(v.naming.pair_tasks);                /* judging clears it */
	v.naming = (struct rt_verdict_naming){ pair_tasks, &offset };
	t = text_of(verdict_text, &v);
	ck_assert_str_eq(t, "# Verdict: FAIL\n"
			    "# Verdict: pair 1 (#3 -> #2): max-latency: 5000 > 1000 us\n"
			    "# Verdict: pair 2 (#5 -> #4): no samples, nothing was measured\n");
	free(t);
	offset = 10; /* the names come from the callback, not from the index */
	t = text_of(verdict_text, &v);
	ck_assert_ptr_nonnull(strstr(t, "# Verdict: pair 1 (#13 -> #12): max-latency"));
	free(t);
	offset = 0;
	rt_json_init(&j, f);
	rt_json_object_begin(&j, NULL);
	rt_verdict_write_json(&j, &v);
	rt_json_object_end(&j);
	ck_assert_int_eq(rt_json_finish(&j), 0);
	fclose(f);
	ck_assert_str_eq(buf, "{\n"
			      "  \"verdict\": {\n"
			      "    \"result\": \"fail\",\n"
			      "    \"broken\": [\n"
			      "      {\n"
			      "        \"limit\": \"max-latency\",\n"
			      "        \"pair\": 1,\n"
			      "        \"sender\": 3,\n"
			      "        \"receiver\": 2,\n"
			      "        \"value\": 5000,\n"
			      "        \"bound\": 1000,\n"
			      "        \"unit\": \"us\",\n"
			      "        \"reason\": \"5000 > 1000 us\"\n"
			      "      },\n"
			      "      {\n"
			      "        \"limit\": \"samples\",\n"
			      "        \"pair\": 2,\n"
			      "        \"sender\": 5,\n"
			      "        \"receiver\": 4,\n"
			      "        \"value\": 0,\n"
			      "        \"bound\": 1,\n"
			      "        \"unit\": \"samples\",\n"
			      "        \"reason\": \"no samples, nothing was measured\"\n"
			      "      }\n"
			      "    ],\n"
			      "    \"checked\": [\n"
			      "      {\n"
			      "        \"what\": \"samples\",\n"
			      "        \"count\": 2001\n"
			      "      }\n"
			      "    ],\n"
			      "    \"partial\": false,\n"
			      "    \"stop\": {\n"
			      "      \"cause\": \"completed\",\n"
			      "      \"done\": null,\n"
			      "      \"asked\": null,\n"
			      "      \"unit\": \"\"\n"
			      "    }\n"
			      "  }\n"
			      "}\n");
	free(buf);
	rt_verdict_free(&v);
}
END_TEST

START_TEST(empty_series_fails_even_without_value_limits)
{
	struct rt_limits l;
	struct rt_verdict v;

	fill();
	rt_limits_init(&l);
	l.max_overruns = 100;
	ck_assert_int_eq(rt_verdict_judge(&v, &l, &series[2], 1), 0);
	ck_assert(!v.pass);
	ck_assert_uint_eq(v.nbroken, 1);
	ck_assert_int_eq(v.broken[0].kind, RT_BROKEN_NO_SAMPLES);
	rt_verdict_free(&v);
}
END_TEST

/*
 * Stopped early, a series with no sample yet (its first wakeup had not
 * come) proves nothing either way: INCONCLUSIVE. Ended as asked: FAIL.
 */
START_TEST(empty_series_of_a_stopped_run_is_inconclusive)
{
	struct rt_series two[2];
	struct rt_limits l;
	struct rt_verdict v;
	char *t;

	fill();
	two[0] = series[0];
	two[1] = series[2];
	rt_limits_init(&l);
	l.max_latency = 100000;
	ck_assert_int_eq(rt_verdict_judge(&v, &l, two, 2), 0);
	rt_verdict_finish(&v);
	ck_assert_str_eq(rt_verdict_result(&v), "fail");
	rt_verdict_free(&v);

	ck_assert_int_eq(rt_verdict_judge(&v, &l, two, 2), 0);
	rt_verdict_set_partial(&v, "SIGTERM", 0.1, 3, "s");
	rt_verdict_finish(&v);
	ck_assert_str_eq(rt_verdict_result(&v), "inconclusive");
	ck_assert_int_eq(rt_verdict_exit_status(&v, RT_JUDGE_ASKED), 4);
	t = text_of(verdict_text, &v);
	ck_assert_str_eq(t, "# Verdict: INCONCLUSIVE\n"
			    "# Verdict: thread 1: no samples, nothing was measured\n"
			    "# Verdict: partial: stopped by SIGTERM after 0.1 of 3 s\n");
	free(t);
	t = text_of(verdict_json, &v);
	ck_assert_ptr_nonnull(strstr(t, "\"result\": \"inconclusive\""));
	free(t);
	rt_verdict_free(&v);

	/* A limit broken by what was measured still FAILs a stopped run. */
	l.max_latency = 10;
	ck_assert_int_eq(rt_verdict_judge(&v, &l, two, 2), 0);
	rt_verdict_set_partial(&v, "SIGTERM", 0.1, 3, "s");
	rt_verdict_finish(&v);
	ck_assert_str_eq(rt_verdict_result(&v), "fail");
	rt_verdict_free(&v);
}
END_TEST

START_TEST(json_lists_broken_limits)
{
	struct rt_limits l;
	struct rt_verdict v;
	struct rt_json j;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	fill();
	rt_limits_init(&l);
	l.pct_point = true; /* --percentile-claim=point: 1000 samples cannot prove p0.0001 */
	l.pct[l.npct++] = (struct rt_pct_limit){ 1, 0 }; /* p0.0001 of series 0 is 1 */
	ck_assert_int_eq(rt_verdict_judge(&v, &l, series, 1), 0);
	rt_json_init(&j, f);
	rt_json_object_begin(&j, NULL);
	rt_verdict_write_json(&j, &v);
	rt_json_object_end(&j);
	ck_assert_int_eq(rt_json_finish(&j), 0);
	fclose(f);
	ck_assert_str_eq(buf, "{\n"
			      "  \"verdict\": {\n"
			      "    \"result\": \"fail\",\n"
			      "    \"broken\": [\n"
			      "      {\n"
			      "        \"limit\": \"max-percentile=0.0001\",\n"
			      "        \"thread\": 0,\n"
			      "        \"value\": 1,\n"
			      "        \"bound\": 0,\n"
			      "        \"unit\": \"us\",\n"
			      "        \"reason\": \"1 > 0 us\"\n"
			      "      }\n"
			      "    ],\n"
			      "    \"checked\": [\n"
			      "      {\n"
			      "        \"what\": \"samples\",\n"
			      "        \"count\": 1000\n"
			      "      }\n"
			      "    ],\n"
			      "    \"partial\": false,\n"
			      "    \"stop\": {\n"
			      "      \"cause\": \"completed\",\n"
			      "      \"done\": null,\n"
			      "      \"asked\": null,\n"
			      "      \"unit\": \"\"\n"
			      "    }\n"
			      "  }\n"
			      "}\n");
	free(buf);
	rt_verdict_free(&v);
}
END_TEST

START_TEST(a_failed_process_fails_a_passing_verdict_and_is_named)
{
	struct rt_limits l;
	struct rt_verdict v;
	struct rt_json j;
	char *t, *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	fill();
	rt_limits_init(&l);
	l.max_latency = 5000;
	ck_assert_int_eq(rt_verdict_judge(&v, &l, series, 2), 0);
	ck_assert(v.pass);
	ck_assert_int_eq(rt_verdict_add_failed(&v, 1, 1234,
					       "child 1234 (#3) killed by signal 9 (Killed)"), 0);
	ck_assert(!v.pass);
	ck_assert_uint_eq(v.nbroken, 1);
	t = text_of(verdict_text, &v);
	ck_assert_str_eq(t, "# Verdict: FAIL\n"
			    "# Verdict: thread 1: failed: child 1234 (#3) killed by signal 9 "
			    "(Killed)\n");
	free(t);
	rt_json_init(&j, f);
	rt_json_object_begin(&j, NULL);
	rt_verdict_write_json(&j, &v);
	rt_json_object_end(&j);
	ck_assert_int_eq(rt_json_finish(&j), 0);
	fclose(f);
	ck_assert_ptr_nonnull(strstr(buf, "\"limit\": \"failed\",\n"
					  "        \"thread\": 1,\n"
					  "        \"value\": 1234,\n"
					  "        \"bound\": 0,\n"
					  "        \"unit\": \"pid\",\n"
					  "        \"detail\": \"child 1234 (#3) killed by signal 9 "
					  "(Killed)\",\n"));
	free(buf);
	rt_verdict_free(&v);
}
END_TEST

static void pct_text(FILE *f, const void *arg)
{
	(void)arg;
	rt_percentiles_write_text(f, series, 3);
	rt_overruns_write_text(f, series, 3);
}

START_TEST(percentile_lines_one_column_per_thread)
{
	char *t;

	fill();
	t = text_of(pct_text, NULL);
	/* Exact below 128, then buckets of 2 in 256..511, of 4 in 512..1023:
	 * a percentile is the upper bound of its sample's bucket, capped at the max. */
	ck_assert_str_eq(t, "# P50 Latencies: 00501 00501 -----\n"
			    "# P90 Latencies: 00903 00903 -----\n"
			    "# P99 Latencies: 00991 00991 -----\n"
			    "# P99.9 Latencies: 00999 01003 -----\n"
			    "# P99.99 Latencies: 01000 05000 -----\n"
			    "# P99.999 Latencies: 01000 05000 -----\n"
			    "# P99.9999 Latencies: 01000 05000 -----\n"
			    "# Overruns: 00000 00001 00002\n");
	free(t);
}
END_TEST

START_TEST(histogram_json_keys_are_bucket_low_values)
{
	struct rt_loghist h;
	struct rt_json j;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	rt_loghist_init(&h);
	rt_loghist_add(&h, 3);
	rt_loghist_add(&h, 3);
	rt_loghist_add(&h, 1001); /* bucket 1000..1007 */
	rt_loghist_seal(&h, 1001);
	rt_json_init(&j, f);
	rt_json_object_begin(&j, NULL);
	rt_loghist_write_json(&j, "h", &h);
	rt_percentiles_write_json(&j, "p", NULL);
	rt_json_object_end(&j);
	ck_assert_int_eq(rt_json_finish(&j), 0);
	fclose(f);
	ck_assert_str_eq(buf, "{\n"
			      "  \"h\": {\n"
			      "    \"layout\": \"log-linear\",\n"
			      "    \"exact_below\": 128,\n"
			      "    \"sub_buckets\": 128,\n"
			      "    \"count\": 3,\n"
			      "    \"max\": 1001,\n"
			      "    \"buckets\": {\n"
			      "      \"3\": 2,\n"
			      "      \"1000\": 1\n"
			      "    }\n"
			      "  },\n"
			      "  \"p\": {\n"
			      "    \"p50\": null,\n"
			      "    \"p90\": null,\n"
			      "    \"p99\": null,\n"
			      "    \"p99.9\": null,\n"
			      "    \"p99.99\": null,\n"
			      "    \"p99.999\": null,\n"
			      "    \"p99.9999\": null\n"
			      "  },\n"
			      "  \"p_ci\": {\n"
			      "    \"p50\": null,\n"
			      "    \"p90\": null,\n"
			      "    \"p99\": null,\n"
			      "    \"p99.9\": null,\n"
			      "    \"p99.99\": null,\n"
			      "    \"p99.999\": null,\n"
			      "    \"p99.9999\": null\n"
			      "  }\n"
			      "}\n");
	free(buf);
}
END_TEST

static void ci_text(FILE *f, const void *arg)
{
	rt_percentiles_write_ci_text(f, series, 3, arg);
}

START_TEST(interval_lines_per_series_and_percentile)
{
	char *t;

	fill();
	t = text_of(ci_text, "us");
	/* 1000 samples 1..1000 (series 1 also 5000), ranks as scipy gives them:
	 * p50 469..532, p90 881..919, p99 983..997 (series 1: 470..532,
	 * 882..920, 984..998); from p99.9 on no upper rank (3688, 36887, ...
	 * samples needed). A lower bound is its bucket's bottom (4992 for 5000),
	 * an upper one its bucket's top capped at the max; series 2 is empty. */
	ck_assert_str_eq(t, "# T: 0 p50 501 us (95 % CI 468-535)\n"
			    "# T: 0 p90 903 us (95 % CI 880-919)\n"
			    "# T: 0 p99 991 us (95 % CI 980-999)\n"
			    "# T: 0 p99.9 999 us (95 % CI 996-?: too few samples, 3688 needed)\n"
			    "# T: 0 p99.99 1000 us (95 % CI 996-?: too few samples, 36887 needed)\n"
			    "# T: 0 p99.999 1000 us (95 % CI 1000-?: too few samples, 368887 needed)\n"
			    "# T: 0 p99.9999 1000 us (95 % CI 1000-?: too few samples, 3688878 needed)\n"
			    "# T: 1 p50 501 us (95 % CI 470-535)\n"
			    "# T: 1 p90 903 us (95 % CI 880-923)\n"
			    "# T: 1 p99 991 us (95 % CI 984-999)\n"
			    "# T: 1 p99.9 1003 us (95 % CI 996-?: too few samples, 3688 needed)\n"
			    "# T: 1 p99.99 5000 us (95 % CI 1000-?: too few samples, 36887 needed)\n"
			    "# T: 1 p99.999 5000 us (95 % CI 4992-?: too few samples, 368887 needed)\n"
			    "# T: 1 p99.9999 5000 us (95 % CI 4992-?: too few samples, 3688878 needed)\n");
	free(t);
}
END_TEST

START_TEST(interval_json_beside_the_percentiles)
{
	struct rt_json j;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	fill();
	rt_json_init(&j, f);
	rt_json_object_begin(&j, NULL);
	rt_percentiles_write_json(&j, "percentiles", &hist[0]);
	rt_json_object_end(&j);
	ck_assert_int_eq(rt_json_finish(&j), 0);
	fclose(f);
	ck_assert_ptr_nonnull(strstr(buf, "  \"percentiles\": {\n"
					  "    \"p50\": 501,\n"));
	ck_assert_ptr_nonnull(strstr(buf, "  },\n"
					  "  \"percentiles_ci\": {\n"
					  "    \"p50\": {\n"
					  "      \"low\": 468,\n"
					  "      \"high\": 535,\n"
					  "      \"confidence\": 95\n"
					  "    },\n"));
	ck_assert_ptr_nonnull(strstr(buf, "    \"p99.9\": {\n"
					  "      \"low\": 996,\n"
					  "      \"high\": null,\n"
					  "      \"confidence\": 95\n"
					  "    },\n"));
	free(buf);
}
END_TEST

START_TEST(percentile_limits_pass_fail_or_inconclusive_on_the_interval)
{
	struct rt_limits l;
	struct rt_verdict v;
	struct rt_json j;
	char *t, *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	fill();
	rt_limits_init(&l);
	/* p50 501, CI 468-535 */
	l.pct[l.npct++] = (struct rt_pct_limit){ 500000, 535 };  /* PASS: high <= 535 */
	ck_assert_int_eq(rt_verdict_judge(&v, &l, series, 1), 0);
	ck_assert(v.pass);
	ck_assert_str_eq(rt_verdict_result(&v), "pass");
	rt_verdict_free(&v);
	l.pct[0].bound = 467;                                     /* FAIL: low > 467 */
	ck_assert_int_eq(rt_verdict_judge(&v, &l, series, 1), 0);
	ck_assert_str_eq(rt_verdict_result(&v), "fail");
	t = text_of(verdict_text, &v);
	ck_assert_str_eq(t, "# Verdict: FAIL\n"
			    "# Verdict: thread 0: max-percentile=50: 501 > 467 us\n");
	free(t);
	rt_verdict_free(&v);
	l.pct[0].bound = 520;                        /* point 501 under, interval over */
	l.pct[l.npct++] = (struct rt_pct_limit){ 999900, 100000 }; /* no upper rank */
	ck_assert_int_eq(rt_verdict_judge(&v, &l, series, 1), 0);
	ck_assert(!v.pass);
	ck_assert_str_eq(rt_verdict_result(&v), "inconclusive");
	t = text_of(verdict_text, &v);
	ck_assert_str_eq(t, "# Verdict: INCONCLUSIVE\n"
			    "# Verdict: thread 0: max-percentile=50: INCONCLUSIVE: 501 us, 95 % CI "
			    "468-535, need 1738 more samples, 2738 in all\n"
			    "# Verdict: thread 0: max-percentile=99.99: INCONCLUSIVE: 1000 us, 95 % CI "
			    "996-?, need 35887 more samples, 36887 in all\n");
	free(t);
	rt_json_init(&j, f);
	rt_json_object_begin(&j, NULL);
	rt_verdict_write_json(&j, &v);
	rt_json_object_end(&j);
	ck_assert_int_eq(rt_json_finish(&j), 0);
	fclose(f);
	ck_assert_ptr_nonnull(strstr(buf, "\"result\": \"inconclusive\",\n"
					  "    \"broken\": [\n"));
	ck_assert_ptr_nonnull(strstr(buf, "        \"limit\": \"max-percentile=99.99\",\n"
					  "        \"thread\": 0,\n"
					  "        \"value\": 1000,\n"
					  "        \"bound\": 100000,\n"
					  "        \"unit\": \"us\",\n"
					  "        \"low\": 996,\n"
					  "        \"high\": null,\n"
					  "        \"confidence\": 95,\n"
					  "        \"result\": \"inconclusive\",\n"
					  "        \"more_samples\": 35887,\n"
					  "        \"samples_needed\": 36887,\n"
					  "        \"reason\": \"1000, 95 % CI 996-?, need 35887 more "
					  "samples, 36887 in all\"\n"));
	free(buf);
	rt_verdict_free(&v);
	/* A failed limit beside an inconclusive one: FAIL. */
	l.max_latency = 10;
	ck_assert_int_eq(rt_verdict_judge(&v, &l, series, 1), 0);
	ck_assert_str_eq(rt_verdict_result(&v), "fail");
	rt_verdict_free(&v);
	/* The lenient reading: the point estimates 501 <= 520 and 1000 <= 100000 pass. */
	l.max_latency = -1;
	l.pct_point = true;
	ck_assert_int_eq(rt_verdict_judge(&v, &l, series, 1), 0);
	ck_assert(v.pass);
	rt_verdict_free(&v);
}
END_TEST

/*
 * Issue 29: 480 samples, p99.99 point over the limit, lower bound under it:
 * the verdict said "need 1 more samples", rt-latency-report plan 36887.
 */
START_TEST(inconclusive_needs_the_samples_plan_says)
{
	struct rt_loghist h;
	struct rt_series one = { 0 };
	struct rt_sample_plan plan;
	struct rt_limits l;
	struct rt_verdict v;
	char *t;

	rt_loghist_init(&h);
	rt_stats_init(&one.stats);
	for (int i = 0; i < 479; i++) {
		rt_loghist_add(&h, 100);
		rt_stats_add(&one.stats, 100);
	}
	rt_loghist_add(&h, 60000);
	rt_stats_add(&one.stats, 60000);
	rt_loghist_seal(&h, 60000);
	one.hist = &h;
	ck_assert_int_eq(rt_sample_plan(999900, 95, 1, 1000, &plan), 0);
	ck_assert_uint_eq(plan.samples, 36887);
	ck_assert_uint_eq(plan.thread_us, 36887000);
	ck_assert_int_eq(rt_sample_plan(999900, 95, 4, 1000, &plan), 0);
	ck_assert_uint_eq(plan.per_thread, 9222);
	rt_limits_init(&l);
	l.pct[l.npct++] = (struct rt_pct_limit){ 999900, 50000 };
	ck_assert_int_eq(rt_verdict_judge(&v, &l, &one, 1), 0);
	ck_assert_str_eq(rt_verdict_result(&v), "inconclusive");
	ck_assert_uint_eq(v.nbroken, 1);
	ck_assert_int_eq(v.broken[0].more_samples, 36887 - 480);
	ck_assert_int_eq(v.broken[0].samples_needed, 36887);
	t = text_of(verdict_text, &v);
	ck_assert_ptr_nonnull(strstr(t, "need 36407 more samples, 36887 in all\n"));
	free(t);
	rt_verdict_free(&v);
}
END_TEST

START_TEST(nothing_checked_is_never_a_pass)
{
	struct rt_verdict v;
	char *t;

	rt_verdict_init(&v);
	rt_verdict_finish(&v);
	ck_assert_str_eq(rt_verdict_result(&v), "inconclusive");
	ck_assert_int_eq(rt_verdict_exit_status(&v, RT_JUDGE_ASKED), 4);
	ck_assert_int_eq(rt_verdict_exit_status(&v, RT_JUDGE_NATIVE), 0);
	ck_assert_int_eq(rt_verdict_exit_status(&v, RT_JUDGE_NONE), 0);
	ck_assert(!rt_verdict_text_shown(&v, RT_JUDGE_NATIVE));
	t = text_of(verdict_text, &v);
	ck_assert_str_eq(t, "# Verdict: INCONCLUSIVE\n# Verdict: nothing was checked\n");
	free(t);
	t = text_of(verdict_json, &v);
	ck_assert_ptr_nonnull(strstr(t, "\"limit\": \"evidence\",\n"
					"        \"value\": 0,\n"));
	ck_assert_ptr_nonnull(strstr(t, "\"checked\": [],\n"));
	free(t);
	rt_verdict_free(&v);
	/* Evidence of nothing (a count of 0) is no evidence either. */
	rt_verdict_init(&v);
	ck_assert_int_eq(rt_verdict_add_checked(&v, "inversions", 0), 0);
	rt_verdict_set_partial(&v, "SIGINT", 0.3, 20, "s");
	rt_verdict_finish(&v);
	t = text_of(verdict_text, &v);
	ck_assert_str_eq(t, "# Verdict: INCONCLUSIVE\n"
			    "# Verdict: nothing was checked before the run stopped\n"
			    "# Verdict: partial: stopped by SIGINT after 0.3 of 20 s\n");
	free(t);
	rt_verdict_free(&v);
}
END_TEST

START_TEST(evidence_adds_up_and_passes)
{
	struct rt_verdict v;
	char *t;

	rt_verdict_init(&v);
	ck_assert_int_eq(rt_verdict_add_checked(&v, "inversions", 10), 0);
	ck_assert_int_eq(rt_verdict_add_checked(&v, "groups", 2), 0);
	ck_assert_int_eq(rt_verdict_add_checked(&v, "inversions", 5), 0);
	rt_verdict_set_done(&v, 10, 10, "s");
	rt_verdict_finish(&v);
	rt_verdict_finish(&v); /* twice: no change */
	ck_assert_str_eq(rt_verdict_result(&v), "pass");
	ck_assert_uint_eq(v.nchecked, 2);
	ck_assert_uint_eq(v.checked[0].count, 15);
	ck_assert_int_eq(rt_verdict_exit_status(&v, RT_JUDGE_ASKED), 0);
	t = text_of(verdict_text, &v);
	ck_assert_str_eq(t, "# Verdict: PASS\n");
	free(t);
	t = text_of(verdict_json, &v);
	ck_assert_ptr_nonnull(strstr(t, "\"what\": \"inversions\",\n"
					"        \"count\": 15\n"));
	ck_assert_ptr_nonnull(strstr(t, "    \"partial\": false,\n"
					"    \"stop\": {\n"
					"      \"cause\": \"completed\",\n"
					"      \"done\": 10.000,\n"
					"      \"asked\": 10.000,\n"
					"      \"unit\": \"s\"\n"));
	free(t);
	rt_verdict_free(&v);
}
END_TEST

/* Nothing broken in a run stopped early: INCONCLUSIVE (exit 4), never PASS. */
START_TEST(a_stopped_run_without_a_failure_is_inconclusive)
{
	struct rt_verdict v;
	char *t;

	rt_verdict_init(&v);
	ck_assert_int_eq(rt_verdict_add_checked(&v, "samples", 1484), 0);
	rt_verdict_set_partial(&v, "SIGINT", 1.5, 10, "s");
	rt_verdict_finish(&v);
	ck_assert_str_eq(rt_verdict_result(&v), "inconclusive");
	ck_assert(!rt_verdict_passed(&v));
	ck_assert_uint_eq(v.nbroken, 0);
	ck_assert_int_eq(rt_verdict_exit_status(&v, RT_JUDGE_ASKED), RT_EXIT_INCONCLUSIVE);
	ck_assert_int_eq(rt_verdict_exit_status(&v, RT_JUDGE_NATIVE), RT_EXIT_OK);
	ck_assert_int_eq(rt_verdict_exit_status(&v, RT_JUDGE_NONE), RT_EXIT_OK);
	t = text_of(verdict_text, &v);
	ck_assert_str_eq(t, "# Verdict: INCONCLUSIVE\n"
			    "# Verdict: partial: stopped by SIGINT after 1.5 of 10 s\n");
	free(t);
	t = text_of(verdict_json, &v);
	ck_assert_ptr_nonnull(strstr(t, "\"result\": \"inconclusive\",\n"
					"    \"broken\": [],\n"));
	free(t);
	rt_verdict_free(&v);
}
END_TEST

START_TEST(a_failed_check_names_its_subject_and_limit)
{
	struct rt_check_failure c = { .limit = "stuck", .subject = RT_SUBJECT_GROUP, .index = 2,
				      .value = 3750, .bound = 3750, .unit = "ms",
				      .detail = "no progress for 3.75 s" };
	struct rt_verdict v;
	char *t;

	rt_verdict_init(&v);
	ck_assert_int_eq(rt_verdict_add_checked(&v, "inversions", 100), 0);
	ck_assert_int_eq(rt_verdict_fail_check(&v, &c), 0);
	c = (struct rt_check_failure){ .limit = "queue", .index = -1, .value = 465, .bound = 419,
				       .unit = "packets" };
	ck_assert_int_eq(rt_verdict_fail_check(&v, &c), 0);
	ck_assert_int_eq(rt_verdict_unproven(&v, RT_SUBJECT_TASK, 1, false, "never ran"), 0);
	rt_verdict_set_partial(&v, "SIGTERM", 2.14, 10, "s");
	rt_verdict_finish(&v);
	ck_assert_str_eq(rt_verdict_result(&v), "fail");
	ck_assert_int_eq(rt_verdict_exit_status(&v, RT_JUDGE_NATIVE), 3);
	ck_assert_int_eq(rt_verdict_exit_status(&v, RT_JUDGE_NONE), 0);
	ck_assert(rt_verdict_text_shown(&v, RT_JUDGE_NATIVE));
	ck_assert(!rt_verdict_text_shown(&v, RT_JUDGE_NONE));
	t = text_of(verdict_text, &v);
	ck_assert_str_eq(t, "# Verdict: FAIL\n"
			    "# Verdict: group 2: stuck: no progress for 3.75 s\n"
			    "# Verdict: queue: 465 > 419 packets\n"
			    "# Verdict: task 1: never ran\n"
			    "# Verdict: partial: stopped by SIGTERM after 2.1 of 10 s\n");
	free(t);
	t = text_of(verdict_json, &v);
	ck_assert_ptr_nonnull(strstr(t, "        \"limit\": \"stuck\",\n"
					"        \"group\": 2,\n"
					"        \"value\": 3750,\n"
					"        \"bound\": 3750,\n"
					"        \"unit\": \"ms\",\n"
					"        \"reason\": \"no progress for 3.75 s\"\n"));
	ck_assert_ptr_nonnull(strstr(t, "        \"limit\": \"queue\",\n"
					"        \"value\": 465,\n"));
	ck_assert_ptr_nonnull(strstr(t, "        \"task\": 1,\n"));
	ck_assert_ptr_nonnull(strstr(t, "    \"partial\": true,\n"
					"    \"stop\": {\n"
					"      \"cause\": \"SIGTERM\",\n"
					"      \"done\": 2.140,\n"));
	free(t);
	rt_verdict_free(&v);
	/* Only an unproven check: INCONCLUSIVE, which a NATIVE judge exits 0 on. */
	rt_verdict_init(&v);
	ck_assert_int_eq(rt_verdict_add_checked(&v, "inversions", 100), 0);
	ck_assert_int_eq(rt_verdict_unproven(&v, RT_SUBJECT_NONE, -1, false,
					     "the watchdog never ran"), 0);
	rt_verdict_finish(&v);
	ck_assert_str_eq(rt_verdict_result(&v), "inconclusive");
	ck_assert_int_eq(rt_verdict_exit_status(&v, RT_JUDGE_NATIVE), 0);
	ck_assert_int_eq(rt_verdict_exit_status(&v, RT_JUDGE_ASKED), 4);
	rt_verdict_free(&v);
}
END_TEST

Suite *unit_suite(void)
{
	Suite *s = suite_create("rt_verdict");
	TCase *tc = tcase_create("verdicts");

	tcase_add_test(tc, no_limit_broken_passes);
	tcase_add_test(tc, interval_lines_per_series_and_percentile);
	tcase_add_test(tc, interval_json_beside_the_percentiles);
	tcase_add_test(tc, percentile_limits_pass_fail_or_inconclusive_on_the_interval);
	tcase_add_test(tc, each_broken_limit_names_thread_value_and_bound);
	tcase_add_test(tc, pairs_are_named_as_the_display_numbers_their_tasks);
	tcase_add_test(tc, empty_series_fails_even_without_value_limits);
	tcase_add_test(tc, empty_series_of_a_stopped_run_is_inconclusive);
	tcase_add_test(tc, json_lists_broken_limits);
	tcase_add_test(tc, a_failed_process_fails_a_passing_verdict_and_is_named);
	tcase_add_test(tc, inconclusive_needs_the_samples_plan_says);
	tcase_add_test(tc, nothing_checked_is_never_a_pass);
	tcase_add_test(tc, evidence_adds_up_and_passes);
	tcase_add_test(tc, a_stopped_run_without_a_failure_is_inconclusive);
	tcase_add_test(tc, a_failed_check_names_its_subject_and_limit);
	suite_add_tcase(s, tc);
	tc = tcase_create("percentile_output");
	tcase_add_test(tc, percentile_lines_one_column_per_thread);
	tcase_add_test(tc, histogram_json_keys_are_bucket_low_values);
	suite_add_tcase(s, tc);
	return s;
}
