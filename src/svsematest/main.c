// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * svsematest: latency of handing a SysV semaphore from one thread (or, with
 * -f, process) to another, compatible with rt-tests 2.4. The token of
 * participant k is semaphore k of one set: it waits by taking it (-1), its
 * predecessor passes by giving it (+1).
 *
 * The set never outlives a run: it is removed on every exit path the run
 * controls (SIGINT and SIGTERM end the run normally), and a set left by a
 * killed run is removed at the next start. Its key is 0x53000000 + pid in
 * the initial pid namespace (0x53 'S'), 0x54000000 + a mix of the pid and
 * the namespace's inode in others, and the next free key when that one is
 * taken: runs that are pid 1 of their own namespaces share one IPC
 * namespace after `unshare -pf`. Whether a set's run is gone does not rest
 * on the key: its last semaphore is the run's life, SVSEM_LIFE_GONE (a
 * value no token reaches, which also tells our sets from any other's) and
 * raised by 1 with SEM_UNDO by the creator before anything else operates on
 * the set, so the kernel takes it back to SVSEM_LIFE_GONE when the process
 * ends, however it ends.
 */
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/sem.h>
#include <unistd.h>

#include "rt_owner.h"
#include "rt_pair.h"
#include "rt_prog.h"
#include "pairs.h"

/*
 * 'S' and the pid (below 2^22 on Linux) in the initial pid namespace; 'T'
 * and a mix elsewhere, which older cleaners that took the low bits of
 * every 'S' key for a pid of their own namespace leave alone.
 */
#define SVSEM_KEY_TAG 0x53000000
#define SVSEM_KEY_TAG_NS 0x54000000
#define SVSEM_KEY_MASK 0x00ffffff
/* Keys tried after the first is taken (by a set of another namespace) */
#define SVSEM_KEY_TRIES 64
/* The life semaphore of a set whose run is gone; + 1 while it lives */
#define SVSEM_LIFE_GONE 12345

struct svsem {
	int semid;
};

/*
 * Interrupted by a signal: again (stop wakes a waiter by giving, not by a
 * signal). Any other failure is for good, in practice the set removed
 * under the run (ipcrm, a cleaner): a waiter sees EIDRM, a giver EINVAL,
 * said as EIDRM once IPC_STAT confirms the set is gone. 0 or -errno.
 */
static int sem_step(const struct svsem *s, int k, short delta)
{
	struct sembuf op = { .sem_num = (unsigned short)k, .sem_op = delta, .sem_flg = 0 };
	struct semid_ds ds;
	int err;

	while (semop(s->semid, &op, 1) < 0) {
		if (errno == EINTR)
			continue;
		err = errno;
		if (err == EINVAL && semctl(s->semid, 0, IPC_STAT, &ds) < 0 &&
		    (errno == EINVAL || errno == EIDRM))
			err = EIDRM;
		return -err;
	}
	return 0;
}

/* Returns with the token, or when the run stops or the set is gone. */
static void svsem_wait(struct rt_pair *p, int k)
{
	int err = sem_step(rt_pair_mech_data(p), k, -1);

	if (err)
		rt_pair_fail(p, k, err, "semop");
}

static void svsem_pass(struct rt_pair *p, int from, int to)
{
	int err = sem_step(rt_pair_mech_data(p), to, 1);

	if (err)
		rt_pair_fail(p, from, err, "semop");
}

/* At the stop: a set that is gone has no waiter left to wake. */
static void svsem_wake(struct rt_pair *p, int k)
{
	(void)sem_step(rt_pair_mech_data(p), k, 1);
}

/* The set removed under the run, or another lasting semop failure. */
static void svsem_run_error(void *data, int err, const char *what)
{
	const struct svsem *s = data;

	if (err == EIDRM)
		rt_prog_error("the semaphore set %d was removed during the run (%s)", s->semid,
			      strerror(err));
	else
		rt_prog_error_errno(err, "%s on semaphore set %d failed during the run", what,
				    s->semid);
}

