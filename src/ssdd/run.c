// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "rt_prog.h"
#include "rt_reaper.h"
#include "rt_sched.h"
#include "rt_time.h"

#include "run.h"

/* How long the main process waits for orphaned tracees to be reaped at the end. */
#define DRAIN_MS 3000

/* One pair, in memory shared by the main process and the pair's tracer. */
struct shared_pair {
	struct ssdd_pair_result r;
	int go;                  /* set by the tracer once attached (--tracee-exit-after) */
};

struct run {
	const struct ssdd_config *cfg;
	struct shared_pair *sp;  /* cfg->forks, MAP_SHARED */
	size_t sp_len;
	pid_t *tracers;          /* main side: tracer pids, 0 = none or reaped */
	int created, live;
	struct rt_reaper reaper; /* the tracers (and orphaned tracees) and the signals */
	bool reaper_up;
	int stop;                /* SIGINT or SIGTERM */
	bool *killed;            /* main side: the tracer was still running when we killed it */
};


/* ------------------------------------------------------------ the tracee */

/*
 * ready_fd: written once the tracee dies with its tracer, before the tracer
 * may attach (a tracee stopped by the attach before its prctl() would stay
 * stopped forever if its tracer were killed then).
 */
static void tracee_main(struct shared_pair *p, pid_t tracer, int ready_fd, int64_t exit_after)
{
	char one = 1;

	/* syscall() once here: its exit below runs a few instructions, not a symbol lookup */
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) || (pid_t)syscall(SYS_getppid) != tracer ||
	    write(ready_fd, &one, 1) != 1)
		_exit(RT_EXIT_FAILURE);
	close(ready_fd);
	if (exit_after < 0)
		for (;;)
			; /* spins at 100 % until the tracer kills it, as in 2.4 */
	/* --tracee-exit-after: count turns only once traced, then leave the loop */
	while (!__atomic_load_n(&p->go, __ATOMIC_RELAXED))
		;
	for (volatile int64_t n = 0; n < exit_after; n++)
		;
	syscall(SYS_exit_group, RT_EXIT_OK); /* no exit handlers (a sanitizer's) to step through */
	_exit(RT_EXIT_OK);
}

/* ------------------------------------------------------------ the tracer */

/* A 2.4 live line in one write(), so the pairs' lines do not mix. */
static void line(const struct ssdd_config *cfg, const char *fmt, ...)
{
	char buf[384];
	va_list ap;
	int n;

	if (cfg->quiet)
		return;
	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n >= sizeof(buf))
		n = sizeof(buf) - 1;
	if (write(STDOUT_FILENO, buf, (size_t)n) < 0)
		return; /* the main process reports a failed stdout */
}

static void tracer_end(struct shared_pair *p, pid_t tracee, enum ssdd_outcome o)
{
	int status;

	__atomic_store_n(&p->r.outcome, o, __ATOMIC_RELEASE);
	if (tracee > 0) {
		kill(tracee, SIGKILL);
		while (waitpid(tracee, &status, __WALL) < 0 && errno == EINTR)
			;
	}
	_exit(o == SSDD_PASSED ? RT_EXIT_OK : RT_EXIT_FAILURE);
}

static void cannot(const struct ssdd_config *cfg, struct shared_pair *p, int i, pid_t tracee,
		   const char *what, int err)
{
	p->r.err = err;
	snprintf(p->r.what, sizeof(p->r.what), "%s", what);
	line(cfg, "forktest#%d/%d: EXITING, ERROR: %s failed: %s\n", i, (int)getpid(), what,
	     strerror(err));
	tracer_end(p, tracee, SSDD_CANNOT);
}

static void mismatch(const struct ssdd_config *cfg, struct shared_pair *p, int i, pid_t tracee)
{
	const struct ssdd_mismatch *m = &p->r.mismatch;

	line(cfg, "forktest#%d/%d: EXITING, ERROR: pair %d, step %" PRIu64 ": expected %s, got %s\n",
	     i, (int)getpid(), i, m->step, m->expected, m->got);
	tracer_end(p, tracee, SSDD_FAILED);
}

/* waitpid() for the tracee, and the SIGCHLD that must come with its stop. */
static void wait_tracee(pid_t tracee, const sigset_t *chld, struct ssdd_wait *w)
{
	static const struct timespec zero = { 0, 0 };

	do {
		w->pid = waitpid(tracee, &w->status, __WALL);
		w->err = w->pid < 0 ? errno : 0;
	} while (w->pid < 0 && w->err == EINTR);
	w->sigchld = sigtimedwait(chld, NULL, &zero) == SIGCHLD;
}

