// SPDX-License-Identifier: GPL-2.0-or-later
/* cyclicdeadline: cyclictest's measurement from SCHED_DEADLINE threads, rt-tests 2.4 compatible. */
#include <signal.h>
#include <stdio.h>

#include "rt_hrtick.h"
#include "rt_prog.h"
#include "rt_report.h"
#include "rt_signal.h"

#include "../cyclictest/front.h"
#include "../cyclictest/run.h"

#include "options.h"
#include "report.h"

#define HRTICK_BELOW_US 2000 /* runtimes below this want HRTICK_DL */

int main(int argc, char *argv[])
{
	struct cyclicdeadline_config cfg;
	struct cyclictest_front front;
	struct rt_hrtick hrtick = RT_HRTICK_INIT;
	enum rt_hrtick_state hrtick_state;
	struct rt_report rep;
	sigset_t signals;
	int rc;

	rt_prog_init(argv[0]);
	rt_report_init(&rep, argc, argv); /* before getopt permutes argv */
	cyclicdeadline_config_init(&cfg);
	rc = cyclicdeadline_parse_args(&cfg, argc, argv);
	if (rc < 0)
		return rt_prog_close_stdout() ? RT_EXIT_FAILURE : RT_EXIT_OK;
	if (rc)
		return rc;
	if ((rc = cyclicdeadline_config_check(&cfg)))
		return rc;
	cyclicdeadline_front_init(&front, &cfg);
	cfg.ct.front = &front;

	/* From here SIGINT/SIGTERM end the run, not the process: HRTICK is put back. */
	if (rt_signal_setup(&signals)) {
		rt_prog_error("cannot set up signal handling");
		return RT_EXIT_FAILURE;
	}
	if (cyclicdeadline_runtime_us(&cfg, 0) < HRTICK_BELOW_US && rt_hrtick_enable(&hrtick, &hrtick_state) < 0)
		rt_prog_error("warning: runtimes below %d us need HRTICK_DL in debugfs "
			      "sched/features, which cannot be enabled here: the kernel enforces "
			      "them at tick granularity", HRTICK_BELOW_US);
	cyclicdeadline_print_setup(stdout, &cfg);
	rc = cyclictest_run(&cfg.ct, &rep);
	rt_hrtick_restore(&hrtick);
	/* A failed stdout (reader gone, disk full) is a failed run: exit 1. */
	if (rt_prog_close_stdout())
		rc = RT_EXIT_FAILURE;
	return rc;
}
