// SPDX-License-Identifier: GPL-2.0-or-later
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

#include "rt_cyclic_status.h"

#include "rt_owner.h"

#include "rt_cyclic_report.h"

#define STATUS_BUF_BYTES(run) (256 + 128 * (size_t)(run)->nthreads)

/* The object, created and locked; tried again only while a cleaner has it. */
static int create_shm(struct ct_status *st)
{
	char path[sizeof(st->shm_name) + 8];
	int err = -EAGAIN;

	snprintf(path, sizeof(path), "/dev/shm%s", st->shm_name);
	for (int try = 0; try < RT_OWNER_RETRIES; try++) {
		if (st->shm_fd < 0) {
			st->shm_fd = shm_open(st->shm_name, O_CREAT | O_EXCL | O_RDWR | O_CLOEXEC,
					      0600);
			if (st->shm_fd < 0 && (errno != EEXIST || try == 0))
				return -errno; /* at first: one we did not create */
			if (st->shm_fd < 0) {
				usleep(RT_OWNER_RETRY_US); /* the cleaner has not removed it yet */
				continue;
			}
		}
		err = rt_owner_hold(st->shm_fd, path);
		if (!err)
			return 0;
		if (err != -EBUSY) {
			close(st->shm_fd); /* a cleaner removed it: anew */
			st->shm_fd = -1;
			if (err != -EAGAIN)
				return err;
		}
		usleep(RT_OWNER_RETRY_US);
	}
	if (st->shm_fd >= 0) {
		close(st->shm_fd);
		st->shm_fd = -1;
	}
	return err;
}

int cyclictest_status_open(struct ct_status *st, struct ct_run *run, const char *fifo,
			   const char **what)
{
	struct rt_owner self;
	char prefix[RT_OWNER_PREFIX_MAX];
	int err;

	memset(st, 0, sizeof(*st));
	st->shm_fd = -1;
	st->run = run;
	rt_owner_self(&self);
	rt_owner_prefix(prefix, &self);
	snprintf(st->shm_name, sizeof(st->shm_name), "/%scyclictest%d", prefix, (int)self.pid);
	if ((err = create_shm(st))) {
		*what = st->shm_name;
		return err;
	}
	if (fifo) {
		st->fifo_path = fifo;
		if (mkfifo(fifo, 0644) < 0) {
			err = -errno;
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
	size_t cap, n;
	char *buf;

	if (st->shm_fd < 0) /* none made (cyclicdeadline) */
		return;
	cap = STATUS_BUF_BYTES(st->run);
	buf = malloc(cap);
	if (!buf)
		return;
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
		/* our fifo, or nothing: a link put in its place is not written through */
		int fd = open(st->fifo_path, O_WRONLY | O_CLOEXEC | O_NOFOLLOW);
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
		shm_unlink(st->shm_name); /* locked until then: no cleaner races us */
		close(st->shm_fd);
		st->shm_fd = -1;
	}
}
