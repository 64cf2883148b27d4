// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>

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

int rt_sysinfo_loadavg(char *buf, size_t len)
{
	FILE *f = fopen("/proc/loadavg", "re");
	int err = 0;

	if (!f)
		return -errno;
	if (!fgets(buf, (int)len, f))
		err = -EIO;
	else
		buf[strcspn(buf, "\n")] = '\0';
	fclose(f);
	return err;
}
