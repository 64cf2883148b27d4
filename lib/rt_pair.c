// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "rt_mem.h"
#include "rt_pair.h"
#include "rt_sched.h"
#include "rt_signal.h"
#include "rt_time.h"

#define STACK_PREFAULT_BYTES (64 * 1024)
#define THREAD_STACK_BYTES (256 * 1024)
#define STOP_RETRY_NS (20 * 1000 * 1000LL)

/* Shared with the participants; an anonymous shared mapping survives fork. */
struct rt_pair_shared {
	struct rt_gate gate;
	_Atomic int stop;
	_Atomic int finished;
	_Atomic int break_part;
	_Atomic int64_t break_value;
	pid_t notify_tgid;
	_Atomic pid_t notify_tid;
	_Atomic int ring_done[]; /* one per ring, then the participants */
};

struct rt_pair {
	struct rt_pair_config cfg;
	int n;
	struct rt_pair_shared *sh;
	struct rt_pair_part *parts; /* inside the shared mapping */
	size_t map_bytes;
	pthread_t *threads;
	pid_t *pids;
	bool *started;
};

struct start_arg {
	struct rt_pair *p;
	int k;
};

static bool stopping(const struct rt_pair *p)
{
	return atomic_load_explicit(&p->sh->stop, memory_order_relaxed) != 0;
}

static void sleep_ns(const struct rt_pair *p, int64_t ns)
{
	struct timespec t = rt_time_from_ns(ns);

	while (clock_nanosleep(CLOCK_MONOTONIC, 0, &t, &t) == EINTR && !stopping(p))
		;
}

int rt_pair_count(const struct rt_pair *p)
{
	return p->n;
}

struct rt_pair_part *rt_pair_part(struct rt_pair *p, int k)
{
	return &p->parts[k];
}

void *rt_pair_mech_data(const struct rt_pair *p)
{
	return p->cfg.mech_data;
}

