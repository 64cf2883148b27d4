// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "unit.h"

#include "rt_cli.h"
#include "rt_prog.h"
#include "rt_tool.h"

/* A fake tool: each callback appends its letter to `calls` and returns what `ret` says. */
struct fake {
	char calls[16];
	int parse_rc, validate_rc, setup_rc, run_rc, json_rc;
	const char *json_path;
	bool no_json;
	int restore_rc;        /* the rc restore saw */
	int json_rc_seen;      /* the rc write_json was given */
	bool signals_blocked;  /* SIGTERM blocked when run ran */
};

static void called(struct rt_tool *t, char c)
{
	struct fake *f = t->cfg;
	size_t n = strlen(f->calls);

	ck_assert_uint_lt(n, sizeof(f->calls) - 1);
	f->calls[n] = c;
}

static int fake_parse(struct rt_tool *t, int argc, char *argv[])
{
	struct fake *f = t->cfg;

	(void)argc;
	(void)argv;
	called(t, 'p');
	t->json_path = f->json_path;
	return f->parse_rc;
}

static int fake_validate(struct rt_tool *t)
{
	called(t, 'v');
	return ((struct fake *)t->cfg)->validate_rc;
}

static int fake_setup(struct rt_tool *t)
{
	struct fake *f = t->cfg;

	called(t, 's');
	/* the --json file is open before the tool's set-up */
	if (f->json_path)
		ck_assert_ptr_nonnull(t->json.f);
	return f->setup_rc;
}

static int fake_run(struct rt_tool *t)
{
	struct fake *f = t->cfg;
	sigset_t now;

	called(t, 'r');
	pthread_sigmask(SIG_BLOCK, NULL, &now);
	f->signals_blocked = sigismember(&now, SIGTERM) == 1 && sigismember(&t->signals, SIGTERM) == 1;
	t->no_json = f->no_json;
	return f->run_rc;
}

static int fake_write_json(struct rt_tool *t, FILE *out, int rc)
{
	struct fake *f = t->cfg;

	called(t, 'j');
	f->json_rc_seen = rc;
	fprintf(out, "{\"rc\": %d}\n", rc);
	return f->json_rc;
}

static void fake_restore(struct rt_tool *t, int rc)
{
	struct fake *f = t->cfg;

	called(t, 'x');
	f->restore_rc = rc;
	/* the skeleton has let go of the file and the machine's state already */
	ck_assert_ptr_null(t->json.f);
}

static const struct rt_tool_ops fake_ops = {
	.parse = fake_parse,
	.validate = fake_validate,
	.setup = fake_setup,
	.run = fake_run,
	.write_json = fake_write_json,
	.restore = fake_restore,
};

static char json_file[64];

static const char *json_in_tmp(void)
{
	snprintf(json_file, sizeof(json_file), "/tmp/test_rt_tool.%d.json", (int)getpid());
	unlink(json_file);
	return json_file;
}

