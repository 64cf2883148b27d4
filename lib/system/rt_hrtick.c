// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>

#include "rt_hrtick.h"

static int find_debugfs(char *dir, size_t len)
{
	char line[1024], mnt[256], type[64];
	FILE *f = fopen("/proc/mounts", "re");
	int err = -ENOENT;

	if (!f)
		return -errno;
	while (err && fgets(line, sizeof(line), f))
		if (sscanf(line, "%*s %255s %63s", mnt, type) == 2 && strcmp(type, "debugfs") == 0) {
			snprintf(dir, len, "%s", mnt);
			err = 0;
		}
	fclose(f);
	return err;
}

/* Is feature `name` listed, and is it on ("NAME") or off ("NO_NAME")? -1 absent. */
static int feature_state(const char *list, const char *name)
{
	size_t n = strlen(name);

	for (const char *p = list; (p = strstr(p, name)); p += n) {
		bool word_end = p[n] == '\0' || p[n] == ' ' || p[n] == '\n';

		if (!word_end)
			continue;
		if (p - list >= 3 && strncmp(p - 3, "NO_", 3) == 0 &&
		    (p - list == 3 || p[-4] == ' '))
			return 0;
		if (p == list || p[-1] == ' ')
			return 1;
	}
	return -1;
}

/* Switch the first of HRTICK_DL, HRTICK listed on: 0, or a negative errno. */
static int switch_on(struct rt_hrtick *s, int fd, const char *list, enum rt_hrtick_state *state)
{
	static const char *const names[] = { "HRTICK_DL", "HRTICK" };

	for (int i = 0; i < 2; i++) {
		int st = feature_state(list, names[i]);
		size_t len = strlen(names[i]);
		ssize_t w;

		if (st < 0)
			continue;
		if (st == 1) {
			*state = RT_HRTICK_WAS_ON;
			return 0;
		}
		if ((w = write(fd, names[i], len)) != (ssize_t)len)
			return w < 0 ? -errno : -EIO;
		snprintf(s->restore, sizeof(s->restore), "NO_%s", names[i]);
		*state = RT_HRTICK_SWITCHED_ON;
		return 0;
	}
	return -ENOTSUP;
}

int rt_hrtick_enable_file(struct rt_hrtick *s, const char *path, enum rt_hrtick_state *state)
{
	char list[4096];
	ssize_t n;
	int fd, err;

	s->restore[0] = '\0';
	snprintf(s->path, sizeof(s->path), "%s", path);
	if ((fd = open(s->path, O_RDWR | O_CLOEXEC)) < 0)
		return -errno;
	n = read(fd, list, sizeof(list) - 1);
	if (n < 0) {
		err = -errno;
		close(fd);
		return err;
	}
	list[n] = '\0';
	err = switch_on(s, fd, list, state);
	close(fd);
	return err;
}

int rt_hrtick_enable(struct rt_hrtick *s, enum rt_hrtick_state *state)
{
	char dir[256], path[512];
	int err;

	s->path[0] = s->restore[0] = '\0';
	if ((err = find_debugfs(dir, sizeof(dir))))
		return err;
	snprintf(path, sizeof(path), "%s/sched/features", dir);
	if (access(path, F_OK)) {
		snprintf(path, sizeof(path), "%s/sched_features", dir);
		if (access(path, F_OK))
			return -ENOENT;
	}
	return rt_hrtick_enable_file(s, path, state);
}

static int write_back(const struct rt_hrtick *s)
{
	size_t len = strlen(s->restore);
	int fd = open(s->path, O_WRONLY | O_CLOEXEC), err = 0;
	ssize_t w;

	if (fd < 0)
		return -errno;
	if ((w = write(fd, s->restore, len)) != (ssize_t)len)
		err = w < 0 ? -errno : -EIO;
	close(fd);
	return err;
}

/* The guard: released (a byte) or orphaned (end of file: the tool died, put it back). */
static void guard_watch(const struct rt_hrtick *s, int fd)
{
	char c;
	ssize_t n;

	do
		n = read(fd, &c, 1);
	while (n < 0 && errno == EINTR);
	if (n != 1)
		write_back(s);
	_exit(0);
}

int rt_hrtick_guard(struct rt_hrtick *s)
{
	int p[2], err;

	if (!s->restore[0])
		return 0;
	if (pipe2(p, O_CLOEXEC) < 0)
		return -errno;
	s->guard_pid = fork();
	if (s->guard_pid < 0) {
		err = -errno;
		close(p[0]);
		close(p[1]);
		return err;
	}
	if (s->guard_pid == 0) {
		int null = open("/dev/null", O_RDWR | O_CLOEXEC);

		close(p[1]);
		setsid(); /* a kill of the tool's process group leaves the guard */
		for (int fd = 0; null >= 0 && fd <= 2; fd++)
			dup2(null, fd); /* hold no reader of the tool's output open */
		guard_watch(s, p[0]);
	}
	close(p[0]);
	s->guard_fd = p[1];
	return 0;
}

/* Only with a guard running: a zeroed struct (guard_pid 0) has no pipe at fd 0. */
static void guard_release(struct rt_hrtick *s)
{
	if (s->guard_pid <= 0)
		return;
	if (s->guard_fd >= 0) {
		ssize_t n;

		do
			n = write(s->guard_fd, "x", 1);
		while (n < 0 && errno == EINTR);
		close(s->guard_fd);
		s->guard_fd = -1;
	}
	while (waitpid(s->guard_pid, NULL, 0) < 0 && errno == EINTR)
		;
	s->guard_pid = -1;
}

int rt_hrtick_restore(struct rt_hrtick *s)
{
	int err = 0;

	if (s->restore[0])
		err = write_back(s);
	s->restore[0] = '\0';
	guard_release(s);
	return err;
}
