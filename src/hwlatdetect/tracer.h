/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The hwlat tracer's files in the top tracefs directory, through
 * libtracefs: every file hwlatdetect writes is read first and written back
 * by hwlat_tracer_restore() (tracing_on, current_tracer, tracing_thresh,
 * hwlat_detector/width and window, tracing_cpumask). Prints nothing.
 * Built without libtracefs, hwlat_tracer_find() fails with -ENOTSUP.
 */
#ifndef HWLATDETECT_TRACER_H
#define HWLATDETECT_TRACER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "options.h"

enum hwlat_file {
	HWLAT_TRACING_ON,
	HWLAT_CURRENT_TRACER,
	HWLAT_THRESH,
	HWLAT_WIDTH,
	HWLAT_WINDOW,
	HWLAT_CPUMASK,
	HWLAT_NFILES,
};

#define HWLAT_VALUE_MAX (HWLAT_MAX_CPUS / 4 + HWLAT_MAX_CPUS / 32 + 8)

struct hwlat_tracer {
	char saved[HWLAT_NFILES][HWLAT_VALUE_MAX]; /* values before the first write */
	bool written[HWLAT_NFILES];
	int pipe_fd;                               /* trace_pipe, -1 */
};

/* "tracing_on", "hwlat_detector/width"... */
const char *hwlat_file_name(enum hwlat_file f);

/* Built with libtracefs? */
bool hwlat_tracer_built(void);

/*
 * Use tracefs at dir (NULL: find it as libtracefs does, /sys/kernel/tracing
 * first, mounting it when absent) and check that the kernel has the hwlat
 * tracer. 0; -ENODEV no tracefs; -ENOENT no hwlat tracer (what
 * available_tracers lists is copied to tracers); -ENOTSUP not built with
 * libtracefs; another -errno reading it.
 */
int hwlat_tracer_find(const char *dir, char *tracers, size_t len);

/* The tracefs directory in use. */
const char *hwlat_tracer_dir(void);

/* Read every file it may write, before the first write. 0 or -errno (*failed: which). */
int hwlat_tracer_save(struct hwlat_tracer *t, enum hwlat_file *failed);

/* Write value to f (and remember to restore it). 0 or -errno. */
int hwlat_tracer_write(struct hwlat_tracer *t, enum hwlat_file f, const char *value);
int hwlat_tracer_write_int(struct hwlat_tracer *t, enum hwlat_file f, int64_t value);

/* Read f as a whole number (tracing_thresh, width, window, tracing_on). 0 or -errno. */
int hwlat_tracer_read_int(enum hwlat_file f, int64_t *value);

/* Open trace_pipe, non-blocking. 0 or -errno. */
int hwlat_tracer_open_pipe(struct hwlat_tracer *t);

/*
 * Write back every saved value that was changed, tracing_on last (width
 * and window in the order the kernel accepts). 0 or the first -errno
 * (*failed: which); it goes on with the others after a failure.
 */
int hwlat_tracer_restore(struct hwlat_tracer *t, enum hwlat_file *failed);

#endif
