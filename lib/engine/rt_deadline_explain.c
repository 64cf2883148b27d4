// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rt_deadline.h"
#include "rt_deadline_explain.h"

#define CAP_SYS_NICE_BIT 23
#define PREFIX "SCHED_DEADLINE refused "

static int has_cap_sys_nice(void)
{
	char line[256];
	unsigned long long caps;
	FILE *f = fopen("/proc/self/status", "re");
	int ret = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "CapEff: %llx", &caps) == 1)
			ret = (int)((caps >> CAP_SYS_NICE_BIT) & 1);
	fclose(f);
	return ret;
}

/* In a user namespace other than the initial one (a container)? */
static bool in_user_namespace(void)
{
	unsigned long long inside, outside, count;
	FILE *f = fopen("/proc/self/uid_map", "re");
	bool ns = false;

	if (!f)
		return false;
	if (fscanf(f, "%llu %llu %llu", &inside, &outside, &count) == 3)
		ns = !(inside == 0 && outside == 0 && count == 4294967295ULL);
	fclose(f);
	return ns;
}

/* The process's cgroup for the cpu or cpuset controller (v1), or the v2 path. */
static void cgroup_of_self(char *buf, size_t len)
{
	char line[1024];
	FILE *f = fopen("/proc/self/cgroup", "re");

	snprintf(buf, len, "?");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *ctl = strchr(line, ':'), *path;

		if (!ctl || !(path = strchr(ctl + 1, ':')))
			continue;
		path[strcspn(path, "\n")] = '\0';
		if (strncmp(ctl, "::", 2) == 0 || strstr(ctl, ":cpu,") || strstr(ctl, ":cpu:") ||
		    strstr(ctl, "cpuset:")) {
			*path = '\0';
			snprintf(buf, len, "%s:%s", ctl + 1, path + 1);
			if (strcmp(path + 1, "/") != 0)
				break;
		}
	}
	fclose(f);
}

static bool online_cpus(struct rt_cpulist *l)
{
	char buf[256];
	FILE *f = fopen("/sys/devices/system/cpu/online", "re");
	char *p = buf;

	l->count = 0;
	if (!f)
		return false;
	if (!fgets(buf, sizeof(buf), f))
		buf[0] = '\0';
	fclose(f);
	while (*p && *p != '\n') {
		char *end;
		long lo = strtol(p, &end, 10), hi = lo;

		if (end == p)
			break;
		if (*end == '-')
			hi = strtol(end + 1, &end, 10);
		for (long c = lo; c <= hi && l->count < CPU_SETSIZE; c++)
			l->cpu[l->count++] = (int)c;
		p = *end == ',' ? end + 1 : end;
	}
	return l->count > 0;
}

bool rt_deadline_explain_caps(char *buf, size_t len, bool force)
{
	if (in_user_namespace())
		snprintf(buf, len, PREFIX "(EPERM): CAP_SYS_NICE is needed in the initial user "
			 "namespace, and this process runs in another one (a container): run it on "
			 "the host, or in a privileged container");
	else if (force || has_cap_sys_nice() == 0)
		snprintf(buf, len, PREFIX "(EPERM): no CAP_SYS_NICE: run as root or with "
			 "CAP_SYS_NICE (RLIMIT_RTPRIO does not admit SCHED_DEADLINE)");
	else
		return false;
	return true;
}

static void explain_eperm(char *buf, size_t len, const struct rt_deadline_refusal *r)
{
	bool pinned = r->pinned && r->pinned->count;
	struct rt_cpulist allowed, online;
	char a[256], o[256], cg[512];

	if (rt_deadline_explain_caps(buf, len, false))
		return;
	if (r->rt_runtime_us == 0) {
		snprintf(buf, len, PREFIX "(EPERM): /proc/sys/kernel/sched_rt_runtime_us is 0, which "
			 "leaves SCHED_DEADLINE no bandwidth: set it to 950000 (or -1, no admission "
			 "control)");
		return;
	}
	if (online_cpus(&online)) {
		if (pinned)
			allowed = *r->pinned;
		else if (rt_affinity_allowed(&allowed))
			allowed.count = 0;
		if (allowed.count && allowed.count < online.count) {
			rt_affinity_format(&allowed, a, sizeof(a));
			rt_affinity_format(&online, o, sizeof(o));
			if (pinned)
				snprintf(buf, len, PREFIX "(EPERM): %s to CPUs %s, but the kernel admits "
					 "a SCHED_DEADLINE thread only when its affinity covers its "
					 "whole root domain (CPUs %s here): make an exclusive cpuset of "
					 "CPUs %s first and run in it%s", r->pin_what, a, o, a,
					 r->pin_fix ? r->pin_fix : "");
			else
				snprintf(buf, len, PREFIX "(EPERM): thread %d may run on CPUs %s only, "
					 "but the kernel admits a SCHED_DEADLINE thread only when its "
					 "affinity covers its whole root domain (CPUs %s here): run "
					 "without taskset, or in an exclusive cpuset of those CPUs",
					 r->thread, a, o);
			return;
		}
	}
	cgroup_of_self(cg, sizeof(cg));
	snprintf(buf, len, PREFIX "(EPERM) with CAP_SYS_NICE, bandwidth and affinity in order: the "
		 "cgroup %s (or a seccomp filter of a container) refuses it: run in the root "
		 "cgroup, outside the container", cg);
}

