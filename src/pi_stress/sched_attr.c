// SPDX-License-Identifier: GPL-2.0-or-later
#include <sched.h>

#include "rt_deadline.h"
#include "rt_sched.h"

#include "sched_attr.h"

int pis_sched_apply(const struct pis_sched *s)
{
	struct rt_deadline_params dl = {
		.runtime_ns = s->runtime_ns,
		.deadline_ns = s->deadline_ns,
		.period_ns = s->period_ns,
	};

	switch (s->policy) {
	case SCHED_FIFO:
	case SCHED_RR:
		return rt_sched_set(0, s->policy, s->priority); /* raises RLIMIT_RTPRIO if it can */
	case SCHED_DEADLINE:
		return rt_deadline_set(0, &dl);
	default:
		return rt_deadline_clear_to(0, s->policy, s->nice);
	}
}
