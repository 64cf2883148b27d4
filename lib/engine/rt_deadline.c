// SPDX-License-Identifier: GPL-2.0-or-later
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "rt_deadline.h"

/* The kernel's struct sched_attr, first version (48 bytes). */
struct rt_sched_attr {
	uint32_t size;
	uint32_t sched_policy;
	uint64_t sched_flags;
	int32_t sched_nice;
	uint32_t sched_priority;
	uint64_t sched_runtime;
	uint64_t sched_deadline;
	uint64_t sched_period;
};

#ifndef SYS_sched_setattr
#if defined(__x86_64__)
#define SYS_sched_setattr 314
#define SYS_sched_getattr 315
#elif defined(__i386__)
#define SYS_sched_setattr 351
#define SYS_sched_getattr 352
#else
#define SYS_sched_setattr 274
#define SYS_sched_getattr 275
#endif
#endif

static int setattr(pid_t tid, struct rt_sched_attr *a)
{
	a->size = sizeof(*a);
	if (syscall(SYS_sched_setattr, tid, a, 0) < 0)
		return -errno;
	return 0;
}

int rt_deadline_set(pid_t tid, const struct rt_deadline_params *p)
{
	struct rt_sched_attr a = {
		.sched_policy = SCHED_DEADLINE,
		.sched_runtime = p->runtime_ns,
		.sched_deadline = p->deadline_ns,
		.sched_period = p->period_ns,
	};

	return setattr(tid, &a);
}

int rt_deadline_clear(pid_t tid)
{
	return rt_deadline_clear_to(tid, 0 /* SCHED_OTHER */, 0);
}

int rt_deadline_clear_to(pid_t tid, int policy, int nice)
{
	struct rt_sched_attr a = { .sched_policy = (uint32_t)policy, .sched_nice = nice };

	return setattr(tid, &a);
}

int rt_deadline_get(pid_t tid, int *policy, struct rt_deadline_params *p)
{
	struct rt_sched_attr a;

	memset(&a, 0, sizeof(a));
	if (syscall(SYS_sched_getattr, tid, &a, sizeof(a), 0) < 0)
		return -errno;
	*policy = (int)a.sched_policy;
	p->runtime_ns = a.sched_runtime;
	p->deadline_ns = a.sched_deadline;
	p->period_ns = a.sched_period;
	return 0;
}

uint64_t rt_deadline_bw(const struct rt_deadline_params *p)
{
	uint64_t period = p->period_ns ? p->period_ns : p->deadline_ns;

	if (!period)
		return 0;
	return (p->runtime_ns * RT_DEADLINE_BW_UNIT + period - 1) / period;
}

uint64_t rt_deadline_bw_limit(int64_t rt_runtime_us, int64_t rt_period_us, unsigned cpus)
{
	if (rt_runtime_us < 0)
		return UINT64_MAX;
	if (rt_period_us <= 0)
		return 0;
	return (uint64_t)rt_runtime_us * RT_DEADLINE_BW_UNIT / (uint64_t)rt_period_us * cpus;
}

static int read_i64(const char *root, const char *path, int64_t *out)
{
	char file[512], buf[64], *end;
	FILE *f;
	int err = 0;

	snprintf(file, sizeof(file), "%s%s", root, path);
	if (!(f = fopen(file, "re")))
		return -errno;
	if (!fgets(buf, sizeof(buf), f)) {
		err = -EIO;
	} else {
		errno = 0;
		*out = strtoll(buf, &end, 10);
		if (errno || end == buf || (*end != '\n' && *end != '\0'))
			err = -EINVAL;
	}
	fclose(f);
	return err;
}

int rt_deadline_read_limits_at(const char *root, int64_t *runtime_us, int64_t *period_us)
{
	int err = read_i64(root, "/proc/sys/kernel/sched_rt_runtime_us", runtime_us);

	return err ? err : read_i64(root, "/proc/sys/kernel/sched_rt_period_us", period_us);
}

int rt_deadline_read_period_range_at(const char *root, uint64_t *min_us, uint64_t *max_us)
{
	int64_t lo, hi;
	int err;

	if ((err = read_i64(root, "/proc/sys/kernel/sched_deadline_period_min_us", &lo)) ||
	    (err = read_i64(root, "/proc/sys/kernel/sched_deadline_period_max_us", &hi)))
		return err;
	if (lo < 0 || hi < 0)
		return -EINVAL;
	*min_us = (uint64_t)lo;
	*max_us = (uint64_t)hi;
	return 0;
}

static bool all_digits(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (*s < '0' || *s > '9')
			return false;
	return true;
}

static void add_process(pid_t pid, uint64_t *bw, unsigned *threads)
{
	char path[64];
	struct dirent *t;
	DIR *d;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	if (!(d = opendir(path)))
		return;
	while ((t = readdir(d))) {
		struct rt_deadline_params p;
		int policy;

		if (!all_digits(t->d_name))
			continue;
		if (rt_deadline_get((pid_t)atoi(t->d_name), &policy, &p) || policy != SCHED_DEADLINE)
			continue;
		*bw += rt_deadline_bw(&p);
		(*threads)++;
	}
	closedir(d);
}

int rt_deadline_bw_in_use(pid_t self, uint64_t *bw, unsigned *threads)
{
	struct dirent *e;
	DIR *d = opendir("/proc");

	*bw = 0;
	*threads = 0;
	if (!d)
		return -errno;
	while ((e = readdir(d))) {
		pid_t pid;

		if (!all_digits(e->d_name))
			continue;
		pid = (pid_t)atoi(e->d_name);
		if (pid != self || !self)
			add_process(pid, bw, threads);
	}
	closedir(d);
	return 0;
}
