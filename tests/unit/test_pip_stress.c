// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pip_stress's pure logic, in-process: its option parser (values, 2.4's
 * forms, the one-line errors), the /proc/PID/stat fields it reads (the
 * state of the high priority process, the effective priority of the low
 * one) and the verdict: which outcome passes, fails or could not run, the
 * exit code and the reason of each, on synthetic results.
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "unit.h"

#include "rt_verdict.h"

#include "rt_prog.h"

#include "../../src/pip_stress/options.h"
#include "../../src/pip_stress/report.h"
#include "../../src/pip_stress/run.h"

static struct pip_config cfg;
static char err_text[2048];

/* Parse args (split on single spaces); stderr is captured in err_text. */
static int parse(const char *args)
{
	static char words[512];
	char *argv[32];
	int argc = 0, rc, saved = dup(STDERR_FILENO);
	FILE *tmp = tmpfile();
	size_t n;

	ck_assert_ptr_nonnull(tmp);
	snprintf(words, sizeof(words), "%s", args);
	argv[argc++] = (char *)"pip_stress";
	for (char *w = strtok(words, " "); w && argc < 31; w = strtok(NULL, " "))
		argv[argc++] = w;
	argv[argc] = NULL;
	rt_prog_init("pip_stress");
	fflush(stderr);
	dup2(fileno(tmp), STDERR_FILENO);
	rc = pip_parse_args(&cfg, argc, argv);
	fflush(stderr);
	dup2(saved, STDERR_FILENO);
	close(saved);
	rewind(tmp);
	n = fread(err_text, 1, sizeof(err_text) - 1, tmp);
	err_text[n] = '\0';
	fclose(tmp);
	return rc;
}

START_TEST(options_land_in_the_config)
{
	ck_assert_int_eq(parse(""), 0);
	ck_assert_int_eq(cfg.usleep_us, 500);
	ck_assert_int_eq(cfg.work_ms, 1000);
	ck_assert(!cfg.no_pi && !cfg.common.json && cfg.common.preflight == RT_CLI_PREFLIGHT_TTY);
	ck_assert_int_eq(parse("-s 2000 --work=300 --no-pi --json=x.json --no-preflight"), 0);
	ck_assert_int_eq(cfg.usleep_us, 2000);
	ck_assert_int_eq(cfg.work_ms, 300);
	ck_assert(cfg.no_pi && cfg.common.preflight == RT_CLI_PREFLIGHT_NEVER);
	ck_assert_str_eq(cfg.common.json, "x.json");
	/* getopt_long's abbreviations and the separate-word value */
	ck_assert_int_eq(parse("--us 7 --wo 8 --no-pi --pre"), 0);
	ck_assert(cfg.usleep_us == 7 && cfg.work_ms == 8 && cfg.no_pi);
	ck_assert_int_eq(cfg.common.preflight, RT_CLI_PREFLIGHT_ALWAYS);
	ck_assert(!cfg.common.verdict);
	ck_assert_int_eq(parse("--verdict"), 0);
	ck_assert(cfg.common.verdict);
	ck_assert_str_eq(err_text, "");
}
END_TEST

static const struct {
	const char *args, *line;
} errors[] = {
	{ "-s 0", "pip_stress: invalid --usleep '0': must be 1..1000000 (us)" },
	{ "-s 1e3", "pip_stress: invalid --usleep '1e3': must be 1..1000000 (us)" },
	{ "--work=60001", "pip_stress: invalid --work '60001': must be 1..60000 (ms)" },
	{ "-s 1000 --work=1", "pip_stress: invalid --usleep 1000: must be less than --work (1 ms), "
			      "or the medium priority process ends before the low one releases "
			      "the mutex" },
	{ "--no", "pip_stress: unrecognized or ambiguous option '--no'" },
	{ "--json", "pip_stress: option '--json' requires an argument" },
	{ "-s", "pip_stress: option '-s' requires an argument" },
	/* 2.4 ignored such words; no harness passes any */
	{ "foo -s 9 bar", "pip_stress: unexpected argument 'foo'" },
};

START_TEST(bad_argv_gives_exit_2_and_one_line)
{
	char want[1024];

	ck_assert_int_eq(parse(errors[_i].args), RT_EXIT_USAGE);
	snprintf(want, sizeof(want), "%s\nTry 'pip_stress --help' for more information.\n",
		 errors[_i].line);
	ck_assert_str_eq(err_text, want);
}
END_TEST

