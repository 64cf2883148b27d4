/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The tracefs instance directory of a run: instances/<tool>-<PID>, or
 * instances/ns<INODE>-<tool>-<PID> outside the initial pid namespace
 * (rt_owner.h), created by the run itself (never one that was there) and
 * locked for its life, so that a stale one is provably stale in any
 * namespace. Plain mkdir/rmdir under the tracing directory given.
 */
#ifndef RT_INSTANCE_H
#define RT_INSTANCE_H

#include <stddef.h>

/*
 * Create and lock instances/<name> under tracing_dir for this process: 0
 * with its name in name and the lock in *lock_fd (close it after removing
 * the directory), -EEXIST when an instance of that name exists (not ours:
 * never used), or -errno.
 */
int rt_instance_create(const char *tracing_dir, const char *tool, char *name, size_t len,
		       int *lock_fd);

/* Remove the instance name created by rt_instance_create, then drop its lock. */
void rt_instance_remove(const char *tracing_dir, const char *name, int lock_fd);

/* Remove the instances of tool that are provably left by gone runs (rt_owner_gone). */
void rt_instance_clean_stale(const char *tracing_dir, const char *tool);

#endif
