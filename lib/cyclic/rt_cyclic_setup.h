/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A cyclictest run's set-up and teardown (private to lib/cyclic). */
#ifndef RT_CYCLIC_SETUP_H
#define RT_CYCLIC_SETUP_H

#include "rt_cyclic_ctx.h"

/* Before the threads: outputs, memory, tracing, PM QoS, the machine's state. */
int ct_setup(struct ct_ctx *c);
/* Everything ct_setup() and the run opened, whatever step failed. */
void ct_teardown(struct ct_ctx *c);

#endif
