// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <unistd.h>

#include "rt_trace.h"

static int usable(const char *dir)
{
	char p[PATH_MAX];

	snprintf(p, sizeof(p), "%s/tracing_on", dir);
	return access(p, F_OK) == 0;
}

/* First mount point of fstype in /proc/mounts, with suffix appended. */
static int mount_of(const char *fstype, const char *suffix, char *dir, size_t len)
{
	FILE *f = fopen("/proc/mounts", "re");
	char dev[256], mnt[PATH_MAX], type[64];
	int found = 0;

	if (!f)
		return 0;
	while (!found && fscanf(f, "%255s %4095s %63s %*[^\n]", dev, mnt, type) == 3) {
		if (strcmp(type, fstype) == 0) {
			snprintf(dir, len, "%s%s", mnt, suffix);
			found = usable(dir);
		}
	}
	fclose(f);
	return found;
}

int rt_trace_find(char *dir, size_t len)
{
	static const char sys_tracing[] = "/sys/kernel/tracing";

	if (mount_of("tracefs", "", dir, len))
		return 0;
	if (mount_of("debugfs", "/tracing", dir, len))
		return 0;
	/* Not mounted: mount tracefs at its standard place. */
	if (mount("nodev", sys_tracing, "tracefs", 0, NULL) == 0 && usable(sys_tracing)) {
		snprintf(dir, len, "%s", sys_tracing);
		return 0;
	}
	return errno ? -errno : -ENOENT;
}

int rt_trace_open(struct rt_trace *t)
{
	char p[PATH_MAX + 32];
	int err;

	t->marker_fd = -1;
	t->on_fd = -1;
	err = rt_trace_find(t->dir, sizeof(t->dir));
	if (err)
		return err;
	snprintf(p, sizeof(p), "%s/trace_marker", t->dir);
	t->marker_fd = open(p, O_WRONLY | O_CLOEXEC);
	snprintf(p, sizeof(p), "%s/tracing_on", t->dir);
	t->on_fd = open(p, O_RDWR | O_CLOEXEC);
	if (t->marker_fd < 0 || t->on_fd < 0) {
		err = -errno;
		rt_trace_close(t);
		return err;
	}
	return 0;
}

int rt_trace_mark(struct rt_trace *t, const char *msg)
{
	size_t n = strlen(msg);

	if (t->marker_fd < 0)
		return -EBADF;
	return write(t->marker_fd, msg, n) == (ssize_t)n ? 0 : -errno;
}

int rt_trace_stop(struct rt_trace *t)
{
	if (t->on_fd < 0)
		return -EBADF;
	return pwrite(t->on_fd, "0\n", 2, 0) == 2 ? 0 : -errno;
}

int rt_trace_is_on(const struct rt_trace *t)
{
	char c;

	if (t->on_fd < 0)
		return -EBADF;
	if (pread(t->on_fd, &c, 1, 0) != 1)
		return -EIO;
	return c == '1';
}

void rt_trace_close(struct rt_trace *t)
{
	if (t->marker_fd >= 0)
		close(t->marker_fd);
	if (t->on_fd >= 0)
		close(t->on_fd);
	t->marker_fd = -1;
	t->on_fd = -1;
}
