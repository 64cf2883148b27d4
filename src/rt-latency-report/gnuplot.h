/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * gnuplot run as a child: the script (data as datablocks) goes to its
 * stdin, the image comes out of its stdout into a file of ours, its
 * messages are kept and shown only when it fails.
 */
#ifndef RLR_GNUPLOT_H
#define RLR_GNUPLOT_H

#include <stdio.h>
#include <sys/types.h>

struct rlr_gnuplot {
	pid_t pid;
	FILE *script;   /* write the script here */
	FILE *messages; /* its stderr (and anything it prints) */
};

/*
 * Start gnuplot (found in PATH) writing its image to out_fd: 0, or 1 after
 * a one-line error (not installed: says which package has it).
 */
int rlr_gnuplot_start(struct rlr_gnuplot *g, int out_fd);

/* End the script and wait: 0, or 1 after a one-line error with gnuplot's. */
int rlr_gnuplot_finish(struct rlr_gnuplot *g);

/*
 * s as inert gnuplot text: runs of single-quoted strings (which gnuplot
 * never expands) joined by '.' with our "'" for a quote and "\n" for a line
 * break, other control characters become spaces and bytes that are not
 * UTF-8 '?'.
 */
void rlr_gnuplot_string(FILE *script, const char *s);

#endif
