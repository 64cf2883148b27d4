// SPDX-License-Identifier: GPL-2.0-or-later
/* rt_hrtick on a features file of the test's own (debugfs is not needed). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "unit.h"

#include "rt_hrtick.h"

static char path[64];

static void write_features(const char *text)
{
	FILE *f;

	snprintf(path, sizeof(path), "/tmp/test_rt_hrtick.%d", (int)getpid());
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	fclose(f);
}

static void read_features(char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	size_t n;

	ck_assert_ptr_nonnull(f);
	n = fread(buf, 1, len - 1, f);
	buf[n] = '\0';
	fclose(f);
}

START_TEST(off_is_switched_on_and_put_back)
{
	struct rt_hrtick s;
	char buf[256];

	write_features("GENTLE_FAIR_SLEEPERS NO_HRTICK HRTICK_DL_X NO_HRTICK_DL DOUBLE_TICK\n");
	ck_assert_int_eq(rt_hrtick_enable_file(&s, path), 2);
	ck_assert_str_eq(s.restore, "NO_HRTICK_DL");
	read_features(buf, sizeof(buf));
	ck_assert_ptr_nonnull(strstr(buf, "HRTICK_DL"));
	truncate(path, 0);
	rt_hrtick_restore(&s);
	read_features(buf, sizeof(buf));
	ck_assert_str_eq(buf, "NO_HRTICK_DL");
	ck_assert_str_eq(s.restore, "");
	unlink(path);
}
END_TEST

START_TEST(on_already_is_left_alone)
{
	struct rt_hrtick s;

	write_features("NO_HRTICK HRTICK_DL DOUBLE_TICK\n");
	ck_assert_int_eq(rt_hrtick_enable_file(&s, path), 1);
	ck_assert_str_eq(s.restore, "");
	rt_hrtick_restore(&s); /* nothing to write back */
	unlink(path);
}
END_TEST

START_TEST(old_kernels_have_hrtick_only)
{
	struct rt_hrtick s;

	write_features("NO_HRTICK DOUBLE_TICK\n");
	ck_assert_int_eq(rt_hrtick_enable_file(&s, path), 2);
	ck_assert_str_eq(s.restore, "NO_HRTICK");
	unlink(path);
}
END_TEST

START_TEST(no_file_or_no_feature_cannot)
{
	struct rt_hrtick s;

	ck_assert_int_eq(rt_hrtick_enable_file(&s, "/nonexistent/sched/features"), 0);
	write_features("DOUBLE_TICK\n");
	ck_assert_int_eq(rt_hrtick_enable_file(&s, path), 0);
	ck_assert_str_eq(s.restore, "");
	unlink(path);
}
END_TEST

Suite *unit_suite(void)
{
	Suite *s = suite_create("rt_hrtick");
	TCase *tc = tcase_create("features");

	tcase_add_test(tc, off_is_switched_on_and_put_back);
	tcase_add_test(tc, on_already_is_left_alone);
	tcase_add_test(tc, old_kernels_have_hrtick_only);
	tcase_add_test(tc, no_file_or_no_feature_cannot);
	suite_add_tcase(s, tc);
	return s;
}
