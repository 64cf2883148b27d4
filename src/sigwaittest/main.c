// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * sigwaittest: latency of a signal from a sender to a receiver blocked in
 * sigwait, threads or (-f) processes, compatible with rt-tests 2.4.
 */
#include "rt_pair.h"
#include "rt_pairtool.h"
#include "rt_prog.h"
#include "rt_report.h"

int main(int argc, char *argv[])
{
	struct rt_pairtool_config cfg;
	struct rt_report rep;
	int rc;

	rt_prog_init(argv[0]);
	rt_report_init(&rep, argc, argv); /* before getopt permutes argv */
	rt_pairtool_init(&cfg, "sigwaittest",
			 "Measures the latency of a signal sent to a thread (or, with -f, a\n"
			 "process) blocked in sigwait().");
	cfg.has_fork = true;
	cfg.has_smp = true;
	cfg.prio_floor = 0;
	rc = rt_pairtool_parse(&cfg, argc, argv);
	if (rc < 0)
		return rt_prog_close_stdout() ? RT_EXIT_FAILURE : RT_EXIT_OK;
	if (rc)
		return rc;
	rc = rt_pairtool_run(&cfg, &rep, &rt_pair_mech_signal, NULL);
	if (rt_prog_close_stdout() && rc == RT_EXIT_OK)
		rc = RT_EXIT_FAILURE;
	return rc;
}
