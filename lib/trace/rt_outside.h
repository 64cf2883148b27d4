/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Evidence of causes outside the kernel, for a spike the trace cannot
 * explain from inside: whether a hypervisor is there (cpuid's hypervisor
 * bit and vendor leaf, /sys/hypervisor/type), the steal time of a CPU
 * (/proc/stat, per CPU) and its SMI count (MSR_SMI_COUNT through
 * /dev/cpu/N/msr, where the msr driver is loaded) around a spike. The
 * counters are sampled by the main thread at each poll; a spike takes
 * the difference between the last sample before it and the first after.
 */
#ifndef RT_OUTSIDE_H
#define RT_OUTSIDE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* What was seen around one spike; -1 where it is not known. */
struct rt_outside {
	int hypervisor;           /* 1 present, 0 absent, -1 unknown */
	char hypervisor_name[16]; /* "KVM", "Xen", "" when it does not say */
	int64_t steal_ns;         /* steal time of the CPU over the window */
	int64_t smi;              /* SMIs counted over the window */
	int64_t window_ns;        /* the window the counters cover */
};

/* Nothing known. */
void rt_outside_init(struct rt_outside *o);

/* The hypervisor's presence and name; present -1 when it cannot be told. */
void rt_outside_hypervisor(int *present, char *name, size_t len);

/* The tick period (jiffy): the resolution of CLOCK_MONOTONIC_COARSE; 0 unknown. */
int64_t rt_outside_tick_ns(void);

struct rt_outside_probe;

/* Sample the CPUs cpu[0..n). 0 or -errno. */
int rt_outside_open(struct rt_outside_probe **out, const int *cpu, size_t n);

/* One sample of every CPU's steal time and SMI count, timed with CLOCK_MONOTONIC. */
void rt_outside_sample(struct rt_outside_probe *p);

/*
 * The evidence for cpu between from_ns and to_ns (CLOCK_MONOTONIC): the
 * counters' growth from the last sample at or before from_ns to the first
 * at or after to_ns (none after yet: a new sample is taken).
 */
void rt_outside_fill(struct rt_outside_probe *p, int cpu, int64_t from_ns, int64_t to_ns,
		     struct rt_outside *o);

void rt_outside_close(struct rt_outside_probe *p);

/* Parse one CPU's steal time (ns) from /proc/stat's text; -1 when it is not there. */
int64_t rt_outside_parse_steal(const char *stat, int cpu, long user_hz);

#endif
