// SPDX-License-Identifier: GPL-2.0-or-later
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rt_owner.h"

void rt_owner_self(struct rt_owner *o)
{
	struct stat st;

	o->pid = getpid();
	o->pidns_ino = stat("/proc/self/ns/pid", &st) == 0 ? (uint64_t)st.st_ino
							     : RT_OWNER_INIT_PIDNS;
}

void rt_owner_prefix(char buf[RT_OWNER_PREFIX_MAX], const struct rt_owner *o)
{
	if (o->pidns_ino == RT_OWNER_INIT_PIDNS)
		buf[0] = '\0';
	else
		snprintf(buf, RT_OWNER_PREFIX_MAX, "ns%" PRIu64 "-", o->pidns_ino);
}

/* Decimal digits only (no sign, no space), in range: the end, else NULL. */
static const char *number(const char *s, uint64_t max, uint64_t *v)
{
	uint64_t n = 0;

	if (!isdigit((unsigned char)*s) || (*s == '0' && isdigit((unsigned char)s[1])))
		return NULL;
	for (; isdigit((unsigned char)*s); s++) {
		unsigned d = (unsigned)(*s - '0');

		if (n > (max - d) / 10)
			return NULL;
		n = n * 10 + d;
	}
	*v = n;
	return s;
}

int rt_owner_parse(const char *name, const char *stem, struct rt_owner *o, const char **tail)
{
	size_t len = strlen(stem);
	uint64_t ino = RT_OWNER_INIT_PIDNS, pid;
	const char *s = name;

	if (strncmp(s, "ns", 2) == 0 && isdigit((unsigned char)s[2])) {
		s = number(s + 2, UINT64_MAX, &ino);
		if (!s || *s != '-' || ino == RT_OWNER_INIT_PIDNS)
			return -EINVAL;
		s++;
	}
	if (strncmp(s, stem, len) != 0)
		return -EINVAL;
	s = number(s + len, INT_MAX, &pid);
	if (!s || pid == 0)
		return -EINVAL;
	o->pid = (pid_t)pid;
	o->pidns_ino = ino;
	*tail = s;
	return 0;
}

/* Is path still the object open as fd? */
static bool same_object(int fd, const char *path)
{
	struct stat a, b;

	return fstat(fd, &a) == 0 && stat(path, &b) == 0 && a.st_dev == b.st_dev &&
	       a.st_ino == b.st_ino;
}

int rt_owner_hold(int fd, const char *path)
{
	if (flock(fd, LOCK_EX | LOCK_NB) < 0)
		return errno == EWOULDBLOCK ? -EBUSY : -errno;
	if (path && !same_object(fd, path)) {
		flock(fd, LOCK_UN);
		return -EAGAIN;
	}
	return 0;
}

/*
 * Is the unlocked object of o provably left by a run that is gone? A name
 * of another namespace with a prefix is only ever ours, locked while its
 * run lives: a free lock proves it. A name of our own namespace needs a
 * dead pid too (rt-tests 2.4 never locks). An unprefixed name seen from a
 * child namespace may be a live 2.4 run's on the host, whose pid cannot be
 * looked up from here: never gone (issue 29).
 */
static bool unlocked_is_gone(const struct rt_owner *o, const struct rt_owner *self)
{
	if (o->pidns_ino == self->pidns_ino)
		return o->pid != self->pid && kill(o->pid, 0) < 0 && errno == ESRCH;
	return o->pidns_ino != RT_OWNER_INIT_PIDNS;
}

bool rt_owner_gone(int fd, const char *path, const struct rt_owner *o)
{
	struct rt_owner self;

	if (flock(fd, LOCK_EX | LOCK_NB) < 0)
		return false;
	rt_owner_self(&self);
	if (unlocked_is_gone(o, &self) && same_object(fd, path))
		return true;
	flock(fd, LOCK_UN);
	return false;
}

/* A descriptor flock can take (O_PATH cannot); O_DIRECTORY checks the kind. */
static int open_entry(const char *path, enum rt_owner_kind kind)
{
	return open(path, O_RDONLY | O_CLOEXEC | (kind == RT_OWNER_DIRS ? O_DIRECTORY : 0));
}

int rt_owner_clean(const char *dir, const char *stem, enum rt_owner_kind kind,
		   bool (*tail_ok)(const char *tail))
{
	DIR *d = opendir(dir);
	struct dirent *e;

	if (!d)
		return -errno;
	while ((e = readdir(d))) {
		char path[PATH_MAX];
		struct rt_owner o;
		const char *tail;
		int fd;

		if (rt_owner_parse(e->d_name, stem, &o, &tail) ||
		    (tail_ok ? !tail_ok(tail) : *tail != '\0') ||
		    (size_t)snprintf(path, sizeof(path), "%s/%s", dir, e->d_name) >= sizeof(path))
			continue;
		if ((fd = open_entry(path, kind)) < 0)
			continue;
		if (rt_owner_gone(fd, path, &o))
			(void)(kind == RT_OWNER_DIRS ? rmdir(path) : unlink(path));
		close(fd);
	}
	closedir(d);
	return 0;
}
