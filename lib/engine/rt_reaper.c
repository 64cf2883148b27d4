// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Children are found by pid through an index sorted on demand: hackbench
 * forks thousands, and a linear search per death would be quadratic.
 * Only the reaper's own children are waited for: a tool's other children
 * (a guard, an orphan a subreaper adopts) are left alone. The dead are
 * found by one waitid(P_ALL, WNOWAIT) look, which names the first zombie
 * without reaping it; only when that one is not ours are ours looked at
 * one by one. WNOWAIT also keeps a zombie's pid reserved while the stop may
 * still signal it. wait4 where a child is reaped: its rusage comes with it.
 * A child that someone else reaped (ECHILD) ended in a way nobody can tell:
 * RT_REAPER_UNKNOWN, never "exited 0".
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <unistd.h>

#include "rt_reaper.h"
#include "rt_time.h"

/* How often a stop looks again when no SIGCHLD arrives (a SIGCHLD may be merged). */
#define STOP_POLL_MS 20

int rt_reaper_init(struct rt_reaper *r, const sigset_t *signals)
{
	memset(r, 0, sizeof(*r));
	r->fd = -1;
	r->death_signal = SIGKILL;
	if (signals)
		r->set = *signals;
	else
		sigemptyset(&r->set);
	sigaddset(&r->set, SIGCHLD);
	/* SIGCHLD ignored would reap the children for us: they must stay ours to wait for */
	signal(SIGCHLD, SIG_DFL);
	if (pthread_sigmask(SIG_BLOCK, &r->set, &r->old_mask))
		return -EINVAL;
	r->fd = signalfd(-1, &r->set, SFD_CLOEXEC | SFD_NONBLOCK);
	return r->fd < 0 ? -errno : 0;
}

void rt_reaper_destroy(struct rt_reaper *r)
{
	if (r->fd >= 0)
		close(r->fd);
	r->fd = -1;
	free(r->child);
	free(r->by_pid);
	r->child = NULL;
	r->by_pid = NULL;
	r->n = r->cap = 0;
}

static int grow(struct rt_reaper *r)
{
	size_t cap = r->cap ? 2 * r->cap : 16;
	struct rt_reaper_child *c;
	struct rt_reaper_key *idx;

	if (r->n < r->cap)
		return 0;
	c = realloc(r->child, cap * sizeof(*c));
	if (!c)
		return -ENOMEM;
	r->child = c;
	idx = realloc(r->by_pid, cap * sizeof(*idx));
	if (!idx)
		return -ENOMEM;
	r->by_pid = idx;
	r->cap = cap;
	return 0;
}

static pid_t fork_dying(int death_signal)
{
	pid_t parent = getpid(), pid = fork();

	if (pid < 0)
		return -errno;
	/* die with the parent, even one killed by SIGKILL */
	if (pid == 0 && (prctl(PR_SET_PDEATHSIG, death_signal) || getppid() != parent))
		_exit(1);
	return pid;
}

pid_t rt_reaper_fork_one(void)
{
	return fork_dying(SIGKILL);
}

pid_t rt_reaper_fork(struct rt_reaper *r, int index, const char *name)
{
	struct rt_reaper_child *c;
	pid_t pid;
	int err;

	if ((err = grow(r)))
		return err;
	pid = fork_dying(r->death_signal > 0 ? r->death_signal : SIGKILL);
	if (pid < 0)
		return pid;
	if (pid == 0) {
		close(r->fd);
		pthread_sigmask(SIG_SETMASK, &r->old_mask, NULL);
		return 0;
	}
	c = &r->child[r->n];
	memset(c, 0, sizeof(*c));
	c->pid = pid;
	c->index = index;
	snprintf(c->name, sizeof(c->name), "%s", name ? name : "child");
	r->by_pid[r->n] = (struct rt_reaper_key){ .pid = pid, .i = r->n };
	r->n++;
	r->unsorted = true;
	return pid;
}

