/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RLR_PLAN_H
#define RLR_PLAN_H

/*
 * rt-latency-report plan --percentile P [--confidence C] [--interval US]
 * [--threads N]: how many samples, and how long a run, a claim on the
 * P-th percentile needs before its confidence interval has an upper bound.
 * The exit code.
 */
int rlr_plan(int argc, char *argv[]);

#endif
