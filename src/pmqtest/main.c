// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pmqtest: latency of handing a POSIX message from one thread to another,
 * compatible with rt-tests 2.4. Participant k waits on queue k; its
 * predecessor passes the token by sending one byte to it.
 *
 * -T TO makes the receivers wait with mq_timedreceive (a timeout is counted
 * and the wait goes on: the message still comes), -f TO makes the senders
 * hold each message back TO seconds, so that with TO above -T's every
 * hand-over times out first.
 *
 * No queue outlives a run: each has a name unique to the process (and to
 * its pid namespace, rt_owner.h) and is unlinked right after it is opened (the threads share the descriptors),
 * so even SIGKILL leaves nothing in /dev/mqueue; one left by a run killed
 * in between is removed at the next start.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <mntent.h>
#include <mqueue.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "rt_cli.h"
#include "rt_opt.h"
#include "rt_owner.h"
#include "rt_pair.h"
#include "rt_prog.h"
#include "pairs.h"

#define PMQ_PREFIX "pmqtest-"
/* The token, and a stop's wake-up besides it. */
#define PMQ_MAXMSG 4
#define PMQ_MSGSIZE 8
#define PMQ_MAX_TIMEOUT_S 3600

enum { OPT_FORCETIMEOUT = 'f', OPT_TIMEOUT = 'T' };

struct pmq_settings {
	long long timeout_s; /* -T, 0 = mq_receive */
	long long force_s;   /* -f, 0 = off */
};

struct pmq {
	int n;
	long long timeout_s;
	mqd_t *q;                  /* queue of participant k */
	_Atomic uint64_t *timeouts; /* of participant k's timed waits */
};

/* A failure other than EINTR (and ETIMEDOUT with -T) ends the run. */
static void pmq_wait(struct rt_pair *p, int k)
{
	struct pmq *m = rt_pair_mech_data(p);
	char buf[PMQ_MSGSIZE];
	struct timespec deadline;

	/* Receivers are the even participants; only they wait with -T. */
	if (!m->timeout_s || k % 2) {
		while (mq_receive(m->q[k], buf, sizeof(buf), NULL) < 0)
			if (errno != EINTR) {
				rt_pair_fail(p, k, -errno, "mq_receive");
				return;
			}
		return;
	}
	for (;;) {
		clock_gettime(CLOCK_REALTIME, &deadline); /* mq_timedreceive's clock */
		deadline.tv_sec += (time_t)m->timeout_s;
		if (mq_timedreceive(m->q[k], buf, sizeof(buf), NULL, &deadline) >= 0)
			return;
		if (errno == ETIMEDOUT)
			atomic_fetch_add_explicit(&m->timeouts[k], 1, memory_order_relaxed);
		else if (errno != EINTR) {
			rt_pair_fail(p, k, -errno, "mq_timedreceive");
			return;
		}
	}
}

static void pmq_pass(struct rt_pair *p, int from, int to)
{
	struct pmq *m = rt_pair_mech_data(p);

	while (mq_send(m->q[to], "t", 1, 0) < 0)
		if (errno != EINTR) {
			rt_pair_fail(p, from, -errno, "mq_send");
			return;
		}
}

/* Never blocks: a full queue already holds what wakes the waiter. */
static void pmq_wake(struct rt_pair *p, int k)
{
	struct pmq *m = rt_pair_mech_data(p);
	const struct timespec past = { 0, 0 };

	mq_timedsend(m->q[k], "w", 1, 0, &past);
}

static uint64_t pmq_timeouts(void *data, int pair)
{
	struct pmq *m = data;

	return atomic_load_explicit(&m->timeouts[2 * pair], memory_order_relaxed);
}

/* Where the mqueue file system is mounted (/dev/mqueue usually), or NULL. */
static char *mqueue_mount(void)
{
	FILE *f = setmntent("/proc/self/mounts", "re");
	struct mntent *m;
	char *dir = NULL;

	while (f && !dir && (m = getmntent(f)))
		if (strcmp(m->mnt_type, "mqueue") == 0)
			dir = strdup(m->mnt_dir);
	if (f)
		endmntent(f);
	return dir;
}

/* "-K" after "pmqtest-PID": a queue's index. */
static bool is_queue_tail(const char *tail)
{
	int k, end = 0;

	return sscanf(tail, "-%d%n", &k, &end) == 1 && !tail[end];
}

/*
 * Queues "[ns<INODE>-]pmqtest-PID-K" of runs killed between open and unlink
 * that are provably gone (rt_owner_gone: the creator's lock is free). Even
 * a live run's queue would lose nothing: it is reached through descriptors.
 */
static void remove_stale_queues(void)
{
	char *dir = mqueue_mount();

	if (dir) /* not mounted: nothing can be listed */
		(void)rt_owner_clean(dir, PMQ_PREFIX, RT_OWNER_FILES, is_queue_tail);
	free(dir);
}

