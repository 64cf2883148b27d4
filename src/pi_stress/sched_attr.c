// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <sched.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "rt_sched.h"

#include "sched_attr.h"

/* The kernel's struct sched_attr (include/uapi/linux/sched/types.h), first version. */
struct pis_kernel_attr {
	uint32_t size;
	uint32_t sched_policy;
	uint64_t sched_flags;
	int32_t sched_nice;
	uint32_t sched_priority;
	uint64_t sched_runtime;
	uint64_t sched_deadline;
	uint64_t sched_period;
};

int pis_sched_apply(const struct pis_sched *s)
{
	struct pis_kernel_attr a = {
		.size = sizeof(a),
		.sched_policy = (uint32_t)s->policy,
		.sched_nice = s->nice,
		.sched_priority = (uint32_t)s->priority,
		.sched_runtime = s->runtime_ns,
		.sched_deadline = s->deadline_ns,
		.sched_period = s->period_ns,
	};

	if (s->policy == SCHED_FIFO || s->policy == SCHED_RR)
		return rt_sched_set(0, s->policy, s->priority); /* raises RLIMIT_RTPRIO if it can */
#ifdef SYS_sched_setattr
	if (syscall(SYS_sched_setattr, 0, &a, 0))
		return -errno;
	return 0;
#else
	(void)a;
	return -ENOSYS;
#endif
}