static int key_cmp(const void *a, const void *b)
{
	pid_t pa = ((const struct rt_reaper_key *)a)->pid, pb = ((const struct rt_reaper_key *)b)->pid;

	return (pa > pb) - (pa < pb);
}

static struct rt_reaper_child *find(struct rt_reaper *r, pid_t pid)
{
	struct rt_reaper_key key = { .pid = pid }, *k;

	if (r->unsorted) {
		qsort(r->by_pid, r->n, sizeof(*r->by_pid), key_cmp);
		r->unsorted = false;
	}
	k = bsearch(&key, r->by_pid, r->n, sizeof(*r->by_pid), key_cmp);
	return k ? &r->child[k->i] : NULL;
}

const struct rt_reaper_child *rt_reaper_find(struct rt_reaper *r, pid_t pid)
{
	return find(r, pid);
}

size_t rt_reaper_alive(const struct rt_reaper *r)
{
	size_t n = 0;

	for (size_t i = 0; i < r->n; i++)
		n += !r->child[i].reaped;
	return n;
}

static void note(struct rt_reaper_child *c, int code, int status, bool reaped)
{
	c->ended = true;
	c->reaped = reaped;
	c->code = code;
	c->status = status;
}

/* A child reaped with wait status and usage. */
static void note_reaped(struct rt_reaper_child *c, int status, const struct rusage *ru)
{
	if (WIFSIGNALED(status))
		note(c, WCOREDUMP(status) ? CLD_DUMPED : CLD_KILLED, WTERMSIG(status), true);
	else
		note(c, CLD_EXITED, WEXITSTATUS(status), true);
	c->ru = *ru;
}

/* Look at one child, leaving it a zombie: 1 newly dead, 0 alive (or seen before), -errno. */
static int peek(struct rt_reaper_child *c)
{
	siginfo_t si;

	if (c->ended)
		return 0;
	memset(&si, 0, sizeof(si));
	if (waitid(P_PID, (id_t)c->pid, &si, WEXITED | WNOHANG | WNOWAIT | __WALL)) {
		if (errno == EINTR)
			return 0;
		if (errno != ECHILD)
			return -errno;
		note(c, RT_REAPER_UNKNOWN, 0, true); /* reaped by someone else */
		return 1;
	}
	if (si.si_pid != c->pid)
		return 0;
	note(c, si.si_code, si.si_status, false);
	return 1;
}

static int reap_one(struct rt_reaper_child *c);

/* Reap each of ours that ended, one by one: how many were newly seen, or -errno. */
static int reap_each(struct rt_reaper *r, rt_reaper_death_fn on_death, void *ctx)
{
	int seen = 0;

	for (size_t i = 0; i < r->n; i++) {
		int got = reap_one(&r->child[i]);

		if (got < 0)
			return got;
		seen += got;
		if (got && on_death)
			on_death(ctx, &r->child[i]);
	}
	return seen;
}

/* Reap whatever of ours died: 1 per newly seen one, or -errno. */
static int reap_any(struct rt_reaper *r, rt_reaper_death_fn on_death, void *ctx)
{
	int seen = 0;

	for (;;) {
		struct rt_reaper_child *c;
		siginfo_t si;
		int got;

		memset(&si, 0, sizeof(si));
		if (waitid(P_ALL, 0, &si, WEXITED | WNOHANG | WNOWAIT | __WALL)) {
			if (errno == EINTR)
				continue;
			if (errno != ECHILD)
				return -errno;
			si.si_pid = -1; /* no child at all: ours were reaped elsewhere */
		}
		if (si.si_pid == 0)
			return seen;
		c = si.si_pid > 0 ? find(r, si.si_pid) : NULL;
		if (!c || c->reaped) {
			got = reap_each(r, on_death, ctx);
			return got < 0 ? got : seen + got;
		}
		if ((got = reap_one(c)) < 0)
			return got;
		seen += got;
		if (got && on_death)
			on_death(ctx, c);
	}
}

