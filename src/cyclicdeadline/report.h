/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cyclicdeadline's lines and JSON, in rt-tests 2.4's formats, as the engine's front. */
#ifndef CYCLICDEADLINE_REPORT_H
#define CYCLICDEADLINE_REPORT_H

#include <stddef.h>
#include <stdio.h>

#include "rt_cyclic_front.h"

#include "options.h"

/* "T: 0 ( 4086) I:3334 C:      1 Min:      3 Act:    3 Avg:    3 Max:       3" */
size_t cyclicdeadline_format_line(char *buf, size_t len, int index, int tid,
				  int64_t interval_us, const struct rt_stats *s);

/* The header before the threads start: "Using all CPUS", "interval:", "  Tested at". */
void cyclicdeadline_print_setup(FILE *out, const struct cyclicdeadline_config *cfg);

/* The front cfg->ct.front points to (its setup_failed reads cfg). */
void cyclicdeadline_front_init(struct cyclictest_front *front,
			       const struct cyclicdeadline_config *cfg);

#endif
