// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rt-migrate-test's pure parts: the -c check on synthetic per-iteration
 * timestamps (in order passes; a task started late behind a lower-priority
 * one fails and is named), the text output against rt-tests 2.4's recorded
 * lines byte for byte, and the option parser.
 */
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "unit.h"

#include "rt_verdict.h"
#include "rt_verdict_write.h"

#include "rt_prog.h"

#include "../../src/rt-migrate-test/check.h"
#include "../../src/rt-migrate-test/options.h"
#include "../../src/rt-migrate-test/report.h"

static const int prio3[] = { 2, 3, 4 };

/* Three tasks started at 100, 60, 20 us, each looping 20 ms: in order. */
START_TEST(in_order_passes)
{
	const struct migrate_sample s[] = {
		{ 100, 20100, 700000 }, { 60, 20060, 700000 }, { 20, 20020, 700000 },
	};
	struct migrate_order_error e = { .task = -1 };

	ck_assert(migrate_check_iteration(s, prio3, 3, 1000, 0, &e));
	ck_assert_int_eq(e.task, -1);
}
END_TEST

/* All within maxerr of each other, in any order: in order. */
START_TEST(late_within_maxerr_passes)
{
	const struct migrate_sample s[] = {
		{ 10, 20010, 700000 }, { 500, 20500, 600000 }, { 1010, 21010, 500000 },
	};
	/* task 1 exactly 1000 us late, with fewer loops */
	const struct migrate_sample edge[] = {
		{ 10, 20010, 700000 }, { 1010, 21010, 600000 },
	};
	struct migrate_order_error e;

	ck_assert(migrate_check_iteration(s, prio3, 3, 1000, 0, &e));
	/* exactly maxerr late is still in order, one more is not */
	ck_assert(migrate_check_iteration(edge, prio3, 2, 1000, 0, &e));
	ck_assert(!migrate_check_iteration(edge, prio3, 2, 999, 0, &e));
	ck_assert_int_eq(e.late_us, 1000);
}
END_TEST

/* Task 2 (prio 4) waited 5 ms while task 1 (prio 3) ran: fail, named. */
START_TEST(lower_prio_ahead_fails_naming_the_task)
{
	const struct migrate_sample s[] = {
		{ 20, 20020, 700000 }, { 30, 20030, 700000 }, { 5030, 25030, 500000 },
	};
	struct migrate_order_error e;
	char buf[320];

	ck_assert(!migrate_check_iteration(s, prio3, 3, 1000, 7, &e));
	ck_assert_int_eq(e.iteration, 7);
	ck_assert_int_eq(e.task, 2);
	ck_assert_int_eq(e.prio, 4);
	ck_assert_int_eq(e.lower_task, 1);
	ck_assert_int_eq(e.lower_prio, 3);
	ck_assert_int_eq(e.late_us, 5000);
	ck_assert_int_eq(e.end_late_us, 5000);
	migrate_order_error_format(&e, 1000, buf, sizeof(buf));
	ck_assert_str_eq(buf, "iteration 7: task 2 (prio 4) started 5000 us after task 1 "
			 "(prio 3), which ran first (maxerr 1000 us; loops 500000 vs 700000, "
			 "ended 5000 us later)");
}
END_TEST

/* Late, but it got as much CPU and overlapped: 2.4's false-positive filter. */
START_TEST(late_start_without_evidence_passes)
{
	const struct migrate_sample s[] = {
		{ 20, 20020, 700000 }, { 1500, 20400, 710000 },
	};
	struct migrate_order_error e;

	ck_assert(migrate_check_iteration(s, prio3, 2, 1000, 0, &e));
}
END_TEST

