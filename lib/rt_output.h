/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Output files that appear whole or not at all: written to a temporary file
 * in the target directory, flushed, fsynced and renamed over the target on
 * commit. A failed or interrupted run leaves no partial file. "-" is stdout.
 */
#ifndef RT_OUTPUT_H
#define RT_OUTPUT_H

#include <stdbool.h>
#include <stdio.h>

struct rt_output {
	char *path;    /* target */
	char *tmppath; /* temporary file beside it, NULL for stdout */
	FILE *f;       /* where to write */
	bool is_stdout;
};

/*
 * Create the temporary file now, so an unwritable target is reported before
 * any measurement. Returns 0 or a negative errno.
 */
int rt_output_open(struct rt_output *o, const char *path);

/* Flush, fsync and rename into place (stdout: flush only). 0 or -errno. */
int rt_output_commit(struct rt_output *o);

/* Discard the temporary file (on any error path). Safe to call twice. */
void rt_output_abort(struct rt_output *o);

#endif
