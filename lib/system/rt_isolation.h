/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What disturbed each measured CPU: the counters the kernel keeps anyway,
 * read by the main thread (never by a measuring thread) at the start, at
 * each --records window and at the end, from /proc and /sys only:
 * interrupts by source (/proc/interrupts), softirqs by kind
 * (/proc/softirqs), the measuring threads' voluntary and involuntary
 * context switches (/proc/TGID/task/TID/status), and where the machine
 * exposes them SMIs (MSR 0x34 through /dev/cpu/N/msr), thermal throttling
 * events (thermal_throttle/), time in each cpuidle state and at each
 * frequency (cpufreq/stats/time_in_state).
 *
 * Cheap: every file is opened once and read once per snapshot into a
 * buffer allocated at creation; the parse allocates nothing. Prints
 * nothing but what rt_isolation_write_text() is asked to; 0 or -errno.
 *
 * A tool's calls (see cyclictest's run.c):
 *   rt_isolation_create(&iso, "", &measured)   with the environment
 *   rt_isolation_add_thread(iso, tgid, tid, cpu) per measuring thread,
 *                                           once it exists (at the gate)
 *   rt_isolation_start(iso)                 just before the gate opens
 *   rt_records_set_isolation(&records, iso) --records: a line per window
 *   rt_isolation_end(iso)                   after the run, before the join
 *   rt_isolation_write_json(&j, iso, RT_ISOLATION_RUN)   in the JSON
 *   rt_isolation_write_text(stdout, iso)    with --isolation
 *   rt_isolation_free(iso)
 */
#ifndef RT_ISOLATION_H
#define RT_ISOLATION_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "rt_affinity.h"
#include "rt_env.h"
#include "rt_json.h"

struct rt_isolation;

/* The spans a snapshot pair covers. */
enum rt_isolation_span {
	RT_ISOLATION_RUN,    /* start .. end */
	RT_ISOLATION_WINDOW, /* the window closed by the last rt_isolation_mark_window() */
	RT_ISOLATION_LAST,   /* the last window mark (or the start) .. end */
};

/*
 * For the measured CPUs, under root ("" for the machine; a directory with
 * proc/, sys/ and dev/ in the unit tests): finds what the machine exposes
 * and sizes every buffer. 0, -ENOMEM, or the error reading
 * /proc/interrupts (-ENOENT, -EINVAL when it cannot be parsed).
 */
int rt_isolation_create(struct rt_isolation **out, const char *root,
			const struct rt_cpulist *measured);
void rt_isolation_free(struct rt_isolation *iso);

/* A measuring thread (cpu -1: not pinned), before rt_isolation_start. 0 or -ENOMEM. */
int rt_isolation_add_thread(struct rt_isolation *iso, pid_t tgid, pid_t tid, int cpu);

/* Snapshots: the start, a window boundary (main thread), the end. 0 or -errno. */
int rt_isolation_start(struct rt_isolation *iso);
int rt_isolation_mark_window(struct rt_isolation *iso);
int rt_isolation_end(struct rt_isolation *iso);

/* The counters for a span: "isolation": {"cpus": [...], "total": {...}}. */
void rt_isolation_write_json(struct rt_json *j, const struct rt_isolation *iso,
			     enum rt_isolation_span span);

/*
 * "# Isolation: CPU 3: 1203 interrupts (nvme0q2 1190, LOC 13), 40 softirqs
 * (TIMER 40), 0 involuntary switches" per measured CPU (the top sources,
 * most first), then the run-wide line. Nothing before rt_isolation_end().
 */
void rt_isolation_write_text(FILE *out, const struct rt_isolation *iso);

/* One span's counts, for tests and tools: totals of a CPU (-1: the whole run). */
struct rt_isolation_sums {
	uint64_t interrupts, softirqs, voluntary, involuntary;
	bool known;          /* the span was read (and the CPU's column was there) */
};
int rt_isolation_sums(const struct rt_isolation *iso, enum rt_isolation_span span, int cpu,
		      struct rt_isolation_sums *out);

#endif
