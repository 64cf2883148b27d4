/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Scheduling policies by name, and setting a thread's policy and priority. */
#ifndef RT_SCHED_H
#define RT_SCHED_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* other/normal, batch, idle, fifo, rr (any case). 0 or -EINVAL. */
int rt_sched_policy_from_name(const char *name, int *policy);

/* "other", "batch", "idle", "fifo", "rr", "deadline" or "unknown". */
const char *rt_sched_policy_name(int policy);

bool rt_sched_policy_is_rt(int policy);

/*
 * Set policy and priority of a thread (tid 0: the caller). Priority must be
 * 1..99 for fifo/rr and 0 otherwise. On EPERM with an RT policy, a soft
 * RLIMIT_RTPRIO below prio is raised toward the hard limit and the call
 * retried. Returns 0 or a negative errno.
 */
int rt_sched_set(pid_t tid, int policy, int prio);

/* Policy and priority of a thread; 0 or -errno. */
int rt_sched_get(pid_t tid, int *policy, int *prio);

/* The caller's policy as the kernel reports it (not as asked for), or -1. */
int rt_sched_policy_in_force(void);

/*
 * Can this process use policy/prio at all? Switches the caller and back.
 * Returns 0 or a negative errno (-EPERM: not permitted).
 */
int rt_sched_check_permission(int policy, int prio);

/*
 * Explain an EPERM for policy/prio: what is missing and how to grant it
 * (root, CAP_SYS_NICE, RLIMIT_RTPRIO through limits.conf or a unit's
 * LimitRTPRIO=). Writes one line without newline into buf.
 */
void rt_sched_explain_eperm(int policy, int prio, char *buf, size_t len);

/* Kernel thread id of the caller. */
pid_t rt_sched_gettid(void);

#endif
