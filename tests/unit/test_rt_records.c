// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "unit.h"

#include "rt_records.h"
#include "rt_time.h"

#define S RT_NSEC_PER_SEC

START_TEST(window_ends_stay_on_the_grid)
{
	struct rt_records r = { .interval_ns = 2 * S, .start_ns = 10 * S, .window_start_ns = 10 * S };

	ck_assert_int_eq(rt_records_window_due(&r, 11 * S), -1);
	ck_assert_int_eq(rt_records_window_due(&r, 12 * S - 1), -1);
	ck_assert_int_eq(rt_records_window_due(&r, 12 * S), 12 * S);
	/* A poll 99 ms late still ends the window on the grid. */
	ck_assert_int_eq(rt_records_window_due(&r, 12 * S + 99000000), 12 * S);
	/* A poll late by more than an interval: one longer window, on the grid. */
	ck_assert_int_eq(rt_records_window_due(&r, 17 * S + 5), 16 * S);
	rt_records_next_window(&r, 16 * S);
	ck_assert_int_eq(rt_records_window_due(&r, 17 * S + 5), -1);
	ck_assert_int_eq(rt_records_window_due(&r, 18 * S + 5), 18 * S);
	/* Within the warm-up (before the start): never due. */
	r.window_start_ns = r.start_ns = 100 * S;
	ck_assert_int_eq(rt_records_window_due(&r, 50 * S), -1);
}
END_TEST

static void line(struct rt_records *r, const char *type, int *err)
{
	struct rt_json j;

	rt_records_begin(r, &j, type);
	rt_json_int(&j, "n", 1);
	*err = rt_records_end(r, &j);
}

START_TEST(lines_are_whole_and_nothing_follows_a_failed_write)
{
	char path[] = "/tmp/rt-records-unit.XXXXXX";
	struct rt_records r;
	char buf[256];
	int fd = mkstemp(path), err;
	ssize_t n;

	ck_assert_int_ge(fd, 0);
	close(fd);
	ck_assert_int_eq(rt_records_open(&r, path, 1), 0);
	line(&r, "run", &err);
	ck_assert_int_eq(err, 0);
	line(&r, "window", &err);
	ck_assert_int_eq(err, 0);
	rt_records_close(&r);
	fd = open(path, O_RDONLY);
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	ck_assert_int_gt(n, 0);
	buf[n] = '\0';
	ck_assert_str_eq(buf, "{\"type\":\"run\",\"n\":1}\n{\"type\":\"window\",\"n\":1}\n");

	/* A full disk: the error is kept, and no later line is written. */
	ck_assert_int_eq(rt_records_open(&r, path, 1), 0);
	close(r.fd);
	r.fd = open("/dev/full", O_WRONLY);
	if (r.fd < 0) {
		rt_records_close(&r);
		unlink(path);
		unit_skip("no /dev/full");
	}
	line(&r, "window", &err);
	ck_assert_int_eq(err, -ENOSPC);
	ck_assert_int_eq(r.error, -ENOSPC);
	close(r.fd);
	r.fd = open(path, O_WRONLY | O_APPEND);
	line(&r, "total", &err);
	ck_assert_int_eq(r.error, -ENOSPC);
	ck_assert_int_eq(rt_records_sync(&r), -ENOSPC);
	rt_records_close(&r);
	fd = open(path, O_RDONLY);
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	buf[n > 0 ? n : 0] = '\0';
	ck_assert_str_eq(buf, "{\"type\":\"run\",\"n\":1}\n{\"type\":\"window\",\"n\":1}\n");
	unlink(path);
}
END_TEST

START_TEST(an_unopenable_path_is_an_errno)
{
	struct rt_records_set s;

	ck_assert_int_eq(rt_records_set_open(&s, "/nonexistent/dir/r.jsonl", 1, 2, false), -ENOENT);
	ck_assert(!s.open);
	rt_records_set_close(&s);
	ck_assert_int_eq(rt_records_set_open(&s, NULL, 1, 2, false), 0);
	ck_assert(!s.open);
	rt_records_set_close(&s);
}
END_TEST

Suite *unit_suite(void)
{
	Suite *s = suite_create("rt_records");
	TCase *tc = tcase_create("records");

	tcase_add_test(tc, window_ends_stay_on_the_grid);
	tcase_add_test(tc, lines_are_whole_and_nothing_follows_a_failed_write);
	tcase_add_test(tc, an_unopenable_path_is_an_errno);
	suite_add_tcase(s, tc);
	return s;
}
