/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RLR_JUNIT_H
#define RLR_JUNIT_H

/* rt-latency-report junit FILE... -o REPORT.xml: the exit code. */
int rlr_junit(int argc, char *argv[]);

#endif
