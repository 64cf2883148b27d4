// SPDX-License-Identifier: GPL-2.0-or-later
#include <dirent.h>
#include <inttypes.h>
#include <signal.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rt_owner.h"

#include "instance.h"

/* A name of this namespace's cyclictest: "cyclictest<PID>" or "ns<OURS>-cyclictest<PID>". */
static bool ours(const char *name, const struct rt_owner *self, pid_t *pid)
{
	struct rt_owner o;
	const char *tail;

	if (strlen(name) >= GCS_NAME_MAX || rt_owner_parse(name, "cyclictest", &o, &tail) || *tail)
		return false;
	if (o.pidns_ino != RT_OWNER_INIT_PIDNS && o.pidns_ino != self->pidns_ino)
		return false;
	*pid = o.pid;
	return true;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct gcs_instance *)a)->name, ((const struct gcs_instance *)b)->name);
}

int gcs_find(const char *dir, struct gcs_instance **list, size_t *n)
{
	struct gcs_instance *v = NULL;
	size_t count = 0, cap = 0;
	struct rt_owner self;
	struct dirent *e;
	DIR *d = opendir(dir);

	if (!d)
		return -errno;
	rt_owner_self(&self);
	while ((e = readdir(d))) {
		pid_t pid;

		if (!ours(e->d_name, &self, &pid))
			continue;
		if (count == cap) {
			struct gcs_instance *nv;

			cap = cap ? cap * 2 : 8;
			nv = realloc(v, cap * sizeof(*v));
			if (!nv) {
				free(v);
				closedir(d);
				return -ENOMEM;
			}
			v = nv;
		}
		memset(&v[count], 0, sizeof(v[count]));
		v[count].pid = pid;
		snprintf(v[count].name, sizeof(v[count].name), "%s", e->d_name);
		count++;
	}
	closedir(d);
	if (count)
		qsort(v, count, sizeof(*v), by_name);
	*list = v;
	*n = count;
	return 0;
}

/* comm of pid, newline dropped: 0 or -errno. */
static int read_comm(pid_t pid, char *comm, size_t size)
{
	char path[64];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/comm", (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, comm, size - 1);
	if (n < 0) {
		int err = -errno;

		close(fd);
		return err;
	}
	close(fd);
	comm[n] = '\0';
	comm[strcspn(comm, "\n")] = '\0';
	return 0;
}

/* 2.4's binary, ours, or Debian's diverted one (comm "cyclictest.rt-t"). */
static bool is_cyclictest(const char *comm)
{
	return strcmp(comm, "cyclictest") == 0 || strncmp(comm, "cyclictest.", 11) == 0;
}

/* Is the descriptor name of pid's fdinfo directory fdinfo flock()ed (our cyclictest's lock)? */
static bool flocked(int fdinfo, const char *name)
{
	char buf[2048];
	ssize_t n;
	int fd = openat(fdinfo, name, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return false;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return false;
	buf[n] = '\0';
	return strstr(buf, "\nlock:") && strstr(buf, " FLOCK ");
}

/* Does pid hold the object dev/ino open (and flock()ed: *locked): 1, 0, or -errno. */
static int holds(pid_t pid, dev_t dev, ino_t ino, bool *locked)
{
	char path[64];
	struct dirent *e;
	DIR *d;
	int found = 0;

	*locked = false;
	snprintf(path, sizeof(path), "/proc/%d/fd", (int)pid);
	d = opendir(path);
	if (!d)
		return -errno;
	while (!found && (e = readdir(d))) {
		struct stat st;

		if (e->d_name[0] == '.')
			continue;
		/* follows the link to what the descriptor is open on */
		if (fstatat(dirfd(d), e->d_name, &st, 0) == 0 && st.st_dev == dev &&
		    st.st_ino == ino) {
			int info;

			found = 1;
			snprintf(path, sizeof(path), "/proc/%d/fdinfo", (int)pid);
			info = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
			if (info >= 0) {
				*locked = flocked(info, e->d_name);
				close(info);
			}
		}
	}
	/* a process that is gone reads as an empty directory */
	snprintf(path, sizeof(path), "/proc/%d/fd", (int)pid);
	if (!found && access(path, F_OK) != 0)
		found = -ESRCH;
	closedir(d);
	return found;
}

static enum gcs_state set(struct gcs_instance *in, enum gcs_state s, int err)
{
	in->state = s;
	in->err = err;
	return s;
}

enum gcs_state gcs_check(const char *dir, struct gcs_instance *in)
{
	char path[256];
	struct stat st;
	int err;

	in->comm[0] = '\0';
	err = read_comm(in->pid, in->comm, sizeof(in->comm));
	if (err == -ENOENT || err == -ESRCH)
		return set(in, in->name[0] ? GCS_GONE : GCS_NO_OBJECT, 0);
	if (err)
		return set(in, GCS_NO_ACCESS, -err);
	if (!in->name[0])
		return set(in, is_cyclictest(in->comm) ? GCS_NO_OBJECT : GCS_NOT_CYCLICTEST, 0);
	if (!is_cyclictest(in->comm))
		return set(in, GCS_NOT_CYCLICTEST, 0);
	snprintf(path, sizeof(path), "%s/%s", dir, in->name);
	if (lstat(path, &st) < 0 || !S_ISREG(st.st_mode))
		return set(in, GCS_NO_OBJECT, 0);
	in->dev = st.st_dev;
	in->ino = st.st_ino;
	err = holds(in->pid, st.st_dev, st.st_ino, &in->locked);
	if (err == -ENOENT || err == -ESRCH)
		return set(in, GCS_GONE, 0);
	if (err < 0)
		return set(in, GCS_NO_ACCESS, -err);
	return set(in, err ? GCS_LIVE : GCS_NOT_HELD, 0);
}

/* The hex mask after "\nNAME:\t" in status: 0, or -EINVAL. */
static int mask_of(const char *status, const char *name, uint64_t *mask)
{
	char key[16];
	const char *p;
	char *end;

	snprintf(key, sizeof(key), "\n%s:", name);
	p = strstr(status, key);
	if (!p)
		return -EINVAL;
	p += strlen(key);
	while (*p == ' ' || *p == '\t')
		p++;
	errno = 0;
	*mask = strtoull(p, &end, 16);
	if (end == p || errno || (*end != '\n' && *end != '\0'))
		return -EINVAL;
	return 0;
}

int gcs_takes_usr2_status(const char *status)
{
	const uint64_t bit = UINT64_C(1) << (SIGUSR2 - 1);
	uint64_t blk, cgt;

	if (mask_of(status, "SigBlk", &blk) || mask_of(status, "SigCgt", &cgt))
		return -EINVAL;
	return ((blk | cgt) & bit) != 0;
}

int gcs_takes_usr2(pid_t pid)
{
	char path[64], buf[4096];
	ssize_t n;
	int fd, err;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf + 1, sizeof(buf) - 2);
	err = n < 0 ? -errno : 0;
	close(fd);
	if (err)
		return err;
	buf[0] = '\n'; /* every key, the first too, after a newline */
	buf[n + 1] = '\0';
	return gcs_takes_usr2_status(buf);
}
