// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * oslat: busy-polling threads measure the gaps in their CPU time (OS
 * latency), compatible with rt-tests 2.4 (see NEWS for what differs).
 */
#include <stdio.h>

#include "rt_prog.h"
#include "rt_report.h"

#include "options.h"
#include "run.h"

int main(int argc, char *argv[])
{
	struct oslat_config cfg;
	struct rt_report rep;
	int rc;

	rt_prog_init(argv[0]);
	rt_report_init(&rep, argc, argv); /* before getopt permutes argv */
	rc = oslat_parse_args(&cfg, argc, argv);
	if (rc < 0)
		return rt_prog_close_stdout() ? RT_EXIT_FAILURE : RT_EXIT_OK;
	if (rc)
		return rc;
	rc = oslat_run(&cfg, &rep);
	return rt_prog_exit_code(rc);
}