/* Each piece of evidence alone makes a late start a failure. */
START_TEST(each_evidence_fails)
{
	/* started after the lower one ended (same loops) */
	const struct migrate_sample after_end[] = {
		{ 20, 20020, 700000 }, { 20100, 40100, 700000 },
	};
	/* ended more than maxerr after it (more loops) */
	const struct migrate_sample ended_late[] = {
		{ 20, 20020, 700000 }, { 1500, 21500, 710000 },
	};
	/* fewer loops */
	const struct migrate_sample fewer[] = {
		{ 20, 20020, 700000 }, { 1500, 20400, 690000 },
	};
	struct migrate_order_error e;

	ck_assert(!migrate_check_iteration(after_end, prio3, 2, 1000, 0, &e));
	ck_assert(!migrate_check_iteration(ended_late, prio3, 2, 1000, 0, &e));
	ck_assert(!migrate_check_iteration(fewer, prio3, 2, 1000, 0, &e));
	ck_assert_int_eq(e.task, 1);
	ck_assert_int_eq(e.lower_task, 0);
}
END_TEST

/* The first task out of order is the one named. */
START_TEST(first_out_of_order_is_named)
{
	const struct migrate_sample s[] = {
		{ 20, 20020, 700000 }, { 3000, 23000, 600000 }, { 9000, 29000, 500000 },
	};
	struct migrate_order_error e;

	ck_assert(!migrate_check_iteration(s, prio3, 3, 1000, 0, &e));
	ck_assert_int_eq(e.task, 1);
	ck_assert_int_eq(e.late_us, 2980);
}
END_TEST

/* -e: equal priorities are not ordered; a task is compared with a lower one. */
START_TEST(equal_prios_are_not_compared)
{
	const int prio[] = { 2, 3, 3, 5 };
	const struct migrate_sample ok[] = {
		{ 9000, 29000, 500000 }, { 20, 20020, 700000 },
		{ 5000, 25000, 500000 }, { 10, 20010, 700000 },
	};
	const struct migrate_sample bad[] = {
		{ 20, 20020, 700000 }, { 30, 20030, 700000 },
		{ 5000, 25000, 500000 }, { 10, 20010, 700000 },
	};
	struct migrate_order_error e;

	ck_assert(migrate_check_iteration(ok, prio, 4, 1000, 0, &e));
	ck_assert(!migrate_check_iteration(bad, prio, 4, 1000, 0, &e));
	ck_assert_int_eq(e.task, 2);
	ck_assert_int_eq(e.prio, 3);
	ck_assert_int_eq(e.lower_task, 0);
	ck_assert_int_eq(e.lower_prio, 2);
}
END_TEST

static char *print_to_string(const struct migrate_config *cfg, const struct migrate_result *res,
			     pid_t parent)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct rt_verdict v;

	ck_assert_ptr_nonnull(f);
	migrate_print(f, cfg, res, parent);
	/* as main: the verdict lines when asked, or a -c FAIL */
	migrate_judge(&v, cfg, res);
	if (rt_verdict_text_shown(&v, cfg->common.verdict ? RT_JUDGE_ASKED :
				 cfg->check ? RT_JUDGE_NATIVE : RT_JUDGE_NONE))
		rt_verdict_write_text(f, &v, "us");
	rt_verdict_free(&v);
	fclose(f);
	return buf;
}

/* Recorded from Debian's rt-tests 2.4: rt-migrate-test -l 2 -q -c 2. */
static const char passed_24[] =
	"Iter:      0       1  \n"
	"   0:      229     203  \n"
	" len:    20229   20203  \n"
	" loops: 678957  646525  \n"
	"\n"
	"   1:      457     432  \n"
	" len:    20457   20432  \n"
	" loops: 650446  677308  \n"
	"\n"
	"Parent pid: 9988\n"
	" Task 0 (prio 2) (pid 9991):\n"
	"   Max: 457 us\n"
	"   Min: 229 us\n"
	"   Tot: 686 us\n"
	"   Avg: 343 us\n"
	"\n"
	" Task 1 (prio 3) (pid 9992):\n"
	"   Max: 432 us\n"
	"   Min: 203 us\n"
	"   Tot: 635 us\n"
	"   Avg: 317 us\n"
	"\n"
	" Passed!\n";

