/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The CPU time a load used: the process's own time, that of its children
 * it has reaped, and that of its live children (hackbench's and
 * stress-ng's workers), from /proc/PID/stat. The difference of two
 * readings is what the load used between them, so that the summary shows
 * the load was really there during the measurement.
 */
#ifndef RTQ_LOADTIME_H
#define RTQ_LOADTIME_H

#include <stdint.h>
#include <sys/types.h>

/* The tree's CPU time in ns into *ns. 0, or -errno when pid's own stat cannot be read. */
int rtq_load_cpu_ns(pid_t pid, int64_t *ns);

#endif
