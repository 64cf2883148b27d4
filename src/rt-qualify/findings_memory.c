// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Swap and transparent huge pages: lib's environment does not read them
 * (no tool's result depends on them: the tools lock their memory), so
 * these two files are read here, once, for the findings.
 */
#include <fcntl.h>
#include <stdbool.h>
#include <string.h>
#include <unistd.h>

#include "findings.h"

/* The first len - 1 bytes of path, or "" when it cannot be read. */
static void read_head(const char *path, char *buf, size_t len)
{
	ssize_t n = -1;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd >= 0) {
		n = read(fd, buf, len - 1);
		close(fd);
	}
	buf[n > 0 ? n : 0] = '\0';
}

int rtq_findings_memory(struct rtq_findings *f)
{
	char swaps[512], thp[128];
	const char *nl;
	int err = 0;

	read_head("/proc/swaps", swaps, sizeof(swaps));
	/* a header line, then one line per swap area */
	nl = strchr(swaps, '\n');
	if (nl && nl[1])
		err = rtq_findings_add(f, false, "the application locks its memory "
				       "(mlockall(MCL_CURRENT | MCL_FUTURE)) as the tools do, "
				       "or swapoff -a", "swap is on: a real-time task that does "
				       "not lock its memory may wait for the disk");
	read_head("/sys/kernel/mm/transparent_hugepage/enabled", thp, sizeof(thp));
	if (!err && strstr(thp, "[always]"))
		err = rtq_findings_add(f, false, "boot with transparent_hugepage=madvise (or "
				       "never)", "transparent huge pages are always on: compaction "
				       "and khugepaged can stall a real-time task's page faults");
	return err;
}
