/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * An inversion group: three threads on one CPU and a mutex. Each inversion:
 * low locks the mutex; all three meet at the "locked" barrier; high blocks
 * on the mutex while med spins at a priority above low until high has it.
 * With priority inheritance low runs at high's priority, unlocks, and high
 * goes on: the spin ends at once. Without it (--no-pi, or a broken kernel)
 * med keeps low off the CPU and the group is stuck until the run stops it.
 * All three meet at the "done" barrier, and the next inversion begins.
 */
#ifndef PI_STRESS_GROUP_H
#define PI_STRESS_GROUP_H

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "rt_gate.h"
#include "options.h"

/* What the threads of every group share with the admin thread. */
struct pis_shared {
	cpu_set_t allowed;        /* where a SCHED_DEADLINE thread may run (it cannot be pinned) */
	_Atomic int stop;         /* set once: every thread ends */
	struct rt_gate start;     /* threads arrive once set up; opened to release them */
};

struct pis_thread {
	struct pis_group *g;
	enum pis_role role;
	pthread_t thread;
	bool created;
	int ran_policy;           /* read back from the kernel, -1 before */
	int err;                  /* positive errno of a failed set-up */
	const char *what;         /* what failed */
};

struct pis_group {
	/* written by the threads in each inversion, read by the admin thread */
	uint64_t inversions __attribute__((aligned(64)));
	uint32_t high_got;        /* the number of the inversion high got the mutex in */
	int finished;             /* the -i inversions done */
	struct rt_gate locked __attribute__((aligned(64))); /* cyclic, the three of the group */
	struct rt_gate done;
	pthread_mutex_t mutex;
	/* set up by the admin thread */
	int index;
	int cpu;                  /* -1: not pinned */
	bool shares_cpu;          /* other groups run on its CPU: low yields each time */
	const struct pi_stress_config *cfg;
	struct pis_shared *shared;
	struct pis_thread t[3];   /* by role */
};

/* The mutex (PI unless --no-pi) and barriers. 0 or -errno. */
int pis_group_init(struct pis_group *g, int index, int cpu, bool shares_cpu,
		   const struct pi_stress_config *cfg, struct pis_shared *shared);

/* Create the three threads (they set themselves up and wait at shared->start). 0 or -errno. */
int pis_group_start(struct pis_group *g);

/* After shared->stop was set: lift the threads above any load and break the barriers. */
void pis_group_break(struct pis_group *g);

/*
 * Join the threads that were created, waiting until deadline_ns
 * (CLOCK_REALTIME, for pthread_timedjoin_np). True when all have ended.
 */
bool pis_group_join(struct pis_group *g, const struct timespec *deadline);

void pis_group_destroy(struct pis_group *g);

#endif
