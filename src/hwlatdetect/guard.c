// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <unistd.h>
#include <sys/wait.h>

#include "guard.h"

static void watch(int fd, struct hwlat_tracer *t)
{
	enum hwlat_file failed;
	char c;
	ssize_t n;

	do
		n = read(fd, &c, 1);
	while (n < 0 && errno == EINTR);
	if (n == 1)
		_exit(0); /* released: hwlatdetect restored them */
	/* hwlatdetect is gone without restoring: every saved value back */
	for (int f = 0; f < HWLAT_NFILES; f++)
		t->written[f] = true;
	t->pipe_fd = -1;
	hwlat_tracer_restore(t, &failed);
	_exit(0);
}

int hwlat_guard_start(struct hwlat_guard *g, const struct hwlat_tracer *t)
{
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
		watch(p[0], &copy);
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
