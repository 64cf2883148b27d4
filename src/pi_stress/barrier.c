// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <limits.h>
#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "barrier.h"

void pis_futex_wait(uint32_t *word, uint32_t val)
{
	/* EAGAIN (changed already) and EINTR: the caller looks again */
	syscall(SYS_futex, word, FUTEX_WAIT_PRIVATE, val, NULL, NULL, 0);
}

void pis_futex_wake_all(uint32_t *word)
{
	syscall(SYS_futex, word, FUTEX_WAKE_PRIVATE, INT_MAX, NULL, NULL, 0);
}

void pis_barrier_init(struct pis_barrier *b, uint32_t n, const int *stop)
{
	b->gen = 0;
	b->count = 0;
	b->n = n;
	b->stop = stop;
}

bool pis_barrier_wait(struct pis_barrier *b)
{
	uint32_t gen = __atomic_load_n(&b->gen, __ATOMIC_ACQUIRE);

	if (__atomic_load_n(b->stop, __ATOMIC_ACQUIRE))
		return false;
	if (__atomic_add_fetch(&b->count, 1, __ATOMIC_ACQ_REL) == b->n) {
		/* no one arrives for the next generation before gen moves */
		__atomic_store_n(&b->count, 0, __ATOMIC_RELAXED);
		__atomic_add_fetch(&b->gen, 1, __ATOMIC_RELEASE);
		pis_futex_wake_all(&b->gen);
		return !__atomic_load_n(b->stop, __ATOMIC_ACQUIRE);
	}
	while (__atomic_load_n(&b->gen, __ATOMIC_ACQUIRE) == gen) {
		if (__atomic_load_n(b->stop, __ATOMIC_ACQUIRE))
			return false;
		pis_futex_wait(&b->gen, gen);
	}
	/* a generation moved by pis_barrier_break() is no passage */
	return !__atomic_load_n(b->stop, __ATOMIC_ACQUIRE);
}

void pis_barrier_break(struct pis_barrier *b)
{
	__atomic_add_fetch(&b->gen, 1, __ATOMIC_RELEASE);
	pis_futex_wake_all(&b->gen);
}
