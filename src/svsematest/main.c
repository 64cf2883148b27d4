// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * svsematest: latency of handing a SysV semaphore from one thread (or, with
 * -f, process) to another, compatible with rt-tests 2.4. The token of
 * participant k is semaphore k of one set: it waits by taking it (-1), its
 * predecessor passes by giving it (+1).
 *
 * The set never outlives a run: its key carries the pid (SVSEM_KEY), it is
 * removed on every exit path the run controls (SIGINT and SIGTERM end the
 * run normally), and a set left by a killed run is removed at the next
 * start once its pid is gone.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/ipc.h>
#include <sys/sem.h>
#include <unistd.h>

#include "rt_pair.h"
#include "pairs.h"

/* 'S' and the pid (below 2^22 on Linux) */
#define SVSEM_KEY_TAG 0x53000000
#define SVSEM_KEY_PID_MASK 0x00ffffff

struct svsem {
	int semid;
};

/* Interrupted by a signal: again (stop wakes a waiter by giving, not by a signal). */
static void sem_step(const struct svsem *s, int k, short delta)
{
	struct sembuf op = { .sem_num = (unsigned short)k, .sem_op = delta, .sem_flg = 0 };

	while (semop(s->semid, &op, 1) < 0 && errno == EINTR)
		;
}

/* Returns with the token, or when the set is gone. */
static void svsem_wait(struct rt_pair *p, int k)
{
	sem_step(rt_pair_mech_data(p), k, -1);
}

static void svsem_pass(struct rt_pair *p, int from, int to)
{
	(void)from;
	sem_step(rt_pair_mech_data(p), to, 1);
}

static void svsem_wake(struct rt_pair *p, int k)
{
	sem_step(rt_pair_mech_data(p), k, 1);
}

/* Sets "S<pid>" of svsematest runs whose process is gone (SIGKILL, a crash). */
static void remove_stale_sets(void)
{
	FILE *f = fopen("/proc/sysvipc/sem", "re");
	char line[256];

	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		long long key;
		int semid;
		pid_t pid;

		if (sscanf(line, "%lld %d", &key, &semid) != 2 ||
		    (key & ~(long long)SVSEM_KEY_PID_MASK) != SVSEM_KEY_TAG)
			continue;
		pid = (pid_t)(key & SVSEM_KEY_PID_MASK);
		if (pid != getpid() && kill(pid, 0) < 0 && errno == ESRCH)
			semctl(semid, 0, IPC_RMID);
	}
	fclose(f);
}

static void *svsem_new(const struct pairs_config *cfg, int n)
{
	struct svsem *s = malloc(sizeof(*s));
	unsigned short *zero = calloc((size_t)n, sizeof(*zero));
	key_t key = (key_t)(SVSEM_KEY_TAG | (getpid() & SVSEM_KEY_PID_MASK));

	(void)cfg;
	remove_stale_sets();
	if (!s || !zero)
		goto fail;
	s->semid = semget(key, n, IPC_CREAT | IPC_EXCL | 0600);
	if (s->semid < 0)
		goto fail;
	/* Every token starts taken: nobody may pass before the sender's first give. */
	if (semctl(s->semid, 0, SETALL, zero) < 0) {
		semctl(s->semid, 0, IPC_RMID);
		goto fail;
	}
	free(zero);
	return s;
fail:
	free(zero);
	free(s);
	return NULL;
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
};

int main(int argc, char *argv[])
{
	return pairs_main(&svsematest, argc, argv);
}
