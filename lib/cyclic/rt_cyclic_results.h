/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A cyclictest run's results after the join (private to lib/cyclic). */
#ifndef RT_CYCLIC_RESULTS_H
#define RT_CYCLIC_RESULTS_H

#include "rt_cyclic_ctx.h"

/* Judged, written, printed in 2.4's order; the exit code. */
int ct_report(struct ct_ctx *c);

#endif
