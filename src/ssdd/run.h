/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ssdd's run: --forks tracer processes, each with a tracee it attaches to
 * and single-steps --iters times, checking every waitpid(). Nothing outlives
 * the run: a stop kills the tracers, a tracee dies with its tracer
 * (PTRACE_O_EXITKILL and PR_SET_PDEATHSIG), a tracer with the main process
 * (PR_SET_PDEATHSIG), and the main process reaps every one of them (it is
 * their child subreaper).
 */
#ifndef SSDD_RUN_H
#define SSDD_RUN_H

#include <signal.h>
#include <stdint.h>
#include <sys/types.h>

#include "check.h"
#include "options.h"

enum ssdd_outcome {
	SSDD_NOT_STARTED,  /* its tracer was never created */
	SSDD_RUNNING,      /* (during the run) */
	SSDD_PASSED,       /* every step right */
	SSDD_FAILED,       /* a step went wrong: mismatch */
	SSDD_CANNOT,       /* could not set up (fork, PTRACE_ATTACH): err, what */
	SSDD_STOPPED,      /* stopped by SIGINT/SIGTERM: steps done were right */
	SSDD_DIED,         /* its tracer died without a result: tracer_status */
};

struct ssdd_pair_result {
	int tracer_pid;
	int tracee_pid;          /* 0 before it was forked */
	uint64_t steps;          /* single steps done and found right */
	int64_t time_ns;         /* of the steps (PASSED), -1 otherwise */
	enum ssdd_outcome outcome;
	struct ssdd_mismatch mismatch; /* SSDD_FAILED */
	int err;                 /* SSDD_CANNOT: errno */
	char what[48];           /* SSDD_CANNOT: "PTRACE_ATTACH", "fork of the tracee", ... */
	int tracer_status;       /* SSDD_DIED: wait status */
};

struct ssdd_result {
	int main_pid;
	struct ssdd_pair_result *pairs; /* cfg->forks of them */
	int stop_signal;         /* SIGINT or SIGTERM that stopped the run, 0 */
	int fork_err;            /* the main fork that failed (errno), 0 */
	int fork_pair;           /* which pair it was for */
	int tracers_policy;      /* the SCHED_* the tracers inherited */
};

/*
 * The whole run. signals: the blocked set of rt_signal_setup(). Returns
 * RT_EXIT_OK, or RT_EXIT_FAILURE when it could not start (printed);
 * res->pairs is malloc'ed (also on failure, when not NULL).
 */
int ssdd_run(const struct ssdd_config *cfg, const sigset_t *signals, struct ssdd_result *res);

#endif
