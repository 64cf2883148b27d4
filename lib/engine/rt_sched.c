// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "rt_sched.h"

static const struct {
	const char *name;
	int policy;
} policies[] = {
	{ "other", SCHED_OTHER }, { "normal", SCHED_OTHER }, { "batch", SCHED_BATCH },
	{ "idle", SCHED_IDLE },   { "fifo", SCHED_FIFO },     { "rr", SCHED_RR },
};

int rt_sched_policy_from_name(const char *name, int *policy)
{
	for (size_t i = 0; i < sizeof(policies) / sizeof(policies[0]); i++) {
		if (strcasecmp(name, policies[i].name) == 0) {
			*policy = policies[i].policy;
			return 0;
		}
	}
	return -EINVAL;
}

const char *rt_sched_policy_name(int policy)
{
	switch (policy) {
	case SCHED_OTHER: return "other";
	case SCHED_BATCH: return "batch";
	case SCHED_IDLE: return "idle";
	case SCHED_FIFO: return "fifo";
	case SCHED_RR: return "rr";
#ifdef SCHED_DEADLINE
	case SCHED_DEADLINE: return "deadline";
#endif
	default: return "unknown";
	}
}

bool rt_sched_policy_is_rt(int policy)
{
	return policy == SCHED_FIFO || policy == SCHED_RR;
}

pid_t rt_sched_gettid(void)
{
	return (pid_t)syscall(SYS_gettid);
}

/* Raise the soft RLIMIT_RTPRIO toward prio, within the hard limit. */
static bool raise_rtprio_limit(int prio)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_RTPRIO, &rl) < 0)
		return false;
	if (rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur >= (rlim_t)prio)
		return false;
	if (rl.rlim_max != RLIM_INFINITY && rl.rlim_max <= rl.rlim_cur)
		return false;
	rl.rlim_cur = (rl.rlim_max == RLIM_INFINITY || rl.rlim_max >= (rlim_t)prio)
			      ? (rlim_t)prio : rl.rlim_max;
	return setrlimit(RLIMIT_RTPRIO, &rl) == 0;
}

int rt_sched_set(pid_t tid, int policy, int prio)
{
	struct sched_param sp = { .sched_priority = prio };

	if (rt_sched_policy_is_rt(policy) ? (prio < 1 || prio > 99) : prio != 0)
		return -EINVAL;
	if (sched_setscheduler(tid, policy, &sp) == 0)
		return 0;
	if (errno != EPERM || !rt_sched_policy_is_rt(policy) || !raise_rtprio_limit(prio))
		return -errno;
	return sched_setscheduler(tid, policy, &sp) == 0 ? 0 : -errno;
}

int rt_sched_get(pid_t tid, int *policy, int *prio)
{
	struct sched_param sp;
	int p = sched_getscheduler(tid);

	if (p < 0 || sched_getparam(tid, &sp) < 0)
		return -errno;
	*policy = p & ~SCHED_RESET_ON_FORK;
	*prio = sp.sched_priority;
	return 0;
}

int rt_sched_policy_in_force(void)
{
	int policy = -1, prio = 0;

	return rt_sched_get(0, &policy, &prio) ? -1 : policy;
}

int rt_sched_check_permission(int policy, int prio)
{
	int old_policy = SCHED_OTHER, old_prio = 0, err;

	err = rt_sched_get(0, &old_policy, &old_prio);
	if (err)
		return err;
	err = rt_sched_set(0, policy, prio);
	if (err)
		return err;
	return rt_sched_set(0, old_policy, old_prio);
}

void rt_sched_explain_eperm(int policy, int prio, char *buf, size_t len)
{
	struct rlimit rl = { 0, 0 };
	char soft[24], hard[24];

	getrlimit(RLIMIT_RTPRIO, &rl);
	if (rl.rlim_cur == RLIM_INFINITY)
		snprintf(soft, sizeof(soft), "unlimited");
	else
		snprintf(soft, sizeof(soft), "%llu", (unsigned long long)rl.rlim_cur);
	if (rl.rlim_max == RLIM_INFINITY)
		snprintf(hard, sizeof(hard), "unlimited");
	else
		snprintf(hard, sizeof(hard), "%llu", (unsigned long long)rl.rlim_max);
	snprintf(buf, len,
		 "not permitted to use SCHED_%s priority %d: run as root, grant CAP_SYS_NICE "
		 "(setcap cap_sys_nice+ep), or raise RLIMIT_RTPRIO to %d or more "
		 "(now soft %s, hard %s; '@realtime - rtprio %d' in "
		 "/etc/security/limits.conf, or LimitRTPRIO=%d in a systemd unit)",
		 policy == SCHED_RR ? "RR" : "FIFO", prio, prio, soft, hard, prio, prio);
}
