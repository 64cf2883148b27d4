/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * How rt-qualify starts its children, the tools and the load: forked by
 * lib's reaper (which stops and reaps them, with their resource usage, and
 * makes them die with rt-qualify: PR_SET_PDEATHSIG SIGTERM, so a tool
 * still restores what it changed), then started by path (execv, never a
 * shell) in the result directory, stdin at /dev/null, stdout and stderr
 * in a log file.
 */
#ifndef RTQ_CHILD_H
#define RTQ_CHILD_H

#include <sys/types.h>

#include "rt_affinity.h"
#include "rt_reaper.h"

struct rtq_spawn {
	const char *path;              /* the program */
	char *const *argv;
	int dirfd;                     /* its working directory */
	int log_fd;                    /* its stdout and stderr */
	const struct rt_cpulist *cpus; /* its affinity; NULL: rt-qualify's */
};

/*
 * Start a child of r: its pid (> 0), or -errno of the fork or of its
 * execv (the child is reaped already then).
 */
pid_t rtq_child_spawn(struct rt_reaper *r, const struct rtq_spawn *s);

/* pid's exit code as a shell says it (rt_reaper_exit_code), -1 while it runs or unknown. */
int rtq_child_exit_code(struct rt_reaper *r, pid_t pid);

#endif
