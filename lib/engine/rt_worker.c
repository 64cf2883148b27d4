// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "rt_reaper.h"
#include "rt_sched.h"
#include "rt_signal.h"
#include "rt_time.h"
#include "rt_worker.h"

size_t rt_workers_size(int n)
{
	return sizeof(struct rt_workers) + (size_t)(n > 0 ? n : 0) * sizeof(struct rt_worker_slot);
}

int rt_workers_init(struct rt_workers *w, int n, bool shared)
{
	int err;

	if (n < 1)
		return -EINVAL;
	memset(w, 0, rt_workers_size(n));
	err = rt_gate_init(&w->gate, shared);
	if (err)
		return err;
	if ((err = rt_gate_init(&w->leave, shared))) {
		rt_gate_destroy(&w->gate);
		return err;
	}
	w->n = n;
	w->processes = shared;
	atomic_store(&w->break_index, -1);
	w->notify_tgid = getpid();
	atomic_store(&w->notify_tid, rt_sched_gettid());
	return 0;
}

void rt_workers_destroy(struct rt_workers *w)
{
	rt_gate_destroy(&w->gate);
	rt_gate_destroy(&w->leave);
}

int rt_workers_new(struct rt_workers **out, int n)
{
	struct rt_workers *w = malloc(rt_workers_size(n));
	int err;

	*out = NULL;
	if (!w)
		return -ENOMEM;
	if ((err = rt_workers_init(w, n, false))) {
		free(w);
		return err;
	}
	*out = w;
	return 0;
}

void rt_workers_free(struct rt_workers **w)
{
	if (!*w)
		return;
	rt_workers_destroy(*w);
	free(*w);
	*w = NULL;
}

int rt_workers_attr_init(pthread_attr_t *attr)
{
	int err = pthread_attr_init(attr);

	if (!err)
		err = pthread_attr_setstacksize(attr, RT_WORKER_STACK_BYTES);
	return -err;
}

int rt_workers_spawn_thread(struct rt_workers *w, int i, const pthread_attr_t *attr,
			    void *(*fn)(void *), void *arg)
{
	pthread_attr_t own;
	int err;

	if (!attr) {
		if ((err = rt_workers_attr_init(&own)))
			return err;
		attr = &own;
	}
	err = pthread_create(&w->slot[i].thread, attr, fn, arg);
	if (attr == &own)
		pthread_attr_destroy(&own);
	if (err)
		return -err;
	w->slot[i].started = true;
	w->started++;
	return 0;
}

int rt_workers_spawn_process(struct rt_workers *w, int i, void (*fn)(void *), void *arg)
{
	/* the one reaper's fork: the child dies with the parent, even one killed by SIGKILL */
	pid_t pid = rt_reaper_fork_one();

	if (pid < 0)
		return pid;
	if (pid == 0) {
		fn(arg);
		_exit(0);
	}
	w->slot[i].pid = pid;
	w->slot[i].started = true;
	w->started++;
	return 0;
}

void rt_workers_arrive(struct rt_workers *w)
{
	rt_gate_arrive(&w->gate);
}

void rt_workers_finish(struct rt_workers *w, int i)
{
	atomic_store(&w->slot[i].done, true);
	atomic_fetch_add(&w->finished, 1);
	/* tgkill reaches the main thread from a forked process too. */
	syscall(SYS_tgkill, w->notify_tgid, atomic_load(&w->notify_tid), RT_SIGNAL_DONE);
	rt_gate_arrive(&w->leave);
}

bool rt_workers_claim_break(struct rt_workers *w, int i, int64_t value)
{
	int none = -1;

	if (!atomic_compare_exchange_strong(&w->break_index, &none, i))
		return false;
	atomic_store(&w->break_value, value);
	return true;
}

void rt_workers_request_stop(struct rt_workers *w)
{
	atomic_store(&w->stop, 1);
}

/* Fork mode: process i is seen dead (by rt_reaper_peek or rt_reaper_reap). */
static void note_end(struct rt_worker_slot *s, int code, int status)
{
	s->ended = true;
	s->exit.pid = s->pid;
	s->exit.code = code;
	s->exit.status = status;
	s->exit.in_loop = !atomic_load(&s->done);
	s->failed = s->exit.stop_killed || s->exit.in_loop || code != CLD_EXITED || status != 0;
}

int rt_workers_check_dead(struct rt_workers *w)
{
	int failed = 0;

	for (int i = 0; i < w->n; i++) {
		struct rt_worker_slot *s = &w->slot[i];
		struct rt_reaper_child c;

		if (!s->started || s->pid <= 0)
			continue;
		/* the zombie keeps its pid, so nobody's wake can reach another
		 * process that reuses it before the stop is over */
		if (!s->ended && rt_reaper_peek(s->pid, &c) == 1)
			note_end(s, c.code, c.status);
		failed += s->failed;
	}
	if (failed)
		rt_workers_request_stop(w);
	return failed;
}

