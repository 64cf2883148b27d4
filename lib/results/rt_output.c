// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <poll.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>

#include "rt_output.h"

static void reset(struct rt_output *o)
{
	free(o->path);
	free(o->tmppath);
	o->path = NULL;
	o->tmppath = NULL;
	o->f = NULL;
	o->is_stdout = false;
}

/* "<dir>/.<base>.XXXXXX": hidden, and in the same filesystem as the target. */
static char *tmp_name(const char *path)
{
	char *d = strdup(path), *b = strdup(path), *out = NULL;

	if (d && b) {
		const char *dir = dirname(d), *base = basename(b);

		if (asprintf(&out, "%s/.%s.XXXXXX", dir, base) < 0)
			out = NULL;
	}
	free(d);
	free(b);
	return out;
}

/*
 * Create tmpl ("...XXXXXX", the X's replaced) exclusively with mode 0666:
 * the kernel applies the umask as for a plain open, without this process
 * changing its umask (which every thread shares). The fd or -errno.
 */
static int create_unique(char *tmpl)
{
	static const char chars[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
	size_t len = strlen(tmpl);
	struct timespec ts;
	uint64_t seed;

	if (len < 6)
		return -EINVAL;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	seed = (uint64_t)ts.tv_nsec ^ ((uint64_t)ts.tv_sec << 20) ^ ((uint64_t)getpid() << 40) ^
	       (uint64_t)(uintptr_t)tmpl;
	for (int attempt = 0; attempt < 1000; attempt++) {
		uint64_t r;
		int fd;

		seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
		r = seed >> 16;
		for (size_t i = len - 6; i < len; i++, r /= 62)
			tmpl[i] = chars[r % 62];
		fd = open(tmpl, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
		if (fd >= 0 || errno != EEXIST)
			return fd >= 0 ? fd : -errno;
	}
	return -EEXIST;
}

int rt_output_open(struct rt_output *o, const char *path)
{
	int fd, err;

	memset(o, 0, sizeof(*o));
	if (!path || !*path)
		return -EINVAL;
	if (strcmp(path, "-") == 0) {
		o->is_stdout = true;
		o->f = stdout;
		return 0;
	}
	/* A path ending in '/' names a directory, never a file we can write. */
	if (path[strlen(path) - 1] == '/')
		return -EISDIR;
	o->path = strdup(path);
	o->tmppath = tmp_name(path);
	if (!o->path || !o->tmppath) {
		reset(o);
		return -ENOMEM;
	}
	/* the mode a plain open would give (mkstemp's would be 0600) */
	fd = create_unique(o->tmppath);
	if (fd < 0) {
		reset(o);
		return fd;
	}
	if (!(o->f = fdopen(fd, "w"))) {
		err = -errno;
		close(fd);
		unlink(o->tmppath);
		reset(o);
		return err;
	}
	return 0;
}

int rt_output_commit(struct rt_output *o)
{
	int err = 0;

	if (!o->f)
		return -EBADF;
	if (o->is_stdout) {
		err = (fflush(stdout) != 0 || ferror(stdout)) ? -EIO : 0;
		o->f = NULL;
		return err;
	}
	if (fflush(o->f) != 0)
		err = errno > 0 ? -errno : -EIO;
	else if (ferror(o->f))
		err = rt_output_why(o, -EIO);
	else if (fsync(fileno(o->f)) < 0)
		err = -errno;
	if (fclose(o->f) != 0 && !err)
		err = -errno;
	o->f = NULL;
	/* rename() replaces a symlink at the target instead of following it. */
	if (!err && rename(o->tmppath, o->path) < 0)
		err = -errno;
	if (err)
		unlink(o->tmppath);
	reset(o);
	return err;
}

int rt_output_why(const struct rt_output *o, int err)
{
	struct statvfs st;

	if (err == -EIO && o->f && !o->is_stdout && fstatvfs(fileno(o->f), &st) == 0 &&
	    st.f_bavail == 0)
		return -ENOSPC;
	return err;
}

void rt_output_abort(struct rt_output *o)
{
	if (o->f && !o->is_stdout)
		fclose(o->f);
	if (o->tmppath)
		unlink(o->tmppath);
	reset(o);
}

/* The first error of standard output (negative errno), 0 while it works. */
static int stdout_err;

/* A pipe or socket whose reader has gone: EPIPE; else 0. */
static int reader_gone(void)
{
	struct pollfd p = { .fd = STDOUT_FILENO, .events = POLLOUT };

	return poll(&p, 1, 0) == 1 && (p.revents & POLLERR) ? -EPIPE : 0;
}

/* Keep the error and write nothing more to the stream. */
static void divert(int err)
{
	int fd;

	stdout_err = err;
	__fpurge(stdout);
	clearerr(stdout);
	fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
	if (fd >= 0 && fd != STDOUT_FILENO) {
		dup2(fd, STDOUT_FILENO);
		close(fd);
	}
}

int rt_output_stdout_check(bool flush)
{
	int err = 0;

	if (stdout_err)
		return stdout_err;
	/* errno of the write that failed, before any other call changes it */
	if (ferror(stdout))
		err = errno > 0 ? -errno : -EIO;
	else if (flush && fflush(stdout) != 0)
		err = errno > 0 ? -errno : -EIO;
	/* A pipe without reader says so whatever errno the stream kept. */
	if (err && err != -EPIPE && reader_gone())
		err = -EPIPE;
	if (err)
		divert(err);
	return err;
}

int rt_output_stdout_error(void)
{
	return stdout_err;
}
