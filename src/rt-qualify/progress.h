/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What a person watching sees: one line per step when it ends, and on a
 * terminal a live line while a step measures (elapsed, remaining, the
 * worst latency so far, read from the tool's --metrics file). Scripts
 * (stdout not a terminal) get the step lines only.
 */
#ifndef RTQ_PROGRESS_H
#define RTQ_PROGRESS_H

#include <stdint.h>

#include "qualify.h"

/* Rewrite the live line of step i (terminal only). */
void rtq_progress_live(const struct rtq_plan *p, int i, int64_t elapsed_ns);

/* The line of step i, once it ended (or was not run). */
void rtq_progress_step(const struct rtq_plan *p, int i);

/* The worst latency in us of a --metrics file in dirfd so far; -1 none yet. */
int64_t rtq_progress_worst_us(int dirfd, const char *name);

#endif
