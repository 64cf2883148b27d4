// SPDX-License-Identifier: GPL-2.0-or-later
/* rt_hrtick on a features file of the test's own (debugfs is not needed). */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>

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
	struct rt_hrtick s = RT_HRTICK_INIT;
	enum rt_hrtick_state st;
	char buf[256];

	write_features("GENTLE_FAIR_SLEEPERS NO_HRTICK HRTICK_DL_X NO_HRTICK_DL DOUBLE_TICK\n");
	ck_assert_int_eq(rt_hrtick_enable_file(&s, path, &st), 0);
	ck_assert_int_eq(st, RT_HRTICK_SWITCHED_ON);
	ck_assert_str_eq(s.restore, "NO_HRTICK_DL");
	read_features(buf, sizeof(buf));
	ck_assert_ptr_nonnull(strstr(buf, "HRTICK_DL"));
	truncate(path, 0);
	ck_assert_int_eq(rt_hrtick_restore(&s), 0);
	read_features(buf, sizeof(buf));
	ck_assert_str_eq(buf, "NO_HRTICK_DL");
	ck_assert_str_eq(s.restore, "");
	unlink(path);
}
END_TEST

START_TEST(on_already_is_left_alone)
{
	struct rt_hrtick s = RT_HRTICK_INIT;
	enum rt_hrtick_state st;

	write_features("NO_HRTICK HRTICK_DL DOUBLE_TICK\n");
	ck_assert_int_eq(rt_hrtick_enable_file(&s, path, &st), 0);
	ck_assert_int_eq(st, RT_HRTICK_WAS_ON);
	ck_assert_str_eq(s.restore, "");
	rt_hrtick_restore(&s); /* nothing to write back */
	unlink(path);
}
END_TEST

START_TEST(old_kernels_have_hrtick_only)
{
	struct rt_hrtick s = RT_HRTICK_INIT;
	enum rt_hrtick_state st;

	write_features("NO_HRTICK DOUBLE_TICK\n");
	ck_assert_int_eq(rt_hrtick_enable_file(&s, path, &st), 0);
	ck_assert_int_eq(st, RT_HRTICK_SWITCHED_ON);
	ck_assert_str_eq(s.restore, "NO_HRTICK");
	unlink(path);
}
END_TEST

START_TEST(no_file_or_no_feature_cannot)
{
	struct rt_hrtick s = RT_HRTICK_INIT;
	enum rt_hrtick_state st;

	ck_assert_int_eq(rt_hrtick_enable_file(&s, "/nonexistent/sched/features", &st), -ENOENT);
	write_features("DOUBLE_TICK\n");
	ck_assert_int_eq(rt_hrtick_enable_file(&s, path, &st), -ENOTSUP);
	ck_assert_str_eq(s.restore, "");
	unlink(path);
}
END_TEST

/* The guard puts the feature back when its tool dies without doing so (SIGKILL). */
START_TEST(guard_restores_after_sigkill)
{
	char buf[256];
	pid_t tool;
	int status;

	write_features("NO_HRTICK_DL\n");
	tool = fork();
	ck_assert_int_ge(tool, 0);
	if (tool == 0) {
		struct rt_hrtick s = RT_HRTICK_INIT;
		enum rt_hrtick_state st;

		if (rt_hrtick_enable_file(&s, path, &st) || rt_hrtick_guard(&s))
			_exit(1);
		pause(); /* killed here, restore never called */
		_exit(2);
	}
	usleep(300000); /* switched on and guarded by now */
	ck_assert_int_eq(truncate(path, 0), 0);
	kill(tool, SIGKILL);
	ck_assert_int_eq(waitpid(tool, &status, 0), tool);
	for (int i = 0; i < 200; i++) { /* the guard is not our child: poll the file */
		read_features(buf, sizeof(buf));
		if (strstr(buf, "NO_HRTICK_DL"))
			break;
		usleep(10000);
	}
	ck_assert_ptr_nonnull(strstr(buf, "NO_HRTICK_DL"));
	unlink(path);
}
END_TEST

/* Released by restore: it writes once, the guard nothing after. */
START_TEST(guard_released_by_restore)
{
	struct rt_hrtick s = RT_HRTICK_INIT;
	enum rt_hrtick_state st;
	char buf[256];

	write_features("NO_HRTICK_DL\n");
	ck_assert_int_eq(rt_hrtick_enable_file(&s, path, &st), 0);
	ck_assert_int_eq(rt_hrtick_guard(&s), 0);
	ck_assert_int_gt(s.guard_pid, 0);
	ck_assert_int_eq(truncate(path, 0), 0);
	ck_assert_int_eq(rt_hrtick_restore(&s), 0);
	ck_assert_int_eq(s.guard_pid, -1);
	read_features(buf, sizeof(buf));
	ck_assert_str_eq(buf, "NO_HRTICK_DL");
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
	tcase_add_test(tc, guard_restores_after_sigkill);
	tcase_add_test(tc, guard_released_by_restore);
	suite_add_tcase(s, tc);
	return s;
}