int rt_reaper_peek(pid_t pid, struct rt_reaper_child *c)
{
	memset(c, 0, sizeof(*c));
	c->pid = pid;
	c->index = -1;
	return peek(c);
}

int rt_reaper_reap(pid_t pid, struct rt_reaper_child *c)
{
	struct rusage ru;
	int status;
	pid_t got;

	memset(c, 0, sizeof(*c));
	c->pid = pid;
	c->index = -1;
	while ((got = wait4(pid, &status, __WALL, &ru)) < 0 && errno == EINTR)
		;
	if (got < 0)
		return -errno;
	note_reaped(c, status, &ru);
	return 0;
}

int rt_reaper_collect(struct rt_reaper *r, bool keep, rt_reaper_death_fn on_death, void *ctx)
{
	int seen = 0;

	if (!keep)
		return reap_any(r, on_death, ctx);
	for (size_t i = 0; i < r->n; i++) {
		int got = peek(&r->child[i]);

		if (got < 0)
			return got;
		if (got) {
			seen++;
			if (on_death)
				on_death(ctx, &r->child[i]);
		}
	}
	return seen;
}

/* Read the signalfd empty, noting the first SIGINT/SIGTERM: was a SIGCHLD among them? */
static bool drain(struct rt_reaper *r)
{
	struct signalfd_siginfo si;
	bool chld = false;

	while (read(r->fd, &si, sizeof(si)) == (ssize_t)sizeof(si)) {
		if ((si.ssi_signo == SIGINT || si.ssi_signo == SIGTERM) && !r->stop_signal)
			r->stop_signal = (int)si.ssi_signo;
		chld |= si.ssi_signo == SIGCHLD;
	}
	return chld;
}

int rt_reaper_take_signals(struct rt_reaper *r, rt_reaper_death_fn on_death, void *ctx)
{
	if (drain(r))
		rt_reaper_collect(r, false, on_death, ctx);
	return r->stop_signal;
}

static void signal_alive(struct rt_reaper *r, int sig, bool mark_killed)
{
	for (size_t i = 0; i < r->n; i++) {
		struct rt_reaper_child *c = &r->child[i];

		if (c->ended)
			continue;
		if (mark_killed)
			c->killed = true;
		kill(c->pid, sig);
	}
}

/* Collect (and reap) until none is alive or `until` (CLOCK_MONOTONIC ns) passes. */
static int wait_all(struct rt_reaper *r, int64_t until, rt_reaper_death_fn on_death, void *ctx)
{
	struct pollfd p = { .fd = r->fd, .events = POLLIN };

	for (;;) {
		int64_t left;
		int err = rt_reaper_collect(r, false, on_death, ctx);

		if (err < 0)
			return err;
		if (!rt_reaper_alive(r))
			return 0;
		left = until - rt_time_mono_ns();
		if (left <= 0) {
			/* one reaped elsewhere meanwhile is found only by its own pid */
			if ((err = reap_each(r, on_death, ctx)) < 0)
				return err;
			return rt_reaper_alive(r) ? -ETIMEDOUT : 0;
		}
		left = (left + 999999) / 1000000;
		if (poll(&p, 1, left < STOP_POLL_MS ? (int)left : STOP_POLL_MS) > 0)
			drain(r); /* the dead are collected above */
	}
}

int rt_reaper_stop(struct rt_reaper *r, int sig, int64_t grace_ns, rt_reaper_death_fn on_death,
		   void *ctx)
{
	int err;

	if (sig)
		signal_alive(r, sig, sig == SIGKILL);
	err = wait_all(r, rt_time_mono_ns() + (sig == SIGKILL ? 0 : grace_ns), on_death, ctx);
	if (err != -ETIMEDOUT)
		return err;
	signal_alive(r, SIGKILL, true);
	return wait_all(r, rt_time_mono_ns() + RT_REAPER_KILL_WAIT_NS, on_death, ctx);
}