static void pct(char *buf, size_t len, uint64_t ppm)
{
	snprintf(buf, len, "%" PRIu64 ".%" PRIu64 "%%", ppm / 10000, ppm / 1000 % 10);
}

static void explain_ebusy(char *buf, size_t len, const struct rt_deadline_refusal *r)
{
	uint64_t limit, used = 0;
	unsigned others = 0;
	char s_asked[32], s_limit[32], s_free[32], s_used[32], s_one[32];
	struct rt_deadline_params p = { .runtime_ns = r->runtime_us * 1000,
					.deadline_ns = r->deadline_us * 1000 };

	pct(s_one, sizeof(s_one), rt_deadline_bw(&p));
	pct(s_asked, sizeof(s_asked), r->asked_bw);
	if (rt_deadline_bw_in_use(getpid(), &used, &others))
		used = 0;
	pct(s_used, sizeof(s_used), used);
	limit = rt_deadline_bw_limit(r->rt_runtime_us, r->rt_period_us, r->nr_cpus);
	if (r->rt_runtime_us < -1 || limit == UINT64_MAX) {
		snprintf(buf, len, PREFIX "(EBUSY): %d thread(s) ask %s of a CPU in all, more than "
			 "admission control leaves free; %s, or raise "
			 "/proc/sys/kernel/sched_rt_runtime_us", r->nthreads, s_asked, r->bw_fix);
		return;
	}
	pct(s_limit, sizeof(s_limit), limit);
	pct(s_free, sizeof(s_free), limit > used ? limit - used : 0);
	snprintf(buf, len, PREFIX "(EBUSY): %d thread(s) ask %s of a CPU in all (thread %d: %" PRIu64
		 "/%" PRIu64 " us = %s), but sched_rt_runtime_us %" PRId64 " / sched_rt_period_us %"
		 PRId64 " on %u CPU(s) admit %s, of which %s is free (%u other SCHED_DEADLINE "
		 "thread(s) hold %s): %s, or raise /proc/sys/kernel/sched_rt_runtime_us",
		 r->nthreads, s_asked, r->thread, r->runtime_us, r->deadline_us, s_one,
		 r->rt_runtime_us, r->rt_period_us, r->nr_cpus, s_limit, s_free, others, s_used,
		 r->bw_fix);
}

void rt_deadline_explain(char *buf, size_t len, const struct rt_deadline_refusal *r)
{
	uint64_t lo = 0, hi = 0;

	switch (-r->err) {
	case EPERM:
		explain_eperm(buf, len, r);
		break;
	case EBUSY:
		explain_ebusy(buf, len, r);
		break;
	case EINVAL:
		if (rt_deadline_read_period_range_at("", &lo, &hi) == 0)
			snprintf(buf, len, PREFIX "(EINVAL): thread %d: runtime %" PRIu64 " us, "
				 "deadline = period %" PRIu64 " us: the kernel wants 1 us <= runtime "
				 "<= deadline and a period within sched_deadline_period_min_us..max_us "
				 "(%" PRIu64 "..%" PRIu64 " us): %s", r->thread, r->runtime_us,
				 r->deadline_us, lo, hi, r->param_fix);
		else
			snprintf(buf, len, PREFIX "(EINVAL): thread %d: runtime %" PRIu64 " us, "
				 "deadline = period %" PRIu64 " us: %s", r->thread, r->runtime_us,
				 r->deadline_us, r->param_fix);
		break;
	case E2BIG:
		snprintf(buf, len, PREFIX "(E2BIG): the kernel does not take this struct sched_attr");
		break;
	default:
		snprintf(buf, len, "thread %d: cannot switch to SCHED_DEADLINE: %s", r->thread,
			 strerror(-r->err));
	}
}
