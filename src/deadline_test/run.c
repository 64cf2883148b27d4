// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "rt_affinity.h"
#include "rt_deadline.h"
#include "rt_gate.h"
#include "rt_mem.h"
#include "rt_prog.h"
#include "rt_sched.h"
#include "rt_signal.h"
#include "rt_time.h"

#include "explain.h"
#include "rt_hrtick.h"
#include "run.h"

#define CALIBRATION_LOOPS 100000ULL
#define MAX_SETUP_RETRIES 1000

/*
 * The threads arrive at the gate once set up; main checks them, then opens
 * it. Times are lib's CLOCK_MONOTONIC in us (2.4's unit).
 */
struct dl_shared {
	struct rt_gate gate;
	atomic_bool abort;
	atomic_bool stop;
};


/* The work: trial division in search of primes, `loops` divisions. Returns us taken. */
static uint64_t run_loops(struct dl_stats *st, uint64_t loops)
{
	uint64_t start = (uint64_t)rt_time_mono_us(), candidate = st->prime, divisor = 2;

	for (uint64_t i = 0; i < loops; i++) {
		if (divisor > candidate / 2) {
			st->prime = candidate; /* no divisor found: a prime */
			candidate++;
			divisor = 2;
		}
		if (candidate % divisor == 0) {
			candidate++;
			divisor = 2;
		} else {
			divisor++;
		}
	}
	__asm__ __volatile__("" ::: "memory");
	return (uint64_t)rt_time_mono_us() - start;
}

/*
 * One period: the work, and how it went against the period that began at
 * period_us. Returns when the next period begins.
 */
static uint64_t run_period(struct dl_stats *st, uint64_t period_us)
{
	uint64_t next = period_us + st->deadline_us, start = (uint64_t)rt_time_mono_us(), end, took;

	if (start > next) {
		while (next < start) {
			next += st->deadline_us;
			st->missed_periods++;
		}
	} else if (start < period_us) {
		/* woken before the period we expected: that is where it begins */
		st->total_adjust_us += period_us - start;
		st->nr_adjust++;
		next = start + st->deadline_us;
	}
	st->last_loops_us = run_loops(st, st->loops);
	end = (uint64_t)rt_time_mono_us();
	if (end > next) {
		st->missed_deadlines++;
		next += st->deadline_us;
	}
	took = end - start;
	if (took > st->max_time_us)
		st->max_time_us = took;
	if (!st->min_time_us || took < st->min_time_us)
		st->min_time_us = took;
	st->total_time_us += took;
	st->nr_periods++;
	return next;
}