START_TEST(output_is_24s_byte_for_byte)
{
	struct migrate_sample s[] = {
		{ 229, 20229, 678957 }, { 203, 20203, 646525 },
		{ 457, 20457, 650446 }, { 432, 20432, 677308 },
	};
	int prio[] = { 2, 3 }, policy[] = { 1, 1 };
	pid_t tid[] = { 9991, 9992 };
	struct migrate_config cfg = { .nr_tasks = 2, .prio = 2, .check = true, .maxerr_us = 1000 };
	struct migrate_result res = { .samples = s, .prio = prio, .tid = tid, .policy = policy,
				      .iterations = 2 };
	char *out = print_to_string(&cfg, &res, 9988);

	/* 2.4's lines and nothing else (a PASS is said when asked) */
	ck_assert_str_eq(out, passed_24);
	free(out);
	cfg.common.verdict = true;
	out = print_to_string(&cfg, &res, 9988);
	ck_assert(strncmp(out, passed_24, strlen(passed_24)) == 0);
	ck_assert_str_eq(out + strlen(passed_24), "# Verdict: PASS\n");
	free(out);
	cfg.common.verdict = false;
	/* without -c: no Passed!, no verdict */
	cfg.check = false;
	out = print_to_string(&cfg, &res, 9988);
	ck_assert_uint_eq(strlen(out), strlen(passed_24) - strlen(" Passed!\n"));
	ck_assert(strncmp(out, passed_24, strlen(out)) == 0);
	free(out);
}
END_TEST

/* Recorded from 2.4: rt-migrate-test -q -c -m 0 -l 5 3, which failed (exit 255). */
static const char failed_24[] =
	"Iter:      0       1       2  \n"
	"   0:    20078      60      78  \n"
	" len:    40078   20060   20078  \n"
	" loops: 652281  713113  674020  \n"
	"\n"
	"Parent pid: 28286\n"
	" Task 0 (prio 2) (pid 28288):\n"
	"   Max: 20078 us\n"
	"   Min: 20078 us\n"
	"   Tot: 20078 us\n"
	"   Avg: 20078 us\n"
	"\n"
	" Task 1 (prio 3) (pid 28289):\n"
	"   Max: 60 us\n"
	"   Min: 60 us\n"
	"   Tot: 60 us\n"
	"   Avg: 60 us\n"
	"\n"
	" Task 2 (prio 4) (pid 28290):\n"
	"   Max: 78 us\n"
	"   Min: 78 us\n"
	"   Tot: 78 us\n"
	"   Avg: 78 us\n"
	"\n"
	" Failed!\n";

START_TEST(failed_output_is_24s_and_names_the_task)
{
	struct migrate_sample s[] = {
		{ 20078, 40078, 652281 }, { 60, 20060, 713113 }, { 78, 20078, 674020 },
	};
	int prio[] = { 2, 3, 4 }, policy[] = { 1, 1, 1 };
	pid_t tid[] = { 28288, 28289, 28290 };
	struct migrate_config cfg = { .nr_tasks = 3, .prio = 2, .check = true, .maxerr_us = 0 };
	struct migrate_result res = { .samples = s, .prio = prio, .tid = tid, .policy = policy,
				      .iterations = 1 };
	char *out;

	/* the check, on 2.4's own numbers, finds what 2.4 found */
	ck_assert(!migrate_check_iteration(s, prio, 3, 0, 0, &res.error));
	res.out_of_order = true;
	out = print_to_string(&cfg, &res, 28286);
	ck_assert(strncmp(out, failed_24, strlen(failed_24)) == 0);
	ck_assert_str_eq(out + strlen(failed_24),
			 "# Verdict: FAIL\n"
			 "# Verdict: task 2: order: iteration 0: task 2 (prio 4) started 18 us after "
			 "task 1 (prio 3), which ran first (maxerr 0 us; loops 674020 vs 713113, "
			 "ended 18 us later)\n");
	free(out);
}
END_TEST

