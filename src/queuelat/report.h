/* SPDX-License-Identifier: GPL-2.0-or-later */
/* queuelat's text (2.4's lines) and JSON. */
#ifndef QUEUELAT_REPORT_H
#define QUEUELAT_REPORT_H

#include <stdio.h>

#include "rt_env.h"
#include "rt_report.h"
#include "rt_verdict.h"

#include "options.h"
#include "run.h"
#include "tsc.h"

/* "tsc_freq_ghz = ..., cycles_to_ns = ..." and "max_queue_len = N" (after the source line). */
void ql_print_header(FILE *f, const struct ql_model *m, double mhz, enum ql_tsc_source src);
/*
 * 2.4's histogram: "[LO - HI] = COUNT" per 100 ns bucket; a bucket equal to
 * the next one is left out, a run of them shows as one "..."; the last is
 * "[70000 - END] = COUNT". With mpps > 0 each line but the last adds
 * "  packetfillrates=[A - B]" (the packets arriving within LO and HI ns).
 */
void ql_print_hist(FILE *f, const struct ql_hist *h, double mpps);
/* The calibration histogram and "default_n=N nr_packets_drain_per_block=N". */
void ql_print_calibration(FILE *f, const struct ql_result *res, double mpps);
/* Everything after the run (2.4's lines): exceeded line, histogram, summary. */
void ql_print_result(FILE *f, const struct ql_result *res, const struct ql_model *m);
/*
 * The verdict (rt_verdict_free() it): the blocks measured are the evidence,
 * "max-len" is broken when the queue exceeded; a signal before -t's end
 * makes it partial. 0 or -ENOMEM (the verdict is FAIL then).
 */
int ql_judge(struct rt_verdict *v, const struct queuelat_config *cfg, const struct ql_result *res,
	     const struct ql_model *m);
int ql_write_json(FILE *f, const struct rt_report *rep, int return_code,
		  const struct queuelat_config *cfg, const struct ql_model *m, double mhz,
		  enum ql_tsc_source src, const struct ql_result *res, const struct rt_verdict *v,
		  const struct rt_env *env);

#endif
