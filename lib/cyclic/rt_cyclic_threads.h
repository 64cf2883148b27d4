/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A cyclictest run's measurement threads (private to lib/cyclic). */
#ifndef RT_CYCLIC_THREADS_H
#define RT_CYCLIC_THREADS_H

#include <stdint.h>

#include "rt_cyclic_ctx.h"

/* CPU cpu's SMI counter (MSR 0x34): 0 or a negative errno. */
int ct_read_smi(int cpu, uint64_t *count);
/* Each thread's settings from the configuration, its buffers not yet. */
int ct_alloc_threads(struct ct_ctx *c);
/* After the join: the buffers the threads allocated. */
void ct_free_threads(struct ct_run *run);
/* Every thread created, waiting at the gate; an exit code. */
int ct_start_threads(struct ct_ctx *c);
/* The common start (-A, --secaligned) and the end of --warmup and -D. */
void ct_set_start(struct ct_ctx *c);
/* Every thread stopped and joined. */
void ct_stop_threads(struct ct_ctx *c);

#endif
