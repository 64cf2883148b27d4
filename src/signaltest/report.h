/* SPDX-License-Identifier: GPL-2.0-or-later */
/* signaltest's output: the 2.4 "T:" lines (without I:), -v lines, JSON. */
#ifndef SIGNALTEST_REPORT_H
#define SIGNALTEST_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "rt_json.h"
#include "rt_pair.h"
#include "rt_report.h"

#include "options.h"

/* Live frame: loadavg, empty line, thread 0's line; ESC[3A before later ones. */
void signaltest_print_frame(FILE *out, struct rt_pair *p, bool first, int *loadavg_fd);

/* One "T:" line per thread. */
void signaltest_print_summary(FILE *out, struct rt_pair *p);

/* Drain the -v rings as thread:cycle:value lines. */
void signaltest_print_samples(FILE *out, struct rt_pair *p);

/* signaltest's JSON section, after the common header. */
void signaltest_write_json(struct rt_json *j, struct rt_pair *p);

#endif
