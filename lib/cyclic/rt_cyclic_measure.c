// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The instrument. Between two wakeups a thread does the timer call, one
 * clock read, integer nanosecond arithmetic and updates of its own data:
 * no allocation, no locks, no printing, no other system call (-x also asks
 * the timer for its overrun count, which is that mode's definition).
 * Samples taken during --warmup are dropped before anything sees them.
 */
#include <errno.h>
#include <inttypes.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rt_cyclic_measure.h"

#include "rt_deadline.h"
#include "rt_mem.h"
#include "rt_sched.h"
#include "rt_signal.h"
#include "rt_time.h"

static bool stop_requested(const struct ct_run *run)
{
	return rt_workers_stopping(run->workers);
}

/*
 * -D: like rt-tests 2.4, a thread ends after its first wakeup at or past the
 * end, so -D 2 -i 1000 gives at most 2000 cycles however late main wakes.
 */
static bool duration_over(const struct ct_thread *t, const struct timespec *now)
{
	return t->run->has_end && rt_time_cmp(now, &t->run->end_ts) >= 0;
}

/*
 * --warmup: a sample belongs to the warm-up when it was due by its end,
 * shifted by the offset of the thread's first period from the common start,
 * so that -D after a warm-up counts the same periods as -D from the start.
 */
static void set_warm_end(struct ct_thread *t, const struct timespec *first_due)
{
	t->warm_end = t->run->warm_end_ts;
	rt_time_add_ns(&t->warm_end,
		       rt_time_diff_ns(first_due, &t->run->start_ts) - t->interval_ns);
}

static bool warming_up(const struct ct_thread *t, const struct timespec *due)
{
	return t->run->has_warmup && rt_time_cmp(due, &t->warm_end) <= 0;
}

/* -b: the first thread over the limit stops the trace and the run. */
static void hit_break(struct ct_thread *t, int64_t value, int64_t diff_ns)
{
	struct ct_run *run = t->run;
	char msg[96];
	int err;

	if (!rt_workers_claim_break(run->workers, t->index, value))
		return;
	run->break_tid = atomic_load(&t->ws.tid);
	if (t->cfg->tracemark) {
		snprintf(msg, sizeof(msg), "hit latency threshold (%" PRId64 " > %" PRId64 ")\n",
			 diff_ns / 1000, t->cfg->breaktrace_us);
		if ((err = rt_trace_mark(&run->trace, msg)) && err != -EBADF) {
			run->trace_err = err;
			run->trace_err_what = "trace_marker";
		}
	}
	/* -EBADF: no tracefs (warned at the start) */
	if ((err = rt_trace_stop(&run->trace)) && err != -EBADF && !run->trace_err) {
		run->trace_err = err;
		run->trace_err_what = "tracing_on";
	}
	rt_workers_request_stop(run->workers);
}

/* --analyze: note a spike worse than the last one noted; main explains it. */
static void note_spike(struct ct_thread *t, const struct timespec *now, int64_t diff_ns,
		       int64_t value)
{
	struct ct_spike_note *n = &t->note;
	uint32_t seq = atomic_load_explicit(&n->seq, memory_order_relaxed);

	if (value <= n->value)
		return;
	atomic_store_explicit(&n->seq, seq + 1, memory_order_relaxed);
	atomic_thread_fence(memory_order_release);
	n->value = value;
	n->woke_ns = rt_time_to_ns(now);
	n->due_ns = n->woke_ns - diff_ns;
	n->cpu = sched_getcpu();
	atomic_store_explicit(&n->seq, seq + 2, memory_order_release);
	atomic_store_explicit(&n->pending, true, memory_order_release);
}

static void record(struct ct_thread *t, const struct timespec *now, int64_t diff_ns)
{
	const struct cyclictest_config *cfg = t->cfg;
	int64_t value = cfg->nsecs ? diff_ns : diff_ns / 1000;
	uint64_t cycle = t->ws.stats.stats.count;

	rt_worker_state_add(&t->ws, value, cycle, t->overruns);
	if (cfg->verbose)
		rt_ring_push(&t->ws.ring, cycle, value);
	else if (cfg->self_check) /* the expiry and the wakeup, for the main thread */
		rt_ring_push(&t->ws.ring, (uint64_t)(rt_time_to_ns(now) - diff_ns), rt_time_to_ns(now));
	if (cfg->spike_us && diff_ns > cfg->spike_us * 1000) {
		if (t->spike_count < t->spike_cap)
			t->spikes[t->spike_count] = (struct ct_spike){
				value, rt_time_to_ns(now) / 1000 };
		t->spike_count++;
	}
	if (cfg->analyze_us && diff_ns > cfg->analyze_us * 1000)
		note_spike(t, now, diff_ns, value);
	if (cfg->breaktrace_us && diff_ns > cfg->breaktrace_us * 1000)
		hit_break(t, value, diff_ns);
}

/* First expected wakeup: one interval after the start (or after now). */
static struct timespec first_wakeup(struct ct_thread *t)
{
	const struct cyclictest_config *cfg = t->cfg;
	struct timespec next;

	if (cfg->aligned_us >= 0 || cfg->secaligned_us >= 0) {
		int64_t off_us = cfg->aligned_us >= 0 ? cfg->aligned_us * t->index : 0;

		next = t->run->start_ts;
		rt_time_add_ns(&next, off_us * 1000);
	} else {
		clock_gettime(cfg->clock, &next);
	}
	rt_time_add_ns(&next, t->interval_ns);
	return next;
}

static int sleep_until(const struct ct_thread *t, const struct timespec *next,
		       const struct timespec *interval)
{
	struct timespec rem = *interval;
	int ret;

	switch (t->cfg->timer) {
	case CT_TIMER_RELATIVE:
		while ((ret = clock_nanosleep(t->cfg->clock, 0, &rem, &rem)) == EINTR)
			if (stop_requested(t->run))
				break;
		return ret;
	case CT_TIMER_NANOSLEEP:
		while ((ret = nanosleep(&rem, &rem)) < 0 && errno == EINTR)
			if (stop_requested(t->run))
				return EINTR;
		return ret < 0 ? errno : 0;
	default:
		while ((ret = clock_nanosleep(t->cfg->clock, TIMER_ABSTIME, next, NULL)) == EINTR)
			if (stop_requested(t->run))
				break;
		return ret;
	}
}

/* clock_nanosleep / nanosleep modes. */
static void loop_sleep(struct ct_thread *t)
{
	const struct cyclictest_config *cfg = t->cfg;
	struct timespec interval = rt_time_from_ns(t->interval_ns);
	struct timespec next = first_wakeup(t), now;
	bool relative = cfg->timer == CT_TIMER_RELATIVE || cfg->timer == CT_TIMER_NANOSLEEP;

	set_warm_end(t, &next);
	if (relative) /* expected = previous wakeup + interval */
		rt_time_add_ns(&next, -t->interval_ns);

	while (!stop_requested(t->run)) {
		uint64_t missed = 0;
		int64_t diff_ns;
		bool warm;
		int ret;

		if (relative)
			rt_time_add_ns(&next, t->interval_ns);
		ret = sleep_until(t, &next, &interval);
		if (ret == EINTR)
			break;
		if (ret) {
			t->ws.error = ret;
			t->ws.error_what = "clock_nanosleep";
			break;
		}
		clock_gettime(cfg->clock, &now);
		diff_ns = rt_time_diff_ns(&now, &next);
		warm = warming_up(t, &next);
		if (!warm)
			record(t, &now, diff_ns);
		if ((cfg->loops && t->ws.stats.stats.count >= cfg->loops) || duration_over(t, &now))
			break;
		if (relative) {
			/* No grid to skip on: a whole interval late is a missed period. */
			if (diff_ns >= t->interval_ns && !warm)
				t->overruns += (uint64_t)(diff_ns / t->interval_ns);
			next = now;
			continue;
		}
		rt_time_add_ns(&next, t->interval_ns);
		/* Woke later than a whole interval: skip the missed periods. */
		while (rt_time_cmp(&now, &next) >= 0) {
			rt_time_add_ns(&next, t->interval_ns);
			missed++;
		}
		if (!warm)
			t->overruns += missed;
	}
}

/* -x: a POSIX interval timer signals this thread; overruns move the grid. */
static void loop_posix_timer(struct ct_thread *t)
{
	const struct cyclictest_config *cfg = t->cfg;
	struct sigevent sev = { 0 };
	struct itimerspec its;
	struct timespec next = first_wakeup(t), now;
	sigset_t set;
	timer_t timer;
	int sig;

	set_warm_end(t, &next);
	sigemptyset(&set);
	sigaddset(&set, RT_SIGNAL_TIMER);
	sev.sigev_notify = SIGEV_THREAD_ID;
	sev.sigev_signo = RT_SIGNAL_TIMER;
	sev._sigev_un._tid = atomic_load(&t->ws.tid);
	if (timer_create(cfg->clock, &sev, &timer) < 0) {
		t->ws.error = errno;
		t->ws.error_what = "timer_create";
		return;
	}
	its.it_value = next;
	its.it_interval = rt_time_from_ns(t->interval_ns);
	if (timer_settime(timer, TIMER_ABSTIME, &its, NULL) < 0) {
		t->ws.error = errno;
		t->ws.error_what = "timer_settime";
		timer_delete(timer);
		return;
	}
	while (!stop_requested(t->run)) {
		if (sigwait(&set, &sig) != 0 || stop_requested(t->run))
			break;
		clock_gettime(cfg->clock, &now);
		bool warm = warming_up(t, &next);
		if (!warm)
			record(t, &now, rt_time_diff_ns(&now, &next));
		if ((cfg->loops && t->ws.stats.stats.count >= cfg->loops) || duration_over(t, &now))
			break;
		int overrun = timer_getoverrun(timer);
		if (overrun > 0 && !warm)
			t->overruns += (uint64_t)overrun;
		rt_time_add_ns(&next, t->interval_ns * (1 + (overrun > 0 ? overrun : 0)));
	}
	timer_delete(timer);
}

static void fail(struct ct_thread *t, int err, const char *what)
{
	rt_worker_state_fail(&t->ws, err, what);
	rt_workers_request_stop(t->run->workers);
}

/* CT_TIMER_DEADLINE: past the old deadline by this much before the new period. */
#define DEADLINE_MARGIN_NS (100 * 1000LL)

static struct rt_deadline_params deadline_params(const struct ct_thread *t)
{
	return (struct rt_deadline_params){ .runtime_ns = (uint64_t)t->runtime_ns,
					    .deadline_ns = (uint64_t)t->interval_ns };
}

/*
 * CT_TIMER_DEADLINE: admitted before the gate, the thread stays
 * SCHED_DEADLINE (its bandwidth never given back, so that no other task can
 * take it in between). A thread that wakes past its deadline starts a new
 * period at the wakeup: it sleeps past the old deadline and reads the clock
 * at once. Each sched_yield gives the rest of the runtime back and returns
 * at the next period's start; the latency is the wakeup against that start.
 * A wakeup before the expected start means our grid lags the kernel's (the
 * clocks differ a little): it follows. A wakeup a whole period late makes
 * the kernel start its next period there (replenishment of a lagging task):
 * the grid follows that too, so it never drifts.
 */
static void loop_deadline(struct ct_thread *t)
{
	const struct cyclictest_config *cfg = t->cfg;
	struct timespec next, now;

	/* the old deadline is at most one interval from now */
	clock_gettime(cfg->clock, &next);
	rt_time_add_ns(&next, t->interval_ns + DEADLINE_MARGIN_NS);
	while (clock_nanosleep(cfg->clock, TIMER_ABSTIME, &next, NULL) == EINTR)
		if (stop_requested(t->run)) {
			rt_deadline_clear(0);
			return;
		}
	clock_gettime(cfg->clock, &next);
	t->ws.ran_policy = rt_sched_policy_in_force();
	now = next;
	rt_time_add_ns(&now, t->interval_ns);
	set_warm_end(t, &now);
	while (!stop_requested(t->run)) {
		int64_t diff_ns;
		bool warm;

		sched_yield();
		clock_gettime(cfg->clock, &now);
		rt_time_add_ns(&next, t->interval_ns);
		diff_ns = rt_time_diff_ns(&now, &next);
		if (diff_ns < 0) {
			next = now;
			diff_ns = 0;
		}
		warm = warming_up(t, &next);
		if (!warm)
			record(t, &now, diff_ns);
		if ((cfg->loops && t->ws.stats.stats.count >= cfg->loops) || duration_over(t, &now))
			break;
		if (diff_ns >= t->interval_ns) {
			if (!warm)
				t->overruns += (uint64_t)(diff_ns / t->interval_ns);
			next = now;
		}
	}
	rt_deadline_clear(0);
}

/*
 * Before the gate: will the kernel admit this thread? The bandwidth is held
 * from here, so that every thread is admitted together and the main thread
 * can say why one was not before the run starts.
 */
static int deadline_admitted(struct ct_thread *t)
{
	struct rt_deadline_params p = deadline_params(t);

	return rt_deadline_set(0, &p);
}

/*
 * The thread's own buffers, allocated and first touched here, after it is
 * pinned (so on its NUMA node), and fully faulted in before the gate.
 */
static int alloc_buffers(struct ct_thread *t)
{
	const struct cyclictest_config *cfg = t->cfg;
	const struct rt_worker_buffers b = {
		.hist_buckets = (size_t)cfg->hist_buckets,
		.ring_samples = cfg->verbose || cfg->self_check ? t->ring_cap : 0,
		.loghist = rt_cli_results_need_hist(&cfg->results, cfg->json),
		.window = rt_cli_results_need_windows(&cfg->results),
	};
	int err;

	if ((err = rt_worker_state_alloc(&t->ws, &b)))
		return err;
	if (cfg->spike_us) {
		t->spike_cap = (uint64_t)cfg->spike_nodes;
		t->spikes = calloc((size_t)t->spike_cap, sizeof(*t->spikes));
		if (!t->spikes)
			return -ENOMEM;
		rt_mem_prefault(t->spikes, (size_t)t->spike_cap * sizeof(*t->spikes));
	}
	return 0;
}

void *cyclictest_measure(void *arg)
{
	struct ct_thread *t = arg;
	struct ct_run *run = t->run;
	int err;

	atomic_store(&t->ws.tid, rt_sched_gettid());
	/* pthread attributes know only other/fifo/rr: batch and idle are set here. */
	if ((t->policy == SCHED_BATCH || t->policy == SCHED_IDLE) &&
	    (err = rt_sched_set(0, t->policy, 0)))
		fail(t, -err, "sched_setscheduler");
	t->ws.ran_policy = rt_sched_policy_in_force();
	if (t->cfg->timer == CT_TIMER_POSIX) {
		/* The timer signal is taken with sigwait, never by a handler. */
		sigset_t set;

		sigemptyset(&set);
		sigaddset(&set, RT_SIGNAL_TIMER);
		pthread_sigmask(SIG_BLOCK, &set, NULL);
	}
	if (!t->ws.error && (err = alloc_buffers(t)))
		fail(t, -err, "allocating the measurement buffers");
	if (t->cfg->timer == CT_TIMER_DEADLINE && !t->ws.error && (err = deadline_admitted(t)))
		fail(t, -err, "sched_setattr");
	rt_mem_prefault_stack(RT_WORKER_STACK_PREFAULT_BYTES);
	rt_workers_arrive(run->workers);

	if (!stop_requested(run)) {
		if (t->cfg->timer == CT_TIMER_POSIX)
			loop_posix_timer(t);
		else if (t->cfg->timer == CT_TIMER_DEADLINE)
			loop_deadline(t);
		else
			loop_sleep(t);
	}
	rt_workers_finish(run->workers, t->index);
	return NULL;
}
