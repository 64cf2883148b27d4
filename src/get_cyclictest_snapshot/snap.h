/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Taking snapshots: SIGUSR2 to each live instance, then wait (bounded) until
 * each has written a new, complete status block, so that what is printed
 * after -s is the snapshot just asked for (rt-tests 2.4 printed at once,
 * often the previous one). The signal goes through a pidfd opened before
 * the instance is checked: if the process ends and its PID is reused
 * between the check and the signal, nobody is signalled.
 */
#ifndef GCS_SNAP_H
#define GCS_SNAP_H

#include <stddef.h>

#include "instance.h"

#define GCS_SNAP_WAIT_MS 1000

enum gcs_snap_result {
	GCS_SNAP_OK,
	GCS_SNAP_NOT_LIVE,  /* the check refused it: see the instance's state */
	GCS_SNAP_NO_HANDLER, /* SIGUSR2 would end it (neither caught nor blocked) */
	GCS_SNAP_SIGNAL,    /* the signal could not be sent (err) */
	GCS_SNAP_OPEN,      /* the object could not be opened (err) */
	GCS_SNAP_EXITED,    /* the process ended before writing */
	GCS_SNAP_TIMEOUT,   /* nothing new within GCS_SNAP_WAIT_MS */
};

struct gcs_snap {
	struct gcs_instance *in;
	enum gcs_snap_result result;
	int err;
};

/* Check, signal and wait for each of v[0..n): each v[i].result says how it went. */
void gcs_snapshot(const char *dir, struct gcs_snap *v, size_t n);

#endif
