// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "unit.h"

#include "rt_sysinfo.h"

START_TEST(uname_fields)
{
	struct rt_sysinfo si;
	struct utsname u;

	ck_assert_int_eq(rt_sysinfo_read(&si), 0);
	ck_assert_int_eq(uname(&u), 0);
	ck_assert_str_eq(si.sysname, u.sysname);
	ck_assert_str_eq(si.nodename, u.nodename);
	ck_assert_str_eq(si.release, u.release);
	ck_assert_str_eq(si.version, u.version);
	ck_assert_str_eq(si.machine, u.machine);
	ck_assert_int_eq(si.realtime, rt_sysinfo_realtime_at(RT_SYSINFO_REALTIME_PATH));
}
END_TEST

static const struct {
	const char *content;
	int want;
} rt_cases[] = {
	{ "1\n", 1 }, { "1", 1 }, { "0\n", 0 }, { "", 0 }, { "x1", 0 },
};

START_TEST(realtime_flag_from_file)
{
	char path[] = "/tmp/rt_sysinfo_test.XXXXXX";
	int fd = mkstemp(path);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, rt_cases[_i].content, strlen(rt_cases[_i].content)),
			 (ssize_t)strlen(rt_cases[_i].content));
	close(fd);
	ck_assert_int_eq(rt_sysinfo_realtime_at(path), rt_cases[_i].want);
	unlink(path);
}
END_TEST

START_TEST(realtime_missing_file_is_0)
{
	ck_assert_int_eq(rt_sysinfo_realtime_at("/nonexistent/realtime"), 0);
}
END_TEST

START_TEST(loadavg_has_five_fields_no_newline)
{
	char buf[128];
	double a, b, c;
	int run, tot, last;

	int fd = -1;

	ck_assert_int_eq(rt_sysinfo_loadavg(&fd, buf, sizeof(buf)), 0);
	ck_assert_int_ge(fd, 0);
	ck_assert_ptr_null(strchr(buf, '\n'));
	ck_assert_int_eq(sscanf(buf, "%lf %lf %lf %d/%d %d", &a, &b, &c, &run, &tot, &last), 6);
	/* The cached descriptor reads the file again from its start. */
	ck_assert_int_eq(rt_sysinfo_loadavg(&fd, buf, sizeof(buf)), 0);
	ck_assert_int_eq(sscanf(buf, "%lf %lf %lf %d/%d %d", &a, &b, &c, &run, &tot, &last), 6);
	ck_assert_int_eq(rt_sysinfo_loadavg(&fd, buf, 0), -EINVAL);
	close(fd);
}
END_TEST

Suite *unit_suite(void)
{
	Suite *s = suite_create("rt_sysinfo");
	TCase *tc = tcase_create("machine_facts");

	tcase_add_test(tc, uname_fields);
	UNIT_LOOP(tc, realtime_flag_from_file, rt_cases);
	tcase_add_test(tc, realtime_missing_file_is_0);
	tcase_add_test(tc, loadavg_has_five_fields_no_newline);
	suite_add_tcase(s, tc);
	return s;
}
