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
#include "rt_pairtool.h"
#include "rt_prog.h"
#include "rt_report.h"

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

static const struct rt_pair_mech mutex_mech = {
	.wait = mutex_wait,
	.pass = mutex_pass,
	.wake = mutex_wake,
};

int main(int argc, char *argv[])
{
	struct rt_pairtool_config cfg;
	struct rt_report rep;
	pthread_mutex_t *m;
	pthread_mutexattr_t attr;
	int rc;

	rt_prog_init(argv[0]);
	rt_report_init(&rep, argc, argv); /* before getopt permutes argv */
	rt_pairtool_init(&cfg, "ptsematest",
			 "Measures the latency of handing a POSIX mutex from one thread to\n"
			 "another.");
	cfg.has_smp = true;
	cfg.prio_floor = 1;
	rc = rt_pairtool_parse(&cfg, argc, argv);
	if (rc < 0)
		return rt_prog_close_stdout() ? RT_EXIT_FAILURE : RT_EXIT_OK;
	if (rc)
		return rc;

	m = calloc(2 * (size_t)cfg.pairs, sizeof(*m));
	if (!m) {
		rt_prog_error("out of memory");
		return RT_EXIT_FAILURE;
	}
	pthread_mutexattr_init(&attr);
	pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_NORMAL);
	for (int k = 0; k < 2 * cfg.pairs; k++) {
		pthread_mutex_init(&m[k], &attr);
		pthread_mutex_lock(&m[k]); /* nobody holds a token yet */
	}
	rc = rt_pairtool_run(&cfg, &rep, &mutex_mech, m);
	for (int k = 0; k < 2 * cfg.pairs; k++) {
		pthread_mutex_trylock(&m[k]);
		pthread_mutex_unlock(&m[k]);
		pthread_mutex_destroy(&m[k]);
	}
	pthread_mutexattr_destroy(&attr);
	free(m);
	if (rt_prog_close_stdout() && rc == RT_EXIT_OK)
		rc = RT_EXIT_FAILURE;
	return rc;
}
