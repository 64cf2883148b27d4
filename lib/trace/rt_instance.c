// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rt_instance.h"
#include "rt_owner.h"

int rt_instance_create(const char *tracing_dir, const char *tool, char *name, size_t len,
		       int *lock_fd)
{
	char prefix[RT_OWNER_PREFIX_MAX], path[PATH_MAX];
	struct rt_owner self;
	int err = -EAGAIN;

	*lock_fd = -1;
	rt_owner_self(&self);
	rt_owner_prefix(prefix, &self);
	if ((size_t)snprintf(name, len, "%s%s-%d", prefix, tool, (int)self.pid) >= len ||
	    (size_t)snprintf(path, sizeof(path), "%s/instances/%s", tracing_dir, name) >=
		    sizeof(path))
		return -ENAMETOOLONG;
	/* Tried again only while a cleaner has the fresh directory (rt_owner_hold). */
	for (int try = 0; try < RT_OWNER_RETRIES; try++) {
		if (*lock_fd < 0) {
			if (mkdir(path, 0750) < 0) {
				/* At first: one we did not create. Later: a cleaner's. */
				if (errno != EEXIST || try == 0)
					return -errno;
				usleep(RT_OWNER_RETRY_US);
				continue;
			}
			*lock_fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
			if (*lock_fd < 0 && errno != ENOENT) {
				err = -errno;
				rmdir(path);
				return err;
			}
			if (*lock_fd < 0)
				continue;
		}
		err = rt_owner_hold(*lock_fd, path);
		if (!err)
			return 0;
		if (err != -EBUSY) {
			close(*lock_fd);
			*lock_fd = -1;
			if (err != -EAGAIN)
				return err;
		}
		usleep(RT_OWNER_RETRY_US);
	}
	if (*lock_fd >= 0) {
		close(*lock_fd);
		*lock_fd = -1;
	}
	return err;
}

void rt_instance_remove(const char *tracing_dir, const char *name, int lock_fd)
{
	char path[PATH_MAX];

	if ((size_t)snprintf(path, sizeof(path), "%s/instances/%s", tracing_dir, name) <
	    sizeof(path))
		rmdir(path);
	if (lock_fd >= 0)
		close(lock_fd);
}

void rt_instance_clean_stale(const char *tracing_dir, const char *tool)
{
	char path[PATH_MAX], stem[64];

	if (!tracing_dir ||
	    (size_t)snprintf(stem, sizeof(stem), "%s-", tool) >= sizeof(stem) ||
	    (size_t)snprintf(path, sizeof(path), "%s/instances", tracing_dir) >= sizeof(path))
		return;
	(void)rt_owner_clean(path, stem, RT_OWNER_DIRS, NULL);
}
