/* SPDX-License-Identifier: GPL-2.0-or-later */
/* pi_stress's text (2.4's lines), verdict and JSON. */
#ifndef PI_STRESS_REPORT_H
#define PI_STRESS_REPORT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "rt_env.h"
#include "rt_report.h"
#include "rt_verdict.h"

#include "options.h"

struct pis_result;

/* "SCHED_FIFO", "SCHED_DEADLINE", ... */
const char *pi_stress_policy_label(int policy);

/* 2.4's banner, up to the empty line before the progress. */
void pi_stress_print_banner(FILE *f, const struct pi_stress_config *cfg);

/* ESC[1A "Current Inversions: N" (2.4 rewrites the line in place). */
void pi_stress_print_progress(FILE *f, uint64_t total);

/* ESC[1B "Stopping test" (only once the threads were released). */
void pi_stress_print_stopping(FILE *f, bool started);

/* "Total inversion performed: N" and "Test Duration: D days, H hours, M minutes, S seconds". */
void pi_stress_print_summary(FILE *f, const struct pis_result *res);

/*
 * The verdict (rt_verdict_free after): the inversions are the evidence; a
 * stuck group fails; a run shorter than the watchdog, or a group quiet for
 * PIS_STALL_NS at the end that the watchdog had no time to catch, is
 * INCONCLUSIVE; a signal makes it partial.
 */
void pi_stress_judge(struct rt_verdict *v, const struct pi_stress_config *cfg,
		     const struct pis_result *res);

/* Inversions per second over the run (0 when it did not start). */
double pi_stress_rate(uint64_t inversions, int64_t elapsed_ns);

int pi_stress_write_json(FILE *f, const struct rt_report *rep, int return_code,
			 const struct pi_stress_config *cfg, const struct pis_result *res,
			 const struct rt_verdict *v, const struct rt_env *env);

#endif
