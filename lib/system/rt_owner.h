/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Names and owners of the objects a run creates in places every pid
 * namespace shares (tracefs instances, /dev/shm, message queues).
 *
 * A name is "<stem><PID>..." in the initial pid namespace (the names of
 * rt-tests 2.4) and "ns<INODE>-<stem><PID>..." in any other, INODE being
 * that of /proc/self/ns/pid: two runs that are both pid 1 of their own
 * namespace never collide.
 *
 * The owner holds an flock on the object for the life of the run, so a
 * cleaner can prove that it is gone in any namespace: the lock is free. An
 * object named for our own namespace must also have a dead pid (kill() says
 * ESRCH), which keeps the unlocked objects of rt-tests 2.4 runs alive; an
 * unprefixed (initial namespace) name seen from another namespace is never
 * taken for gone: it may be a live 2.4 run's on the host. A
 * creator that loses its fresh object to a cleaner before locking it sees
 * that (rt_owner_hold) and creates it anew.
 */
#ifndef RT_OWNER_H
#define RT_OWNER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* PROC_PID_INIT_INO: the inode of the initial pid namespace. */
#define RT_OWNER_INIT_PIDNS 0xEFFFFFFCu

/* "ns18446744073709551615-" and its NUL */
#define RT_OWNER_PREFIX_MAX 24

/*
 * A creator that lost its fresh object to a cleaner tries again this often,
 * this long apart: the cleaner may be preempted while it holds the lock,
 * and removing a tracefs instance takes tens of ms (up to 2 s in all).
 */
#define RT_OWNER_RETRIES 400
#define RT_OWNER_RETRY_US 5000

struct rt_owner {
	pid_t pid;          /* in its own pid namespace */
	uint64_t pidns_ino; /* RT_OWNER_INIT_PIDNS in the initial namespace */
};

/*
 * This process. Without /proc the namespace cannot be told and is taken
 * for the initial one.
 */
void rt_owner_self(struct rt_owner *o);

/* "" in the initial pid namespace, else "ns<INODE>-". */
void rt_owner_prefix(char buf[RT_OWNER_PREFIX_MAX], const struct rt_owner *o);

/*
 * Parse "[ns<INODE>-]<stem><PID>" at the start of name: 0 with *o filled
 * and *tail at what follows the pid, or -EINVAL.
 */
int rt_owner_parse(const char *name, const char *stem, struct rt_owner *o, const char **tail);

/*
 * Lock the object just created, open as fd and reachable as path (NULL:
 * cannot be looked up, as a message queue without an mqueue mount): 0;
 * -EBUSY while a cleaner holds the lock (try again: it either removes the
 * object or lets it go); -EAGAIN when path no longer is the object (a
 * cleaner removed it: create it anew); or -errno. The lock lasts until
 * every copy of fd is closed.
 */
int rt_owner_hold(int fd, const char *path);

/*
 * Whether the object open as fd, at path and named for owner o, is provably
 * left by a run that is gone: its lock is free and either o is of another
 * (non-initial) pid namespace or o is of ours and its pid is dead. True with fd holding the lock: the
 * caller removes path, then closes fd.
 */
bool rt_owner_gone(int fd, const char *path, const struct rt_owner *o);

enum rt_owner_kind { RT_OWNER_FILES, RT_OWNER_DIRS };

/*
 * Remove the entries of dir named "[ns<INODE>-]<stem><PID><tail>" that are
 * provably left by runs that are gone (rt_owner_gone): files (/dev/shm,
 * the mqueue mount, where unlink is shm_unlink and mq_unlink) or
 * directories (tracefs instances). tail_ok says which tails are the
 * caller's; NULL: only the empty one. A tool cleans at its start; whoever
 * SIGKILLed one cleans after it. 0, or -errno when dir cannot be listed.
 */
int rt_owner_clean(const char *dir, const char *stem, enum rt_owner_kind kind,
		   bool (*tail_ok)(const char *tail));

#endif
