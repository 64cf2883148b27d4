// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <malloc.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include "rt_mem.h"

int rt_mem_lock_all(void)
{
	return mlockall(MCL_CURRENT | MCL_FUTURE) == 0 ? 0 : -errno;
}

int rt_mem_lock_all_if_unlimited(void)
{
	struct rlimit rl;

	if (geteuid() != 0 &&
	    (getrlimit(RLIMIT_MEMLOCK, &rl) < 0 || rl.rlim_cur != RLIM_INFINITY))
		return -EPERM;
	return rt_mem_lock_all();
}

void rt_mem_keep_heap(void)
{
	mallopt(M_TRIM_THRESHOLD, -1);
	mallopt(M_MMAP_MAX, 0);
}

void rt_mem_prefault(void *p, size_t len)
{
	volatile char *c = p;
	size_t page = (size_t)sysconf(_SC_PAGESIZE);

	for (size_t off = 0; off < len; off += page)
		c[off] = c[off];
	if (len)
		c[len - 1] = c[len - 1];
}

void *rt_mem_alloc_pages(size_t len)
{
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

void rt_mem_free_pages(void *p, size_t len)
{
	if (p)
		munmap(p, len);
}

__attribute__((noinline)) void rt_mem_prefault_stack(size_t bytes)
{
	/* A fixed-size frame per step keeps this clear of -Wvla. */
	volatile char chunk[4096];

	chunk[0] = 0;
	chunk[sizeof(chunk) - 1] = 0;
	if (bytes > sizeof(chunk))
		rt_mem_prefault_stack(bytes - sizeof(chunk));
	/* Used after the call: no tail call may reuse this frame for the next step. */
	(void)chunk[0];
}

long long rt_mem_locked_bytes(void)
{
	FILE *f = fopen("/proc/self/status", "re");
	char line[256];
	long long kb = -ENOENT;

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "VmLck: %lld kB", &kb) == 1)
			break;
	fclose(f);
	return kb < 0 ? kb : kb * 1024;
}
