// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rt_trace.h"

#include "tools.h"

int rtq_self_dir(char *dir, size_t len)
{
	char buf[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", buf, sizeof(buf) - 1);
	char *slash;

	if (n <= 0)
		return n < 0 ? -errno : -ENOENT;
	buf[n] = '\0';
	if (!(slash = strrchr(buf, '/')))
		return -ENOENT;
	*slash = '\0';
	if ((size_t)snprintf(dir, len, "%s", buf[0] ? buf : "/") >= len)
		return -ENAMETOOLONG;
	return 0;
}

static bool executable(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0;
}

int rtq_tool_path(const char *self_dir, const char *name, char *path, size_t len)
{
	/* installed together; the build tree; hwlatdetect and the snapshot tool in sbin */
	for (int form = 0; form < 4; form++) {
		int n;

		switch (form) {
		case 0: n = snprintf(path, len, "%s/%s", self_dir, name); break;
		case 1: n = snprintf(path, len, "%s/../%s/%s", self_dir, name, name); break;
		case 2: n = snprintf(path, len, "%s/../sbin/%s", self_dir, name); break;
		default: n = snprintf(path, len, "%s/../bin/%s", self_dir, name); break;
		}
		if (n > 0 && (size_t)n < len && executable(path))
			return 0;
	}
	return -ENOENT;
}

int rtq_path_lookup(const char *name, char *path, size_t len)
{
	const char *p = getenv("PATH");

	if (!p || !*p)
		p = "/usr/local/bin:/usr/bin:/bin";
	while (*p) {
		size_t n = strcspn(p, ":");
		int w = snprintf(path, len, "%.*s/%s", (int)n, n ? p : ".", name);

		if (n && w > 0 && (size_t)w < len && executable(path))
			return 0;
		p += n + (p[n] == ':');
	}
	return -ENOENT;
}

bool rtq_hwlat_available(void)
{
	char dir[PATH_MAX], path[PATH_MAX + 32], buf[4096];
	ssize_t n = -1;
	int fd;

	if (rt_trace_find(dir, sizeof(dir)))
		return false;
	snprintf(path, sizeof(path), "%s/available_tracers", dir);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) >= 0) {
		n = read(fd, buf, sizeof(buf) - 1);
		close(fd);
	}
	if (n <= 0)
		return false;
	buf[n] = '\0';
	for (char *w = strtok(buf, " \n"); w; w = strtok(NULL, " \n"))
		if (strcmp(w, "hwlat") == 0)
			return true;
	return false;
}
