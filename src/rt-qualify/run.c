// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "rt_owner.h"
#include "rt_prog.h"
#include "rt_signal.h"
#include "rt_time.h"
#include "rt_tracer.h"

#include "loadtime.h"
#include "progress.h"
#include "run.h"

#define TICK_TTY_NS (500 * 1000 * 1000LL)
#define TICK_NS (5 * 1000000000LL)

static bool is_stop(int sig)
{
	return sig == SIGINT || sig == SIGTERM || sig == SIGHUP;
}

bool rtq_stop_requested(struct rtq_plan *p)
{
	int sig;

	while (!p->stop_signal && (sig = rt_signal_wait(p->signals, 0)) > 0)
		if (is_stop(sig))
			p->stop_signal = sig;
	return p->stop_signal != 0;
}

int rtq_open_log(const struct rtq_plan *p, const char *file)
{
	char name[160];
	int fd;

	snprintf(name, sizeof(name), "%s.log", file);
	/* never through a symbolic link: as root it would truncate its target */
	fd = openat(p->dirfd, name, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0644);
	return fd < 0 ? -errno : fd;
}

/* Reap what ended; has pid been reaped? (The load's record is copied as it ends.) */
static bool reaped(struct rtq_plan *p, pid_t pid)
{
	const struct rt_reaper_child *c;

	rt_reaper_collect(p->reaper, false, NULL, NULL);
	c = rt_reaper_find(p->reaper, pid);
	return !c || c->reaped;
}

static void copy_load_record(struct rtq_plan *p)
{
	const struct rt_reaper_child *c = rt_reaper_find(p->reaper, p->load.child.pid);

	if (c)
		p->load.child = *c;
}

static void check_load(struct rtq_plan *p)
{
	struct rtq_load_run *l = &p->load;

	if (l->started && !l->stopped && !l->ended_early && reaped(p, l->child.pid)) {
		copy_load_record(p);
		l->ended_early = true;
		l->exit_code = rt_reaper_exit_code(&l->child);
	}
}

/* SIGINT: the tool writes what it measured. (Not reaped: the pid is still its.) */
static void signal_tool(struct rtq_plan *p, pid_t pid)
{
	if (!reaped(p, pid))
		kill(pid, SIGINT);
}

/*
 * Wait for the signalled tool; SIGKILL after the grace. A killed tool could
 * not remove its tracing instance or shm object: they are removed here, as
 * its next run would (only those provably left by a run that is gone).
 */
static void end_tool(struct rtq_plan *p, int i, pid_t pid)
{
	const struct rt_reaper_child *c;

	rt_reaper_stop_one(p->reaper, pid, 0, RTQ_STOP_GRACE_NS, NULL, NULL);
	c = rt_reaper_find(p->reaper, pid);
	if (!c || !c->killed)
		return;
	rt_tracer_clean_stale(p->step[i].tool);
	(void)rt_owner_clean("/dev/shm", p->step[i].tool, RT_OWNER_FILES, NULL);
}

/* Sleep until the tool ends, a stop signal, or its time is far over. */
static void wait_step(struct rtq_plan *p, int i, pid_t pid, int64_t t0)
{
	struct rtq_step *st = &p->step[i];
	int64_t limit = t0 + (int64_t)(st->duration_s + RTQ_STEP_GRACE_S) * RT_NSEC_PER_SEC;
	int sig;

	for (;;) {
		sig = rt_signal_wait(p->signals, p->tty ? TICK_TTY_NS : TICK_NS);
		if (is_stop(sig)) {
			p->stop_signal = sig;
			st->stopped = true;
			signal_tool(p, pid);
			/* then the load: the tool's ending must not wait behind it */
			rtq_load_mark(p, false);
			rtq_load_stop(p);
			end_tool(p, i, pid);
			return;
		}
		if (reaped(p, pid))
			return;
		check_load(p);
		if (rt_time_mono_ns() > limit) {
			snprintf(st->note, sizeof(st->note), "%s did not end %d s after its "
				 "duration: stopped", st->tool, RTQ_STEP_GRACE_S);
			signal_tool(p, pid);
			end_tool(p, i, pid);
			return;
		}
		rtq_progress_live(p, i, rt_time_mono_ns() - t0);
	}
}

