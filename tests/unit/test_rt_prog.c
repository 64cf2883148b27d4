// SPDX-License-Identifier: GPL-2.0-or-later
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "unit.h"

#include "rt_prog.h"

/* Run fn with stderr (or stdout) sent to a buffer; returns what it wrote. */
static char *capture(int fd, void (*fn)(void))
{
	static char out[1024];
	FILE *tmp = tmpfile();
	int saved = dup(fd);
	size_t n;

	ck_assert_ptr_nonnull(tmp);
	fflush(fd == 1 ? stdout : stderr);
	dup2(fileno(tmp), fd);
	fn();
	fflush(fd == 1 ? stdout : stderr);
	dup2(saved, fd);
	close(saved);
	rewind(tmp);
	n = fread(out, 1, sizeof(out) - 1, tmp);
	out[n] = '\0';
	fclose(tmp);
	return out;
}

static int rc;

static void do_range_error(void)
{
	rc = rt_prog_range_error("interval", "0", 1, 1000000, "us");
}

static void do_range_error_no_unit(void)
{
	rc = rt_prog_range_error("threads", "abc", 1, 4096, NULL);
}

static void do_error_errno(void)
{
	rt_prog_error_errno(2, "cannot open '%s'", "x.json");
}

static void do_version(void)
{
	rt_prog_print_version(stdout);
}

START_TEST(name_is_basename)
{
	rt_prog_init("/usr/bin/cyclictest");
	ck_assert_str_eq(rt_prog_name(), "cyclictest");
	rt_prog_init("");
	ck_assert_str_eq(rt_prog_name(), "cyclictest");
	rt_prog_init("signaltest");
	ck_assert_str_eq(rt_prog_name(), "signaltest");
}
END_TEST

START_TEST(usage_error_is_one_line_and_hint)
{
	rt_prog_init("/x/prog");
	ck_assert_str_eq(capture(2, do_range_error),
			 "prog: invalid --interval '0': must be 1..1000000 (us)\n"
			 "Try 'prog --help' for more information.\n");
	ck_assert_int_eq(rc, RT_EXIT_USAGE);
	ck_assert_str_eq(capture(2, do_range_error_no_unit),
			 "prog: invalid --threads 'abc': must be 1..4096\n"
			 "Try 'prog --help' for more information.\n");
}
END_TEST

START_TEST(error_with_errno_text)
{
	rt_prog_init("prog");
	ck_assert_str_eq(capture(2, do_error_errno),
			 "prog: cannot open 'x.json': No such file or directory\n");
}
END_TEST

START_TEST(version_names_package_and_interface)
{
	char *out;

	rt_prog_init("cyclictest");
	out = capture(1, do_version);
	ck_assert_ptr_nonnull(strstr(out, "cyclictest (rt-tests-ng) " PACKAGE_VERSION "\n"));
	ck_assert_ptr_nonnull(strstr(out, "rt-tests interface 2.40\n"));
}
END_TEST

START_TEST(exit_codes_are_interface)
{
	ck_assert_int_eq(RT_EXIT_OK, 0);
	ck_assert_int_eq(RT_EXIT_FAILURE, 1);
	ck_assert_int_eq(RT_EXIT_USAGE, 2);
}
END_TEST

START_TEST(close_stdout_reports_write_error)
{
	/* Forked by check: stdout may be replaced freely. */
	if (!freopen("/dev/full", "w", stdout))
		return;
	printf("lost\n");
	ck_assert_int_lt(rt_prog_close_stdout(), 0);
}
END_TEST

START_TEST(close_stdout_ok)
{
	if (!freopen("/dev/null", "w", stdout))
		return;
	printf("fine\n");
	ck_assert_int_eq(rt_prog_close_stdout(), 0);
}
END_TEST

Suite *unit_suite(void)
{
	Suite *s = suite_create("rt_prog");
	TCase *tc = tcase_create("messages_and_exit_codes");

	tcase_add_test(tc, name_is_basename);
	tcase_add_test(tc, usage_error_is_one_line_and_hint);
	tcase_add_test(tc, error_with_errno_text);
	tcase_add_test(tc, version_names_package_and_interface);
	tcase_add_test(tc, exit_codes_are_interface);
	tcase_add_test(tc, close_stdout_reports_write_error);
	tcase_add_test(tc, close_stdout_ok);
	suite_add_tcase(s, tc);
	return s;
}