START_TEST(stat_fields)
{
	/* a comm with spaces and parentheses: fields count from the last ')' */
	const char *fifo3 = "123 (a) b (c)) S 1 123 123 0 -1 4194560 100 0 0 0 5 6 0 0 -4 0 1 0 "
			    "77 1000 50 18446744073709551615";
	const char *other = "9 (sh) R 1 9 9 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 5 1 1 1";
	const char *fifo99 = "9 (x) D 1 9 9 0 -1 0 0 0 0 0 0 0 0 0 -100 0 1 0 5 1 1 1";

	ck_assert_int_eq(pip_state_from_stat(fifo3), 'S');
	ck_assert_int_eq(pip_state_from_stat(other), 'R');
	ck_assert_int_eq(pip_state_from_stat("no paren"), 0);
	ck_assert_int_eq(pip_rt_prio_from_stat(fifo3), 3);
	ck_assert_int_eq(pip_rt_prio_from_stat(fifo99), 99);
	ck_assert_int_eq(pip_rt_prio_from_stat(other), 0);
	ck_assert_int_eq(pip_rt_prio_from_stat("1 (x) S 1 2"), -1);
	ck_assert_int_eq(pip_rt_prio_from_stat("garbage"), -1);
}
END_TEST

static struct pip_result result(enum pip_outcome o)
{
	return (struct pip_result){ .outcome = o, .cpu = 0, .low_prio_at_unlock = 3,
				    .high_wait_ns = -1, .medium_ran_ns = -1 };
}

/* The verdict of an outcome: its result, partial, and (FAIL) the reason's start. */
static void judged(const struct pip_config *c, const struct pip_result *r, const char *result,
		   bool partial, const char *reason)
{
	struct rt_verdict v;

	pip_judge(&v, c, r);
	ck_assert_str_eq(rt_verdict_result(&v), result);
	ck_assert_int_eq(v.stop.partial, partial);
	if (reason) {
		ck_assert_uint_ge(v.nbroken, 1);
		ck_assert_msg(strstr(v.broken[0].detail, reason), "%s", v.broken[0].detail);
	}
	ck_assert_int_eq(rt_verdict_exit_status(&v, RT_JUDGE_NATIVE),
			 strcmp(result, "fail") ? 0 : RT_EXIT_FAIL);
	ck_assert_int_eq(rt_verdict_exit_status(&v, RT_JUDGE_ASKED),
			 !strcmp(result, "pass") ? 0 : !strcmp(result, "fail") ? RT_EXIT_FAIL
						     : RT_EXIT_INCONCLUSIVE);
	rt_verdict_free(&v);
}

START_TEST(verdict_for_each_outcome)
{
	struct pip_config c = { .usleep_us = 500, .work_ms = 250 };
	struct pip_result r = result(PIP_RESOLVED);

	judged(&c, &r, "pass", false, NULL);
	r = result(PIP_UNRESOLVED);
	r.low_prio_at_unlock = 1;
	judged(&c, &r, "fail", false, "medium finished its 250 ms of work before high got the "
	       "mutex (priority inheritance failed; low released it at priority 1)");
	c.no_pi = true;
	judged(&c, &r, "fail", false, "(--no-pi: no priority inheritance;");
	/* a stop is judged on what was measured: nothing decided, partial, no FAIL */
	r = result(PIP_STOPPED);
	r.stop_signal = SIGTERM;
	judged(&c, &r, "inconclusive", true, NULL);
	r = result(PIP_NO_INVERSION);
	judged(&c, &r, "inconclusive", false, "no inversion was set up");
}
END_TEST

START_TEST(result_lines_are_2_4s)
{
	struct pip_result r = result(PIP_RESOLVED);
	char text[1024] = "";
	FILE *f = fmemopen(text, sizeof(text), "w");

	ck_assert_ptr_nonnull(f);
	pip_print_result(f, &r);
	r = result(PIP_NO_INVERSION);
	pip_print_result(f, &r);
	r = result(PIP_STOPPED);
	pip_print_result(f, &r);
	fclose(f);
	ck_assert_str_eq(text, "Successfully used priority inheritance to handle an inversion\n"
			       "No inversion incurred\n");
}
END_TEST

Suite *unit_suite(void)
{
	Suite *s = suite_create("pip_stress");
	TCase *tc = tcase_create("logic");

	tcase_add_test(tc, options_land_in_the_config);
	UNIT_LOOP(tc, bad_argv_gives_exit_2_and_one_line, errors);
	tcase_add_test(tc, stat_fields);
	tcase_add_test(tc, verdict_for_each_outcome);
	tcase_add_test(tc, result_lines_are_2_4s);
	suite_add_tcase(s, tc);
	return s;
}
