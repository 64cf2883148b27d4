/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RLR_COMPARE_H
#define RLR_COMPARE_H

/* rt-latency-report compare BASE RUN [--tolerance=PCT]: the exit code. */
int rlr_compare(int argc, char *argv[]);

#endif
