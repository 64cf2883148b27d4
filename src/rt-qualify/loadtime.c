// SPDX-License-Identifier: GPL-2.0-or-later
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rt_time.h"

#include "loadtime.h"

/* The fields after "comm)": state(3) ppid(4) ... utime(14) stime(15) cutime(16) cstime(17). */
struct proc_times {
	pid_t ppid;
	long long ticks;     /* utime + stime + cutime + cstime */
};

static int read_stat(const char *pid, struct proc_times *t)
{
	char path[64], buf[1024];
	long long v[17] = { 0 };
	const char *p;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%s/stat", pid);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return -errno;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -EIO;
	buf[n] = '\0';
	/* comm may hold blanks and parentheses: the fields start after the last ')' */
	if (!(p = strrchr(buf, ')')))
		return -EINVAL;
	p += 2;
	for (int f = 3; f <= 17 && *p; f++) {
		char *end;

		v[f - 1] = f == 3 ? 0 : strtoll(p, &end, 10);
		p = strchr(p, ' ');
		if (!p)
			break;
		p++;
	}
	t->ppid = (pid_t)v[3];
	t->ticks = v[13] + v[14] + v[15] + v[16];
	return 0;
}

int rtq_load_cpu_ns(pid_t pid, int64_t *ns)
{
	long hz = sysconf(_SC_CLK_TCK);
	struct proc_times self, t;
	long long ticks;
	char name[32];
	struct dirent *d;
	DIR *dir;
	int err;

	snprintf(name, sizeof(name), "%d", (int)pid);
	/* the parent first: a child reaped between the two readings is missed, never counted twice */
	if ((err = read_stat(name, &self)))
		return err;
	ticks = self.ticks;
	if ((dir = opendir("/proc"))) {
		while ((d = readdir(dir)))
			if (d->d_name[0] >= '1' && d->d_name[0] <= '9' &&
			    read_stat(d->d_name, &t) == 0 && t.ppid == pid)
				ticks += t.ticks;
		closedir(dir);
	}
	*ns = ticks * (RT_NSEC_PER_SEC / (hz > 0 ? hz : 100));
	return 0;
}