/* Reap c if it ended (its pid only: the others are left as they are): 1 newly seen dead, 0, -errno. */
static int reap_one(struct rt_reaper_child *c)
{
	struct rusage ru;
	int status;
	pid_t got;

	if (c->reaped)
		return 0;
	while ((got = wait4(c->pid, &status, WNOHANG | __WALL, &ru)) < 0 && errno == EINTR)
		;
	if (got == 0)
		return 0;
	if (got < 0 && errno != ECHILD)
		return -errno;
	if (got < 0) {
		c->reaped = true; /* reaped by someone else: how it ended is lost */
		if (c->ended)
			return 0;
		note(c, RT_REAPER_UNKNOWN, 0, true);
		return 1;
	}
	c->reaped = true;
	c->ru = ru;
	if (c->ended)
		return 0; /* seen before, kept as a zombie until now */
	note_reaped(c, status, &ru);
	return 1;
}

/* Reap c, waiting until `until` (CLOCK_MONOTONIC ns): 0 reaped, -ETIMEDOUT, -errno. */
static int wait_one(struct rt_reaper *r, struct rt_reaper_child *c, int64_t until,
		    rt_reaper_death_fn on_death, void *ctx)
{
	struct pollfd p = { .fd = r->fd, .events = POLLIN };

	for (;;) {
		int64_t left;
		int got = reap_one(c);

		if (got < 0)
			return got;
		if (got && on_death)
			on_death(ctx, c);
		if (c->reaped)
			return 0;
		left = until - rt_time_mono_ns();
		if (left <= 0)
			return -ETIMEDOUT;
		left = (left + 999999) / 1000000;
		/* the signalfd may be another's to read (sigtimedwait): a short poll all the same */
		if (poll(&p, 1, left < STOP_POLL_MS ? (int)left : STOP_POLL_MS) > 0)
			drain(r);
	}
}

int rt_reaper_stop_one(struct rt_reaper *r, pid_t pid, int sig, int64_t grace_ns,
		       rt_reaper_death_fn on_death, void *ctx)
{
	struct rt_reaper_child *c = find(r, pid);
	int err;

	if (!c)
		return -ESRCH;
	/* a zombie kept (ended) holds its pid: the signal reaches nobody else */
	if (sig && !c->ended) {
		c->killed |= sig == SIGKILL;
		kill(c->pid, sig);
	}
	err = wait_one(r, c, rt_time_mono_ns() + (sig == SIGKILL ? 0 : grace_ns), on_death, ctx);
	if (err != -ETIMEDOUT)
		return err;
	c->killed = true;
	kill(c->pid, SIGKILL);
	return wait_one(r, c, rt_time_mono_ns() + RT_REAPER_KILL_WAIT_NS, on_death, ctx);
}

void rt_reaper_forget_reaped(struct rt_reaper *r)
{
	size_t kept = 0;

	for (size_t i = 0; i < r->n; i++)
		if (!r->child[i].reaped)
			r->child[kept++] = r->child[i];
	r->n = kept;
	for (size_t i = 0; i < r->n; i++)
		r->by_pid[i] = (struct rt_reaper_key){ .pid = r->child[i].pid, .i = i };
	r->unsorted = true;
}

void rt_reaper_describe(const struct rt_reaper_child *c, char *buf, size_t len)
{
	if (!c->ended)
		snprintf(buf, len, "still running");
	else if (c->code == CLD_EXITED)
		snprintf(buf, len, "exited with status %d", c->status);
	else if (c->code == RT_REAPER_UNKNOWN)
		snprintf(buf, len, "ended, but was reaped elsewhere: how is unknown");
	else if (c->code == CLD_KILLED || c->code == CLD_DUMPED)
		snprintf(buf, len, "%s signal %d (%s)",
			 c->code == CLD_DUMPED ? "dumped core on" : "killed by", c->status,
			 strsignal(c->status));
	else
		snprintf(buf, len, "ended abnormally (code %d, status %d)", c->code, c->status);
}
