/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Status while running: the SIGUSR2 snapshot in the POSIX shm object
 * /cyclictest<PID> (/ns<INODE>-cyclictest<PID> outside the initial pid
 * namespace, see rt_owner.h), locked for the life of the run, and the -F
 * named pipe served by a helper thread.
 */
#ifndef RT_CYCLIC_STATUS_H
#define RT_CYCLIC_STATUS_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>

#include "rt_cyclic_measure.h"

struct ct_status {
	char shm_name[64];
	int shm_fd;              /* -1 when not created */
	const char *fifo_path;   /* NULL without -F */
	bool fifo_created;
	pthread_t fifo_thread;
	bool fifo_thread_started;
	_Atomic int fifo_stop;
	_Atomic int fifo_error;  /* the first failed write to a reader, -errno */
	struct ct_run *run;
};

/* Create the shm object (0600, O_EXCL) and the fifo. 0 or -errno (what in *what). */
int cyclictest_status_open(struct ct_status *st, struct ct_run *run, const char *fifo,
			   const char **what);

/* Start the fifo thread once the measurement threads exist. 0 or -errno. */
int cyclictest_status_start_fifo(struct ct_status *st);

/*
 * The first write to a -F reader that failed (a reader that went away before
 * its listing was written: -EPIPE), 0 if none. The fifo goes on serving the
 * next readers.
 */
int cyclictest_status_fifo_error(struct ct_status *st);

/* SIGUSR2: replace the shm object's content with the current status block. */
void cyclictest_status_snapshot(struct ct_status *st);

/* Stop the fifo thread, remove the fifo and the shm object. */
void cyclictest_status_close(struct ct_status *st);

#endif
