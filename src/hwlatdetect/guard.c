// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <unistd.h>
#include <sys/wait.h>
#include <time.h>

#include "guard.h"

/*
 * The pipe's end can reach us before the dying hwlatdetect lets go of its
 * trace_pipe (exit releases a process's files in an order of its own), and
 * the kernel refuses a new current_tracer with EBUSY while trace_pipe is
 * open. All its files are released before we are reparented: wait for
 * that, bounded, then retry for a while what is still busy.
 */
static void wait_parent_gone(pid_t parent)
{
	const struct timespec tick = { .tv_nsec = 10 * 1000 * 1000 };

	for (int i = 0; i < 1000 && getppid() == parent; i++)
		nanosleep(&tick, NULL);
}

static void restore_all(struct hwlat_tracer *t)
{
	const struct timespec tick = { .tv_nsec = 20 * 1000 * 1000 };
	enum hwlat_file failed;

	for (int f = 0; f < HWLAT_NFILES; f++)
		t->written[f] = true;
	t->pipe_fd = -1;
	/* put_back clears what it restored: a retry writes only the rest */
	for (int i = 0; i < 250 && hwlat_tracer_restore(t, &failed) == -EBUSY; i++)
		nanosleep(&tick, NULL);
}

static void watch(int fd, pid_t parent, struct hwlat_tracer *t)
{
	char c;
	ssize_t n;

	do
		n = read(fd, &c, 1);
	while (n < 0 && errno == EINTR);
	if (n == 1)
		_exit(0); /* released: hwlatdetect restored them */
	/* hwlatdetect is gone without restoring: every saved value back */
	wait_parent_gone(parent);
	restore_all(t);
	_exit(0);
}

int hwlat_guard_start(struct hwlat_guard *g, const struct hwlat_tracer *t)
{
	pid_t parent = getpid();
	int p[2];

	g->pid = -1;
	g->fd = -1;
	if (pipe2(p, O_CLOEXEC) < 0)
		return -errno;
	g->pid = fork();
	if (g->pid < 0) {
		int err = -errno;

		close(p[0]);
		close(p[1]);
		return err;
	}
	if (g->pid == 0) {
		/* the signals hwlatdetect takes stay blocked here: only its end counts */
		struct hwlat_tracer copy = *t;
		int null = open("/dev/null", O_RDWR | O_CLOEXEC);

		close(p[1]);
		/* hold no reader of hwlatdetect's output open */
		for (int fd = 0; null >= 0 && fd <= 2; fd++)
			dup2(null, fd);
		watch(p[0], parent, &copy);
	}
	close(p[0]);
	g->fd = p[1];
	return 0;
}

void hwlat_guard_release(struct hwlat_guard *g)
{
	if (g->fd >= 0) {
		ssize_t n;

		do
			n = write(g->fd, "x", 1);
		while (n < 0 && errno == EINTR);
		close(g->fd);
		g->fd = -1;
	}
	if (g->pid > 0)
		while (waitpid(g->pid, NULL, 0) < 0 && errno == EINTR)
			;
	g->pid = -1;
}
