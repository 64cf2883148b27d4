// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "rt_time.h"

#include "reader.h"
#include "snap.h"

#define POLL_MS 5

struct pending {
	int obj_fd;
	int pidfd;
	int wd;
	bool changed;
	bool waiting;
	struct stat before;
};

static int pidfd_open_pid(pid_t pid)
{
#ifdef SYS_pidfd_open
	return (int)syscall(SYS_pidfd_open, pid, 0);
#else
	(void)pid;
	errno = ENOSYS;
	return -1;
#endif
}

/* SIGUSR2 to the process behind pidfd, else (no pidfds) to pid: 0 or -errno. */
static int send_usr2(int pidfd, pid_t pid)
{
#ifdef SYS_pidfd_send_signal
	if (pidfd >= 0)
		return syscall(SYS_pidfd_send_signal, pidfd, SIGUSR2, NULL, 0) == 0 ? 0 : -errno;
#endif
	(void)pidfd;
	return kill(pid, SIGUSR2) == 0 ? 0 : -errno;
}


static bool stat_changed(const struct stat *a, const struct stat *b)
{
	return a->st_size != b->st_size || a->st_mtim.tv_sec != b->st_mtim.tv_sec ||
	       a->st_mtim.tv_nsec != b->st_mtim.tv_nsec || a->st_ctim.tv_sec != b->st_ctim.tv_sec ||
	       a->st_ctim.tv_nsec != b->st_ctim.tv_nsec;
}

/* Open the object, watch it, check the process and signal it: true when sent. */
static bool start(const char *dir, struct gcs_snap *s, struct pending *p, int ino_fd)
{
	char path[256];
	int takes;

	/* The pidfd first: the check below then vouches for the process it names. */
	p->pidfd = pidfd_open_pid(s->in->pid);
	if (gcs_check(dir, s->in) != GCS_LIVE) {
		s->result = GCS_SNAP_NOT_LIVE;
		return false;
	}
	/* a process that does not take SIGUSR2 would be ended by it */
	takes = s->in->locked ? 1 : gcs_takes_usr2(s->in->pid);
	if (takes != 1) {
		s->err = takes < 0 ? -takes : 0;
		s->result = takes < 0 ? GCS_SNAP_SIGNAL : GCS_SNAP_NO_HANDLER;
		return false;
	}
	snprintf(path, sizeof(path), "%s/%s", dir, s->in->name);
	p->obj_fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (p->obj_fd < 0 || fstat(p->obj_fd, &p->before) < 0) {
		s->result = GCS_SNAP_OPEN;
		s->err = errno;
		return false;
	}
	if (p->before.st_dev != s->in->dev || p->before.st_ino != s->in->ino) {
		s->result = GCS_SNAP_NOT_LIVE; /* replaced since the check */
		s->in->state = GCS_NOT_HELD;
		return false;
	}
	p->wd = ino_fd >= 0 ? inotify_add_watch(ino_fd, path, IN_MODIFY) : -1;
	if ((s->err = -send_usr2(p->pidfd, s->in->pid))) {
		s->result = s->err == ESRCH ? GCS_SNAP_EXITED : GCS_SNAP_SIGNAL;
		return false;
	}
	p->waiting = true;
	return true;
}

/* A new complete block, or the process gone: no longer waiting. */
static void look(struct gcs_snap *s, struct pending *p)
{
	struct stat st;
	char *text;
	size_t len;

	if (!p->changed && fstat(p->obj_fd, &st) == 0 && stat_changed(&st, &p->before))
		p->changed = true;
	if (p->changed && gcs_read_object(p->obj_fd, &text, &len) == 0) {
		bool done = gcs_block_complete(text, len);

		free(text);
		if (done) {
			s->result = GCS_SNAP_OK;
			p->waiting = false;
			return;
		}
	}
	if (p->pidfd >= 0) {
		struct pollfd pfd = { .fd = p->pidfd, .events = POLLIN };

		if (poll(&pfd, 1, 0) == 1) {
			s->result = GCS_SNAP_EXITED;
			p->waiting = false;
		}
	} else if (kill(s->in->pid, 0) < 0 && errno == ESRCH) { /* no pidfds here */
		s->result = GCS_SNAP_EXITED;
		p->waiting = false;
	}
}

/* Mark the objects whose watch fired. */
static void drain_events(int ino_fd, struct pending *p, size_t n)
{
	char buf[4096] __attribute__((aligned(__alignof__(struct inotify_event))));
	ssize_t len;

	while ((len = read(ino_fd, buf, sizeof(buf))) > 0) {
		for (char *ptr = buf; ptr < buf + len;) {
			const struct inotify_event *ev = (const struct inotify_event *)ptr;

			for (size_t i = 0; i < n; i++)
				if (p[i].wd >= 0 && p[i].wd == ev->wd)
					p[i].changed = true;
			ptr += sizeof(*ev) + ev->len;
		}
	}
}

void gcs_snapshot(const char *dir, struct gcs_snap *v, size_t n)
{
	struct pending *p = calloc(n ? n : 1, sizeof(*p));
	int ino_fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
	size_t waiting = 0;
	int64_t deadline;

	for (size_t i = 0; i < n; i++) {
		v[i].result = GCS_SNAP_OPEN;
		v[i].err = ENOMEM;
		if (!p)
			continue;
		p[i].obj_fd = p[i].pidfd = p[i].wd = -1;
		v[i].err = 0;
		waiting += start(dir, &v[i], &p[i], ino_fd);
	}
	deadline = rt_time_mono_ms() + GCS_SNAP_WAIT_MS;
	while (waiting) {
		int64_t left = deadline - rt_time_mono_ms();
		struct pollfd pfd = { .fd = ino_fd, .events = POLLIN };

		waiting = 0;
		for (size_t i = 0; i < n; i++) {
			if (!p[i].waiting)
				continue;
			look(&v[i], &p[i]);
			if (p[i].waiting && left <= 0) {
				v[i].result = GCS_SNAP_TIMEOUT;
				p[i].waiting = false;
			}
			waiting += p[i].waiting;
		}
		if (!waiting)
			break;
		/* a watch wakes us at once; the stat check covers a missing inotify */
		if (poll(&pfd, ino_fd >= 0 ? 1 : 0, (int)(left < POLL_MS ? left : POLL_MS)) > 0)
			drain_events(ino_fd, p, n);
	}
	for (size_t i = 0; p && i < n; i++) {
		if (p[i].obj_fd >= 0)
			close(p[i].obj_fd);
		if (p[i].pidfd >= 0)
			close(p[i].pidfd);
	}
	if (ino_fd >= 0)
		close(ino_fd);
	free(p);
}
