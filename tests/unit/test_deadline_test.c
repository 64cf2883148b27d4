// SPDX-License-Identifier: GPL-2.0-or-later
/* deadline_test's parser, verdict and 2.4 block, in-process on synthetic data. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "unit.h"

#include "options.h"
#include "report.h"
#include "run.h"

START_TEST(defaults_are_2_4s)
{
	struct deadline_test_config cfg;
	char *argv[] = { (char *)"deadline_test", NULL };

	ck_assert_int_eq(deadline_test_parse_args(&cfg, 1, argv), 0);
	ck_assert_uint_eq(cfg.interval_us, 1000);
	ck_assert_int_eq(cfg.percent, 80);
	ck_assert_int_eq(cfg.run_percent, 100);
	ck_assert_uint_eq(cfg.step_us, 500);
	ck_assert_int_eq(cfg.threads, 2);
	ck_assert_int_eq(cfg.rt_prio, 0);
	ck_assert_uint_eq(cfg.duration_s, 10);
	ck_assert_uint_eq(cfg.max_misses, 0);
}
END_TEST

START_TEST(short_and_long_forms)
{
	struct deadline_test_config cfg;
	char *argv[] = { (char *)"deadline_test", (char *)"-i10000", (char *)"--percent=20",
			 (char *)"-t", (char *)"3", (char *)"--max-m", (char *)"4", (char *)"-D",
			 (char *)"1m", NULL };

	ck_assert_int_eq(deadline_test_parse_args(&cfg, 9, argv), 0);
	ck_assert_uint_eq(cfg.interval_us, 10000);
	ck_assert_int_eq(cfg.percent, 20);
	ck_assert_int_eq(cfg.threads, 3);
	ck_assert_uint_eq(cfg.max_misses, 4);
	ck_assert_uint_eq(cfg.duration_s, 60);
}
END_TEST

static struct dl_thread sample(void)
{
	struct dl_thread t;

	memset(&t, 0, sizeof(t));
	t.tid = 4973;
	t.runtime_us = 2000;
	t.st.deadline_us = 10000;
	t.st.missed_deadlines = 5;
	t.st.missed_periods = 2;
	t.st.total_adjust_us = 102;
	t.st.nr_adjust = 6;
	t.st.nr_periods = 993;
	t.st.max_time_us = 10890;
	t.st.min_time_us = 1795;
	t.st.total_time_us = 1931ULL * 993 + 500;
	t.st.prime = 196291;
	t.vol = 4;
	t.nonvol = 999;
	t.migrate = 910;
	return t;
}

/* Debian's 2.4, `deadline_test -i 10000 -p 20`, one thread's block. */
static const char block_24[] =
	"\n[4973]\n"
	"missed deadlines  = 5\n"
	"missed periods    = 2\n"
	"Total adjustments = 102 us\n"
	"# adjustments = 6 avg: 17 us\n"
	"deadline   : 10000 us\n"
	"runtime    : 2000 us\n"
	"nr_periods : 993\n"
	"max_time: 10890us\tmin_time: 1795us\tavg_time: 1931us\n"
	"ctx switches vol:4 nonvol:999 migration:910\n"
	"highest prime: 196291\n"
	"\n";

START_TEST(thread_block_is_2_4s)
{
	struct dl_thread t = sample();
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	deadline_test_print_thread(f, &t);
	t.st.nr_adjust = 0; /* no "# adjustments" line then */
	t.st.total_adjust_us = 0;
	deadline_test_print_thread(f, &t);
	fclose(f);
	ck_assert_uint_ge(len, sizeof(block_24) - 1);
	ck_assert_int_eq(memcmp(buf, block_24, sizeof(block_24) - 1), 0);
	ck_assert_ptr_null(strstr(buf + sizeof(block_24) - 1, "# adjustments"));
	ck_assert_ptr_nonnull(strstr(buf + sizeof(block_24) - 1, "Total adjustments = 0 us\n"));
	free(buf);
}
END_TEST