/* No iteration done (stopped at once): zeros, no Passed!, never a PASS. */
START_TEST(no_iteration_is_not_a_pass)
{
	int prio[] = { 2 }, policy[] = { 1 };
	pid_t tid[] = { 5 };
	struct migrate_config cfg = { .nr_tasks = 1, .prio = 2, .check = true };
	struct migrate_result res = { .prio = prio, .tid = tid, .policy = policy };
	char *out = print_to_string(&cfg, &res, 4);

	ck_assert_str_eq(out, "Iter:      0  \n"
			 "Parent pid: 4\n"
			 " Task 0 (prio 2) (pid 5):\n"
			 "   Max: 0 us\n   Min: 0 us\n   Tot: 0 us\n   Avg: 0 us\n\n");
	free(out);
	cfg.common.verdict = true;
	out = print_to_string(&cfg, &res, 4);
	ck_assert_msg(strstr(out, "\n# Verdict: INCONCLUSIVE\n"), "%s", out);
	free(out);
}
END_TEST

static char *err_text;

/* Parse argv (NULL-terminated words) with stderr captured in err_text. */
static int parse(struct migrate_config *cfg, const char *const *words)
{
	char *argv[32];
	int argc = 0, rc, saved = dup(2);
	FILE *tmp = tmpfile();
	long n;

	for (; words[argc]; argc++)
		argv[argc] = (char *)words[argc];
	argv[argc] = NULL;
	fflush(stderr);
	dup2(fileno(tmp), 2);
	rc = migrate_parse_args(cfg, argc, argv);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	n = ftell(tmp);
	free(err_text);
	err_text = calloc(1, (size_t)n + 1);
	rewind(tmp);
	if (n > 0 && fread(err_text, 1, (size_t)n, tmp) != (size_t)n)
		ck_abort_msg("cannot read the captured stderr");
	fclose(tmp);
	return rc;
}

START_TEST(options_land_in_the_config)
{
	const char *const w[] = { "rt-migrate-test", "-c", "-e", "-q", "-p", "51", "--run-time=5",
				  "--sl", "7", "-m", "300", "-l", "9", "-D", "2m", "--json=x.json",
				  "4", NULL };
	const char *const abbrev[] = { "rt-migrate-test", "--p", "5", "--pr=6", "--pri", "7", "2",
				       NULL };
	struct migrate_config cfg;

	rt_prog_init("rt-migrate-test");
	ck_assert_int_eq(parse(&cfg, w), 0);
	ck_assert(cfg.check && cfg.equal && cfg.quiet);
	ck_assert_int_eq(cfg.prio, 51);
	ck_assert_int_eq(cfg.run_time_ms, 5);
	ck_assert_int_eq(cfg.sleep_time_ms, 7);
	ck_assert_int_eq(cfg.maxerr_us, 300);
	ck_assert_int_eq(cfg.loops, 9);
	ck_assert_uint_eq(cfg.duration_s, 120);
	ck_assert_str_eq(cfg.common.json, "x.json");
	ck_assert_int_eq(cfg.nr_tasks, 4);
	/* -e: tasks 1..N-2 at prio + 1, main above the last */
	ck_assert_int_eq(migrate_task_prio(&cfg, 0), 51);
	ck_assert_int_eq(migrate_task_prio(&cfg, 1), 52);
	ck_assert_int_eq(migrate_task_prio(&cfg, 2), 52);
	ck_assert_int_eq(migrate_task_prio(&cfg, 3), 54);
	ck_assert_int_eq(migrate_task_prio(&cfg, 4), 55);
	/* 2.4's --p and --pr still mean --prio beside --preflight */
	ck_assert_int_eq(parse(&cfg, abbrev), 0);
	ck_assert_int_eq(cfg.prio, 7);
}
END_TEST