int rtq_run_step(struct rtq_plan *p, int i, const struct rtq_argv *a)
{
	struct rtq_step *st = &p->step[i];
	struct rtq_spawn s = { .path = a->v[0], .argv = a->v, .dirfd = p->dirfd };
	int64_t t0;
	pid_t pid;

	if ((s.log_fd = rtq_open_log(p, st->file)) < 0) {
		rt_prog_error_errno(-s.log_fd, "cannot create %s/%s.log", p->dir, st->file);
		return RT_EXIT_FAILURE;
	}
	t0 = rt_time_mono_ns();
	pid = rtq_child_spawn(p->reaper, &s);
	close(s.log_fd);
	if (pid < 0) {
		rt_prog_error_errno((int)-pid, "cannot run %s", a->v[0]);
		return RT_EXIT_FAILURE;
	}
	st->ran = true;
	rtq_progress_live(p, i, 0);
	wait_step(p, i, pid, t0);
	st->elapsed_s = (double)(rt_time_mono_ns() - t0) / RT_NSEC_PER_SEC;
	st->exit_code = rtq_child_exit_code(p->reaper, pid);
	return 0;
}

int rtq_load_start(struct rtq_plan *p, uint64_t seconds)
{
	struct rtq_load_run *l = &p->load;
	struct rtq_spawn s = { .path = l->path, .dirfd = p->dirfd, .cpus = &p->load_cpus };
	struct rtq_argv a;
	pid_t pid;

	if (p->cfg->load == RTQ_LOAD_NONE)
		return 0;
	if (rtq_load_argv(p, l->path, seconds, &a)) {
		rt_prog_error("the load's command line is too long");
		return RT_EXIT_FAILURE;
	}
	s.argv = a.v;
	if ((s.log_fd = rtq_open_log(p, p->cfg->load == RTQ_LOAD_STRESS_NG ? "load-stress-ng"
									     : "load-hackbench")) < 0) {
		rt_prog_error_errno(-s.log_fd, "cannot create the load's log in %s", p->dir);
		return RT_EXIT_FAILURE;
	}
	pid = rtq_child_spawn(p->reaper, &s);
	close(s.log_fd);
	if (pid < 0) {
		rt_prog_error_errno((int)-pid, "cannot run the load %s", l->path);
		return RT_EXIT_FAILURE;
	}
	memset(&l->child, 0, sizeof(l->child));
	l->child.pid = pid;
	l->started = true;
	return 0;
}

void rtq_load_mark(struct rtq_plan *p, bool start)
{
	struct rtq_load_run *l = &p->load;
	int64_t now = rt_time_mono_ns(), ns;

	if (l->stopped)
		return; /* the end was marked as it stopped */
	if (start)
		l->measure_start_ns = now;
	else
		l->measure_end_ns = now;
	if (!l->started)
		return;
	check_load(p);
	if (l->ended_early || rtq_load_cpu_ns(l->child.pid, &ns)) {
		l->cpu_known = false;
		return;
	}
	if (start) {
		l->cpu_at_start_ns = ns;
		l->cpu_known = true;
	} else {
		l->cpu_at_end_ns = ns;
	}
}

void rtq_load_stop(struct rtq_plan *p)
{
	struct rtq_load_run *l = &p->load;

	if (!l->started || l->stopped)
		return;
	check_load(p);
	l->stopped = true;
	rt_reaper_stop_one(p->reaper, l->child.pid, SIGTERM, RTQ_LOAD_STOP_GRACE_NS, NULL, NULL);
	copy_load_record(p);
	if (!l->ended_early)
		l->exit_code = rt_reaper_exit_code(&l->child);
}
