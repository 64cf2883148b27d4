/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Set up, run and report one cyclictest measurement: the periodic-wakeup
 * engine cyclictest and cyclicdeadline share. Tool code shared by two
 * tools, not a lib service: it prints cyclictest's lines and messages
 * itself (cyclicdeadline's through its rt_cyclic_front), as rt_cli and
 * rt_prog do, and returns an exit code rather than a negative errno.
 */
#ifndef RT_CYCLIC_RUN_H
#define RT_CYCLIC_RUN_H

#include <signal.h>

#include "rt_report.h"

#include "rt_cyclic_config.h"

/*
 * signals: the control signals, blocked by the caller (rt_tool) before any
 * thread exists. Returns the process exit code (RT_EXIT_OK or
 * RT_EXIT_FAILURE).
 */
int cyclictest_run(const struct cyclictest_config *cfg, const struct rt_report *rep,
		   const sigset_t *signals);

#endif
