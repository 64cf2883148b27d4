/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Everything cyclictest prints, in the rt-tests 2.4 formats (tool code: see rt_cyclic_run.h). */
#ifndef RT_CYCLIC_REPORT_H
#define RT_CYCLIC_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "rt_env.h"
#include "rt_isolation.h"
#include "rt_percentiles.h"
#include "rt_report.h"
#include "rt_verdict.h"

#include "rt_cyclic_analyze.h"
#include "rt_cyclic_config.h"
#include "rt_cyclic_measure.h"

/* One "T: ..." line without newline into buf; returns its length. */
size_t cyclictest_format_status(char *buf, size_t len, struct ct_thread *t);

/* All threads' status lines into buf (newline-terminated); returns length. */
size_t cyclictest_format_status_lines(char *buf, size_t len, struct ct_run *run);

/* SIGUSR1 / SIGUSR2 block: separators, title and the status lines. */
size_t cyclictest_format_status_block(char *buf, size_t len, struct ct_run *run);

/* One frame of the live display; first = no cursor-up before it. */
void cyclictest_print_frame(FILE *out, struct ct_run *run, bool first);

/* -q summary: one status line per thread. */
void cyclictest_print_summary(FILE *out, struct ct_run *run);

/* Drain the -v rings into n:c:v lines (with -o: one line per RED samples). */
void cyclictest_print_samples(FILE *out, struct ct_run *run);

/* -h/-H text. 0 or -EIO. */
int cyclictest_print_histogram(FILE *out, struct ct_run *run);

/* --spike list, -b lines. */
void cyclictest_print_spikes(FILE *out, struct ct_run *run);
void cyclictest_print_break(FILE *out, struct ct_run *run);

/*
 * After the join, before any output: every thread's results for percentiles
 * and verdicts (malloc'd); seals the lossless histograms.
 */
struct rt_series *cyclictest_series(struct ct_run *run);

/* --json document; verdict NULL when no limit was given. 0 or a negative errno. */
int cyclictest_write_json(FILE *out, struct ct_run *run, const struct rt_report *rep,
			  int return_code, const struct rt_series *series,
			  const struct rt_verdict *verdict, const struct ct_analysis *analysis,
			  const struct rt_env *env,
			  const struct rt_isolation *iso);

/* Policy name and priority as the -v/header lines show them. */
const char *cyclictest_policy_label(const struct cyclictest_config *cfg);

#endif
