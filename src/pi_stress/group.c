// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "rt_sched.h"

#include "group.h"
#include "sched_attr.h"

#define THREAD_STACK (64 * 1024)

#define DEBUG(t, fmt, ...)                                                                    \
	do {                                                                                  \
		if ((t)->g->cfg->debug)                                                       \
			fprintf(stderr, "DEBUG: %s_priority[%d]: " fmt "\n",                  \
				role_debug[(t)->role], (t)->g->index, ##__VA_ARGS__);         \
	} while (0)

#if defined(__x86_64__) || defined(__i386__)
#define cpu_relax() __builtin_ia32_pause()
#else
#define cpu_relax() __asm__ __volatile__("" ::: "memory")
#endif

static const char *const role_debug[3] = { "low", "med", "high" };

static bool stopped(const struct pis_group *g)
{
	return atomic_load(&g->shared->stop) != 0;
}

/* Pin, then the policy (a deadline thread cannot be pinned: it gets every allowed CPU). */
static void set_up(struct pis_thread *t)
{
	const struct pis_group *g = t->g;
	const struct pis_sched *s = &g->cfg->sched[t->role];
	cpu_set_t one;
	int err;

	if (g->cpu >= 0 && s->policy != SCHED_DEADLINE) {
		CPU_ZERO(&one);
		CPU_SET(g->cpu, &one);
		if (sched_setaffinity(0, sizeof(one), &one)) {
			t->err = errno;
			t->what = "pin to its CPU";
			return;
		}
	} else if (s->policy == SCHED_DEADLINE &&
		   sched_setaffinity(0, sizeof(g->shared->allowed), &g->shared->allowed)) {
		t->err = errno;
		t->what = "run on every allowed CPU";
		return;
	}
	if ((err = pis_sched_apply(s))) {
		t->err = -err;
		t->what = "set its scheduling";
		return;
	}
	t->ran_policy = rt_sched_policy_in_force();
}

static void low_loop(struct pis_thread *t, struct pis_group *g, uint64_t limit)
{
	for (uint64_t n = 0; !limit || n < limit; n++) {
		/*
		 * A low thread woken by its own barrier stays first in line at its
		 * priority: without the yield it would keep the other groups' low
		 * threads on this CPU off it for ever.
		 */
		if (g->shares_cpu)
			sched_yield();
		DEBUG(t, "claiming mutex");
		pthread_mutex_lock(&g->mutex);
		DEBUG(t, "mutex locked");
		if (!rt_gate_pass(&g->locked, &g->shared->stop)) {
			pthread_mutex_unlock(&g->mutex);
			return;
		}
		/* high blocks on the mutex now and, with PI, lends us its priority */
		DEBUG(t, "releasing mutex");
		pthread_mutex_unlock(&g->mutex);
		if (!rt_gate_pass(&g->done, &g->shared->stop))
			return;
	}
}

static void med_loop(struct pis_thread *t, struct pis_group *g, uint64_t limit)
{
	for (uint64_t n = 0; !limit || n < limit; n++) {
		uint32_t want = (uint32_t)(n + 1);

		if (!rt_gate_pass(&g->locked, &g->shared->stop))
			return;
		DEBUG(t, "spinning until high has the mutex");
		/* above low, below high: without PI, low never runs again */
		while (__atomic_load_n(&g->high_got, __ATOMIC_ACQUIRE) != want && !stopped(g))
			cpu_relax();
		if (!rt_gate_pass(&g->done, &g->shared->stop))
			return;
	}
}

static void high_loop(struct pis_thread *t, struct pis_group *g, uint64_t limit)
{
	for (uint64_t n = 0; !limit || n < limit; n++) {
		if (!rt_gate_pass(&g->locked, &g->shared->stop))
			return;
		DEBUG(t, "claiming mutex");
		pthread_mutex_lock(&g->mutex);
		DEBUG(t, "got mutex");
		__atomic_store_n(&g->high_got, (uint32_t)(n + 1), __ATOMIC_RELEASE);
		pthread_mutex_unlock(&g->mutex);
		if (stopped(g)) /* resolved by the stop (med gave up): not an inversion */
			return;
		__atomic_store_n(&g->inversions, n + 1, __ATOMIC_RELEASE);
		if (!rt_gate_pass(&g->done, &g->shared->stop))
			return;
	}
	__atomic_store_n(&g->finished, 1, __ATOMIC_RELEASE);
}

static void *thread_main(void *arg)
{
	struct pis_thread *t = arg;
	struct pis_group *g = t->g;
	struct pis_shared *sh = g->shared;

	set_up(t);
	rt_gate_arrive(&sh->start);
	if (t->err || stopped(g))
		return NULL;
	switch (t->role) {
	case PIS_LOW: low_loop(t, g, g->cfg->inversions); break;
	case PIS_MED: med_loop(t, g, g->cfg->inversions); break;
	default: high_loop(t, g, g->cfg->inversions); break;
	}
	DEBUG(t, "exiting");
	return NULL;
}

int pis_group_init(struct pis_group *g, int index, int cpu, bool shares_cpu,
		   const struct pi_stress_config *cfg, struct pis_shared *shared)
{
	pthread_mutexattr_t ma;
	int err;

	memset(g, 0, sizeof(*g));
	g->index = index;
	g->cpu = cpu;
	g->shares_cpu = shares_cpu;
	g->cfg = cfg;
	g->shared = shared;
	rt_gate_init_cyclic(&g->locked, 3, false);
	rt_gate_init_cyclic(&g->done, 3, false);
	for (int r = 0; r < 3; r++)
		g->t[r] = (struct pis_thread){ .g = g, .role = (enum pis_role)r, .ran_policy = -1 };
	if ((err = pthread_mutexattr_init(&ma)))
		return -err;
	err = pthread_mutexattr_setprotocol(&ma, cfg->no_pi ? PTHREAD_PRIO_NONE
							    : PTHREAD_PRIO_INHERIT);
	if (!err)
		err = pthread_mutex_init(&g->mutex, &ma);
	pthread_mutexattr_destroy(&ma);
	return -err;
}

int pis_group_start(struct pis_group *g)
{
	pthread_attr_t attr;
	int err;

	/* high first: it is the one whose wait matters */
	for (int r = 2; r >= 0; r--) {
		if ((err = pthread_attr_init(&attr)))
			return -err;
		err = pthread_attr_setstacksize(&attr, THREAD_STACK > PTHREAD_STACK_MIN
							       ? THREAD_STACK : PTHREAD_STACK_MIN);
		if (!err)
			err = pthread_create(&g->t[r].thread, &attr, thread_main, &g->t[r]);
		pthread_attr_destroy(&attr);
		if (err)
			return -err;
		g->t[r].created = true;
	}
	return 0;
}

void pis_group_break(struct pis_group *g)
{
	/*
	 * The threads must run to end: at their priorities (1..3 by default)
	 * any other real-time task above them on their CPU starves them for as
	 * long as it runs, and the stop would wait for it. Above everything,
	 * they end within microseconds (pthread_setschedparam fails harmlessly
	 * on one that already ended).
	 */
	struct sched_param top = { .sched_priority = sched_get_priority_max(SCHED_FIFO) };

	for (int r = 0; r < 3; r++)
		if (g->t[r].created)
			pthread_setschedparam(g->t[r].thread, SCHED_FIFO, &top);
	rt_gate_break(&g->locked);
	rt_gate_break(&g->done);
}

bool pis_group_join(struct pis_group *g, const struct timespec *deadline)
{
	bool all = true;

	for (int r = 0; r < 3; r++) {
		if (!g->t[r].created)
			continue;
		if (pthread_timedjoin_np(g->t[r].thread, NULL, deadline))
			all = false;
		else
			g->t[r].created = false;
	}
	return all;
}

void pis_group_destroy(struct pis_group *g)
{
	rt_gate_destroy(&g->locked);
	rt_gate_destroy(&g->done);
	pthread_mutex_destroy(&g->mutex);
}
