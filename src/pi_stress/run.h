/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pi_stress's run: the admin thread sets up the groups, releases them,
 * shows the progress, watches for stuck groups and stops everything when
 * the duration, the inversions, a signal or the watchdog ends the run.
 */
#ifndef PI_STRESS_RUN_H
#define PI_STRESS_RUN_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "options.h"

/*
 * A group without an inversion this long when the run ends, before the
 * watchdog could judge it, is not proven free of a stall: 2.4's progress
 * interval (a group resolves thousands of inversions a second).
 */
#define PIS_STALL_NS (750 * 1000000LL)

struct pis_result {
	int ngroups;
	uint64_t *per_group;      /* inversions of each group */
	bool *stuck;              /* groups the watchdog caught */
	bool *finished;           /* groups that did their -i inversions */
	int64_t *quiet_ns;        /* per group: from its last inversion to the stop */
	int nstuck;
	uint64_t total;
	int64_t elapsed_ns;       /* from the release of the threads to the stop */
	bool started;             /* the threads were released */
	int stop_signal;          /* SIGINT or SIGTERM, 0 */
	bool duration_over;
	bool all_finished;        /* every group did its -i inversions */
	bool not_joined;          /* some thread did not end within the grace time */
	int policy[PIS_ROLES];    /* as read back by each role's threads (-1: none) */
	int admin_cpu;
	int first_group_cpu;      /* -1: not pinned */
};

/* The whole run; errors are printed. RT_EXIT_OK or RT_EXIT_FAILURE. */
int pi_stress_run(const struct pi_stress_config *cfg, const sigset_t *signals,
		  struct pis_result *res);

void pi_stress_result_free(struct pis_result *res);

#endif
