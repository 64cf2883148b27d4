// SPDX-License-Identifier: GPL-2.0-or-later
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "unit.h"

#include "rt_report.h"

static char *doc_buf;
static size_t doc_len;

/* The "scheduling" object alone, as the tools write it after their section. */
static const char *sched_json(const int *policies, size_t n)
{
	struct rt_report_sched s = RT_REPORT_SCHED_INIT;
	struct rt_json j;
	FILE *mem = open_memstream(&doc_buf, &doc_len);

	ck_assert_ptr_nonnull(mem);
	for (size_t i = 0; i < n; i++)
		rt_report_sched_add(&s, policies[i]);
	rt_json_init(&j, mem);
	rt_json_object_begin(&j, NULL);
	rt_report_json_scheduling(&j, &s);
	rt_json_object_end(&j);
	ck_assert_int_eq(rt_json_finish(&j), 0);
	fclose(mem);
	return doc_buf;
}

#define SCHED_DOC(policy, rt) \
	"{\n  \"scheduling\": {\n    \"policy\": " policy ",\n    \"realtime\": " rt "\n  }\n}\n"

static const struct {
	int policies[3];
	size_t n;
	const char *want;
} sched_cases[] = {
	{ { SCHED_FIFO, SCHED_FIFO }, 2, SCHED_DOC("\"fifo\"", "1") },
	{ { SCHED_RR }, 1, SCHED_DOC("\"rr\"", "1") },
	{ { SCHED_OTHER, SCHED_OTHER }, 2, SCHED_DOC("\"other\"", "0") },
	{ { SCHED_BATCH }, 1, SCHED_DOC("\"batch\"", "0") },
	{ { SCHED_IDLE }, 1, SCHED_DOC("\"idle\"", "0") },
	/* One thread at SCHED_OTHER makes the run not real-time. */
	{ { SCHED_FIFO, SCHED_OTHER }, 2, SCHED_DOC("\"mixed\"", "0") },
	{ { SCHED_OTHER, SCHED_FIFO }, 2, SCHED_DOC("\"mixed\"", "0") },
	/* fifo and rr are both real-time. */
	{ { SCHED_FIFO, SCHED_RR }, 2, SCHED_DOC("\"mixed\"", "1") },
	/* A thread that never started does not count; none at all is no claim. */
	{ { -1, SCHED_FIFO, -1 }, 3, SCHED_DOC("\"fifo\"", "1") },
	{ { -1, -1 }, 2, SCHED_DOC("null", "0") },
	{ { 0 }, 0, SCHED_DOC("null", "0") },
};

START_TEST(scheduling_says_real_time_only_when_every_thread_was)
{
	ck_assert_str_eq(sched_json(sched_cases[_i].policies, sched_cases[_i].n),
			 sched_cases[_i].want);
	free(doc_buf);
}
END_TEST

START_TEST(header_keeps_2_4_keys_in_order)
{
	static const char *const keys[] = { "\"file_version\": 1,", "\"cmdline:\": ",
		"\"rt_test_version:\": \"2.40\",", "\"start_time\": ", "\"end_time\": ",
		"\"return_code\": 3,", "\"sysinfo\": {", "\"sysname\": ", "\"nodename\": ",
		"\"release\": ", "\"version\": ", "\"machine\": ", "\"realtime\": " };
	char a0[] = "cyclictest", a1[] = "-p", a2[] = "a\"b";
	char *const argv[] = { a0, a1, a2, NULL };
	struct rt_report rep;
	struct rt_json j;
	FILE *mem = open_memstream(&doc_buf, &doc_len);
	const char *at;

	ck_assert_ptr_nonnull(mem);
	rt_report_init(&rep, 3, argv);
	ck_assert_str_eq(rep.cmdline, "cyclictest -p a\"b");
	rt_json_init(&j, mem);
	rt_report_json_header(&j, &rep, 3);
	rt_json_object_end(&j);
	ck_assert_int_eq(rt_json_finish(&j), 0);
	fclose(mem);
	at = doc_buf;
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		const char *k = strstr(at, keys[i]);

		ck_assert_msg(k, "key %s missing or out of order in\n%s", keys[i], doc_buf);
		at = k + strlen(keys[i]);
	}
	ck_assert_ptr_nonnull(strstr(doc_buf, "\"cmdline:\": \"cyclictest -p a\\\"b\","));
	free(doc_buf);
}
END_TEST

