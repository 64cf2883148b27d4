/* SPDX-License-Identifier: GPL-2.0-or-later */
/* CPU lists, the set this process may run on, and pinning threads. */
#ifndef RT_AFFINITY_H
#define RT_AFFINITY_H

#include <pthread.h>
#include <sched.h>
#include <stdbool.h>

/* CPUs in ascending order; threads are spread over them round-robin. */
struct rt_cpulist {
	unsigned count;
	int cpu[CPU_SETSIZE];
};

/* The CPUs this process may use (sched_getaffinity). 0 or -errno. */
int rt_affinity_allowed(struct rt_cpulist *out);

bool rt_affinity_contains(const struct rt_cpulist *l, int cpu);

/* CPU of thread n, round-robin over the list; -1 for an empty list. */
int rt_affinity_cpu_for(const struct rt_cpulist *l, unsigned n);

/* Pin a thread to one CPU, or to every CPU of a list. 0 or -errno. */
int rt_affinity_pin_thread(pthread_t thread, int cpu);
int rt_affinity_pin_thread_list(pthread_t thread, const struct rt_cpulist *l);

/* NUMA node of a CPU, or -1 when libnuma has no answer. */
int rt_affinity_node_of_cpu(int cpu);

/* Format as "0-3,6" into buf. */
void rt_affinity_format(const struct rt_cpulist *l, char *buf, size_t len);

#endif
