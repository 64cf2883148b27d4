// SPDX-License-Identifier: GPL-2.0-or-later
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "report.h"
#include "status.h"

#define STATUS_BUF_BYTES(run) (256 + 128 * (size_t)(run)->nthreads)

void cyclictest_status_clean_stale(void)
{
	DIR *d = opendir("/dev/shm");
	struct dirent *e;

	if (!d)
		return;
	while ((e = readdir(d))) {
		char *end;
		long pid;

		if (strncmp(e->d_name, "cyclictest", 10) != 0)
			continue;
		pid = strtol(e->d_name + 10, &end, 10);
		if (end == e->d_name + 10 || *end || pid <= 0)
			continue;
		if (kill((pid_t)pid, 0) < 0 && errno == ESRCH) {
			char name[300];

			snprintf(name, sizeof(name), "/%s", e->d_name);
			shm_unlink(name);
		}
	}
	closedir(d);
}

int cyclictest_status_open(struct ct_status *st, struct ct_run *run, const char *fifo,
			   const char **what)
{
	memset(st, 0, sizeof(*st));
	st->shm_fd = -1;
	st->run = run;
	snprintf(st->shm_name, sizeof(st->shm_name), "/cyclictest%d", (int)getpid());
	st->shm_fd = shm_open(st->shm_name, O_CREAT | O_EXCL | O_RDWR | O_CLOEXEC, 0600);
	if (st->shm_fd < 0) {
		*what = st->shm_name;
		return -errno;
	}
	if (fifo) {
		st->fifo_path = fifo;
		if (mkfifo(fifo, 0644) < 0) {
			int err = -errno;

			*what = fifo;
			cyclictest_status_close(st);
			return err;
		}
		st->fifo_created = true;
	}
	return 0;
}

void cyclictest_status_snapshot(struct ct_status *st)
{
	size_t cap = STATUS_BUF_BYTES(st->run), n;
	char *buf = malloc(cap);

	if (!buf || st->shm_fd < 0) {
		free(buf);
		return;
	}
	n = cyclictest_format_status_block(buf, cap, st->run);
	/* Truncate first: a shorter snapshot must not keep a longer one's tail. */
	if (ftruncate(st->shm_fd, 0) == 0 && pwrite(st->shm_fd, buf, n, 0) == (ssize_t)n)
		(void)!ftruncate(st->shm_fd, (off_t)n);
	free(buf);
}

/* One listing to one reader; a reader gone (EPIPE) loses it, and it is noted. */
static void write_listing(struct ct_status *st, int fd, const char *buf, size_t n)
{
	while (n > 0) {
		ssize_t w = write(fd, buf, n);
		int expected = 0;

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0) {
			atomic_compare_exchange_strong(&st->fifo_error, &expected, -errno);
			return;
		}
		buf += w;
		n -= (size_t)w;
	}
}

/* Serve one status listing to each reader that opens the fifo. */
static void *fifo_thread(void *arg)
{
	struct ct_status *st = arg;
	size_t cap = STATUS_BUF_BYTES(st->run);
	char *buf = malloc(cap);
	const struct timespec pause = { 0, 100 * 1000 * 1000 };

	while (buf && !atomic_load(&st->fifo_stop)) {
		int fd = open(st->fifo_path, O_WRONLY | O_CLOEXEC);
		size_t n;

		if (fd < 0)
			break;
		if (atomic_load(&st->fifo_stop)) {
			close(fd);
			break;
		}
		n = cyclictest_format_status_lines(buf, cap, st->run);
		write_listing(st, fd, buf, n);
		close(fd);
		nanosleep(&pause, NULL);
	}
	free(buf);
	return NULL;
}

int cyclictest_status_start_fifo(struct ct_status *st)
{
	int err;

	if (!st->fifo_created)
		return 0;
	err = pthread_create(&st->fifo_thread, NULL, fifo_thread, st);
	if (err)
		return -err;
	st->fifo_thread_started = true;
	return 0;
}

int cyclictest_status_fifo_error(struct ct_status *st)
{
	return atomic_load(&st->fifo_error);
}

void cyclictest_status_close(struct ct_status *st)
{
	if (st->fifo_thread_started) {
		/* Opening the read end lets a writer blocked in open() go on and see stop. */
		atomic_store(&st->fifo_stop, 1);
		int fd = open(st->fifo_path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
		pthread_join(st->fifo_thread, NULL);
		if (fd >= 0)
			close(fd);
		st->fifo_thread_started = false;
	}
	if (st->fifo_created) {
		unlink(st->fifo_path);
		st->fifo_created = false;
	}
	if (st->shm_fd >= 0) {
		close(st->shm_fd);
		shm_unlink(st->shm_name);
		st->shm_fd = -1;
	}
}
