// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "rt_mem.h"
#include "rt_ring.h"

int rt_ring_init(struct rt_ring *r, uint64_t cap)
{
	uint64_t pow2 = 1;

	memset(r, 0, sizeof(*r));
	if (cap == 0 || cap > RT_RING_MAX_SAMPLES)
		return -EINVAL;
	while (pow2 < cap)
		pow2 <<= 1;
	if (pow2 > SIZE_MAX / sizeof(*r->buf))
		return -ENOMEM;
	r->buf = calloc((size_t)pow2, sizeof(*r->buf));
	if (!r->buf)
		return -ENOMEM;
	rt_mem_prefault(r->buf, (size_t)pow2 * sizeof(*r->buf));
	r->cap = pow2;
	r->mask = pow2 - 1;
	return 0;
}

void rt_ring_free(struct rt_ring *r)
{
	free(r->buf);
	r->buf = NULL;
	r->cap = 0;
	r->mask = 0;
}

bool rt_ring_pop(struct rt_ring *r, struct rt_ring_sample *out)
{
	uint64_t tail = atomic_load_explicit(&r->tail, memory_order_relaxed);
	uint64_t head = atomic_load_explicit(&r->head, memory_order_acquire);

	if (tail == head)
		return false;
	*out = r->buf[tail & r->mask];
	atomic_store_explicit(&r->tail, tail + 1, memory_order_release);
	return true;
}