static void pmq_free(void *data, int n)
{
	struct pmq *m = data;

	if (!m)
		return;
	for (int k = 0; k < n && m->q; k++)
		if (m->q[k] != (mqd_t)-1)
			mq_close(m->q[k]);
	free(m->q);
	free((void *)m->timeouts);
	free(m);
}

static void *pmq_new(const struct pairs_config *cfg, int n)
{
	const struct pmq_settings *set = cfg->tool->own->settings;
	struct mq_attr attr = { .mq_maxmsg = PMQ_MAXMSG, .mq_msgsize = PMQ_MSGSIZE };
	struct pmq *m = calloc(1, sizeof(*m));
	char prefix[RT_OWNER_PREFIX_MAX];
	struct rt_owner self;

	remove_stale_queues();
	if (!m)
		return NULL;
	m->n = n;
	m->timeout_s = set->timeout_s;
	m->q = malloc((size_t)n * sizeof(*m->q));
	m->timeouts = calloc((size_t)n, sizeof(*m->timeouts));
	if (!m->q || !m->timeouts) {
		free(m->q);
		m->q = NULL;
		pmq_free(m, 0);
		return NULL;
	}
	for (int k = 0; k < n; k++)
		m->q[k] = (mqd_t)-1;
	rt_owner_self(&self);
	rt_owner_prefix(prefix, &self);
	for (int k = 0; k < n; k++) {
		char name[96];

		snprintf(name, sizeof(name), "/%s" PMQ_PREFIX "%d-%d", prefix, (int)self.pid, k);
		m->q[k] = mq_open(name, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600, &attr);
		if (m->q[k] == (mqd_t)-1) {
			int err = errno;

			if (err == ENOSPC || err == EMFILE)
				rt_prog_error_errno(err, "cannot create message queue %d of %d "
						    "(see fs.mqueue.queues_max and RLIMIT_MSGQUEUE)",
						    k + 1, n);
			else
				rt_prog_error_errno(err, "cannot create message queue %s", name);
			pmq_free(m, n);
			return NULL;
		}
		/*
		 * Locked while named, so no cleaner of another namespace takes it
		 * for stale; one that got there first only unlinks it earlier.
		 */
		(void)rt_owner_hold(m->q[k], NULL);
		mq_unlink(name); /* every participant reaches it through the descriptor */
	}
	return m;
}

static int pmq_option(void *settings, int c, const char *name, const char *arg)
{
	struct pmq_settings *set = settings;
	long long *v = c == OPT_TIMEOUT ? &set->timeout_s : &set->force_s;

	return rt_cli_number(name, arg, 0, PMQ_MAX_TIMEOUT_S, "s", v) ? RT_EXIT_USAGE : 0;
}

static int pmq_check(void *settings, struct pairs_config *cfg)
{
	const struct pmq_settings *set = settings;

	if (set->force_s && !set->timeout_s)
		return rt_prog_usage_error("invalid --forcetimeout: it needs --timeout (-T) "
					   "above 0");
	cfg->sender_delay_ns = set->force_s * 1000000000LL;
	return 0;
}

static struct pmq_settings pmq_settings;

static const struct option pmq_longopts[] = {
	{ "forcetimeout", required_argument, NULL, OPT_FORCETIMEOUT },
	{ "timeout", required_argument, NULL, OPT_TIMEOUT },
	{ NULL, 0, NULL, 0 },
};

static const struct pairs_own_options pmq_own = {
	.longopts = pmq_longopts,
	.shortopts = "f:T:",
	.help = "-T TO     --timeout=TO      receivers wait with mq_timedreceive, timeout TO s\n"
		"                            (0..3600, 0 = mq_receive); timeouts count as TO\n"
		"-f TO     --forcetimeout=TO senders hold each message back TO s (0..3600),\n"
		"                            to force -T's timeout; needs -T\n",
	.parse = pmq_option,
	.check = pmq_check,
	.settings = &pmq_settings,
};

static const struct rt_pair_mech pmq_mech = {
	.wait = pmq_wait,
	.pass = pmq_pass,
	.wake = pmq_wake,
};

static const struct pairs_tool pmqtest = {
	.name = "pmqtest",
	.summary = "Measures the latency of handing a POSIX message queue message from one\n"
		   "thread to another.",
	.has_smp = true,
	.prio_floor = 1, /* 2.4: priorities decrease per pair but not below 1 */
	.own = &pmq_own,
	.mech = &pmq_mech,
	.mech_setup = pmq_new,
	.mech_teardown = pmq_free,
	.timeouts = pmq_timeouts,
};

int main(int argc, char *argv[])
{
	return pairs_main(&pmqtest, argc, argv);
}
