/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A guard for the tracer's settings when hwlatdetect cannot restore them
 * itself (SIGKILL, a crash): a child, started after the settings are saved
 * and before the first write, waits on a pipe. hwlatdetect releases it
 * after restoring; if hwlatdetect dies first, the pipe's end reaches the
 * child, which writes every saved setting back and exits. Prints nothing.
 */
#ifndef HWLATDETECT_GUARD_H
#define HWLATDETECT_GUARD_H

#include <sys/types.h>

#include "tracer.h"

struct hwlat_guard {
	pid_t pid;    /* the child, -1: none */
	int fd;       /* the pipe's write end, -1 */
};

/* Start the child (it copies t's saved values). 0 or -errno (then no guard). */
int hwlat_guard_start(struct hwlat_guard *g, const struct hwlat_tracer *t);

/* The settings are back: let the child go without writing, and reap it. */
void hwlat_guard_release(struct hwlat_guard *g);

#endif
