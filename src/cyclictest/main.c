// SPDX-License-Identifier: GPL-2.0-or-later
/* cyclictest: periodic timer wakeup latency, compatible with rt-tests 2.4. */
#include <stdio.h>

#include "rt_prog.h"
#include "rt_report.h"

#include "options.h"
#include "run.h"

int main(int argc, char *argv[])
{
	struct cyclictest_config cfg;
	struct rt_report rep;
	int rc;

	rt_prog_init(argv[0]);
	rt_report_init(&rep, argc, argv); /* before getopt permutes argv */
	cyclictest_config_init(&cfg);

	rc = cyclictest_parse_args(&cfg, argc, argv);
	if (rc < 0)
		return rt_prog_close_stdout() ? RT_EXIT_FAILURE : RT_EXIT_OK;
	if (rc)
		return rc;
	rc = cyclictest_config_check(&cfg);
	if (rc)
		return rc;

	rc = cyclictest_run(&cfg, &rep);
	/* A failed stdout (reader gone, disk full) is a failed run: exit 1. */
	if (rt_prog_close_stdout())
		rc = RT_EXIT_FAILURE;
	return rc;
}
