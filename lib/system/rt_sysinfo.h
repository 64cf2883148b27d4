/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What the JSON header says about the machine. */
#ifndef RT_SYSINFO_H
#define RT_SYSINFO_H

#include <stddef.h>

#define RT_SYSINFO_REALTIME_PATH "/sys/kernel/realtime"

struct rt_sysinfo {
	char sysname[65];
	char nodename[65];
	char release[65];
	char version[65];
	char machine[65];
	int realtime; /* 1 iff /sys/kernel/realtime reads "1" (PREEMPT_RT) */
};

/* uname() plus the realtime flag. 0 or -errno. */
int rt_sysinfo_read(struct rt_sysinfo *si);

/* 1 if the file at path starts with '1', else 0 (missing file included). */
int rt_sysinfo_realtime_at(const char *path);

/*
 * /proc/loadavg without its newline. *fd caches the open file between calls
 * (start with -1, close it when done): a display refresh is then one pread.
 * 0 or -errno.
 */
int rt_sysinfo_loadavg(int *fd, char *buf, size_t len);

#endif
