/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What every tool's JSON starts with (the rt-tests 2.4 header, keys with
 * their trailing colons kept byte for byte because parsers match them):
 * file_version, "cmdline:", "rt_test_version:", start_time, end_time,
 * return_code, sysinfo.
 */
#ifndef RT_REPORT_H
#define RT_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <time.h>

#include "rt_json.h"
#include "rt_stats.h"

#define RT_REPORT_CMDLINE_MAX 4096

struct rt_report {
	char cmdline[RT_REPORT_CMDLINE_MAX]; /* argv joined by single spaces */
	time_t start;
};

/* Capture argv before getopt permutes it, and the start time. */
void rt_report_init(struct rt_report *r, int argc, char *const argv[]);

/*
 * The id of a run that started at start (CLOCK_REALTIME), unique across
 * boots and machines: "BOOT_ID-PID-NS" (the kernel's boot id, this
 * process, the start in ns since the epoch); "unknown" stands for a boot id
 * that cannot be read. Two results with the same id are one run.
 */
void rt_report_run_id(char *buf, size_t len, const struct timespec *start);

/* RFC 2822 local time: "Sun, 29 Nov 2026 18:26:59 +0000". */
void rt_report_format_time(time_t t, char *buf, size_t len);

/*
 * Open the root object and write the common header; the caller adds its
 * tool section and closes the root with rt_json_object_end().
 */
void rt_report_json_header(struct rt_json *j, const struct rt_report *r, int return_code);

/* The "sysinfo" member (uname and whether the kernel is PREEMPT_RT). */
void rt_report_json_sysinfo(struct rt_json *j);

/*
 * The scheduling the measuring threads really ran under, read back from the
 * kernel by each thread after its set-up. Not part of 2.4's schema: written
 * after the tool's section so that every 2.4 key keeps its place.
 */
struct rt_report_sched {
	int policy;    /* common SCHED_* of the threads seen, -1: none yet */
	bool mixed;    /* threads ran under different policies */
	bool realtime; /* every thread seen ran under fifo or rr */
};

#define RT_REPORT_SCHED_INIT { .policy = -1, .mixed = false, .realtime = false }

/* Count one thread's policy; a negative one (never started) is ignored. */
void rt_report_sched_add(struct rt_report_sched *s, int policy);

/*
 * "scheduling": { "policy": "fifo", "realtime": 1 }. policy is "mixed" when
 * the threads differ and null when none started; realtime is 1 only when at
 * least one thread started and all of them ran under fifo or rr.
 */
void rt_report_json_scheduling(struct rt_json *j, const struct rt_report_sched *s);

/*
 * "min", "avg" (two decimals), "max" in that order (the pair tools' receiver,
 * the records' lines), each null without samples.
 */
void rt_report_json_min_avg_max(struct rt_json *j, const struct rt_stats *s);

/*
 * A 2.4 thread entry's numbers: "cycles", then "min", "max", "avg" (two
 * decimals) in 2.4's order (cyclictest, signaltest), each of the last three
 * null without samples.
 */
void rt_report_json_cycles_min_max_avg(struct rt_json *j, const struct rt_stats *s);

/* What a "T:" status line shows (cyclictest, signaltest). */
struct rt_report_line {
	int index;
	int tid;
	int prio;
	long long interval_us; /* < 0: no " I:" field (signaltest) */
	const struct rt_stats *stats;
	int act_avg_width;     /* 5, or 8 for nanoseconds */
};

/*
 * "T: 0 ( 1234) P:80 I:1000 C:   1000 Min:      5 Act:    9 Avg:    8 Max:      40"
 * with rt-tests 2.4's widths; "-" in the latency fields while there is no
 * sample. Returns the length written (truncated to len - 1).
 */
size_t rt_report_status_line(char *buf, size_t len, const struct rt_report_line *l);

#endif
