// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A cyclictest run's measurement threads: allocated, created with their
 * policy, priority and CPU, given their common start, stopped and joined.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "rt_cyclic_threads.h"

#include "rt_affinity.h"
#include "rt_prog.h"
#include "rt_sched.h"
#include "rt_signal.h"
#include "rt_smi.h"
#include "rt_time.h"

#include "rt_cyclic_report.h"

int ct_read_smi(int cpu, uint64_t *count)
{
	char path[64];
	int fd, err;

	snprintf(path, sizeof(path), "/dev/cpu/%d/msr", cpu);
	fd = rt_smi_open(path);
	if (fd < 0)
		return fd;
	err = rt_smi_read(fd, count);
	close(fd);
	return err;
}

int ct_alloc_threads(struct ct_ctx *c)
{
	const struct cyclictest_config *cfg = c->cfg;
	struct ct_run *run = &c->run;
	size_t bytes = (size_t)cfg->threads * sizeof(*run->threads);
	void *mem;
	int err;

	run->nthreads = cfg->threads;
	if (posix_memalign(&mem, RT_CACHELINE, bytes))
		return -ENOMEM;
	run->threads = memset(mem, 0, bytes);
	if ((err = rt_workers_new(&run->workers, cfg->threads)))
		return err;
	for (int i = 0; i < cfg->threads; i++) {
		struct ct_thread *t = &run->threads[i];

		t->index = i;
		t->cfg = cfg;
		t->run = run;
		t->policy = cfg->policy;
		t->prio = cyclictest_thread_priority(cfg, i);
		t->interval_ns = cyclictest_thread_interval_us(cfg, i) * 1000;
		t->runtime_ns = cyclictest_thread_interval_us(cfg, i) * cfg->deadline_runtime_pct /
				100 * 1000;
		t->cpu = cfg->affinity ? rt_affinity_cpu_for(&cfg->affinity_cpus, (unsigned)i) : -1;
		t->ring_cap = RT_RING_VERBOSE_SAMPLES;
		if (cfg->loops && cfg->loops < t->ring_cap)
			t->ring_cap = cfg->loops; /* never more than the run takes */
		rt_worker_state_init(&t->ws);
	}
	return 0;
}

/* After the join: the buffers the threads allocated. */
void ct_free_threads(struct ct_run *run)
{
	if (run->threads) {
		for (int i = 0; i < run->nthreads; i++) {
			rt_worker_state_free(&run->threads[i].ws);
			free(run->threads[i].spikes);
		}
		free(run->threads);
		run->threads = NULL;
	}
	rt_workers_free(&run->workers);
}

static int create_thread(struct ct_thread *t)
{
	struct sched_param sp = { .sched_priority = t->prio };
	pthread_attr_t attr;
	cpu_set_t set;
	int err;

	if ((err = rt_workers_attr_init(&attr)))
		return err;
	pthread_attr_setinheritsched(&attr, PTHREAD_EXPLICIT_SCHED);
	/* batch and idle are not pthread attributes: the thread sets them itself. */
	if (pthread_attr_setschedpolicy(&attr, rt_sched_policy_is_rt(t->policy) ? t->policy
										: SCHED_OTHER) ||
	    pthread_attr_setschedparam(&attr, &sp)) {
		pthread_attr_destroy(&attr);
		return -EINVAL;
	}
	if (t->cpu >= 0) {
		CPU_ZERO(&set);
		CPU_SET(t->cpu, &set);
		pthread_attr_setaffinity_np(&attr, sizeof(set), &set);
	}
	err = rt_workers_spawn_thread(t->run->workers, t->index, &attr, cyclictest_measure, t);
	pthread_attr_destroy(&attr);
	return err;
}

int ct_start_threads(struct ct_ctx *c)
{
	const struct cyclictest_config *cfg = c->cfg;
	struct ct_run *run = &c->run;
	char why[512];
	int err;

	for (int i = 0; i < run->nthreads; i++) {
		struct ct_thread *t = &run->threads[i];

		if (cfg->smi)
			ct_read_smi(t->cpu, &t->smi_start);
		err = create_thread(t);
		if (err == -EPERM) {
			rt_sched_explain_eperm(t->policy, t->prio, why, sizeof(why));
			rt_prog_error("thread %d: %s", i, why);
			return RT_EXIT_FAILURE;
		}
		if (err) {
			rt_prog_error_errno(-err, "cannot start measurement thread %d", i);
			return RT_EXIT_FAILURE;
		}
	}
	return 0;
}

/*
 * The common start for -A / --secaligned, taken once all threads wait, and
 * the end of a -D run counted from it.
 */
void ct_set_start(struct ct_ctx *c)
{
	const struct cyclictest_config *cfg = c->cfg;
	struct timespec *ts = &c->run.start_ts;

	clock_gettime(cfg->clock, ts);
	if (cfg->secaligned_us >= 0) {
		/* Next full second, or the one after if it is under 100 ms away. */
		ts->tv_sec += ts->tv_nsec > 900 * 1000 * 1000 ? 2 : 1;
		ts->tv_nsec = 0;
		rt_time_add_ns(ts, cfg->secaligned_us * 1000);
	}
	/* --warmup comes first; -D counts the measured time after it. */
	c->run.has_warmup = cfg->results.warmup_s > 0;
	c->run.warm_end_ts = *ts;
	rt_time_add_ns(&c->run.warm_end_ts, (int64_t)cfg->results.warmup_s * RT_NSEC_PER_SEC);
	c->run.has_end = cfg->duration_s > 0;
	c->run.end_ts = c->run.warm_end_ts;
	rt_time_add_ns(&c->run.end_ts, (int64_t)cfg->duration_s * RT_NSEC_PER_SEC);
}

static void wake_thread(void *ctx, int i)
{
	struct ct_ctx *c = ctx;
	int sig = c->cfg->timer == CT_TIMER_POSIX ? RT_SIGNAL_TIMER : RT_SIGNAL_WAKE;

	pthread_kill(c->run.workers->slot[i].thread, sig);
}

static void drain_samples(void *ctx)
{
	struct ct_ctx *c = ctx;

	if (c->cfg->verbose)
		cyclictest_print_samples(stdout, &c->run);
}

/* Stop every thread and join it; re-wake the ones that missed the signal. */
void ct_stop_threads(struct ct_ctx *c)
{
	rt_workers_stop(c->run.workers, wake_thread, drain_samples, c);
}
