// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <numa.h>

#include "rt_affinity.h"

int rt_affinity_allowed(struct rt_cpulist *out)
{
	cpu_set_t set;

	out->count = 0;
	CPU_ZERO(&set);
	if (sched_getaffinity(0, sizeof(set), &set) < 0)
		return -errno;
	for (int c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, &set))
			out->cpu[out->count++] = c;
	return out->count ? 0 : -ENOENT;
}

bool rt_affinity_contains(const struct rt_cpulist *l, int cpu)
{
	for (unsigned i = 0; i < l->count; i++)
		if (l->cpu[i] == cpu)
			return true;
	return false;
}

int rt_affinity_cpu_for(const struct rt_cpulist *l, unsigned n)
{
	if (l->count == 0)
		return -1;
	return l->cpu[n % l->count];
}

int rt_affinity_pin_thread(pthread_t thread, int cpu)
{
	cpu_set_t set;

	if (cpu < 0 || cpu >= CPU_SETSIZE)
		return -EINVAL;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return -pthread_setaffinity_np(thread, sizeof(set), &set);
}

int rt_affinity_pin_thread_list(pthread_t thread, const struct rt_cpulist *l)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	for (unsigned i = 0; i < l->count; i++)
		CPU_SET(l->cpu[i], &set);
	return -pthread_setaffinity_np(thread, sizeof(set), &set);
}

int rt_affinity_node_of_cpu(int cpu)
{
	if (numa_available() < 0)
		return -1;
	return numa_node_of_cpu(cpu);
}

void rt_affinity_format(const struct rt_cpulist *l, char *buf, size_t len)
{
	size_t used = 0;
	unsigned i = 0;

	if (len == 0)
		return;
	buf[0] = '\0';
	while (i < l->count && used < len) {
		unsigned j = i;
		int n;

		while (j + 1 < l->count && l->cpu[j + 1] == l->cpu[j] + 1)
			j++;
		if (j == i)
			n = snprintf(buf + used, len - used, "%s%d", used ? "," : "", l->cpu[i]);
		else
			n = snprintf(buf + used, len - used, "%s%d-%d", used ? "," : "",
				     l->cpu[i], l->cpu[j]);
		if (n < 0)
			break;
		used += (size_t)n;
		i = j + 1;
	}
}
