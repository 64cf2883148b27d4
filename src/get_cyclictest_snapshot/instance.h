/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Finding cyclictest instances: the status objects /dev/shm/cyclictest<PID>
 * (rt-tests 2.4's name and ours; ours is "ns<INODE>-cyclictest<PID>" in a
 * pid namespace other than the initial one, see lib/rt_owner.h), and
 * whether each belongs to a live cyclictest. An object is an instance's
 * only when process PID exists, is a cyclictest (its comm) and holds that
 * very object open (an open descriptor on the same inode): a stale object
 * left by a killed run, whose PID may since be another program's, is never
 * taken for one.
 */
#ifndef GCS_INSTANCE_H
#define GCS_INSTANCE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#define GCS_SHM_DIR "/dev/shm"
#define GCS_NAME_MAX 64

enum gcs_state {
	GCS_LIVE,           /* a cyclictest holding its object */
	GCS_GONE,           /* no process PID */
	GCS_NOT_CYCLICTEST, /* process PID is another program (comm) */
	GCS_NOT_HELD,       /* a cyclictest, but the object is not the one it holds */
	GCS_NO_ACCESS,      /* process PID cannot be inspected (err) */
	GCS_NO_OBJECT,      /* no status object for PID */
};

struct gcs_instance {
	pid_t pid;
	char name[GCS_NAME_MAX]; /* in GCS_SHM_DIR; "" for GCS_NO_OBJECT */
	enum gcs_state state;
	int err;      /* GCS_NO_ACCESS: the errno */
	char comm[17]; /* process PID's name, when read */
	dev_t dev;    /* the object checked */
	ino_t ino;
	bool locked;  /* it holds an flock on it: our cyclictest, SIGUSR2 blocked first */
	bool reported;    /* why it is not live was said (main) */
	bool snap_failed; /* -s failed: not printed (main) */
};

/*
 * The objects named for cyclictests of this pid namespace in dir, sorted
 * by name as rt-tests 2.4 sorts them, not yet checked: 0 with a malloc'd
 * *list of *n, or -errno.
 */
int gcs_find(const char *dir, struct gcs_instance **list, size_t *n);

/* Check in->pid and the object in->name in dir against /proc: sets and returns in->state. */
enum gcs_state gcs_check(const char *dir, struct gcs_instance *in);

/*
 * Does pid catch or block SIGUSR2, per /proc/PID/status (rt-tests 2.4's
 * cyclictest catches it)? 1, 0 (the default action would end it: a
 * cyclictest still starting, or not one), or -errno. Ours blocks it before
 * it creates its object and takes it in sigtimedwait(), which unblocks it
 * in the waiting thread's mask: for ours, in->locked says it.
 */
int gcs_takes_usr2(pid_t pid);

/* The same from the text of /proc/PID/status: 1, 0, or -EINVAL. */
int gcs_takes_usr2_status(const char *status);

#endif
