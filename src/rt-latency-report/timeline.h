/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What a --records file says over time, which its run document (records.c)
 * adds up: each window's max and p99 per thread, and the isolation audit of
 * its total line (or its last isolation line). The last run of the file.
 */
#ifndef RLR_TIMELINE_H
#define RLR_TIMELINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct json_object;

struct rlr_window {
	int thread;
	double start_s, end_s;  /* since the run's start */
	bool has;               /* samples in the window: max and p99 known */
	int64_t max, p99;
};

struct rlr_timeline {
	size_t n, cap;
	struct rlr_window *w;
	int nthreads;
	bool total;                    /* the total line was written */
	struct json_object *isolation; /* NULL when none */
	bool isolation_total;          /* it is the run's (total line), not a window's */
};

/* Read buf (a records file, already validated): 0 or -ENOMEM. */
int rlr_timeline_read(struct rlr_timeline *t, const char *buf, size_t len);
void rlr_timeline_free(struct rlr_timeline *t);

#endif
