// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rt_gate.h"
#include "rt_mem.h"
#include "rt_prog.h"
#include "rt_sched.h"
#include "rt_signal.h"
#include "rt_time.h"

#include "run.h"

#define PROGRESS_WIDTH 70
/* A task needs little stack; with mlockall, 2.4's 8 MiB default was locked per task. */
#define TASK_STACK_BYTES (256 * 1024)

/* What the main thread and the tasks share. */
struct shared {
	struct rt_gate start, end;      /* nr_tasks + 1: the release and the iteration's end */
	_Atomic int stop;               /* set, then start broken: the tasks return */
	int64_t release_ns;             /* written before the release, read after it */
	int64_t iteration;
	int64_t run_ns;
	int nr_tasks;
	struct migrate_result *res;
};

struct task {
	struct shared *sh;
	int id;
	pthread_t thread;
};

static void *task_main(void *arg)
{
	struct task *t = arg;
	struct shared *sh = t->sh;
	struct migrate_result *res = sh->res;
	int prio;

	res->tid[t->id] = rt_sched_gettid();
	if (rt_sched_get(0, &res->policy[t->id], &prio))
		res->policy[t->id] = -1;
	for (;;) {
		struct migrate_sample *s;
		int64_t start_ns, until_ns, now;
		uint64_t loops = 0;

		if (!rt_gate_pass(&sh->start, &sh->stop))
			break;
		start_ns = rt_time_mono_ns();
		until_ns = start_ns + sh->run_ns;
		do {
			loops++;
			now = rt_time_mono_ns();
		} while (now < until_ns);
		s = &res->samples[sh->iteration * sh->nr_tasks + t->id];
		s->start_us = (start_ns - sh->release_ns) / 1000;
		s->end_us = (now - sh->release_ns) / 1000;
		s->loops = loops;
		if (!rt_gate_pass(&sh->end, &sh->stop))
			break;
	}
	return NULL;
}

/* 2.4's bar on stderr: "\r|", 70 spaces, "|\r|", a dash per 1/70 done. */
static void progress(int64_t it, int64_t loops)
{
	int dashes = (int)(it * PROGRESS_WIDTH / loops);

	fprintf(stderr, "\r|%*s|\r|", PROGRESS_WIDTH, "");
	for (int i = 0; i < dashes; i++)
		fputc('-', stderr);
	fflush(stderr);
}

/*
 * Sleep until now + ns (or the -D deadline, when sooner), taking the control
 * signals meanwhile: returns false when the run must stop (res says why).
 */
static bool sleep_watching(const sigset_t *signals, int64_t ns, int64_t deadline_ns,
			   struct migrate_result *res)
{
	int64_t until = rt_time_mono_ns() + ns;

	for (;;) {
		int64_t now = rt_time_mono_ns(), left = until - now;
		int sig;

		if (deadline_ns && deadline_ns - now <= 0) {
			res->duration_over = true;
			return false;
		}
		if (deadline_ns && deadline_ns - now < left)
			left = deadline_ns - now;
		/* at least a look at the pending signals (-s 0) */
		sig = rt_signal_wait(signals, left > 0 ? left : 0);
		if (sig == SIGINT || sig == SIGTERM || sig == SIGHUP) {
			res->stop_signal = sig;
			return false;
		}
		/* a timeout, or a signal without meaning here (SIGUSR1, ...) */
		if (rt_time_mono_ns() - until >= 0)
			return true;
	}
}

static int alloc_result(const struct migrate_config *cfg, struct migrate_result *res)
{
	size_t n = (size_t)cfg->nr_tasks, samples = (size_t)cfg->loops * n;

	memset(res, 0, sizeof(*res));
	res->samples = calloc(samples, sizeof(*res->samples));
	res->prio = calloc(n, sizeof(*res->prio));
	res->tid = calloc(n, sizeof(*res->tid));
	res->policy = calloc(n, sizeof(*res->policy));
	if (!res->samples || !res->prio || !res->tid || !res->policy)
		return -ENOMEM;
	rt_mem_prefault(res->samples, samples * sizeof(*res->samples));
	for (int i = 0; i < cfg->nr_tasks; i++) {
		res->prio[i] = migrate_task_prio(cfg, i);
		res->policy[i] = -1;
	}
	return 0;
}

void migrate_result_free(struct migrate_result *res)
{
	free(res->samples);
	free(res->prio);
	free(res->tid);
	free(res->policy);
	memset(res, 0, sizeof(*res));
}