/*
 * Sets of svsematest runs that are provably gone: some semop was done (the
 * creator's, on the life semaphore, comes first) and the life semaphore is
 * back to SVSEM_LIFE_GONE, which only its creator's exit does.
 */
static void remove_stale_sets(void)
{
	FILE *f = fopen("/proc/sysvipc/sem", "re");
	char line[256];

	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		struct semid_ds ds;
		long long key;
		int semid;

		if (sscanf(line, "%lld %d", &key, &semid) != 2 ||
		    ((key & ~(long long)SVSEM_KEY_MASK) != SVSEM_KEY_TAG &&
		     (key & ~(long long)SVSEM_KEY_MASK) != SVSEM_KEY_TAG_NS) ||
		    semctl(semid, 0, IPC_STAT, &ds) < 0 || ds.sem_nsems < 1 || ds.sem_otime == 0)
			continue;
		if (semctl(semid, (int)ds.sem_nsems - 1, GETVAL) == SVSEM_LIFE_GONE)
			semctl(semid, 0, IPC_RMID);
	}
	fclose(f);
}

/* The first key to try (see SVSEM_KEY_TAG). */
static key_t first_key(void)
{
	struct rt_owner self;
	uint64_t mix;

	rt_owner_self(&self);
	mix = (uint64_t)self.pid;
	if (self.pidns_ino == RT_OWNER_INIT_PIDNS)
		return (key_t)(SVSEM_KEY_TAG | (mix & SVSEM_KEY_MASK));
	mix = self.pidns_ino + mix * 65537; /* namespaces' inodes are near each other */
	return (key_t)(SVSEM_KEY_TAG_NS | (mix & SVSEM_KEY_MASK));
}

/* Participants' tokens 0..n-1 all taken, and semaphore n, the run's life, held. */
static int create_set(int n)
{
	struct sembuf life = { .sem_num = (unsigned short)n, .sem_op = 1, .sem_flg = SEM_UNDO };
	unsigned short *init = calloc((size_t)n + 1, sizeof(*init));
	key_t key = first_key();
	int semid = -1;

	if (!init)
		return -1;
	for (int i = 0; i < SVSEM_KEY_TRIES && semid < 0; i++) {
		semid = semget(key, n + 1, IPC_CREAT | IPC_EXCL | 0600);
		if (semid < 0 && errno != EEXIST)
			break;
		key = (key_t)((key & ~SVSEM_KEY_MASK) | ((key + 1) & SVSEM_KEY_MASK));
	}
	/* Every token starts taken: nobody may pass before the sender's first give. */
	init[n] = SVSEM_LIFE_GONE;
	if (semid >= 0 && (semctl(semid, 0, SETALL, init) < 0 || semop(semid, &life, 1) < 0)) {
		semctl(semid, 0, IPC_RMID);
		semid = -1;
	}
	free(init);
	return semid;
}

static void *svsem_new(const struct pairs_config *cfg, int n)
{
	struct svsem *s = malloc(sizeof(*s));

	(void)cfg;
	remove_stale_sets();
	if (!s)
		return NULL;
	s->semid = create_set(n);
	if (s->semid < 0) {
		free(s);
		return NULL;
	}
	return s;
}

static void svsem_free(void *data, int n)
{
	struct svsem *s = data;

	(void)n;
	if (!s)
		return;
	semctl(s->semid, 0, IPC_RMID);
	free(s);
}

static const struct rt_pair_mech svsem_mech = {
	.wait = svsem_wait,
	.pass = svsem_pass,
	.wake = svsem_wake,
};

static const struct pairs_tool svsematest = {
	.name = "svsematest",
	.summary = "Measures the latency of handing a SysV semaphore from one thread (or\n"
		   "process, with -f) to another.",
	.has_fork = true,
	.has_smp = true,
	.prio_floor = 1, /* 2.4: priorities decrease per pair but not below 1 */
	.mech = &svsem_mech,
	.mech_setup = svsem_new,
	.mech_teardown = svsem_free,
	.run_error = svsem_run_error,
};

int main(int argc, char *argv[])
{
	return pairs_main(&svsematest, argc, argv);
}
