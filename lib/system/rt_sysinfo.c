// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "rt_sysinfo.h"

static void copy(char *dst, const char *src, size_t len)
{
	snprintf(dst, len, "%s", src);
}

int rt_sysinfo_read(struct rt_sysinfo *si)
{
	struct utsname u;

	memset(si, 0, sizeof(*si));
	if (uname(&u) < 0)
		return -errno;
	copy(si->sysname, u.sysname, sizeof(si->sysname));
	copy(si->nodename, u.nodename, sizeof(si->nodename));
	copy(si->release, u.release, sizeof(si->release));
	copy(si->version, u.version, sizeof(si->version));
	copy(si->machine, u.machine, sizeof(si->machine));
	si->realtime = rt_sysinfo_realtime_at(RT_SYSINFO_REALTIME_PATH);
	return 0;
}

int rt_sysinfo_realtime_at(const char *path)
{
	FILE *f = fopen(path, "re");
	int c;

	if (!f)
		return 0;
	c = fgetc(f);
	fclose(f);
	return c == '1';
}

int rt_sysinfo_loadavg(int *fd, char *buf, size_t len)
{
	ssize_t n;

	if (len == 0)
		return -EINVAL;
	if (*fd < 0)
		*fd = open("/proc/loadavg", O_RDONLY | O_CLOEXEC);
	if (*fd < 0)
		return -errno;
	n = pread(*fd, buf, len - 1, 0);
	if (n < 0)
		return -errno;
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}
