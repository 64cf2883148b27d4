/* SPDX-License-Identifier: GPL-2.0-or-later */
/* ssdd's output: 2.4's lines, the verdict, the one-line errors and the JSON. */
#ifndef SSDD_REPORT_H
#define SSDD_REPORT_H

#include <stdio.h>

#include "rt_env.h"
#include "rt_report.h"
#include "rt_verdict.h"

#include "check.h"
#include "options.h"
#include "run.h"

/* The pairs counted by outcome, and the first of each kind. */
struct ssdd_summary {
	int passed, failed, cannot, stopped, died, not_started;
	int first_failed, first_cannot, first_died; /* -1: none */
	uint64_t steps;          /* single steps done and right, all pairs */
};

void ssdd_summarize(const struct ssdd_config *cfg, const struct ssdd_result *res,
		    struct ssdd_summary *s);

/* RT_EXIT_FAIL when a step went wrong, RT_EXIT_FAILURE when a pair could not run. */
int ssdd_exit_code(const struct ssdd_result *res, const struct ssdd_summary *s);

/* "#main : PID", "#forks: N", "#steps: N" and an empty line (not with -q). */
void ssdd_print_header(FILE *f, const struct ssdd_config *cfg, int main_pid);

/*
 * After the run: the lines of pairs that were stopped or whose tracer died
 * (not with -q), then 2.4's final line: "All tests PASSED." only for a run
 * that did every step (none after a stop), "One or more tests FAILED.".
 */
void ssdd_print_end(FILE *f, const struct ssdd_config *cfg, const struct ssdd_result *res,
		    const struct ssdd_summary *s, int rc);

/*
 * The verdict (rt_verdict_free after): the steps are the evidence, a wrong
 * step fails its pair, a pair that could not run or whose tracer died
 * fails; a stop makes it partial (INCONCLUSIVE before any step).
 */
void ssdd_judge(struct rt_verdict *v, const struct ssdd_config *cfg, const struct ssdd_result *res,
		const struct ssdd_summary *s);

/* Why the test could not run, one line on stderr (rc RT_EXIT_FAILURE). */
void ssdd_print_error(const struct ssdd_config *cfg, const struct ssdd_result *res,
		      const struct ssdd_summary *s, const struct ssdd_ptrace_policy *pol);

/* The JSON document (2.4's header, then ssdd's keys). 0 or -errno. */
int ssdd_write_json(FILE *f, const struct rt_report *rep, int return_code,
		    const struct ssdd_config *cfg, const struct ssdd_result *res,
		    const struct ssdd_summary *s, const struct ssdd_ptrace_policy *pol,
		    const struct rt_verdict *v, const struct rt_env *env);

#endif