int rt_pair_create(struct rt_pair **out, const struct rt_pair_config *cfg)
{
	struct rt_pair *p;
	size_t head;
	int n = cfg->rings * cfg->ring_size, err;

	if (cfg->rings < 1 || cfg->ring_size < 2 || cfg->starter < 0 ||
	    cfg->starter >= cfg->ring_size || cfg->counter < 0 || cfg->counter >= cfg->ring_size ||
	    !cfg->mech)
		return -EINVAL;
	p = calloc(1, sizeof(*p));
	if (!p)
		return -ENOMEM;
	p->cfg = *cfg;
	p->n = n;
	head = sizeof(*p->sh) + (size_t)cfg->rings * sizeof(p->sh->ring_done[0]);
	head = (head + 63) & ~(size_t)63;
	p->map_bytes = head + (size_t)n * sizeof(*p->parts);
	p->sh = mmap(NULL, p->map_bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	p->threads = calloc((size_t)n, sizeof(*p->threads));
	p->pids = calloc((size_t)n, sizeof(*p->pids));
	p->started = calloc((size_t)n, sizeof(*p->started));
	if (p->sh == MAP_FAILED || !p->threads || !p->pids || !p->started) {
		if (p->sh == MAP_FAILED)
			p->sh = NULL;
		rt_pair_destroy(p);
		return -ENOMEM;
	}
	rt_mem_prefault(p->sh, p->map_bytes);
	p->parts = (struct rt_pair_part *)((char *)p->sh + head);
	atomic_store(&p->sh->break_part, -1);
	err = rt_gate_init(&p->sh->gate, cfg->processes);
	if (err) {
		munmap(p->sh, p->map_bytes);
		p->sh = NULL;
		rt_pair_destroy(p);
		return err;
	}
	for (int k = 0; k < n; k++) {
		struct rt_pair_part *pt = &p->parts[k];

		pt->role.cpu = -1;
		atomic_store(&pt->cur_cpu, -1);
		pt->ran_policy = -1;
		rt_pubstats_init(&pt->latency);
		if (cfg->verbose && (err = rt_ring_init(&pt->samples, cfg->ring_samples))) {
			rt_pair_destroy(p);
			return err;
		}
	}
	*out = p;
	return 0;
}

void rt_pair_destroy(struct rt_pair *p)
{
	if (!p)
		return;
	if (p->sh) {
		for (int k = 0; k < p->n; k++)
			rt_ring_free(&p->parts[k].samples);
		rt_gate_destroy(&p->sh->gate);
		munmap(p->sh, p->map_bytes);
	}
	free(p->threads);
	free(p->pids);
	free(p->started);
	free(p);
}

static void notify_main(struct rt_pair *p)
{
	/* tgkill reaches a thread of another process too (fork mode). */
	syscall(SYS_tgkill, p->sh->notify_tgid, atomic_load(&p->sh->notify_tid), RT_SIGNAL_DONE);
}

static void hit_break(struct rt_pair *p, int k, int64_t value)
{
	int none = -1;

	if (!atomic_compare_exchange_strong(&p->sh->break_part, &none, k))
		return;
	atomic_store(&p->sh->break_value, value);
	if (p->cfg.trace)
		rt_trace_stop(p->cfg.trace);
	atomic_store(&p->sh->stop, 1);
}

/* Own policy, priority and CPU: the same code for threads and processes. */
static int apply_role(struct rt_pair_part *pt)
{
	int err = rt_sched_set(0, pt->role.policy, pt->role.prio);

	if (err) {
		pt->error_what = "sched_setscheduler";
		return err;
	}
	if (pt->role.cpu >= 0) {
		cpu_set_t set;

		CPU_ZERO(&set);
		CPU_SET(pt->role.cpu, &set);
		if (sched_setaffinity(0, sizeof(set), &set) < 0) {
			pt->error_what = "sched_setaffinity";
			return -errno;
		}
	}
	return 0;
}

static void participant(struct rt_pair *p, int k)
{
	const struct rt_pair_config *cfg = &p->cfg;
	struct rt_pair_part *pt = &p->parts[k];
	int ring = k / cfg->ring_size, pos = k % cfg->ring_size;
	int next = ring * cfg->ring_size + (pos + 1) % cfg->ring_size;
	bool token = pos == cfg->starter;
	uint64_t received = 0;
	int err;

	atomic_store(&pt->tid, rt_sched_gettid());
	pt->tgid = getpid();
	err = apply_role(pt);
	if (!err)
		pt->ran_policy = rt_sched_policy_in_force();
	if (!err && cfg->mech->participant_init)
		err = cfg->mech->participant_init(p, k);
	if (err) {
		pt->error = -err;
		if (!pt->error_what)
			pt->error_what = "participant setup";
		atomic_store(&p->sh->stop, 1);
	}
	rt_mem_prefault_stack(STACK_PREFAULT_BYTES);
	rt_gate_arrive(&p->sh->gate);

	while (!stopping(p)) {
		struct timespec now;

		if (!token) {
			cfg->mech->wait(p, k);
			if (stopping(p))
				break;
			if (atomic_load(&p->sh->ring_done[ring])) {
				cfg->mech->pass(p, k, next); /* let the next one see it too */
				break;
			}
			clock_gettime(CLOCK_MONOTONIC, &now);
			atomic_store_explicit(&pt->cur_cpu, sched_getcpu(), memory_order_relaxed);
			received++;
			if (pt->role.records) {
				int64_t us = (rt_time_to_ns(&now) -
					      atomic_load_explicit(&pt->sent_ns, memory_order_acquire)) / 1000;

				rt_pubstats_add(&pt->latency, us);
				if (cfg->verbose)
					rt_ring_push(&pt->samples, pt->latency.stats.count - 1, us);
				if (cfg->break_us && us > cfg->break_us) {
					hit_break(p, k, us);
					break;
				}
				if (pos == cfg->counter && cfg->loops &&
				    pt->latency.stats.count >= cfg->loops) {
					atomic_store(&p->sh->ring_done[ring], 1);
					cfg->mech->pass(p, k, next);
					break;
				}
			}
			if (pt->role.delay_ns)
				sleep_ns(p, pt->role.delay_ns);
			if (pos == cfg->starter && cfg->pause_every && received % cfg->pause_every == 0)
				sleep_ns(p, cfg->pause_ns);
			if (stopping(p))
				break;
		}
		token = false;
		clock_gettime(CLOCK_MONOTONIC, &now);
		atomic_store_explicit(&p->parts[next].sent_ns, rt_time_to_ns(&now),
				      memory_order_release);
		atomic_fetch_add_explicit(&pt->sends, 1, memory_order_relaxed);
		cfg->mech->pass(p, k, next);
	}
	atomic_store(&pt->done, true);
	atomic_fetch_add(&p->sh->finished, 1);
	notify_main(p);
}

static void *thread_main(void *arg)
{
	struct start_arg a = *(struct start_arg *)arg;

	free(arg);
	participant(a.p, a.k);
	return NULL;
}

static int start_one(struct rt_pair *p, int k)
{
	struct start_arg *a;
	int err;

	if (p->cfg.processes) {
		pid_t parent = getpid(), pid = fork();

		if (pid < 0)
			return -errno;
		if (pid == 0) {
			/* Die with the parent, even if it is killed with SIGKILL. */
			prctl(PR_SET_PDEATHSIG, SIGKILL);
			if (getppid() != parent)
				_exit(1);
			participant(p, k);
			_exit(0);
		}
		p->pids[k] = pid;
		return 0;
	}
	a = malloc(sizeof(*a));
	if (!a)
		return -ENOMEM;
	*a = (struct start_arg){ p, k };
	pthread_attr_t attr;
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, THREAD_STACK_BYTES); /* locked memory is precious */
	err = pthread_create(&p->threads[k], &attr, thread_main, a);
	pthread_attr_destroy(&attr);
	if (err) {
		free(a);
		return -err;
	}
	return 0;
}