/* Judge threads th[0..n) against cfg, the run stopped by sig (0: at -D): the result. */
static const char *judge_run(const struct deadline_test_config *cfg, struct dl_thread *th,
			     int n, int sig)
{
	static char result[16];
	struct dl_result res = { .nthreads = n, .threads = th, .duration_over = !sig,
				 .stop_signal = sig, .elapsed_ns = 2000000000 };
	struct dl_totals tot = deadline_test_totals(th, n);
	struct rt_verdict v;

	for (int i = 0; i < n; i++)
		th[i].index = i;
	ck_assert_int_eq(deadline_test_judge(&v, cfg, &res, &tot), 0);
	snprintf(result, sizeof(result), "%s", rt_verdict_result(&v));
	rt_verdict_free(&v);
	return result;
}

static const char *judge(const struct deadline_test_config *cfg, struct dl_thread *th, int n)
{
	return judge_run(cfg, th, n, 0);
}

START_TEST(verdict_counts_misses_and_idle_threads)
{
	struct deadline_test_config cfg;
	char *argv[] = { (char *)"deadline_test", NULL };
	struct dl_thread th[2] = { sample(), sample() };
	struct dl_totals tot;

	ck_assert_int_eq(deadline_test_parse_args(&cfg, 1, argv), 0);
	th[1].st.missed_deadlines = 0;
	tot = deadline_test_totals(th, 2);
	ck_assert_str_eq(judge(&cfg, th, 2), "fail");
	ck_assert_uint_eq(tot.missed_deadlines, 5);
	ck_assert_uint_eq(tot.missed_periods, 4);
	ck_assert_uint_eq(tot.nr_periods, 1986);
	cfg.max_misses = 9; /* 5 deadlines and 4 periods */
	ck_assert_str_eq(judge(&cfg, th, 2), "pass");
	cfg.max_misses = 5; /* the deadlines alone would pass: the periods count too */
	ck_assert_str_eq(judge(&cfg, th, 2), "fail");
	/* a thread starved for whole periods, no deadline missed: not a PASS */
	th[0].st.missed_deadlines = 0;
	th[1].st.missed_periods = 40;
	cfg.max_misses = 0;
	ck_assert_str_eq(judge(&cfg, th, 2), "fail");
	cfg.max_misses = 100;
	th[1].st.nr_periods = 0; /* never ran: nothing measured */
	ck_assert_str_eq(judge(&cfg, th, 2), "fail");
	ck_assert_int_eq(deadline_test_totals(th, 2).idle_threads, 1);
	ck_assert_str_eq(judge(&cfg, th, 0), "inconclusive");
}
END_TEST

START_TEST(verdict_stopped_before_a_period)
{
	struct deadline_test_config cfg;
	char *argv[] = { (char *)"deadline_test", NULL };
	struct dl_thread th[2] = { sample(), sample() };

	ck_assert_int_eq(deadline_test_parse_args(&cfg, 1, argv), 0);
	cfg.max_misses = 100;
	th[1].st.nr_periods = 0; /* still waiting for its first period */
	th[1].st.missed_deadlines = th[1].st.missed_periods = 0;
	ck_assert_str_eq(judge_run(&cfg, th, 2, SIGINT), "inconclusive");
	ck_assert_str_eq(judge_run(&cfg, th, 2, SIGTERM), "inconclusive");
	/* misses seen before the signal still FAIL */
	cfg.max_misses = 0;
	ck_assert_str_eq(judge_run(&cfg, th, 2, SIGINT), "fail");
	/* -D 0 ends by a signal as asked: a thread with no period FAILs */
	cfg.max_misses = 100;
	cfg.duration_s = 0;
	ck_assert_str_eq(judge_run(&cfg, th, 2, SIGINT), "fail");
}
END_TEST

Suite *unit_suite(void)
{
	Suite *s = suite_create("deadline_test");
	TCase *tc = tcase_create("deadline_test");

	tcase_add_test(tc, defaults_are_2_4s);
	tcase_add_test(tc, short_and_long_forms);
	tcase_add_test(tc, thread_block_is_2_4s);
	tcase_add_test(tc, verdict_counts_misses_and_idle_threads);
	tcase_add_test(tc, verdict_stopped_before_a_period);
	suite_add_tcase(s, tc);
	return s;
}
