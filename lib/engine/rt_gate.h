/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Start gate: measuring threads (or processes) arrive and wait; the main
 * thread waits until all have arrived, then opens the gate. Unlike a
 * barrier it tolerates participants that never started (open it anyway,
 * with a stop flag set). May live in process-shared memory.
 *
 * The same gate, made cyclic (rt_gate_init_cyclic), is the suite's one
 * barrier: n participants pass it together, round after round, and a stop
 * breaks it (pthread_barrier_wait cannot be interrupted, and a stuck
 * participant must not keep the others for ever).
 */
#ifndef RT_GATE_H
#define RT_GATE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

struct rt_gate {
	_Atomic unsigned arrived;  /* cyclic: arrivals in this round */
	_Atomic unsigned open;     /* cyclic: the round, bumped as it completes or breaks */
	unsigned n;                /* cyclic: participants per round; 0 for a start gate */
	bool shared;               /* across fork(): shared futexes, else private (cheaper) */
};

/* 0 or -errno; shared: usable across fork() (in a shared mapping). */
int rt_gate_init(struct rt_gate *g, bool shared);

/* No participant may stay blocked in a gate that goes away: opens (breaks) it. */
void rt_gate_destroy(struct rt_gate *g);

/* A barrier of n participants (n >= 1). 0 or -EINVAL. */
int rt_gate_init_cyclic(struct rt_gate *g, unsigned n, bool shared);

/*
 * Cyclic: wait until the n participants of this round have arrived. True
 * when they did; false as soon as *stop is set (after rt_gate_break).
 */
bool rt_gate_pass(struct rt_gate *g, const _Atomic int *stop);

/* Cyclic: after setting the stop flag, wake every participant waiting (they return false). */
void rt_gate_break(struct rt_gate *g);

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
