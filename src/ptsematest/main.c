// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ptsematest: latency of handing a POSIX mutex from one thread to another,
 * compatible with rt-tests 2.4. The token of participant k is mutex k: it
 * waits by locking it, its predecessor passes by unlocking it. Mutexes are
 * of the NORMAL type, which (on Linux) another thread may unlock, as 2.4
 * relies on.
 */
#include <pthread.h>
#include <stdlib.h>

#include "rt_pair.h"
#include "pairs.h"

static void mutex_wait(struct rt_pair *p, int k)
{
	pthread_mutex_t *m = rt_pair_mech_data(p);

	pthread_mutex_lock(&m[k]);
}

static void mutex_pass(struct rt_pair *p, int from, int to)
{
	pthread_mutex_t *m = rt_pair_mech_data(p);

	(void)from;
	pthread_mutex_unlock(&m[to]);
}

/* Leave mutex k unlocked, so a waiter gets through (or the next lock does). */
static void mutex_wake(struct rt_pair *p, int k)
{
	pthread_mutex_t *m = rt_pair_mech_data(p);

	pthread_mutex_trylock(&m[k]);
	pthread_mutex_unlock(&m[k]);
}

/* Every token starts taken: nobody may pass before the sender's first unlock. */
static void *mutexes_new(const struct pairs_config *cfg, int n)
{
	pthread_mutex_t *m = calloc((size_t)n, sizeof(*m));
	pthread_mutexattr_t attr;

	(void)cfg;
	if (!m)
		return NULL;
	pthread_mutexattr_init(&attr);
	pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_NORMAL);
	for (int k = 0; k < n; k++) {
		pthread_mutex_init(&m[k], &attr);
		pthread_mutex_lock(&m[k]);
	}
	pthread_mutexattr_destroy(&attr);
	return m;
}

static void mutexes_free(void *data, int n)
{
	pthread_mutex_t *m = data;

	for (int k = 0; k < n; k++) {
		pthread_mutex_trylock(&m[k]);
		pthread_mutex_unlock(&m[k]);
		pthread_mutex_destroy(&m[k]);
	}
	free(m);
}

static const struct rt_pair_mech mutex_mech = {
	.wait = mutex_wait,
	.pass = mutex_pass,
	.wake = mutex_wake,
};

static const struct pairs_tool ptsematest = {
	.name = "ptsematest",
	.summary = "Measures the latency of handing a POSIX mutex from one thread to\n"
		   "another.",
	.has_smp = true,
	.prio_floor = 1, /* 2.4: priorities decrease per pair but not below 1 */
	.mech = &mutex_mech,
	.mech_setup = mutexes_new,
	.mech_teardown = mutexes_free,
};

int main(int argc, char *argv[])
{
	return pairs_main(&ptsematest, argc, argv);
}
