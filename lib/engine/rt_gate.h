/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Start gate: measuring threads (or processes) arrive and wait; the main
 * thread waits until all have arrived, then opens the gate. Unlike a
 * barrier it tolerates participants that never started (open it anyway,
 * with a stop flag set). May live in process-shared memory.
 */
#ifndef RT_GATE_H
#define RT_GATE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

struct rt_gate {
	_Atomic unsigned arrived;
	_Atomic unsigned open;
};

/* 0 or -errno; shared: usable across fork(). */
int rt_gate_init(struct rt_gate *g, bool shared);
void rt_gate_destroy(struct rt_gate *g);

/* Participant: count in, then block until opened. */
void rt_gate_arrive(struct rt_gate *g);

/* Main: block until n participants have arrived. */
void rt_gate_wait_arrived(struct rt_gate *g, int n);

/*
 * Main: the same, for at most timeout_ns; true when they have arrived (or
 * the gate is open). A participant process stopped or killed at the gate
 * never blocks the main thread (nor does it block the others' start).
 */
bool rt_gate_wait_arrived_for(struct rt_gate *g, int n, int64_t timeout_ns);

void rt_gate_open(struct rt_gate *g);

#endif
