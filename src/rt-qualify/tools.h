/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Where rt-qualify finds what it runs: our programs beside itself, as they
 * ship (installed: the same directory, hwlatdetect in ../sbin; in the
 * build tree: src/<tool>/<tool> beside src/rt-qualify/), never from PATH;
 * stress-ng, not ours, from PATH. Also what the kernel and the build offer:
 * the hwlat tracer, rt-latency-report's html command.
 */
#ifndef RTQ_TOOLS_H
#define RTQ_TOOLS_H

#include <stdbool.h>
#include <stddef.h>

/* The directory of /proc/self/exe into dir. 0 or -errno. */
int rtq_self_dir(char *dir, size_t len);

/* Our program name as it ships, into path: 0, or -ENOENT when none is there. */
int rtq_tool_path(const char *self_dir, const char *name, char *path, size_t len);

/* An executable name found along PATH (no shell involved): 0 or -ENOENT. */
int rtq_path_lookup(const char *name, char *path, size_t len);

/* Does the kernel have the hwlat tracer (tracefs' available_tracers)? */
bool rtq_hwlat_available(void);

#endif
