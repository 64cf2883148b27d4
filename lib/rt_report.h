/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What every tool's JSON starts with (the rt-tests 2.4 header, keys with
 * their trailing colons kept byte for byte because parsers match them):
 * file_version, "cmdline:", "rt_test_version:", start_time, end_time,
 * return_code, sysinfo.
 */
#ifndef RT_REPORT_H
#define RT_REPORT_H

#include <stddef.h>
#include <time.h>

#include "rt_json.h"

#define RT_REPORT_CMDLINE_MAX 4096

struct rt_report {
	char cmdline[RT_REPORT_CMDLINE_MAX]; /* argv joined by single spaces */
	time_t start;
};

/* Capture argv before getopt permutes it, and the start time. */
void rt_report_init(struct rt_report *r, int argc, char *const argv[]);

/* RFC 2822 local time: "Sun, 29 Nov 2026 18:26:59 +0000". */
void rt_report_format_time(time_t t, char *buf, size_t len);

/*
 * Open the root object and write the common header; the caller adds its
 * tool section and closes the root with rt_json_object_end().
 */
void rt_report_json_header(struct rt_json *j, const struct rt_report *r, int return_code);

#endif
