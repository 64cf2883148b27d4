// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "child.h"

/* In the child, between fork and exec: async-signal-safe calls only. */
static void exec_child(const struct rtq_spawn *s, int null_fd, const cpu_set_t *set, int err_fd)
{
	sigset_t none;
	int err;

	sigemptyset(&none);
	signal(SIGPIPE, SIG_DFL);
	sigprocmask(SIG_SETMASK, &none, NULL);
	if ((set && sched_setaffinity(0, sizeof(*set), set)) || fchdir(s->dirfd) ||
	    dup2(null_fd, 0) < 0 || dup2(s->log_fd, 1) < 0 || dup2(s->log_fd, 2) < 0) {
		err = errno;
	} else {
		execv(s->path, s->argv);
		err = errno;
	}
	if (write(err_fd, &err, sizeof(err)) < 0)
		_exit(127);
	_exit(127);
}

static void build_set(const struct rt_cpulist *cpus, cpu_set_t *set)
{
	CPU_ZERO(set);
	for (unsigned i = 0; i < cpus->count; i++)
		CPU_SET(cpus->cpu[i], set);
}

/* The pipe closes at exec: no byte means the program runs; else its errno, and reap it. */
static int exec_result(struct rt_reaper *r, pid_t pid, int fd)
{
	int child_err = 0;
	ssize_t n;

	do
		n = read(fd, &child_err, sizeof(child_err));
	while (n < 0 && errno == EINTR);
	if (n != (ssize_t)sizeof(child_err))
		return 0;
	rt_reaper_stop_one(r, pid, 0, 0, NULL, NULL);
	return child_err > 0 ? -child_err : -EIO;
}

pid_t rtq_child_spawn(struct rt_reaper *r, const struct rtq_spawn *s)
{
	int pipefd[2], null_fd, err;
	cpu_set_t set;
	pid_t pid;

	if (s->cpus)
		build_set(s->cpus, &set);
	if ((null_fd = open("/dev/null", O_RDONLY | O_CLOEXEC)) < 0)
		return -errno;
	if (pipe2(pipefd, O_CLOEXEC)) {
		err = -errno;
		close(null_fd);
		return err;
	}
	pid = rt_reaper_fork(r, 0, s->path);
	if (pid == 0)
		exec_child(s, null_fd, s->cpus ? &set : NULL, pipefd[1]);
	close(pipefd[1]);
	close(null_fd);
	err = pid > 0 ? exec_result(r, pid, pipefd[0]) : pid;
	close(pipefd[0]);
	return err ? err : pid;
}

int rtq_child_exit_code(struct rt_reaper *r, pid_t pid)
{
	const struct rt_reaper_child *c = pid > 0 ? rt_reaper_find(r, pid) : NULL;

	return c ? rt_reaper_exit_code(c) : -1;
}
