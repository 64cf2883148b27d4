/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Keep a measurement free of page faults: lock, prefault, never give back. */
#ifndef RT_MEM_H
#define RT_MEM_H

#include <stddef.h>

/*
 * Data written by different threads goes on different cache lines of this
 * size (x86, most arm64), so that one thread's store does not evict the
 * line another thread is reading.
 */
#define RT_CACHELINE 64

/* mlockall(MCL_CURRENT | MCL_FUTURE). 0 or -errno. */
int rt_mem_lock_all(void);

/*
 * Lock everything when it cannot hurt: as root or with an unlimited
 * RLIMIT_MEMLOCK. (Locking future mappings under a small limit would make
 * later thread stacks and allocations fail.) 0, or -errno of mlockall,
 * or -EPERM when not attempted.
 */
int rt_mem_lock_all_if_unlimited(void);

/*
 * Stop malloc from returning memory to the kernel (and from using mmap for
 * large blocks), so freed and reallocated memory is not faulted in again.
 */
void rt_mem_keep_heap(void);

/* Write to every page of [p, p+len) so it is backed now. */
void rt_mem_prefault(void *p, size_t len);

/*
 * Whole pages of their own, zeroed, straight from mmap: a measuring thread
 * that allocates nothing else then creates no malloc arena (whose top pad,
 * locked by mlockall, costs about 100 KiB a thread). NULL on failure.
 */
void *rt_mem_alloc_pages(size_t len);
void rt_mem_free_pages(void *p, size_t len);

/* Touch `bytes` of the calling thread's stack below the current frame. */
void rt_mem_prefault_stack(size_t bytes);

/* Bytes of this process's locked memory (VmLck), or -errno. */
long long rt_mem_locked_bytes(void);

#endif
