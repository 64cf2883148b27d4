/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Set up, run and report one cyclictest measurement. */
#ifndef CYCLICTEST_RUN_H
#define CYCLICTEST_RUN_H

#include "rt_report.h"

#include "options.h"

/* Returns the process exit code (RT_EXIT_OK or RT_EXIT_FAILURE). */
int cyclictest_run(const struct cyclictest_config *cfg, const struct rt_report *rep);

#endif