static void tracer_main(struct run *run, int i)
{
	const struct ssdd_config *cfg = run->cfg;
	struct shared_pair *p = &run->sp[i];
	pid_t self = getpid(), tracee;
	struct ssdd_wait w;
	sigset_t chld;
	int ready[2];
	ssize_t n;
	int64_t t0;
	char one;

	/* rt_reaper_fork: it dies with the main process and has no signalfd */
	/* SIGCHLD blocked and queued (not ignored): the tracer takes it with sigtimedwait */
	signal(SIGCHLD, SIG_DFL);
	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	sigprocmask(SIG_BLOCK, &chld, NULL);
	if (pipe2(ready, O_CLOEXEC))
		cannot(cfg, p, i, 0, "pipe", errno);
	tracee = fork();
	if (tracee == 0) {
		close(ready[0]);
		tracee_main(p, self, ready[1], i == 0 ? cfg->tracee_exit_after : -1);
	}
	if (tracee < 0)
		cannot(cfg, p, i, 0, "fork of the tracee", errno);
	close(ready[1]);
	p->r.tracee_pid = (int)tracee;
	line(cfg, "forktest#%d/%d/%d: STARTING\n", i, (int)self, (int)tracee);
	while ((n = read(ready[0], &one, 1)) < 0 && errno == EINTR)
		;
	if (n != 1)
		cannot(cfg, p, i, tracee, "start of the tracee", n < 0 ? errno : ESRCH);
	close(ready[0]);
	if (ptrace(PTRACE_ATTACH, tracee, NULL, NULL))
		cannot(cfg, p, i, tracee, "PTRACE_ATTACH", errno);
	wait_tracee(tracee, &chld, &w);
	if (!ssdd_check_wait(tracee, SIGSTOP, 0, &w, &p->r.mismatch))
		mismatch(cfg, p, i, tracee);
	if (ptrace(PTRACE_SETOPTIONS, tracee, NULL, (void *)(long)PTRACE_O_EXITKILL))
		cannot(cfg, p, i, tracee, "PTRACE_SETOPTIONS", errno);
	__atomic_store_n(&p->go, 1, __ATOMIC_RELAXED);
	t0 = rt_time_mono_ns();
	for (uint64_t s = 1; s <= (uint64_t)cfg->iters; s++) {
		if (ptrace(PTRACE_SINGLESTEP, tracee, NULL, NULL)) {
			struct ssdd_mismatch *m = &p->r.mismatch;

			m->step = s;
			snprintf(m->expected, sizeof(m->expected), "PTRACE_SINGLESTEP to succeed");
			snprintf(m->got, sizeof(m->got), "%s", strerror(errno));
			mismatch(cfg, p, i, tracee);
		}
		wait_tracee(tracee, &chld, &w);
		if (!ssdd_check_wait(tracee, SIGTRAP, s, &w, &p->r.mismatch)) {
			if (w.pid == tracee && !WIFSTOPPED(w.status))
				tracee = 0; /* already reaped */
			mismatch(cfg, p, i, tracee);
		}
		__atomic_store_n(&p->r.steps, s, __ATOMIC_RELAXED);
	}
	p->r.time_ns = rt_time_mono_ns() - t0;
	line(cfg, "forktest#%d/%d: EXITING, no error\n", i, (int)self);
	tracer_end(p, tracee, SSDD_PASSED);
}

/* ------------------------------------------------------------ the main process */

/* The wait status of what the reaper saw (tracer_status keeps 2.4's form). */
static int wait_status(const struct rt_reaper_child *c)
{
	if (c->code == CLD_EXITED)
		return (c->status & 0xff) << 8;
	return (c->status & 0x7f) | (c->code == CLD_DUMPED ? 0x80 : 0);
}

/* A tracer seen dead (rt_reaper; orphaned tracees are reaped there and ignored). */
static void reaped(void *ctx, const struct rt_reaper_child *c)
{
	struct run *run = ctx;

	if (c->index < 0 || c->index >= run->created)
		return;
	run->tracers[c->index] = 0;
	run->killed[c->index] = c->killed;
	run->live--;
	run->sp[c->index].r.tracer_status = wait_status(c);
}

static void take_signals(struct run *run)
{
	/* SIGCHLD: the dead are reaped here; SIGHUP and the others are ignored */
	int sig = rt_reaper_take_signals(&run->reaper, reaped, run);

	if (sig && !run->stop)
		run->stop = sig;
}

/*
 * A tracee still alive once its tracer is gone is our child (the subreaper's):
 * the safety net for one that missed both PTRACE_O_EXITKILL and its
 * PR_SET_PDEATHSIG. Our children's pids cannot be reused before we reap them.
 */
static void kill_orphans(void)
{
	char path[64];
	FILE *f;
	int pid;

	snprintf(path, sizeof(path), "/proc/%d/task/%d/children", (int)getpid(), (int)getpid());
	f = fopen(path, "re");
	if (!f)
		return;
	while (fscanf(f, "%d", &pid) == 1)
		if (pid > 0)
			kill(pid, SIGKILL);
	fclose(f);
}