int rt_pair_start(struct rt_pair *p)
{
	int started = 0, err = 0;

	p->sh->notify_tgid = getpid();
	atomic_store(&p->sh->notify_tid, rt_sched_gettid());
	for (int k = 0; k < p->n && !err; k++) {
		err = start_one(p, k);
		if (!err) {
			p->started[k] = true;
			started++;
		}
	}
	if (err)
		atomic_store(&p->sh->stop, 1);
	rt_gate_wait_arrived(&p->sh->gate, started);
	rt_gate_open(&p->sh->gate);
	return err;
}

bool rt_pair_finished(struct rt_pair *p)
{
	return atomic_load(&p->sh->finished) >= p->n || stopping(p);
}

int rt_pair_break(const struct rt_pair *p, int64_t *value)
{
	int k = atomic_load(&p->sh->break_part);

	if (k >= 0 && value)
		*value = atomic_load(&p->sh->break_value);
	return k;
}

void rt_pair_stop(struct rt_pair *p)
{
	bool pending = true;
	sigset_t done;

	atomic_store(&p->sh->stop, 1);
	rt_gate_open(&p->sh->gate);
	sigemptyset(&done);
	sigaddset(&done, RT_SIGNAL_DONE);
	while (pending) {
		pending = false;
		for (int k = 0; k < p->n; k++) {
			if (p->started[k] && !atomic_load(&p->parts[k].done)) {
				p->cfg.mech->wake(p, k);
				pending = true;
			}
		}
		if (pending)
			rt_signal_wait(&done, STOP_RETRY_NS);
	}
	for (int k = 0; k < p->n; k++) {
		if (!p->started[k])
			continue;
		if (p->cfg.processes)
			while (waitpid(p->pids[k], NULL, 0) < 0 && errno == EINTR)
				;
		else
			pthread_join(p->threads[k], NULL);
		p->started[k] = false;
	}
}

int rt_pair_run(struct rt_pair *p, const sigset_t *signals, int64_t duration_ns,
		int64_t tick_ns, void (*tick)(void *ctx), void *ctx)
{
	struct timespec start;
	int64_t deadline = -1;

	clock_gettime(CLOCK_MONOTONIC, &start);
	if (duration_ns > 0)
		deadline = rt_time_to_ns(&start) + duration_ns;
	while (!rt_pair_finished(p)) {
		struct timespec now;
		int64_t timeout = tick_ns;
		int sig;

		if (deadline >= 0) {
			clock_gettime(CLOCK_MONOTONIC, &now);
			int64_t left = deadline - rt_time_to_ns(&now);
			if (left <= 0)
				return 0;
			if (timeout < 0 || left < timeout)
				timeout = left;
		}
		sig = rt_signal_wait(signals, timeout);
		if (sig == SIGINT || sig == SIGTERM || sig == SIGHUP)
			return sig;
		if (sig == 0 && tick)
			tick(ctx);
	}
	return 0;
}
