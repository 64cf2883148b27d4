/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RLR_MERGE_H
#define RLR_MERGE_H

/* rt-latency-report merge FILE... -o OUT.json: the exit code. */
int rlr_merge(int argc, char *argv[], const char *cmdline);

#endif
