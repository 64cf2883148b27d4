// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Two counters and futexes, no mutex or condition variable: in fork mode a
 * participant process may be stopped or killed while it waits at the gate,
 * and a process-shared condition variable's broadcast waits for every
 * waiter of the old group to wake (glibc), forever for one that is stopped
 * or dead; a shared mutex would be held by the dead. FUTEX_WAKE waits for
 * nobody. FUTEX_PRIVATE unless the gate is shared across fork().
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

/* EAGAIN (the word changed already) and EINTR: the caller looks again. */
static void futex_wait(const struct rt_gate *g, _Atomic unsigned *word, unsigned val)
{
	syscall(SYS_futex, word, g->shared ? FUTEX_WAIT : FUTEX_WAIT_PRIVATE, val, NULL, NULL, 0);
}

static void futex_wake_all(const struct rt_gate *g, _Atomic unsigned *word)
{
	syscall(SYS_futex, word, g->shared ? FUTEX_WAKE : FUTEX_WAKE_PRIVATE, INT_MAX, NULL, NULL,
		0);
}

int rt_gate_init(struct rt_gate *g, bool shared)
{
	atomic_store(&g->arrived, 0);
	atomic_store(&g->open, 0);
	g->n = 0;
	g->shared = shared;
	return 0;
}

int rt_gate_init_cyclic(struct rt_gate *g, unsigned n, bool shared)
{
	if (n < 1)
		return -EINVAL;
	rt_gate_init(g, shared);
	g->n = n;
	return 0;
}

void rt_gate_destroy(struct rt_gate *g)
{
	if (g->n)
		rt_gate_break(g);
	else
		rt_gate_open(g);
}

void rt_gate_arrive(struct rt_gate *g)
{
	atomic_fetch_add(&g->arrived, 1);
	futex_wake_all(g, &g->arrived);
	while (!atomic_load(&g->open))
		futex_wait(g, &g->open, 0);
}

bool rt_gate_pass(struct rt_gate *g, const _Atomic int *stop)
{
	unsigned round = atomic_load(&g->open);

	if (atomic_load(stop))
		return false;
	if (atomic_fetch_add(&g->arrived, 1) + 1 == g->n) {
		/* nobody arrives for the next round before the round number moves */
		atomic_store_explicit(&g->arrived, 0, memory_order_relaxed);
		atomic_fetch_add(&g->open, 1);
		futex_wake_all(g, &g->open);
		return !atomic_load(stop);
	}
	while (atomic_load(&g->open) == round) {
		if (atomic_load(stop))
			return false;
		futex_wait(g, &g->open, round);
	}
	/* a round moved by rt_gate_break() is no passage */
	return !atomic_load(stop);
}

void rt_gate_break(struct rt_gate *g)
{
	atomic_fetch_add(&g->open, 1);
	futex_wake_all(g, &g->open);
}

void rt_gate_wait_arrived(struct rt_gate *g, int n)
{
	for (;;) {
		unsigned a = atomic_load(&g->arrived);

		if (a >= (unsigned)n || atomic_load(&g->open))
			return;
		futex_wait(g, &g->arrived, a);
	}
}

bool rt_gate_wait_arrived_for(struct rt_gate *g, int n, int64_t timeout_ns)
{
	struct timespec nap = rt_time_from_ns(GATE_POLL_NS);
	int64_t end;

	end = rt_time_mono_ns() + timeout_ns;
	for (;;) {
		if (atomic_load(&g->arrived) >= (unsigned)n || atomic_load(&g->open))
			return true;
		if (rt_time_mono_ns() >= end)
			return false;
		nanosleep(&nap, NULL);
	}
}

void rt_gate_open(struct rt_gate *g)
{
	atomic_store(&g->open, 1);
	futex_wake_all(g, &g->open);
}
