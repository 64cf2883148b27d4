/* SPDX-License-Identifier: GPL-2.0-or-later */
/* hackbench's output: 2.4's lines, the -D total and the JSON. */
#ifndef HACKBENCH_REPORT_H
#define HACKBENCH_REPORT_H

#include <stdio.h>

#include "rt_env.h"
#include "rt_report.h"
#include "rt_verdict.h"

#include "options.h"
#include "run.h"

/* "Running in process mode with ..." and "Each sender will pass ...". */
void hackbench_print_header(FILE *f, const struct hackbench_config *cfg);

/* After a round: "signaling N worker threads to terminate" when stopped, then "Time: S.mmm". */
void hackbench_print_round(FILE *f, const struct hb_round *r);

/* -D: "Total: ..." after the rounds. */
void hackbench_print_total(FILE *f, const struct hb_result *res);

/* The JSON document (2.4's header, then hackbench's keys). 0 or -errno. */
/*
 * The verdict of a run that ended with rc (rt_verdict_free after): the
 * messages received are the evidence; 2.4 judges nothing, so it is shown
 * and decides the exit status only with --verdict. A signal: partial. A
 * failed worker (rc RT_EXIT_FAILURE): partial and FAIL.
 */
void hackbench_judge(struct rt_verdict *v, const struct hackbench_config *cfg,
		     const struct hb_result *res, int rc);

int hackbench_write_json(FILE *f, const struct rt_report *rep, int return_code,
			 const struct hackbench_config *cfg, const struct hb_result *res,
			 const struct rt_verdict *v, const struct rt_env *env);

#endif
