/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Signals without handlers doing work: the main thread blocks the control
 * signals before starting any thread (so every thread inherits the mask) and
 * takes them synchronously with rt_signal_wait(), in normal context, where
 * printing and writing files is safe. Measurement threads are woken from
 * their sleeps with RT_SIGNAL_WAKE, whose handler does nothing.
 */
#ifndef RT_SIGNAL_H
#define RT_SIGNAL_H

#include <signal.h>
#include <stdint.h>

/* A thread finished (loops done, break hit): sent to the main thread. */
#define RT_SIGNAL_DONE (SIGRTMIN + 2)
/* Interrupts a measurement thread's sleep so it sees the stop request. */
#define RT_SIGNAL_WAKE (SIGRTMIN + 3)
/* Delivers POSIX interval timer expiries (-x) to the measuring thread. */
#define RT_SIGNAL_TIMER (SIGRTMIN + 4)

/*
 * Block SIGINT, SIGTERM, SIGHUP, SIGUSR1, SIGUSR2, SIGALRM and RT_SIGNAL_DONE
 * in the caller and fill *set with them; ignore SIGPIPE (a write to a reader
 * that went away fails with EPIPE instead of ending the run); install the
 * no-op RT_SIGNAL_WAKE handler (without SA_RESTART, so sleeps return EINTR).
 * 0 or -errno.
 */
int rt_signal_setup(sigset_t *set);

/*
 * Wait for one of set up to timeout_ns (< 0: forever). Returns the signal
 * number, 0 on timeout, or a negative errno.
 */
int rt_signal_wait(const sigset_t *set, int64_t timeout_ns);

#endif
