/* SPDX-License-Identifier: GPL-2.0-or-later */
/* pip_stress's output: 2.4's result line, the verdict and the JSON. */
#ifndef PIP_STRESS_REPORT_H
#define PIP_STRESS_REPORT_H

#include <stdio.h>

#include "rt_env.h"
#include "rt_report.h"

#include "options.h"
#include "run.h"

/* The exit status for an outcome: 0 PASS, 3 FAIL, 1 could not run or stopped. */
int pip_exit_code(const struct pip_result *res);

/* Why the verdict is FAIL (one line, no newline), or NULL for PASS. */
const char *pip_fail_reason(const struct pip_config *cfg, const struct pip_result *res,
			    char *buf, size_t len);

/* 2.4's line when there is one, then "# Verdict: PASS" or "# Verdict: FAIL: <why>". */
void pip_print_result(FILE *f, const struct pip_config *cfg, const struct pip_result *res);

/* The JSON document (2.4's header, then pip_stress's keys). 0 or -errno. */
int pip_write_json(FILE *f, const struct rt_report *rep, int return_code,
		   const struct pip_config *cfg, const struct pip_result *res,
		   const struct rt_env *env);

#endif