/*
 * Every tracer killed (none may go on after a stop or a failed fork) and
 * reaped within the reaper's bound, then every orphaned tracee (bounded:
 * they die with their tracer).
 */
static void reap_all(struct run *run)
{
	if (rt_reaper_stop(&run->reaper, SIGKILL, 0, reaped, run))
		rt_prog_error("a tracer did not end after SIGKILL");
	for (int ms = 0; ms < DRAIN_MS; ms += 10) {
		int status;
		pid_t pid;

		while ((pid = waitpid(-1, &status, WNOHANG | __WALL)) > 0)
			;
		if (pid < 0)
			break; /* ECHILD: none left */
		if (ms >= 100)
			kill_orphans();
		poll(NULL, 0, 10);
	}
}

static void wait_tracers(struct run *run)
{
	struct pollfd p = { .fd = rt_reaper_fd(&run->reaper), .events = POLLIN };

	rt_reaper_collect(&run->reaper, false, reaped, run);
	while (run->live > 0 && !run->stop) {
		if (poll(&p, 1, -1) < 0 && errno != EINTR)
			break;
		take_signals(run);
	}
}

static void collect(const struct run *run, struct ssdd_result *res)
{
	for (int i = 0; i < run->cfg->forks; i++) {
		struct ssdd_pair_result *r = &res->pairs[i];

		*r = run->sp[i].r;
		if (i >= run->created) {
			r->outcome = SSDD_NOT_STARTED;
		} else if (r->outcome == SSDD_RUNNING) {
			/* killed by the stop (or a failed fork), or by something else */
			r->outcome = run->killed[i] && WIFSIGNALED(r->tracer_status) &&
						     WTERMSIG(r->tracer_status) == SIGKILL
					     ? SSDD_STOPPED
					     : SSDD_DIED;
		}
		if (r->outcome != SSDD_PASSED)
			r->time_ns = -1;
	}
}

static int setup(struct run *run, const sigset_t *signals)
{
	int err;

	run->sp_len = (size_t)run->cfg->forks * sizeof(*run->sp);
	run->sp = mmap(NULL, run->sp_len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1,
		       0);
	if (run->sp == MAP_FAILED) {
		run->sp = NULL;
		rt_prog_error_errno(errno, "cannot allocate the pairs' shared memory");
		return RT_EXIT_FAILURE;
	}
	run->tracers = calloc((size_t)run->cfg->forks, sizeof(*run->tracers));
	run->killed = calloc((size_t)run->cfg->forks, sizeof(*run->killed));
	if (!run->tracers || !run->killed) {
		rt_prog_error_errno(ENOMEM, "cannot allocate the pairs");
		return RT_EXIT_FAILURE;
	}
	/* tracees whose tracer died are reparented to us, and reaped here */
	if (prctl(PR_SET_CHILD_SUBREAPER, 1)) {
		rt_prog_error_errno(errno, "cannot become the child subreaper");
		return RT_EXIT_FAILURE;
	}
	run->reaper_up = true;
	if ((err = rt_reaper_init(&run->reaper, signals))) {
		rt_prog_error_errno(-err, "cannot set up signal handling");
		return RT_EXIT_FAILURE;
	}
	return 0;
}

int ssdd_run(const struct ssdd_config *cfg, const sigset_t *signals, struct ssdd_result *res)
{
	struct run run = { .cfg = cfg };
	int rc;

	memset(res, 0, sizeof(*res));
	res->main_pid = (int)getpid();
	res->tracers_policy = rt_sched_policy_in_force();
	res->pairs = calloc((size_t)cfg->forks, sizeof(*res->pairs));
	if (!res->pairs) {
		rt_prog_error_errno(ENOMEM, "cannot allocate the pairs");
		return RT_EXIT_FAILURE;
	}
	if ((rc = setup(&run, signals)))
		goto out;
	for (int i = 0; i < cfg->forks; i++) {
		struct shared_pair *p = &run.sp[i];
		pid_t pid;

		take_signals(&run);
		if (run.stop)
			break;
		p->r.outcome = SSDD_RUNNING;
		p->r.time_ns = -1;
		fflush(stdout); /* the tracers must not inherit unwritten output */
		pid = rt_reaper_fork(&run.reaper, i, "tracer");
		if (pid == 0)
			tracer_main(&run, i);
		if (pid < 0) {
			p->r.outcome = SSDD_NOT_STARTED;
			res->fork_err = -pid;
			res->fork_pair = i;
			break;
		}
		p->r.tracer_pid = (int)pid;
		run.tracers[i] = pid;
		run.created++;
		run.live++;
	}
	if (!res->fork_err)
		wait_tracers(&run);
	reap_all(&run);
	res->stop_signal = run.stop;
	collect(&run, res);
out:
	if (run.reaper_up)
		rt_reaper_destroy(&run.reaper);
	if (run.sp)
		munmap(run.sp, run.sp_len);
	free(run.tracers);
	free(run.killed);
	return rc;
}
