/* SPDX-License-Identifier: GPL-2.0-or-later */
/* pip_stress's output: 2.4's result line, the verdict and the JSON. */
#ifndef PIP_STRESS_REPORT_H
#define PIP_STRESS_REPORT_H

#include <stdio.h>

#include "rt_env.h"
#include "rt_report.h"
#include "rt_verdict.h"

#include "options.h"
#include "run.h"

/*
 * The verdict (rt_verdict_free after): PASS when the inversion was
 * resolved, FAIL when medium finished first; no inversion set up, or a
 * stop before high got the mutex, is INCONCLUSIVE (a stop also partial).
 */
void pip_judge(struct rt_verdict *v, const struct pip_config *cfg, const struct pip_result *res);

/* 2.4's line, when the outcome has one. */
void pip_print_result(FILE *f, const struct pip_result *res);

/* The JSON document (2.4's header, then pip_stress's keys). 0 or -errno. */
int pip_write_json(FILE *f, const struct rt_report *rep, int return_code,
		   const struct pip_config *cfg, const struct pip_result *res,
		   const struct rt_verdict *v, const struct rt_env *env);

#endif
