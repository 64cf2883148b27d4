// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <time.h>

#include "rt_gate.h"
#include "rt_time.h"

/* A robust lock's owner died: the state it guards is two integers, always whole. */
static void lock(struct rt_gate *g)
{
	if (pthread_mutex_lock(&g->lock) == EOWNERDEAD)
		pthread_mutex_consistent(&g->lock);
}

static void cond_wait(struct rt_gate *g)
{
	if (pthread_cond_wait(&g->cond, &g->lock) == EOWNERDEAD)
		pthread_mutex_consistent(&g->lock);
}

int rt_gate_init(struct rt_gate *g, bool shared)
{
	pthread_mutexattr_t ma;
	pthread_condattr_t ca;
	int pshared = shared ? PTHREAD_PROCESS_SHARED : PTHREAD_PROCESS_PRIVATE;
	int err;

	g->arrived = 0;
	g->open = 0;
	pthread_mutexattr_init(&ma);
	pthread_condattr_init(&ca);
	err = pthread_mutexattr_setpshared(&ma, pshared);
	if (!err && shared)
		err = pthread_mutexattr_setrobust(&ma, PTHREAD_MUTEX_ROBUST);
	if (!err)
		err = pthread_condattr_setpshared(&ca, pshared);
	if (!err)
		err = pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	if (!err)
		err = pthread_mutex_init(&g->lock, &ma);
	if (!err) {
		err = pthread_cond_init(&g->cond, &ca);
		if (err)
			pthread_mutex_destroy(&g->lock);
	}
	pthread_mutexattr_destroy(&ma);
	pthread_condattr_destroy(&ca);
	return -err;
}

void rt_gate_destroy(struct rt_gate *g)
{
	pthread_cond_destroy(&g->cond);
	pthread_mutex_destroy(&g->lock);
}

void rt_gate_arrive(struct rt_gate *g)
{
	lock(g);
	g->arrived++;
	pthread_cond_broadcast(&g->cond);
	while (!g->open)
		cond_wait(g);
	pthread_mutex_unlock(&g->lock);
}

void rt_gate_wait_arrived(struct rt_gate *g, int n)
{
	lock(g);
	while (g->arrived < n && !g->open)
		cond_wait(g);
	pthread_mutex_unlock(&g->lock);
}

bool rt_gate_wait_arrived_for(struct rt_gate *g, int n, int64_t timeout_ns)
{
	struct timespec now, until;
	bool arrived;
	int err = 0;

	clock_gettime(CLOCK_MONOTONIC, &now);
	until = rt_time_from_ns(rt_time_to_ns(&now) + timeout_ns);
	lock(g);
	while (g->arrived < n && !g->open && err != ETIMEDOUT) {
		err = pthread_cond_timedwait(&g->cond, &g->lock, &until);
		if (err == EOWNERDEAD)
			pthread_mutex_consistent(&g->lock);
	}
	arrived = g->arrived >= n || g->open;
	pthread_mutex_unlock(&g->lock);
	return arrived;
}

void rt_gate_open(struct rt_gate *g)
{
	lock(g);
	g->open = 1;
	pthread_cond_broadcast(&g->cond);
	pthread_mutex_unlock(&g->lock);
}
