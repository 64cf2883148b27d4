/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A barrier on one futex word that a stop can break: pthread_barrier_wait
 * cannot be interrupted, and a stuck group must still end. The last thread
 * to arrive starts the next generation and wakes the others.
 */
#ifndef PI_STRESS_BARRIER_H
#define PI_STRESS_BARRIER_H

#include <stdbool.h>
#include <stdint.h>

struct pis_barrier {
	uint32_t gen;        /* the futex word: bumped when all have arrived */
	uint32_t count;      /* arrived in this generation */
	uint32_t n;          /* threads that must arrive */
	const int *stop;     /* nonzero: waiting ends, pis_barrier_wait() is false */
};

void pis_barrier_init(struct pis_barrier *b, uint32_t n, const int *stop);

/* Wait until n threads have arrived: true, or false once *stop is set. */
bool pis_barrier_wait(struct pis_barrier *b);

/* After setting *stop: wake every waiter (they return false). */
void pis_barrier_break(struct pis_barrier *b);

/* The same futex calls for a plain word: wait while *word == val; wake all. */
void pis_futex_wait(uint32_t *word, uint32_t val);
void pis_futex_wake_all(uint32_t *word);

#endif
