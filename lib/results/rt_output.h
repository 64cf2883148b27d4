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

/*
 * Why writing o failed, for the message: err, except that the generic -EIO
 * of a stream's error flag becomes -ENOSPC when o's filesystem is full.
 * Call before rt_output_abort().
 */
int rt_output_why(const struct rt_output *o, int err);

/*
 * Standard output as a live stream. A reader that goes away (EPIPE, with
 * SIGPIPE ignored by rt_signal_setup()) or a full disk must not end the run:
 * after the first failed write, standard output is sent to /dev/null (what
 * was still buffered is dropped), so nothing more reaches the dead stream and
 * every later write of the run succeeds; the first error is kept for the end
 * (rt_prog_close_stdout() reports it). Main thread only.
 *
 * rt_output_stdout_check() looks at the stream's error flag after a batch of
 * writes (no system call); with flush, it flushes the stream first. Returns 0,
 * or the first error as a negative errno.
 */
int rt_output_stdout_check(bool flush);

/* The first error of standard output as a negative errno, 0 if none yet. */
int rt_output_stdout_error(void);

#endif
