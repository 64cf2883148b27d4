// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Two counters and futexes, no mutex or condition variable: in fork mode a
 * participant process may be stopped or killed while it waits at the gate,
 * and a process-shared condition variable's broadcast waits for every
 * waiter of the old group to wake (glibc), forever for one that is stopped
 * or dead; a shared mutex would be held by the dead. FUTEX_WAKE waits for
 * nobody. (Not FUTEX_PRIVATE: the gate may live in a shared mapping.)
 */
#include <errno.h>
#include <limits.h>
#include <linux/futex.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "rt_gate.h"
#include "rt_time.h"

/* The main thread's timed wait looks this often (before the start only). */
#define GATE_POLL_NS 1000000LL

static void futex_wait(_Atomic unsigned *word, unsigned val)
{
	syscall(SYS_futex, word, FUTEX_WAIT, val, NULL, NULL, 0);
}

static void futex_wake_all(_Atomic unsigned *word)
{
	syscall(SYS_futex, word, FUTEX_WAKE, INT_MAX, NULL, NULL, 0);
}

int rt_gate_init(struct rt_gate *g, bool shared)
{
	(void)shared; /* the same futexes serve threads and processes */
	atomic_store(&g->arrived, 0);
	atomic_store(&g->open, 0);
	return 0;
}

void rt_gate_destroy(struct rt_gate *g)
{
	(void)g;
}

void rt_gate_arrive(struct rt_gate *g)
{
	atomic_fetch_add(&g->arrived, 1);
	futex_wake_all(&g->arrived);
	while (!atomic_load(&g->open))
		futex_wait(&g->open, 0);
}

void rt_gate_wait_arrived(struct rt_gate *g, int n)
{
	for (;;) {
		unsigned a = atomic_load(&g->arrived);

		if (a >= (unsigned)n || atomic_load(&g->open))
			return;
		futex_wait(&g->arrived, a);
	}
}

bool rt_gate_wait_arrived_for(struct rt_gate *g, int n, int64_t timeout_ns)
{
	struct timespec now, nap = rt_time_from_ns(GATE_POLL_NS);
	int64_t end;

	clock_gettime(CLOCK_MONOTONIC, &now);
	end = rt_time_to_ns(&now) + timeout_ns;
	for (;;) {
		if (atomic_load(&g->arrived) >= (unsigned)n || atomic_load(&g->open))
			return true;
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (rt_time_to_ns(&now) >= end)
			return false;
		nanosleep(&nap, NULL);
	}
}

void rt_gate_open(struct rt_gate *g)
{
	atomic_store(&g->open, 1);
	futex_wake_all(&g->open);
}
