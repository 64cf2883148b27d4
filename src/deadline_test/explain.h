/* SPDX-License-Identifier: GPL-2.0-or-later */
/* One line on stderr for a refused sched_setattr(SCHED_DEADLINE): why, and what to change. */
#ifndef DEADLINE_TEST_EXPLAIN_H
#define DEADLINE_TEST_EXPLAIN_H

#include "run.h"

/* Thread t's setup_err (negative errno) explained. */
void deadline_test_explain(const struct deadline_test_config *cfg, const struct dl_result *res,
			   const struct dl_thread *t);

/* EPERM for the whole run (the calibration could not get SCHED_FIFO 99). */
void deadline_test_explain_eperm(const struct deadline_test_config *cfg);

#endif