/* Start the tasks; *started says how many run, also on failure. */
static int start_tasks(const struct migrate_config *cfg, struct shared *sh, struct task *tasks,
		       int *started)
{
	for (int i = 0; i < cfg->nr_tasks; i++) {
		struct sched_param sp = { .sched_priority = migrate_task_prio(cfg, i) };
		pthread_attr_t attr;
		int err;

		tasks[i] = (struct task){ .sh = sh, .id = i };
		if ((err = pthread_attr_init(&attr)))
			return -err;
		err = pthread_attr_setstacksize(&attr, TASK_STACK_BYTES);
		if (!err)
			err = pthread_attr_setinheritsched(&attr, PTHREAD_EXPLICIT_SCHED);
		if (!err)
			err = pthread_attr_setschedpolicy(&attr, SCHED_FIFO);
		if (!err)
			err = pthread_attr_setschedparam(&attr, &sp);
		if (!err)
			err = pthread_create(&tasks[i].thread, &attr, task_main, &tasks[i]);
		pthread_attr_destroy(&attr);
		if (err) {
			rt_prog_error_errno(err, "cannot start task %d at SCHED_FIFO %d", i,
					    sp.sched_priority);
			return -err;
		}
		*started = i + 1;
	}
	return 0;
}

/* The tasks waiting at the start (or coming to it) see stop and return. */
static void end_tasks(struct shared *sh, struct task *tasks, int started)
{
	atomic_store(&sh->stop, 1);
	rt_gate_break(&sh->start);
	rt_gate_break(&sh->end);
	for (int i = 0; i < started; i++)
		pthread_join(tasks[i].thread, NULL);
	rt_gate_destroy(&sh->start);
	rt_gate_destroy(&sh->end);
	free(sh);
	free(tasks);
}

/* The iterations; returns when done, stopped or -c caught a task. */
static void iterate(const struct migrate_config *cfg, const sigset_t *signals,
		    struct shared *sh, struct migrate_result *res)
{
	int64_t sleep_ns = cfg->sleep_time_ms * 1000000;
	int64_t deadline_ns = 0; /* none */

	if (cfg->duration_s)
		deadline_ns = rt_time_mono_ns() + (int64_t)cfg->duration_s * RT_NSEC_PER_SEC;
	for (int64_t it = 0; it < cfg->loops; it++) {
		bool go_on;

		if (!cfg->quiet)
			progress(it, cfg->loops);
		if (!sleep_watching(signals, sleep_ns, deadline_ns, res))
			return;
		sh->iteration = it;
		sh->release_ns = rt_time_mono_ns();
		rt_gate_pass(&sh->start, &sh->stop);
		/* 2.4 sleeps as long again while the tasks run: a stop waits for them */
		go_on = sleep_watching(signals, sleep_ns, deadline_ns, res);
		rt_gate_pass(&sh->end, &sh->stop);
		res->iterations = it + 1;
		if (cfg->check &&
		    !migrate_check_iteration(&res->samples[it * cfg->nr_tasks], res->prio,
					     cfg->nr_tasks, cfg->maxerr_us, it, &res->error)) {
			res->out_of_order = true;
			return;
		}
		if (!go_on)
			return;
	}
}

int migrate_run(const struct migrate_config *cfg, const sigset_t *signals,
		struct migrate_result *res)
{
	struct shared *sh = calloc(1, sizeof(*sh));
	struct task *tasks = calloc((size_t)cfg->nr_tasks, sizeof(*tasks));
	int err, started = 0, main_prio = migrate_task_prio(cfg, cfg->nr_tasks);

	if (!sh || !tasks || alloc_result(cfg, res)) {
		rt_prog_error_errno(ENOMEM, "cannot allocate %lld x %d samples",
				    (long long)cfg->loops, cfg->nr_tasks);
		free(sh);
		free(tasks);
		return RT_EXIT_FAILURE;
	}
	*sh = (struct shared){ .nr_tasks = cfg->nr_tasks, .res = res,
			       .run_ns = cfg->run_time_ms * 1000000 };
	if ((err = rt_sched_set(0, SCHED_FIFO, main_prio))) {
		rt_prog_error_errno(-err, "cannot set the main thread to SCHED_FIFO %d", main_prio);
		free(sh);
		free(tasks);
		return RT_EXIT_FAILURE;
	}
	if ((err = rt_gate_init_cyclic(&sh->start, (unsigned)cfg->nr_tasks + 1, false)) ||
	    (err = rt_gate_init_cyclic(&sh->end, (unsigned)cfg->nr_tasks + 1, false))) {
		rt_prog_error_errno(-err, "cannot create the barriers");
		free(sh);
		free(tasks);
		return RT_EXIT_FAILURE;
	}
	if (start_tasks(cfg, sh, tasks, &started)) {
		/* the tasks started wait at a start that will never fill: break it */
		end_tasks(sh, tasks, started);
		return RT_EXIT_FAILURE;
	}
	iterate(cfg, signals, sh, res);
	if (!cfg->quiet)
		fputc('\n', stderr);
	/* the last release: every task sees stop and returns */
	end_tasks(sh, tasks, started);
	return RT_EXIT_OK;
}
