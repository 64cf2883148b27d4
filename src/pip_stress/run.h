/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pip_stress's run: low (SCHED_FIFO 1), high (3) and medium (2) priority
 * processes on one CPU, low and high sharing a process-shared mutex (with
 * priority inheritance unless --no-pi) in anonymous shared memory. The
 * parent stays above them (SCHED_FIFO 4, asleep) and creates them in an
 * order that sets the inversion up every time: low takes the mutex; high
 * asks for it and blocks; only then medium starts its busy work, and low
 * releases the mutex --usleep after that. With priority inheritance low runs
 * at high's priority and releases the mutex while medium still works; without
 * it, medium's work runs to its end first. No process outlives the run: a
 * stop kills them, and they die with the parent (PR_SET_PDEATHSIG).
 */
#ifndef PIP_STRESS_RUN_H
#define PIP_STRESS_RUN_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "options.h"

enum pip_role { PIP_LOW, PIP_MEDIUM, PIP_HIGH, PIP_ROLES };

enum pip_outcome {
	PIP_RESOLVED,     /* high got the mutex while medium still worked: PASS */
	PIP_UNRESOLVED,   /* medium finished its work first: FAIL */
	PIP_NO_INVERSION, /* high got the mutex before medium started (2.4's other line) */
	PIP_STOPPED,      /* SIGINT/SIGTERM before high got the mutex */
	PIP_ERROR,        /* could not run (printed) */
};

struct pip_result {
	enum pip_outcome outcome;
	int cpu;                  /* the one CPU of the three processes */
	int stop_signal;          /* SIGINT or SIGTERM, 0 */
	int policy[PIP_ROLES];    /* as read back by each process, -1 never set */
	int prio[PIP_ROLES];
	int low_prio_at_unlock;   /* low's effective priority as it released the mutex, -1 */
	bool high_blocked;        /* high was seen blocked on the mutex */
	bool medium_started;
	bool medium_finished;     /* medium's work ran to its end (before high got the mutex) */
	int64_t high_wait_ns;     /* high's request to getting the mutex, -1 */
	int64_t medium_ran_ns;    /* medium's start to high getting the mutex (or its end), -1 */
};

/* Priorities of the three (2.4's: the policy's minimum and the next two) and the parent. */
#define PIP_PRIO_LOW 1
#define PIP_PRIO_MEDIUM 2
#define PIP_PRIO_HIGH 3
#define PIP_PRIO_PARENT 4

/*
 * The whole run. signals: the blocked set of rt_signal_setup(). Errors are
 * printed; returns RT_EXIT_OK (res->outcome tells) or RT_EXIT_FAILURE.
 */
int pip_run(const struct pip_config *cfg, const sigset_t *signals, struct pip_result *res);

/* Effective real-time priority from /proc/PID/stat's priority field (-1 - rtprio), or -1. */
int pip_rt_prio_from_stat(const char *stat);

/* The state letter of /proc/PID/stat's text, or 0. */
char pip_state_from_stat(const char *stat);

#endif