static void sleep_us(uint64_t us)
{
	struct timespec ts = { .tv_sec = (time_t)(us / 1000000), .tv_nsec = (long)(us % 1000000) * 1000 };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/* 2.4's calibration, its five lines included. */
static void calibrate(struct dl_calibration *cal)
{
	struct dl_stats st = { .prime = 2 };
	uint64_t t, start, total, loops, first;

	sleep_us(1000);
	t = run_loops(&st, CALIBRATION_LOOPS);
	st.deadline_us = 2 * (t ? t : 1);
	st.loops = CALIBRATION_LOOPS;
	sleep_us(1000);
	start = (uint64_t)rt_time_mono_us();
	run_period(&st, start + st.deadline_us);
	total = (uint64_t)rt_time_mono_us() - start;
	loops = 1000ULL * CALIBRATION_LOOPS / (st.last_loops_us ? st.last_loops_us : 1);
	printf("%llu test loops took %" PRIu64 "us total (%" PRIu64 " internal)\n"
	       "calculated loops for 1000us=%" PRIu64 "\n", CALIBRATION_LOOPS, total,
	       st.last_loops_us, loops);
	first = loops;
	st.deadline_us = 2000;
	st.loops = loops;
	sleep_us(1000);
	start = (uint64_t)rt_time_mono_us();
	run_period(&st, start + st.deadline_us);
	total = (uint64_t)rt_time_mono_us() - start;
	loops = 1000ULL * loops / (st.last_loops_us ? st.last_loops_us : 1);
	cal->overhead_us = total > st.last_loops_us ? total - st.last_loops_us : 0;
	cal->loops_per_ms = loops ? loops : 1;
	printf("%" PRIu64 " test loops took %" PRIu64 "us total (%" PRIu64 " internal)\n"
	       "New calculated loops for 1000us=%" PRIu64 "\n"
	       "Diff from last calculation: %" PRId64 " loops\n", first, total, st.last_loops_us,
	       loops, (int64_t)(loops - first));
}

static void print_setup(const struct deadline_test_config *cfg, const struct dl_result *res)
{
	printf("Setup:\n percent per task:%d", res->percent_per_task);
	if (cfg->run_percent < 100)
		printf(" run-percent:%d", cfg->run_percent);
	printf(" nr_cpus:%u", res->nr_cpus);
	if (cfg->cpus_arg)
		printf(" (%s)", cfg->cpus_arg);
	else if (cfg->bind_last)
		printf(" (%s)", res->cpus_text);
	printf(" loops:%" PRIu64 " overhead:%" PRIu64 "us\n", res->cal.loops_per_ms,
	       res->cal.overhead_us);
}

/*
 * Runtimes below 2 ms: HRTICK_DL on for the run, guarded (put back even
 * when the process is killed). Still one thread here: the guard forks.
 */
static void need_hrtick(struct dl_result *res, struct rt_hrtick *hr)
{
	enum rt_hrtick_state st;
	int err = rt_hrtick_enable(hr, &st);

	if (err) {
		res->hrtick = DL_HRTICK_UNAVAILABLE;
		rt_prog_error_errno(-err, "warning: runtimes below 2000 us need HRTICK_DL in "
				    "debugfs sched/features, which cannot be enabled here: the "
				    "kernel enforces them at tick granularity");
		return;
	}
	res->hrtick = st == RT_HRTICK_WAS_ON ? DL_HRTICK_ON : DL_HRTICK_ENABLED;
	if (st == RT_HRTICK_SWITCHED_ON && (err = rt_hrtick_guard(hr)))
		rt_prog_error_errno(-err, "warning: no guard for HRTICK_DL: if deadline_test is "
				    "killed, write %s to %s", hr->restore, hr->path);
}

/*
 * Each thread's runtime and loops, each tried once at SCHED_FIFO 99: a try
 * that overran the runtime raises the overhead and starts again (from the
 * first interval: 2.4 kept the shifted one). 0 or RT_EXIT_FAILURE.
 */
static int plan_threads(const struct deadline_test_config *cfg, struct dl_result *res,
			struct rt_hrtick *hr)
{
	int retries = 0;

again:
	for (int i = 0; i < res->nthreads; i++) {
		struct dl_thread *t = &res->threads[i];
		uint64_t interval = cfg->interval_us + (uint64_t)i * cfg->step_us;
		uint64_t runtime = interval * (uint64_t)res->percent_per_task / 100, start, took;

		if (runtime < res->cal.overhead_us || runtime == 0) {
			fprintf(stderr, "Run time too short: %" PRIu64 " us\n", runtime);
			fprintf(stderr, "Read context takes %" PRIu64 " us\n", res->cal.overhead_us);
			return RT_EXIT_FAILURE;
		}
		if (runtime < 2000 && res->hrtick == DL_HRTICK_NOT_NEEDED)
			need_hrtick(res, hr);
		memset(&t->st, 0, sizeof(t->st));
		t->index = i;
		t->runtime_us = runtime;
		t->st.prime = 2;
		t->st.deadline_us = interval;
		t->st.loops = (runtime - res->cal.overhead_us) * (uint64_t)cfg->run_percent / 100 *
			      res->cal.loops_per_ms / 1000;
		if (cfg->run_percent > 100)
			continue; /* an overrun asked for: nothing to try */
		start = (uint64_t)rt_time_mono_us();
		run_period(&t->st, start);
		took = (uint64_t)rt_time_mono_us() - start;
		if (took > runtime) {
			printf("Failed to perform task within runtime: Missed by %" PRIu64 " us\n",
			       took - runtime);
			res->cal.overhead_us += took - runtime;
			printf("New overhead=%" PRIu64 "us\n", res->cal.overhead_us);
			if (++retries > MAX_SETUP_RETRIES) {
				rt_prog_error("the work overran its runtime in %d tries: the machine is "
					      "too busy", retries);
				return RT_EXIT_FAILURE;
			}
			goto again;
		}
		printf("  Tested at %" PRIu64 "us of %" PRIu64 "us\n", took, runtime);
	}
	for (int i = 0; i < res->nthreads; i++) {
		/* the try's numbers are not the run's */
		struct dl_stats *st = &res->threads[i].st;
		uint64_t deadline = st->deadline_us, loops = st->loops;

		memset(st, 0, sizeof(*st));
		st->deadline_us = deadline;
		st->loops = loops;
		st->prime = 2;
	}
	return 0;
}

static void read_ctx_switches(struct dl_thread *t)
{
	char path[64], line[256];
	FILE *f;

	t->vol = t->nonvol = t->migrate = -1;
	snprintf(path, sizeof(path), "/proc/thread-self/sched");
	if (!(f = fopen(path, "re")))
		return;
	while (fgets(line, sizeof(line), f)) {
		int v;

		if (sscanf(line, "nr_voluntary_switches : %d", &v) == 1)
			t->vol = v;
		else if (sscanf(line, "nr_involuntary_switches : %d", &v) == 1)
			t->nonvol = v;
		else if (sscanf(line, "se.nr_migrations : %d", &v) == 1)
			t->migrate = v;
	}
	fclose(f);
}

static void *deadline_thread(void *arg)
{
	struct dl_thread *t = arg;
	struct dl_shared *sh = t->shared;
	struct rt_deadline_params p = {
		.runtime_ns = t->runtime_us * 1000,
		.deadline_ns = t->st.deadline_us * 1000,
	};
	struct rt_deadline_params got;
	uint64_t period;

	t->tid = rt_sched_gettid();
	t->policy = -1;
	rt_mem_prefault_stack(64 * 1024);
	if (t->cfg->cpus.count &&
	    (t->setup_err = rt_affinity_pin_thread_list(pthread_self(), &t->cfg->cpus)))
		t->pin_failed = true;
	else
		t->setup_err = rt_deadline_set(0, &p);
	if (!t->setup_err && rt_deadline_get(0, &t->policy, &got))
		t->policy = -1;
	rt_gate_arrive(&sh->gate);
	if (atomic_load(&sh->abort)) {
		if (!t->setup_err)
			rt_deadline_clear(0);
		return NULL;
	}
	sched_yield();
	period = (uint64_t)rt_time_mono_us();
	while (!atomic_load_explicit(&sh->stop, memory_order_relaxed)) {
		period = run_period(&t->st, period);
		sched_yield(); /* the rest of the runtime back: wait for the next period */
	}
	read_ctx_switches(t);
	rt_deadline_clear(0);
	return NULL;
}

static void *rt_spinner(void *arg)
{
	struct dl_shared *sh = arg;

	rt_gate_arrive(&sh->gate);
	while (!atomic_load_explicit(&sh->stop, memory_order_relaxed) && !atomic_load(&sh->abort))
		(void)(uint64_t)rt_time_mono_us();
	return NULL;
}

/* -D's end, or a signal; -D 0: only a signal. */
static void wait_for_end(const struct deadline_test_config *cfg, const sigset_t *signals,
			 struct dl_result *res)
{
	int64_t end = res->start_ns + (int64_t)(cfg->duration_s * RT_NSEC_PER_SEC);

	for (;;) {
		int64_t left = cfg->duration_s ? end - rt_time_mono_ns() : RT_NSEC_PER_SEC;
		int sig;

		if (left <= 0) {
			res->duration_over = true;
			return;
		}
		sig = rt_signal_wait(signals, left);
		if (sig == SIGINT || sig == SIGTERM || sig == SIGHUP) {
			res->stop_signal = sig;
			return;
		}
	}
}

static void choose_cpus(const struct deadline_test_config *cfg, const struct rt_cpulist *allowed,
			struct dl_result *res, struct deadline_test_config *eff)
{
	*eff = *cfg;
	if (cfg->bind_last) {
		eff->cpus.count = 1;
		eff->cpus.cpu[0] = allowed->cpu[allowed->count - 1];
	}
	if (eff->cpus.count) {
		res->nr_cpus = eff->cpus.count;
		rt_affinity_format(&eff->cpus, res->cpus_text, sizeof(res->cpus_text));
	} else {
		res->nr_cpus = allowed->count;
		rt_affinity_format(allowed, res->cpus_text, sizeof(res->cpus_text));
	}
	/* every CPU this process may use: nothing to pin */
	if (eff->cpus.count == allowed->count)
		eff->cpus.count = 0;
}

/* The -r spinner, with main above it as 2.4 does: 0 or a negative errno. */
static int start_spinner(const struct deadline_test_config *cfg, struct dl_shared *sh,
			 pthread_t *tid)
{
	struct sched_param sp = { .sched_priority = cfg->rt_prio };
	pthread_attr_t a;
	int err;

	if ((err = rt_sched_set(0, SCHED_FIFO, cfg->rt_prio + 1)))
		return err;
	if ((err = -pthread_attr_init(&a)))
		return err;
	if (!(err = -pthread_attr_setinheritsched(&a, PTHREAD_EXPLICIT_SCHED)) &&
	    !(err = -pthread_attr_setschedpolicy(&a, SCHED_FIFO)) &&
	    !(err = -pthread_attr_setschedparam(&a, &sp)))
		err = -pthread_create(tid, &a, rt_spinner, sh);
	pthread_attr_destroy(&a);
	return err;
}

/* Every thread arrived: any that could not be set up ends the run (explained). 0 or 1. */
static int check_setup(const struct deadline_test_config *cfg, struct dl_result *res)
{
	for (int i = 0; i < res->nthreads; i++)
		if (res->threads[i].setup_err) {
			deadline_test_explain(cfg, res, &res->threads[i]);
			return RT_EXIT_FAILURE;
		}
	for (int i = 0; i < res->nthreads; i++)
		printf("deadline thread %d\n", (int)res->threads[i].tid);
	for (int i = res->nthreads - 1; i >= 0; i--)
		printf("thread[%d] runtime=%" PRIu64 "us deadline=%" PRIu64 "us loops=%" PRIu64 "\n",
		       (int)res->threads[i].tid, res->threads[i].runtime_us,
		       res->threads[i].st.deadline_us, res->threads[i].st.loops);
	fflush(stdout);
	res->started = true;
	return 0;
}

/* Create the threads (tids[n] the spinner); *created says how many run. 0 or 1. */
static int create_threads(const struct deadline_test_config *cfg, struct dl_result *res,
			  struct dl_shared *sh, pthread_t *tids, int *created)
{
	int err;

	for (int i = 0; i < res->nthreads; i++) {
		res->threads[i].cfg = cfg;
		res->threads[i].shared = sh;
		if ((err = pthread_create(&tids[i], NULL, deadline_thread, &res->threads[i]))) {
			rt_prog_error_errno(err, "cannot create thread %d", i);
			return RT_EXIT_FAILURE;
		}
		(*created)++;
	}
	if (cfg->rt_prio && (err = start_spinner(cfg, sh, &tids[res->nthreads]))) {
		rt_prog_error_errno(-err, "cannot start the SCHED_FIFO %d task of -r", cfg->rt_prio);
		return RT_EXIT_FAILURE;
	}
	if (cfg->rt_prio)
		(*created)++; /* tids[nthreads]: every deadline thread was created */
	return 0;
}

static int start_threads(const struct deadline_test_config *cfg, const sigset_t *signals,
			 struct dl_result *res, struct dl_shared *sh)
{
	pthread_t *tids = calloc((size_t)res->nthreads + 1, sizeof(*tids));
	int created = 0, rc, err;

	if (!tids) {
		rt_prog_error("out of memory");
		return RT_EXIT_FAILURE;
	}
	if ((err = rt_gate_init(&sh->gate, false))) {
		free(tids);
		rt_prog_error_errno(-err, "cannot set up the start gate");
		return RT_EXIT_FAILURE;
	}
	rc = create_threads(cfg, res, sh, tids, &created);
	rt_gate_wait_arrived(&sh->gate, created);
	if (!rc)
		rc = check_setup(cfg, res);
	atomic_store(&sh->abort, rc != 0);
	/* -D counts from here: a set-up a busy machine held back is not run time */
	res->start_ns = rt_time_mono_ns();
	rt_gate_open(&sh->gate);
	if (!rc)
		wait_for_end(cfg, signals, res);
	atomic_store(&sh->stop, true);
	for (int i = 0; i < created; i++)
		pthread_join(tids[i], NULL);
	rt_gate_destroy(&sh->gate);
	free(tids);
	if (cfg->rt_prio && (err = rt_sched_set(0, SCHED_OTHER, 0)))
		rt_prog_error_errno(-err, "warning: cannot leave SCHED_FIFO");
	return rc;
}

/* 2.4 calibrates at SCHED_FIFO 99 on the last CPU of the run. 0 or RT_EXIT_FAILURE. */
static int calibrate_on(const struct deadline_test_config *cfg, int cpu, struct dl_result *res)
{
	int err;

	if ((err = rt_sched_set(0, SCHED_FIFO, 99))) {
		if (err == -EPERM)
			deadline_test_explain_eperm(cfg);
		else
			rt_prog_error_errno(-err, "cannot switch to SCHED_FIFO 99 to calibrate");
		return RT_EXIT_FAILURE;
	}
	if ((err = rt_affinity_pin_thread(pthread_self(), cpu)))
		rt_prog_error_errno(-err, "warning: cannot calibrate on CPU %d", cpu);
	calibrate(&res->cal);
	print_setup(cfg, res);
	return 0;
}

/* Back to SCHED_OTHER on every allowed CPU before the threads start (they inherit it). */
static int leave_calibration(const struct rt_cpulist *allowed)
{
	int err;

	if ((err = rt_sched_set(0, SCHED_OTHER, 0))) {
		rt_prog_error_errno(-err, "cannot leave SCHED_FIFO after the calibration");
		return RT_EXIT_FAILURE;
	}
	if ((err = rt_affinity_pin_thread_list(pthread_self(), allowed)))
		rt_prog_error_errno(-err, "warning: cannot restore the CPU affinity");
	return 0;
}

static int prepare(const struct deadline_test_config *cfg, struct rt_cpulist *allowed,
		   struct dl_result *res, struct deadline_test_config *eff)
{
	int err;

	res->rt_runtime_us = res->rt_period_us = RT_ENV_NOT_EXPOSED;
	rt_deadline_read_limits_at("", &res->rt_runtime_us, &res->rt_period_us);
	if ((err = rt_affinity_allowed(allowed)) || !allowed->count) {
		rt_prog_error_errno(err ? -err : ESRCH, "cannot read the CPU affinity");
		return RT_EXIT_FAILURE;
	}
	choose_cpus(cfg, allowed, res, eff);
	res->nthreads = cfg->threads;
	res->threads = rt_mem_alloc_pages(sizeof(*res->threads) * (size_t)cfg->threads);
	if (!res->threads) {
		rt_prog_error("out of memory for %d threads", cfg->threads);
		return RT_EXIT_FAILURE;
	}
	/* 2.4: p x CPUs / threads, at most 90 % for one thread */
	res->percent_per_task = (int)((uint64_t)cfg->percent * res->nr_cpus / (uint64_t)cfg->threads);
	if (res->percent_per_task > 90)
		res->percent_per_task = 90;
	rt_mem_lock_all_if_unlimited();
	return 0;
}

int deadline_test_run(const struct deadline_test_config *cfg, const sigset_t *signals,
		      struct dl_result *res)
{
	struct deadline_test_config eff;
	struct rt_cpulist allowed;
	struct rt_hrtick hr = RT_HRTICK_INIT;
	struct dl_shared sh = { 0 };
	int rc, err;

	res->start_ns = rt_time_mono_ns();
	if ((rc = prepare(cfg, &allowed, res, &eff)))
		return rc;
	rc = calibrate_on(cfg, eff.cpus.count ? eff.cpus.cpu[eff.cpus.count - 1] :
			  allowed.cpu[allowed.count - 1], res);
	if (!rc) {
		int left;

		rc = plan_threads(&eff, res, &hr);
		left = leave_calibration(&allowed);
		rc = rc ? rc : left;
	}
	fflush(stdout);
	if (!rc)
		rc = start_threads(&eff, signals, res, &sh);
	res->elapsed_ns = rt_time_mono_ns() - res->start_ns;
	if ((err = rt_hrtick_restore(&hr)))
		rt_prog_error_errno(-err, "cannot switch HRTICK_DL back off in %s", hr.path);
	return rc;
}