bool rt_workers_failed(const struct rt_workers *w, int i, struct rt_worker_exit *how)
{
	if (i < 0 || i >= w->n || !w->slot[i].failed)
		return false;
	if (how)
		*how = w->slot[i].exit;
	return true;
}

void rt_workers_wait_ready(struct rt_workers *w)
{
	if (!w->processes) {
		rt_gate_wait_arrived(&w->gate, w->started);
		return;
	}
	/* A process that dies before it arrives would keep the gate shut. */
	while (!rt_gate_wait_arrived_for(&w->gate, w->started, RT_WORKER_DEAD_POLL_NS))
		if (rt_workers_check_dead(w))
			return;
}

void rt_workers_open(struct rt_workers *w)
{
	rt_gate_open(&w->gate);
}

int rt_workers_break(const struct rt_workers *w, int64_t *value)
{
	int i = atomic_load(&w->break_index);

	if (i >= 0 && value)
		*value = atomic_load(&w->break_value);
	return i;
}

bool rt_workers_over(const struct rt_workers *w)
{
	return atomic_load(&w->finished) >= w->started || rt_workers_stopping(w);
}

static int64_t clock_now_ns(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return rt_time_to_ns(&ts);
}

/* rt_signal_wait, but in fork mode looking for dead processes meanwhile. */
static int wait_watching(struct rt_workers *w, const sigset_t *set, int64_t wait_ns)
{
	int64_t end;

	if (!w->processes)
		return rt_signal_wait(set, wait_ns);
	end = wait_ns >= 0 ? clock_now_ns(CLOCK_MONOTONIC) + wait_ns : -1;
	for (;;) {
		int64_t chunk = RT_WORKER_DEAD_POLL_NS, now;
		int sig;

		if (end >= 0) {
			now = clock_now_ns(CLOCK_MONOTONIC);
			if (now >= end)
				return 0;
			if (end - now < chunk)
				chunk = end - now;
		}
		sig = rt_signal_wait(set, chunk);
		if (sig != 0 || rt_workers_check_dead(w))
			return sig;
	}
}

int rt_workers_run(struct rt_workers *w, const struct rt_workers_loop *loop)
{
	while (!rt_workers_over(w) && !(w->processes && rt_workers_check_dead(w))) {
		int64_t wait = loop->tick_ns;
		int sig;

		if (loop->next_wait)
			wait = loop->next_wait(loop->ctx, wait);
		if (loop->deadline_ns >= 0) {
			int64_t left = loop->deadline_ns - clock_now_ns(loop->clock);

			if (left <= 0)
				return 0;
			if (wait < 0 || left < wait)
				wait = left;
		}
		sig = wait_watching(w, loop->signals, wait);
		if (sig == SIGINT || sig == SIGTERM || sig == SIGHUP)
			return sig;
		if (loop->on_wake)
			loop->on_wake(loop->ctx, sig);
	}
	return 0;
}

/* Still in its loop: to be woken (a dead process is not). */
static bool in_loop(const struct rt_worker_slot *s)
{
	return s->started && !atomic_load(&s->done) && !s->ended;
}

/* Fork mode: kill the processes still in their loops long after the stop. */
static void kill_late(struct rt_workers *w)
{
	for (int i = 0; i < w->n; i++) {
		struct rt_worker_slot *s = &w->slot[i];

		if (s->pid > 0 && in_loop(s) && !s->exit.stop_killed) {
			s->exit.stop_killed = true;
			kill(s->pid, SIGKILL);
		}
	}
}

static void reap(struct rt_worker_slot *s)
{
	struct rt_reaper_child c;

	if (rt_reaper_reap(s->pid, &c) == 0 && !s->ended)
		note_end(s, c.code, c.status);
}

void rt_workers_stop(struct rt_workers *w, void (*wake)(void *ctx, int i),
		     void (*drain)(void *ctx), void *ctx)
{
	int64_t kill_at = clock_now_ns(CLOCK_MONOTONIC) + RT_WORKER_STOP_KILL_NS;
	bool pending = true;
	sigset_t done;

	rt_workers_request_stop(w);
	rt_gate_open(&w->gate);
	rt_gate_open(&w->leave);
	sigemptyset(&done);
	sigaddset(&done, RT_SIGNAL_DONE);
	while (pending) {
		if (w->processes)
			rt_workers_check_dead(w);
		pending = false;
		for (int i = 0; i < w->n; i++) {
			if (in_loop(&w->slot[i])) {
				wake(ctx, i);
				pending = true;
			}
		}
		if (pending && w->processes && clock_now_ns(CLOCK_MONOTONIC) >= kill_at)
			kill_late(w);
		if (pending)
			rt_signal_wait(&done, RT_WORKER_STOP_RETRY_NS);
		if (drain)
			drain(ctx);
	}
	for (int i = 0; i < w->n; i++) {
		struct rt_worker_slot *s = &w->slot[i];

		if (!s->started)
			continue;
		if (s->pid > 0 && !s->reaped)
			reap(s);
		else if (s->pid <= 0)
			pthread_join(s->thread, NULL);
		s->reaped = s->pid > 0;
		s->started = false;
	}
}
