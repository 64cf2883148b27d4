// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Hand-over by signal: the receiver blocks RT_PAIR_SIGNAL and takes it with
 * sigwaitinfo; the sender sends it with tgkill, which reaches a thread of
 * this process or of a forked one alike. A real-time signal nobody else
 * sends, so a stray "kill -USR1" cannot pass as a token.
 */
#include <errno.h>
#include <signal.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "rt_pair.h"
#include "rt_pair_signal.h"

#define RT_PAIR_SIGNAL (SIGRTMIN + 5)

static int signal_init(struct rt_pair *p, int k)
{
	sigset_t set;

	(void)p;
	(void)k;
	sigemptyset(&set);
	sigaddset(&set, RT_PAIR_SIGNAL);
	return -pthread_sigmask(SIG_BLOCK, &set, NULL);
}

static void signal_wait(struct rt_pair *p, int k)
{
	sigset_t set;

	(void)p;
	(void)k;
	sigemptyset(&set);
	sigaddset(&set, RT_PAIR_SIGNAL);
	while (sigwaitinfo(&set, NULL) < 0 && errno == EINTR)
		;
}

static void send_to(struct rt_pair *p, int to)
{
	struct rt_pair_part *pt = rt_pair_part(p, to);
	pid_t tid = atomic_load(&pt->ws.tid);

	if (tid > 0)
		syscall(SYS_tgkill, pt->tgid, tid, RT_PAIR_SIGNAL);
}

static void signal_pass(struct rt_pair *p, int from, int to)
{
	(void)from;
	send_to(p, to);
}

const struct rt_pair_mech rt_pair_mech_signal = {
	.participant_init = signal_init,
	.wait = signal_wait,
	.pass = signal_pass,
	.wake = send_to,
};
