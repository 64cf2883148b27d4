/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RLR_PLOT_H
#define RLR_PLOT_H

/* rt-latency-report plot FILE... -o OUT.png|OUT.svg [--ns]: the exit code. */
int rlr_plot(int argc, char *argv[]);

#endif
