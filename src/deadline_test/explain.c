// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>

#include "rt_deadline.h"
#include "rt_deadline_explain.h"
#include "rt_prog.h"

#include "explain.h"

void deadline_test_explain_eperm(const struct deadline_test_config *cfg)
{
	char line[1024];

	(void)cfg;
	rt_deadline_explain_caps(line, sizeof(line), true);
	rt_prog_error("%s", line);
}

void deadline_test_explain(const struct deadline_test_config *cfg, const struct dl_result *res,
			   const struct dl_thread *t)
{
	struct rt_deadline_refusal r = {
		.err = t->setup_err,
		.thread = t->index,
		.runtime_us = t->runtime_us,
		.deadline_us = t->st.deadline_us,
		.nthreads = res->nthreads,
		.nr_cpus = res->nr_cpus,
		.rt_runtime_us = res->rt_runtime_us,
		.rt_period_us = res->rt_period_us,
		.pinned = &cfg->cpus,
		.pin_what = "-c/-b pins the threads",
		.pin_fix = " (deadline_test creates none)",
		.bw_fix = "lower -p or -t",
		.param_fix = "change -i, -s or -p",
	};
	char line[1024];

	if (t->pin_failed) {
		rt_prog_error_errno(-t->setup_err, "thread %d: cannot pin to the CPUs of -c/-b",
				    t->index);
		return;
	}
	for (int i = 0; i < res->nthreads; i++) {
		struct rt_deadline_params p = {
			.runtime_ns = res->threads[i].runtime_us * 1000,
			.deadline_ns = res->threads[i].st.deadline_us * 1000,
		};

		r.asked_bw += rt_deadline_bw(&p);
	}
	rt_deadline_explain(line, sizeof(line), &r);
	rt_prog_error("%s", line);
}
