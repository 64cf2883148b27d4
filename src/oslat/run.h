/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Set up, run and report one oslat measurement. */
#ifndef OSLAT_RUN_H
#define OSLAT_RUN_H

#include <signal.h>

#include "rt_report.h"

#include "options.h"

/*
 * signals: the control signals, blocked by the caller (rt_tool) before any
 * thread exists. Returns the process exit code.
 */
int oslat_run(const struct oslat_config *cfg, const struct rt_report *rep,
	      const sigset_t *signals);

#endif
