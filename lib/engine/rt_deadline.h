/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * SCHED_DEADLINE: sched_setattr()/sched_getattr() (glibc has no wrapper
 * before 2.41), the bandwidth arithmetic of the kernel's admission control,
 * and what the system admits (sched_rt_runtime_us / sched_rt_period_us).
 */
#ifndef RT_DEADLINE_H
#define RT_DEADLINE_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#ifndef SCHED_DEADLINE
#define SCHED_DEADLINE 6
#endif

/* Bandwidth in parts per million of one CPU (1000000 = a whole CPU). */
#define RT_DEADLINE_BW_UNIT 1000000ULL

struct rt_deadline_params {
	uint64_t runtime_ns;
	uint64_t deadline_ns;
	uint64_t period_ns; /* 0: equal to the deadline */
};

/* Switch thread tid (0: the caller) to SCHED_DEADLINE. 0 or -errno. */
int rt_deadline_set(pid_t tid, const struct rt_deadline_params *p);

/* Switch thread tid back to SCHED_OTHER (nice 0). 0 or -errno. */
int rt_deadline_clear(pid_t tid);

/*
 * Switch thread tid to a fair policy (SCHED_OTHER, SCHED_BATCH or
 * SCHED_IDLE) at nice, policy and nice in one call. 0 or -errno.
 */
int rt_deadline_clear_to(pid_t tid, int policy, int nice);

/*
 * Policy and, for SCHED_DEADLINE, the parameters of thread tid. 0 or
 * -errno (-ESRCH: gone).
 */
int rt_deadline_get(pid_t tid, int *policy, struct rt_deadline_params *p);

/* runtime / period in RT_DEADLINE_BW_UNIT, rounded up (as the kernel's to_ratio). */
uint64_t rt_deadline_bw(const struct rt_deadline_params *p);

/*
 * What admission control allows on `cpus` CPUs: runtime/period of
 * sched_rt_* times cpus, in RT_DEADLINE_BW_UNIT. UINT64_MAX when
 * runtime_us < 0 (no limit).
 */
uint64_t rt_deadline_bw_limit(int64_t rt_runtime_us, int64_t rt_period_us, unsigned cpus);

/*
 * Read /proc/sys/kernel/sched_rt_runtime_us and _period_us under root (""
 * for the machine). 0 or -errno.
 */
int rt_deadline_read_limits_at(const char *root, int64_t *runtime_us, int64_t *period_us);

/* sched_deadline_period_min_us / _max_us, in us. 0 or -errno. */
int rt_deadline_read_period_range_at(const char *root, uint64_t *min_us, uint64_t *max_us);

/*
 * Sum of the bandwidths of every SCHED_DEADLINE thread of the system except
 * those of process `self` (0: count them all), through /proc/<pid>/task and
 * sched_getattr. Threads that vanish are skipped. 0 or -errno.
 */
int rt_deadline_bw_in_use(pid_t self, uint64_t *bw, unsigned *threads);

#endif
