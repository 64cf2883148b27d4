// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

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
	w->n = n;
	atomic_store(&w->break_index, -1);
	w->notify_tgid = getpid();
	atomic_store(&w->notify_tid, rt_sched_gettid());
	return 0;
}

void rt_workers_destroy(struct rt_workers *w)
{
	rt_gate_destroy(&w->gate);
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
	pid_t parent = getpid(), pid = fork();

	if (pid < 0)
		return -errno;
	if (pid == 0) {
		/* Die with the parent, even if it is killed with SIGKILL. */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != parent)
			_exit(1);
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

void rt_workers_wait_ready(struct rt_workers *w)
{
	rt_gate_wait_arrived(&w->gate, w->started);
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

int rt_workers_run(struct rt_workers *w, const struct rt_workers_loop *loop)
{
	while (!rt_workers_over(w)) {
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
		sig = rt_signal_wait(loop->signals, wait);
		if (sig == SIGINT || sig == SIGTERM || sig == SIGHUP)
			return sig;
		if (loop->on_wake)
			loop->on_wake(loop->ctx, sig);
	}
	return 0;
}

void rt_workers_stop(struct rt_workers *w, void (*wake)(void *ctx, int i),
		     void (*drain)(void *ctx), void *ctx)
{
	bool pending = true;
	sigset_t done;

	rt_workers_request_stop(w);
	rt_gate_open(&w->gate);
	sigemptyset(&done);
	sigaddset(&done, RT_SIGNAL_DONE);
	while (pending) {
		pending = false;
		for (int i = 0; i < w->n; i++) {
			if (w->slot[i].started && !atomic_load(&w->slot[i].done)) {
				wake(ctx, i);
				pending = true;
			}
		}
		if (pending)
			rt_signal_wait(&done, RT_WORKER_STOP_RETRY_NS);
		if (drain)
			drain(ctx);
	}
	for (int i = 0; i < w->n; i++) {
		struct rt_worker_slot *s = &w->slot[i];

		if (!s->started)
			continue;
		if (s->pid > 0)
			while (waitpid(s->pid, NULL, 0) < 0 && errno == EINTR)
				;
		else
			pthread_join(s->thread, NULL);
		s->started = false;
	}
}
