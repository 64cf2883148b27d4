/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * HRTICK_DL in debugfs sched/features: runtimes below 2 ms are enforced
 * exactly only with it. Enabled for the run and put back afterwards (2.4
 * left it on), also when the tool is killed: a guard process (below) puts
 * it back when the tool dies without doing so. Prints nothing.
 */
#ifndef RT_HRTICK_H
#define RT_HRTICK_H

#include <stdbool.h>
#include <sys/types.h>

struct rt_hrtick {
	char path[512];       /* the features file, "" when not found */
	char restore[32];     /* what to write back at the end, "" nothing */
	pid_t guard_pid;      /* the guard process, 0 or -1: none */
	int guard_fd;         /* the guard's pipe (only when guard_pid > 0) */
};

#define RT_HRTICK_INIT { .path = "", .restore = "", .guard_pid = -1, .guard_fd = -1 }

enum rt_hrtick_state {
	RT_HRTICK_WAS_ON,       /* on already: nothing to put back */
	RT_HRTICK_SWITCHED_ON,  /* switched on for the run: s->restore is set */
};

/*
 * Make sure HRTICK_DL (or HRTICK on old kernels) is on: 0 and *state, or a
 * negative errno: -ENOENT no debugfs or features file, -ENOTSUP neither
 * feature listed, -EACCES/-EPERM/-EROFS/... the file's own error.
 */
int rt_hrtick_enable(struct rt_hrtick *s, enum rt_hrtick_state *state);

/* The same on the features file at path (debugfs sched/features, or a test's file). */
int rt_hrtick_enable_file(struct rt_hrtick *s, const char *path, enum rt_hrtick_state *state);

/*
 * Start the guard after a switch (nothing to do otherwise): a child process,
 * in a session of its own, that waits on a pipe; if the tool dies before
 * rt_hrtick_restore() (SIGKILL, a crash, exit() on a start-up path), the
 * pipe's end wakes it and it writes s->restore back. Call it while the
 * process has one thread, with the signals the tool takes blocked (the
 * guard keeps the mask: Ctrl-C to the group does not end it).
 * 0 or a negative errno (no guard then; restore still works).
 */
int rt_hrtick_guard(struct rt_hrtick *s);

/* Write back what rt_hrtick_enable() changed and let the guard go: 0 or a negative errno. */
int rt_hrtick_restore(struct rt_hrtick *s);

#endif
