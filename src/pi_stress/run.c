// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <poll.h>
#include <inttypes.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "rt_affinity.h"
#include "rt_mem.h"
#include "rt_prog.h"
#include "rt_sched.h"
#include "rt_signal.h"
#include "rt_time.h"

#include "group.h"
#include "report.h"
#include "run.h"

#define TICK_NS (50 * 1000000LL)       /* how often the admin thread looks */
#define REPORT_NS (750 * 1000000LL)    /* 2.4's progress and watchdog interval */
#define JOIN_GRACE_S 3

struct admin {
	const struct pi_stress_config *cfg;
	const sigset_t *signals;
	struct pis_shared *shared;
	struct pis_group *groups;
	int ngroups;            /* initialised */
	struct pis_result *res;
	uint64_t *last;         /* inversions at the last change */
	int64_t *last_ns;       /* when they last changed */
};

static void info(const struct pi_stress_config *cfg, const char *fmt, ...) RT_PRINTF(2, 3);
static void info(const struct pi_stress_config *cfg, const char *fmt, ...)
{
	va_list ap;

	if (!cfg->verbose)
		return;
	fputs("INFO: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* The admin thread on its CPU at its priority (2.4: FIFO 4 on the first CPU). */
static int admin_setup(struct admin *a, const struct rt_cpulist *allowed)
{
	const struct pis_sched *s = &a->cfg->sched[PIS_ADMIN];
	int err;

	a->res->admin_cpu = allowed->cpu[0];
	if ((err = rt_affinity_pin_thread(pthread_self(), allowed->cpu[0]))) {
		rt_prog_error_errno(-err, "cannot pin the admin thread to CPU %d", allowed->cpu[0]);
		return RT_EXIT_FAILURE;
	}
	if ((err = rt_sched_set(0, s->policy, s->priority))) {
		rt_prog_error_errno(-err, "cannot set the admin thread to %s priority %d",
				    rt_sched_policy_name(s->policy), s->priority);
		return RT_EXIT_FAILURE;
	}
	return 0;
}

/* CPU of group g: the ones after the admin's, wrapping; all on the first with -u. */
static int group_cpu(const struct pi_stress_config *cfg, const struct rt_cpulist *allowed, int g)
{
	if (cfg->uniprocessor || allowed->count == 1)
		return allowed->cpu[0];
	return allowed->cpu[(1 + (unsigned)g) % allowed->count];
}

static int start_groups(struct admin *a, const struct rt_cpulist *allowed)
{
	const struct pi_stress_config *cfg = a->cfg;
	int err;

	/* group g is on the g+1-th CPU: more groups than CPUs share them */
	bool shared = cfg->groups > 1 && (cfg->uniprocessor || allowed->count == 1 ||
					  (unsigned)cfg->groups > allowed->count);

	CPU_ZERO(&a->shared->allowed);
	for (unsigned i = 0; i < allowed->count; i++)
		CPU_SET(allowed->cpu[i], &a->shared->allowed);
	info(cfg, "Creating %d test groups", cfg->groups);
	for (int g = 0; g < cfg->groups; g++) {
		if ((err = pis_group_init(&a->groups[g], g, group_cpu(cfg, allowed, g), shared,
					  cfg, a->shared))) {
			rt_prog_error_errno(-err, "cannot create the mutex of group %d", g);
			return RT_EXIT_FAILURE;
		}
		a->ngroups++;
		if ((err = pis_group_start(&a->groups[g]))) {
			rt_prog_error_errno(-err, "cannot create the threads of group %d", g);
			return RT_EXIT_FAILURE;
		}
	}
	return 0;
}

static int created_threads(const struct admin *a)
{
	int n = 0;

	for (int g = 0; g < a->ngroups; g++)
		for (int r = 0; r < 3; r++)
			n += a->groups[g].t[r].created;
	return n;
}

/* Wait until every created thread has set itself up; report the first failure. */
static int wait_ready(struct admin *a)
{
	rt_gate_wait_arrived(&a->shared->start, created_threads(a));
	for (int g = 0; g < a->ngroups; g++)
		for (int r = 2; r >= 0; r--) {
			const struct pis_thread *t = &a->groups[g].t[r];
			const struct pis_sched *s = &a->cfg->sched[r];

			if (!t->err)
				continue;
			rt_prog_error_errno(t->err, "the %s thread of group %d cannot %s (%s%s)",
					    pi_stress_role_name((enum pis_role)r), g, t->what,
					    pi_stress_policy_label(s->policy),
					    t->err == EBUSY ? ": the kernel refused the "
							      "deadline bandwidth" : "");
			return RT_EXIT_FAILURE;
		}
	for (int r = 0; r < 3; r++)
		a->res->policy[r] = a->groups[0].t[r].ran_policy;
	return 0;
}

static void release(struct admin *a)
{
	rt_gate_open(&a->shared->start);
}

static void read_counts(struct admin *a)
{
	a->res->total = 0;
	for (int g = 0; g < a->ngroups; g++) {
		a->res->per_group[g] = __atomic_load_n(&a->groups[g].inversions, __ATOMIC_ACQUIRE);
		a->res->total += a->res->per_group[g];
	}
}

/* Groups without an inversion for the watchdog time: stuck (2.4's message, then ours). */
static bool watchdog(struct admin *a, int64_t now)
{
	int64_t limit_ns = (int64_t)a->cfg->watchdog_ms * 1000000;
	bool fired = false;

	for (int g = 0; g < a->ngroups; g++) {
		if (a->res->per_group[g] != a->last[g] ||
		    __atomic_load_n(&a->groups[g].finished, __ATOMIC_ACQUIRE)) {
			a->last[g] = a->res->per_group[g];
			a->last_ns[g] = now;
			continue;
		}
		if (now - a->last_ns[g] < limit_ns)
			continue;
		fprintf(stderr, "WATCHDOG triggered: group %d is deadlocked!\n", g);
		a->res->stuck[g] = true;
		a->res->nstuck++;
		fired = true;
	}
	return fired;
}

/* For the verdict: how long each group had been without an inversion at the stop. */
static void note_quiet(struct admin *a, int64_t now)
{
	for (int g = 0; g < a->ngroups; g++) {
		a->res->finished[g] = __atomic_load_n(&a->groups[g].finished, __ATOMIC_ACQUIRE);
		a->res->quiet_ns[g] = a->res->per_group[g] != a->last[g] ? 0 : now - a->last_ns[g];
	}
}

static bool all_finished(const struct admin *a)
{
	for (int g = 0; g < a->ngroups; g++)
		if (!__atomic_load_n(&a->groups[g].finished, __ATOMIC_ACQUIRE))
			return false;
	return true;
}

/* Until the duration, the inversions, a signal or the watchdog ends the run. */
static void supervise(struct admin *a, int64_t start_ns)
{
	const struct pi_stress_config *cfg = a->cfg;
	/* -D 0, as 2.4: stop at the first look */
	int64_t deadline_ns = cfg->duration_set ? start_ns + (int64_t)cfg->duration_s *
								 RT_NSEC_PER_SEC : 0;
	int64_t next_report = start_ns + REPORT_NS, now = start_ns;

	for (int g = 0; g < a->ngroups; g++)
		a->last_ns[g] = start_ns;
	for (;;) {
		int64_t wait_ns = TICK_NS;
		int sig;

		if (cfg->duration_set && deadline_ns - now < wait_ns)
			wait_ns = deadline_ns - now > 0 ? deadline_ns - now : 0;
		sig = rt_signal_wait(a->signals, wait_ns);
		now = rt_time_mono_ns();
		if (sig == SIGINT || sig == SIGTERM) {
			a->res->stop_signal = sig;
			break;
		}
		read_counts(a);
		if (all_finished(a)) {
			a->res->all_finished = true;
			break;
		}
		if (cfg->duration_set && now >= deadline_ns) {
			info(cfg, "duration reached (%" PRIu64 " seconds)", cfg->duration_s);
			a->res->duration_over = true;
			break;
		}
		if (watchdog(a, now))
			break;
		if (now >= next_report) {
			if (!cfg->quiet || cfg->verbose)
				pi_stress_print_progress(stdout, a->res->total);
			next_report += REPORT_NS;
		}
	}
	a->res->elapsed_ns = now - start_ns;
	note_quiet(a, now);
}

static void stop_all(struct admin *a)
{
	struct timespec deadline;
	bool all = true;

	info(a->cfg, "setting shutdown flag");
	atomic_store(&a->shared->stop, 1);
	release(a); /* threads still waiting for the start see the stop */
	for (int g = 0; g < a->ngroups; g++)
		pis_group_break(&a->groups[g]);
	info(a->cfg, "waiting for all threads to complete");
	clock_gettime(CLOCK_REALTIME, &deadline);
	deadline.tv_sec += JOIN_GRACE_S;
	for (int g = 0; g < a->ngroups; g++)
		if (!pis_group_join(&a->groups[g], &deadline)) {
			rt_prog_error("the threads of group %d did not end within %d s (the "
				      "process exit ends them)", g, JOIN_GRACE_S);
			all = false;
		}
	a->res->not_joined = !all;
	if (all)
		info(a->cfg, "All threads terminated!");
	read_counts(a);
}

/* -p: wait for a line on stdin; SIGINT or SIGTERM meanwhile is returned (else 0). */
static int prompt(const sigset_t *signals)
{
	struct pollfd p = { .fd = STDIN_FILENO, .events = POLLIN };
	char c;

	fputs("Press return to start test: ", stdout);
	fflush(stdout);
	for (;;) {
		int sig = rt_signal_wait(signals, 0);

		if (sig == SIGINT || sig == SIGTERM)
			return sig;
		if (poll(&p, 1, 100) <= 0)
			continue;
		if (read(STDIN_FILENO, &c, 1) != 1 || c == '\n')
			return 0;
	}
}

static int alloc(struct admin *a, struct pis_result *res, int n)
{
	res->ngroups = n;
	res->per_group = calloc((size_t)n, sizeof(*res->per_group));
	res->stuck = calloc((size_t)n, sizeof(*res->stuck));
	res->finished = calloc((size_t)n, sizeof(*res->finished));
	res->quiet_ns = calloc((size_t)n, sizeof(*res->quiet_ns));
	a->last = calloc((size_t)n, sizeof(*a->last));
	a->last_ns = calloc((size_t)n, sizeof(*a->last_ns));
	a->shared = aligned_alloc(64, (sizeof(*a->shared) + 63) / 64 * 64);
	a->groups = aligned_alloc(64, (size_t)n * sizeof(*a->groups));
	if (!res->per_group || !res->stuck || !res->finished || !res->quiet_ns || !a->last || !a->last_ns || !a->shared || !a->groups)
		return -ENOMEM;
	memset(a->shared, 0, sizeof(*a->shared));
	rt_gate_init(&a->shared->start, false);
	return 0;
}

int pi_stress_run(const struct pi_stress_config *cfg, const sigset_t *signals,
		  struct pis_result *res)
{
	struct admin a = { .cfg = cfg, .signals = signals, .res = res };
	struct rt_cpulist *allowed = malloc(sizeof(*allowed));
	int rc = RT_EXIT_OK, err;

	memset(res, 0, sizeof(*res));
	for (int r = 0; r < PIS_ROLES; r++)
		res->policy[r] = -1;
	if (!allowed || alloc(&a, res, cfg->groups)) {
		rt_prog_error_errno(ENOMEM, "cannot set up %d groups", cfg->groups);
		rc = RT_EXIT_FAILURE;
		goto out;
	}
	if ((err = rt_affinity_allowed(allowed))) {
		rt_prog_error_errno(-err, "cannot read the allowed CPUs");
		rc = RT_EXIT_FAILURE;
		goto out;
	}
	res->first_group_cpu = group_cpu(cfg, allowed, 0);
	if (cfg->mlockall && (err = rt_mem_lock_all())) {
		rt_prog_error_errno(-err, "cannot lock the memory (--mlockall)");
		rc = RT_EXIT_FAILURE;
		goto out;
	}
	if ((rc = admin_setup(&a, allowed)))
		goto out;
	res->policy[PIS_ADMIN] = rt_sched_policy_in_force();
	info(cfg, "Admin thread running on processor: %d", res->admin_cpu);
	info(cfg, "Test threads running on processor: %d", res->first_group_cpu);
	rc = start_groups(&a, allowed);
	if (!rc)
		rc = wait_ready(&a);
	if (!rc) {
		if (cfg->prompt && (res->stop_signal = prompt(signals))) {
			fputc('\n', stdout);
			rt_prog_error("stopped by %s before the test started",
				      res->stop_signal == SIGINT ? "SIGINT" : "SIGTERM");
			goto stop;
		}
		info(cfg, "Releasing all threads");
		info(cfg, "Press Control-C to stop test");
		res->started = true;
		release(&a);
		supervise(&a, rt_time_mono_ns());
	}
stop:
	if (!cfg->quiet || cfg->verbose)
		pi_stress_print_stopping(stdout, res->started);
	stop_all(&a);
out:
	if (a.groups && !res->not_joined)
		for (int g = 0; g < a.ngroups; g++)
			pis_group_destroy(&a.groups[g]);
	if (!res->not_joined) {
		free(a.groups);
		free(a.shared);
	}
	free(a.last);
	free(a.last_ns);
	free(allowed);
	return rc;
}

void pi_stress_result_free(struct pis_result *res)
{
	free(res->per_group);
	free(res->stuck);
	free(res->finished);
	free(res->quiet_ns);
}
