/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hackbench's run: groups of receivers and senders (processes or threads)
 * created, released together, timed until the last one is done, and reaped;
 * repeated until -D ends. No worker outlives the run: a stop kills them, and
 * a worker process dies with its parent (PR_SET_PDEATHSIG).
 */
#ifndef HACKBENCH_RUN_H
#define HACKBENCH_RUN_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "options.h"

struct hb_round {
	int64_t time_ns;     /* from the start signal to the last worker done (or stopped) */
	uint64_t messages;   /* messages received in full */
	bool completed;      /* every worker finished its loops */
	uint64_t signalled;  /* workers stopped early (0 when completed) */
};

struct hb_result {
	struct hb_round *rounds;
	int nrounds;
	int stop_signal;     /* SIGINT or SIGTERM that stopped the run, 0 */
	bool duration_over;  /* -D ended */
	bool not_started;    /* stopped before any round started */
	int workers_policy;  /* the SCHED_* the workers inherited */
	bool fifo_main;      /* -F took effect */
};

/* Called after each round that started, before the next one. */
typedef void (*hb_round_cb)(void *ctx, const struct hb_result *res, const struct hb_round *r);

/*
 * Is the file descriptor limit enough for one round (raising the soft limit
 * toward the hard one when not)? 0, or -EMFILE with *needed and *limit set.
 */
int hackbench_check_fd_limit(const struct hackbench_config *cfg, uint64_t *needed,
			     uint64_t *limit);

/*
 * The whole run. signals: the blocked set of rt_signal_setup(). Errors are
 * printed; returns RT_EXIT_OK or RT_EXIT_FAILURE. res->rounds is malloc'ed.
 */
int hackbench_run(const struct hackbench_config *cfg, const sigset_t *signals,
		   struct hb_result *res, hb_round_cb cb, void *ctx);

#endif
