/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What cyclictest's main thread does while the threads measure. */
#ifndef RT_CYCLIC_LOOP_H
#define RT_CYCLIC_LOOP_H

#include "rt_cyclic_ctx.h"

/* Each thread's SMI count since its start (--smi). */
void ct_update_smi(struct ct_run *run);
/* Until a signal, the last thread's end or -D's: c->stop_signal, c->stopped_ns. */
void ct_main_loop(struct ct_ctx *c);

#endif
