/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The preflight checks of what routes work to the measured CPUs: a measured
 * CPU in the affinity of a device interrupt (/proc/irq/N/
 * effective_affinity_list, else smp_affinity_list), or not in nohz_full,
 * rcu_nocbs or isolcpus with managed_irq. One warning per kind of problem,
 * the IRQs and CPUs listed compactly. Reads plain data and hands each
 * warning to the caller (rt_env_preflight() keeps them in the rt_env), so
 * it knows nothing of rt_env: the two do not include each other.
 */
#ifndef RT_ISOLATION_PREFLIGHT_H
#define RT_ISOLATION_PREFLIGHT_H

#include "rt_affinity.h"

struct rt_isolation_preflight_in {
	const char *root;               /* "" for the machine; a test's tree */
	const struct rt_cpulist *cpus;  /* the measured CPUs */
	const char *nohz_full;          /* the kernel's lists, NULL when not given */
	const char *rcu_nocbs;
	const char *cmdline;            /* the kernel command line (isolcpus=), or NULL */
};

/* Takes one warning line (no newline): 0 or a negative errno, which stops the checks. */
typedef int rt_isolation_preflight_say(void *ctx, const char *line);

/* Run the checks; say() gets each warning. 0, -ENOMEM or say()'s error. */
int rt_isolation_preflight(const struct rt_isolation_preflight_in *in,
			   rt_isolation_preflight_say *say, void *ctx);

#endif