START_TEST(defaults_are_24s)
{
	const char *const w[] = { "rt-migrate-test", NULL };
	struct migrate_config cfg;
	cpu_set_t set;

	rt_prog_init("rt-migrate-test");
	ck_assert_int_eq(parse(&cfg, w), 0);
	ck_assert_int_eq(sched_getaffinity(0, sizeof(set), &set), 0);
	ck_assert_int_eq(cfg.nr_tasks, CPU_COUNT(&set) + 1);
	ck_assert_int_eq(cfg.prio, 2);
	ck_assert_int_eq(cfg.run_time_ms, 20);
	ck_assert_int_eq(cfg.sleep_time_ms, 100);
	ck_assert_int_eq(cfg.maxerr_us, 1000);
	ck_assert_int_eq(cfg.loops, 50);
	ck_assert(!cfg.check && !cfg.equal && !cfg.quiet && !cfg.common.json);
}
END_TEST

static const struct {
	const char *args[6];
	const char *error;
} bad[] = {
	{ { "-l", "0" }, "invalid --loops '0': must be 1..1000000" },
	{ { "-l", "-1" }, "invalid --loops '-1': must be 1..1000000" },
	{ { "-p", "0" }, "invalid --prio '0': must be 1..98" },
	{ { "-p", "98", "3" },
	  "invalid --prio 98 with 3 tasks: they take priorities 98..100 and the main thread "
	  "101, above 99" },
	{ { "-r", "0" }, "invalid --run-time '0': must be 1..3600000 (ms)" },
	{ { "-s", "x" }, "invalid --sleep-time 'x': must be 0..3600000 (ms)" },
	{ { "-m", "1x" }, "invalid --maxerr '1x': must be 0..3600000000 (us)" },
	{ { "2", "extra" }, "unexpected argument 'extra'" },
	{ { "-D", "1.5m" }, "invalid --duration '1.5m': must be N, Ns, Nm, Nh or Nd, at most 3650d" },
	{ { "0" }, "invalid NR_TASKS '0': must be 1..98" },
	{ { "abc" }, "invalid NR_TASKS 'abc': must be 1..98" },
	{ { "-l", "1000000", "17" },
	  "invalid --loops 1000000 with 17 tasks: more than 16000000 samples to keep" },
	{ { "--bogus" }, "unrecognized or ambiguous option '--bogus'" },
};

START_TEST(usage_errors_are_one_line)
{
	const char *w[8] = { "rt-migrate-test" };
	struct migrate_config cfg;
	char want[256];

	for (int k = 0; bad[_i].args[k]; k++)
		w[k + 1] = bad[_i].args[k];
	rt_prog_init("rt-migrate-test");
	ck_assert_int_eq(parse(&cfg, w), RT_EXIT_USAGE);
	snprintf(want, sizeof(want), "rt-migrate-test: %s\nTry 'rt-migrate-test --help' for more "
		 "information.\n", bad[_i].error);
	ck_assert_str_eq(err_text, want);
}
END_TEST

Suite *unit_suite(void)
{
	Suite *s = suite_create("migrate");
	TCase *tc = tcase_create("check");

	tcase_add_test(tc, in_order_passes);
	tcase_add_test(tc, late_within_maxerr_passes);
	tcase_add_test(tc, lower_prio_ahead_fails_naming_the_task);
	tcase_add_test(tc, late_start_without_evidence_passes);
	tcase_add_test(tc, each_evidence_fails);
	tcase_add_test(tc, first_out_of_order_is_named);
	tcase_add_test(tc, equal_prios_are_not_compared);
	suite_add_tcase(s, tc);
	tc = tcase_create("output");
	tcase_add_test(tc, output_is_24s_byte_for_byte);
	tcase_add_test(tc, failed_output_is_24s_and_names_the_task);
	tcase_add_test(tc, no_iteration_is_not_a_pass);
	suite_add_tcase(s, tc);
	tc = tcase_create("options");
	tcase_add_test(tc, options_land_in_the_config);
	tcase_add_test(tc, defaults_are_24s);
	UNIT_LOOP(tc, usage_errors_are_one_line, bad);
	suite_add_tcase(s, tc);
	return s;
}
