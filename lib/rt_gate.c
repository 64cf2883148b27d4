// SPDX-License-Identifier: GPL-2.0-or-later
#include "rt_gate.h"

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
	if (!err)
		err = pthread_condattr_setpshared(&ca, pshared);
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
	pthread_mutex_lock(&g->lock);
	g->arrived++;
	pthread_cond_broadcast(&g->cond);
	while (!g->open)
		pthread_cond_wait(&g->cond, &g->lock);
	pthread_mutex_unlock(&g->lock);
}

void rt_gate_wait_arrived(struct rt_gate *g, int n)
{
	pthread_mutex_lock(&g->lock);
	while (g->arrived < n && !g->open)
		pthread_cond_wait(&g->cond, &g->lock);
	pthread_mutex_unlock(&g->lock);
}

void rt_gate_open(struct rt_gate *g)
{
	pthread_mutex_lock(&g->lock);
	g->open = 1;
	pthread_cond_broadcast(&g->cond);
	pthread_mutex_unlock(&g->lock);
}
