/* SPDX-License-Identifier: GPL-2.0-or-later */
/* One thread type's scheduling, SCHED_DEADLINE and nice included, applied by lib. */
#ifndef PI_STRESS_SCHED_ATTR_H
#define PI_STRESS_SCHED_ATTR_H

#include "options.h"

#ifndef SCHED_DEADLINE
#define SCHED_DEADLINE 6
#endif

/* The calling thread gets s. 0 or -errno. */
int pis_sched_apply(const struct pis_sched *s);

#endif
