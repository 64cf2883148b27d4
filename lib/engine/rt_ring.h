/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Single-producer single-consumer ring of samples: a measuring thread pushes
 * (no lock, no syscall), the main thread drains. A full ring drops the
 * sample and counts it, so a loss is reported, never silent.
 */
#ifndef RT_RING_H
#define RT_RING_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "rt_mem.h"

struct rt_ring_sample {
	uint64_t cycle;
	int64_t value;
};

#define RT_RING_MAX_SAMPLES (1ULL << 40)
/* A -v ring: drained every RT_VERBOSE_DRAIN_NS, it holds far more than that. */
#define RT_RING_VERBOSE_SAMPLES 65536

/* Producer and consumer fields on lines of their own: no false sharing. */
struct rt_ring {
	struct rt_ring_sample *buf;
	uint64_t cap;          /* a power of two */
	uint64_t mask;         /* cap - 1: an index is a mask, not a division */
	_Alignas(RT_CACHELINE) _Atomic uint64_t head; /* written by the producer */
	_Atomic uint64_t lost; /* pushes dropped because the ring was full */
	_Alignas(RT_CACHELINE) _Atomic uint64_t tail; /* written by the consumer */
};

/*
 * Allocate and prefault at least cap samples (rounded up to a power of two,
 * at most 2^40); 0 or -ENOMEM / -EINVAL. The memory is first touched by the
 * calling thread: call it from the producer, after pinning it.
 */
int rt_ring_init(struct rt_ring *r, uint64_t cap);
void rt_ring_free(struct rt_ring *r);

static inline void rt_ring_push(struct rt_ring *r, uint64_t cycle, int64_t value)
{
	uint64_t head = atomic_load_explicit(&r->head, memory_order_relaxed);
	uint64_t tail = atomic_load_explicit(&r->tail, memory_order_acquire);

	if (head - tail >= r->cap) {
		atomic_fetch_add_explicit(&r->lost, 1, memory_order_relaxed);
		return;
	}
	r->buf[head & r->mask] = (struct rt_ring_sample){ cycle, value };
	atomic_store_explicit(&r->head, head + 1, memory_order_release);
}

/* Consumer: take the oldest sample; false when empty. */
bool rt_ring_pop(struct rt_ring *r, struct rt_ring_sample *out);

#endif
