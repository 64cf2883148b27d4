// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <pthread.h>
#include <string.h>

#include "rt_signal.h"
#include "rt_time.h"

static void wake_handler(int sig)
{
	(void)sig; /* being called is the point: the sleep returns EINTR */
}

int rt_signal_setup(sigset_t *set)
{
	static const int control[] = { SIGINT, SIGTERM, SIGHUP, SIGUSR1, SIGUSR2, SIGALRM };
	struct sigaction sa;
	int err;

	sigemptyset(set);
	for (size_t i = 0; i < sizeof(control) / sizeof(control[0]); i++)
		sigaddset(set, control[i]);
	sigaddset(set, RT_SIGNAL_DONE);
	err = pthread_sigmask(SIG_BLOCK, set, NULL);
	if (err)
		return -err;

	/*
	 * A reader that goes away (stdout, a -F fifo, a records pipe) must not
	 * end the run: the write fails with EPIPE and the tool carries on.
	 */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_IGN;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGPIPE, &sa, NULL) < 0)
		return -errno;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = wake_handler;
	sigemptyset(&sa.sa_mask);
	if (sigaction(RT_SIGNAL_WAKE, &sa, NULL) < 0)
		return -errno;
	return 0;
}

int rt_signal_wait(const sigset_t *set, int64_t timeout_ns)
{
	struct timespec ts;
	int sig;

	if (timeout_ns < 0) {
		do
			sig = sigwaitinfo(set, NULL);
		while (sig < 0 && errno == EINTR);
		return sig < 0 ? -errno : sig;
	}
	ts = rt_time_from_ns(timeout_ns);
	sig = sigtimedwait(set, NULL, &ts);
	if (sig < 0)
		return (errno == EAGAIN || errno == EINTR) ? 0 : -errno;
	return sig;
}