static char *slurp(const char *path)
{
	static char buf[256];
	FILE *f = fopen(path, "r");
	size_t n;

	if (!f)
		return NULL;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

/* rt_tool_main on argv {"/usr/bin/faketool"}; the fake and its rt_tool are fresh. */
static int run_main(struct fake *f)
{
	static char arg0[] = "/usr/bin/faketool"; /* rt_prog keeps a pointer into it */
	char *argv[] = { arg0, NULL };
	struct rt_tool t = { .ops = &fake_ops, .cfg = f };

	return rt_tool_main(&t, 1, argv);
}

START_TEST(order_of_a_good_run)
{
	struct fake f = { .json_path = json_in_tmp() };
	char *doc;

	ck_assert_int_eq(run_main(&f), RT_EXIT_OK);
	ck_assert_str_eq(f.calls, "pvsrjx");
	ck_assert(f.signals_blocked);
	ck_assert_str_eq(rt_prog_name(), "faketool");
	doc = slurp(json_file);
	ck_assert_ptr_nonnull(doc);
	ck_assert_str_eq(doc, "{\"rc\": 0}\n");
	unlink(json_file);
}
END_TEST

START_TEST(verdict_reaches_json_and_exit)
{
	struct fake f = { .json_path = json_in_tmp(), .run_rc = RT_EXIT_FAIL };

	ck_assert_int_eq(run_main(&f), RT_EXIT_FAIL);
	ck_assert_int_eq(f.json_rc_seen, RT_EXIT_FAIL);
	ck_assert_int_eq(f.restore_rc, RT_EXIT_FAIL);
	ck_assert_str_eq(slurp(json_file), "{\"rc\": 3}\n");
	unlink(json_file);
}
END_TEST

START_TEST(help_exits_zero_without_running)
{
	struct fake f = { .parse_rc = -1 };

	ck_assert_int_eq(run_main(&f), RT_EXIT_OK);
	ck_assert_str_eq(f.calls, "p");
}
END_TEST

START_TEST(usage_error_exits_with_it)
{
	struct fake f = { .parse_rc = RT_EXIT_USAGE };
	struct fake g = { .validate_rc = RT_EXIT_USAGE };

	ck_assert_int_eq(run_main(&f), RT_EXIT_USAGE);
	ck_assert_str_eq(f.calls, "p");
	ck_assert_int_eq(run_main(&g), RT_EXIT_USAGE);
	ck_assert_str_eq(g.calls, "pv");
}
END_TEST

START_TEST(failed_setup_still_restores)
{
	struct fake f = { .json_path = json_in_tmp(), .setup_rc = RT_EXIT_FAILURE };

	ck_assert_int_eq(run_main(&f), RT_EXIT_FAILURE);
	ck_assert_str_eq(f.calls, "pvsx");
	ck_assert_int_eq(f.restore_rc, RT_EXIT_FAILURE);
	/* no partial output: the file was never renamed into place */
	ck_assert_int_ne(access(json_file, F_OK), 0);
}
END_TEST

START_TEST(nothing_to_write_leaves_no_file)
{
	struct fake f = { .json_path = json_in_tmp(), .no_json = true };

	ck_assert_int_eq(run_main(&f), RT_EXIT_OK);
	ck_assert_str_eq(f.calls, "pvsrx");
	ck_assert_int_ne(access(json_file, F_OK), 0);
}
END_TEST

START_TEST(failed_json_write_is_a_failure)
{
	struct fake f = { .json_path = json_in_tmp(), .json_rc = -ENOSPC };

	ck_assert_int_eq(run_main(&f), RT_EXIT_FAILURE);
	ck_assert_int_eq(f.restore_rc, RT_EXIT_FAILURE);
	ck_assert_int_ne(access(json_file, F_OK), 0);
}
END_TEST

START_TEST(unopenable_json_fails_before_setup)
{
	struct fake f = { .json_path = "/nonexistent-dir/x.json" };

	ck_assert_int_eq(run_main(&f), RT_EXIT_FAILURE);
	ck_assert_str_eq(f.calls, "pvx");
}
END_TEST

/* Only parse and run are required; the skeleton's own steps still happen. */
static int min_parse(struct rt_tool *t, int argc, char *argv[])
{
	(void)argc;
	(void)argv;
	called(t, 'p');
	return 0;
}

START_TEST(optional_callbacks_may_be_absent)
{
	static const struct rt_tool_ops min_ops = { .parse = min_parse, .run = fake_run };
	struct fake f = { .run_rc = RT_EXIT_FAIL };
	struct rt_tool t = { .ops = &min_ops, .cfg = &f };

	rt_prog_init("faketool");
	ck_assert_int_eq(min_parse(&t, 0, NULL), 0);
	ck_assert_int_eq(rt_tool_run(&t), RT_EXIT_FAIL);
	ck_assert_str_eq(f.calls, "pr");
	ck_assert(f.signals_blocked);
}
END_TEST

/*
 * The verdict lives in the skeleton: run's judge fills t->verdict,
 * rt_tool_verdict_status turns it into the exit code, write_json sees it,
 * and restore finds it freed.
 */
struct judged {
	uint64_t checked;      /* evidence the judge adds, 0: none */
	int run_rc;            /* the run's own code */
	enum rt_judge how;
	char result[16];       /* what write_json saw */
	bool freed;            /* restore found the verdict freed */
};

static int judged_parse(struct rt_tool *t, int argc, char *argv[])
{
	(void)argc;
	(void)argv;
	t->json_path = json_in_tmp();
	return 0;
}

static int judged_run(struct rt_tool *t)
{
	struct judged *j = t->cfg;

	rt_verdict_init(&t->verdict);
	if (j->checked)
		ck_assert_int_eq(rt_verdict_add_checked(&t->verdict, "samples", j->checked), 0);
	rt_verdict_finish(&t->verdict);
	return rt_tool_verdict_status(t, j->how, "us", j->run_rc);
}

static int judged_write_json(struct rt_tool *t, FILE *out, int rc)
{
	struct judged *j = t->cfg;

	snprintf(j->result, sizeof(j->result), "%s", rt_verdict_result(&t->verdict));
	fprintf(out, "{\"rc\": %d}\n", rc);
	return 0;
}

static void judged_restore(struct rt_tool *t, int rc)
{
	struct judged *j = t->cfg;

	(void)rc;
	j->freed = !t->verdict.checked && !t->verdict.nchecked;
}

static int run_judged(struct judged *j)
{
	static const struct rt_tool_ops ops = { .parse = judged_parse, .run = judged_run,
						.write_json = judged_write_json,
						.restore = judged_restore };
	static char arg0[] = "judgedtool";
	char *argv[] = { arg0, NULL };
	struct rt_tool t = { .ops = &ops, .cfg = j, .prog_name = "named" };
	int rc = rt_tool_main(&t, 1, argv);

	ck_assert_str_eq(rt_prog_name(), "named"); /* prog_name beats argv[0] */
	unlink(json_file);
	return rc;
}

/* The verdict's cases: evidence or none, asked or not, a run that failed. */
static const struct {
	uint64_t checked;
	enum rt_judge how;
	int run_rc, want_rc;
	const char *want_result;
} verdict_cases[] = {
	{ 5, RT_JUDGE_ASKED, RT_EXIT_OK, RT_EXIT_OK, "pass" },
	/* no evidence, asked: INCONCLUSIVE, exit 4 */
	{ 0, RT_JUDGE_ASKED, RT_EXIT_OK, RT_EXIT_INCONCLUSIVE, "inconclusive" },
	/* not asked: the same verdict in the JSON, exit 0 */
	{ 0, RT_JUDGE_NONE, RT_EXIT_OK, RT_EXIT_OK, "inconclusive" },
	/* a run that failed keeps its own code */
	{ 5, RT_JUDGE_ASKED, RT_EXIT_FAILURE, RT_EXIT_FAILURE, "pass" },
};

/* One case an iteration: rt_tool_main closes stdout at the end, as main's last step. */
START_TEST(verdict_is_the_skeletons)
{
	struct judged j = { .checked = verdict_cases[_i].checked, .how = verdict_cases[_i].how,
			    .run_rc = verdict_cases[_i].run_rc };

	ck_assert_int_eq(run_judged(&j), verdict_cases[_i].want_rc);
	ck_assert_str_eq(j.result, verdict_cases[_i].want_result);
	ck_assert(j.freed);
}
END_TEST

/* The options every scheduler tool has beyond 2.4: one table, one handler. */
START_TEST(common_options_have_one_handler)
{
	static const struct option opts[] = { RT_CLI_COMMON_LONG_OPTIONS, { NULL, 0, NULL, 0 } };
	static char a0[] = "tool", a1[] = "--json=x.json", a2[] = "--no-preflight",
		    a3[] = "--verdict", a4[] = "--preflight";
	char *argv[] = { a0, a1, a2, a3, a4, NULL };
	struct rt_cli_common o = { 0 };
	int c;

	rt_prog_init("tool");
	opterr = 0;
	optind = 0;
	while ((c = getopt_long(5, argv, "", opts, NULL)) != -1)
		ck_assert_int_eq(rt_cli_common_or_bad_option(&o, 5, argv, c, optarg), 0);
	ck_assert_str_eq(o.json, "x.json");
	ck_assert(o.verdict);
	ck_assert_int_eq(o.preflight, RT_CLI_PREFLIGHT_ALWAYS); /* the last one wins */
	/* anything else is the usage error */
	ck_assert_int_eq(rt_cli_common_or_bad_option(&o, 5, argv, 'z', NULL), RT_EXIT_USAGE);
}
END_TEST

/* The shared option front end: the error names the long option of getopt value c. */
START_TEST(option_number_names_its_option)
{
	static const struct option opts[] = {
		{ "loops", required_argument, NULL, 'l' },
		{ "threads", required_argument, NULL, 't' },
		{ NULL, 0, NULL, 0 },
	};
	char err[256] = "";
	long long n = -1;
	FILE *tmp = tmpfile();
	int saved = dup(2);

	rt_prog_init("faketool");
	ck_assert_int_eq(rt_cli_opt_number(opts, 't', " 12", 1, 64, NULL, &n), 0);
	ck_assert_int_eq(n, 12);
	ck_assert_ptr_nonnull(tmp);
	fflush(stderr);
	dup2(fileno(tmp), 2);
	ck_assert_int_eq(rt_cli_opt_number(opts, 't', "65", 1, 64, "threads", &n), RT_EXIT_USAGE);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	rewind(tmp);
	err[fread(err, 1, sizeof(err) - 1, tmp)] = '\0';
	fclose(tmp);
	ck_assert_ptr_nonnull(strstr(err, "faketool: invalid --threads '65': must be 1..64"));
}
END_TEST

Suite *unit_suite(void)
{
	Suite *s = suite_create("rt_tool");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, order_of_a_good_run);
	tcase_add_test(tc, verdict_reaches_json_and_exit);
	tcase_add_test(tc, help_exits_zero_without_running);
	tcase_add_test(tc, usage_error_exits_with_it);
	tcase_add_test(tc, failed_setup_still_restores);
	tcase_add_test(tc, nothing_to_write_leaves_no_file);
	tcase_add_test(tc, failed_json_write_is_a_failure);
	tcase_add_test(tc, unopenable_json_fails_before_setup);
	tcase_add_test(tc, optional_callbacks_may_be_absent);
	tcase_add_test(tc, option_number_names_its_option);
	tcase_add_loop_test(tc, verdict_is_the_skeletons, 0,
			    (int)(sizeof(verdict_cases) / sizeof(verdict_cases[0])));
	tcase_add_test(tc, common_options_have_one_handler);
	suite_add_tcase(s, tc);
	return s;
}