START_TEST(cmdline_is_cut_at_a_whole_argument)
{
	static char big[RT_REPORT_CMDLINE_MAX];
	char a0[] = "t", a1[] = "x";
	char *const argv[] = { a0, a1, big, NULL };
	struct rt_report rep;

	memset(big, 'a', sizeof(big) - 1);
	rt_report_init(&rep, 3, argv);
	ck_assert_str_eq(rep.cmdline, "t x");
}
END_TEST

START_TEST(time_is_rfc_2822_in_english)
{
	char buf[64];

	setenv("TZ", "UTC", 1);
	tzset();
	rt_report_format_time(1795976819, buf, sizeof(buf)); /* 2026-11-29 18:26:59 UTC */
	ck_assert_str_eq(buf, "Sun, 29 Nov 2026 18:26:59 +0000");
}
END_TEST

/* One 2.4 thread entry's numbers, inside an object of their own. */
static const char *thread_stats_json(const struct rt_stats *s)
{
	struct rt_json j;
	FILE *mem = open_memstream(&doc_buf, &doc_len);

	ck_assert_ptr_nonnull(mem);
	rt_json_init(&j, mem);
	rt_json_object_begin(&j, NULL);
	rt_report_json_cycles_min_max_avg(&j, s);
	rt_json_object_end(&j);
	ck_assert_int_eq(rt_json_finish(&j), 0);
	fclose(mem);
	return doc_buf;
}

START_TEST(thread_stats_keep_2_4_order_and_null_without_samples)
{
	struct rt_stats s;

	rt_stats_init(&s);
	ck_assert_str_eq(thread_stats_json(&s), "{\n  \"cycles\": 0,\n  \"min\": null,\n"
						 "  \"max\": null,\n  \"avg\": null\n}\n");
	free(doc_buf);
	rt_stats_add(&s, 5);
	rt_stats_add(&s, 40);
	rt_stats_add(&s, 9);
	ck_assert_str_eq(thread_stats_json(&s), "{\n  \"cycles\": 3,\n  \"min\": 5,\n"
						 "  \"max\": 40,\n  \"avg\": 18.00\n}\n");
	free(doc_buf);
}
END_TEST

START_TEST(status_line_has_2_4_widths_and_dashes_without_samples)
{
	struct rt_stats s;
	struct rt_report_line l = { .index = 0, .tid = 1234, .prio = 80, .interval_us = 1000,
				    .stats = &s, .act_avg_width = 5 };
	char buf[160];

	rt_stats_init(&s);
	rt_report_status_line(buf, sizeof(buf), &l);
	ck_assert_str_eq(buf, "T: 0 ( 1234) P:80 I:1000 C:      0 Min:      - Act:    - Avg:    - "
			      "Max:       -");
	rt_stats_add(&s, 5);
	rt_stats_add(&s, 40);
	rt_stats_add(&s, 9);
	rt_report_status_line(buf, sizeof(buf), &l);
	ck_assert_str_eq(buf, "T: 0 ( 1234) P:80 I:1000 C:      3 Min:      5 Act:    9 Avg:   18 "
			      "Max:      40");
	l.interval_us = -1; /* signaltest: no I: field */
	ck_assert_uint_eq(rt_report_status_line(buf, 12, &l), 11);
	ck_assert_str_eq(buf, "T: 0 ( 1234");
}
END_TEST

Suite *unit_suite(void)
{
	Suite *s = suite_create("rt_report");
	TCase *tc = tcase_create("json");

	UNIT_LOOP(tc, scheduling_says_real_time_only_when_every_thread_was, sched_cases);
	tcase_add_test(tc, header_keeps_2_4_keys_in_order);
	tcase_add_test(tc, cmdline_is_cut_at_a_whole_argument);
	tcase_add_test(tc, thread_stats_keep_2_4_order_and_null_without_samples);
	suite_add_tcase(s, tc);
	tc = tcase_create("text");
	tcase_add_test(tc, time_is_rfc_2822_in_english);
	tcase_add_test(tc, status_line_has_2_4_widths_and_dashes_without_samples);
	suite_add_tcase(s, tc);
	return s;
}
