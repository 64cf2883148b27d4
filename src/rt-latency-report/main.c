// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rt-latency-report: what users script by hand after a run, on the JSON of
 * rt-tests-ng (and of rt-tests 2.4 where it has what is needed).
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "rt_prog.h"
#include "rt_report.h"

#include "compare.h"
#include "html.h"
#include "junit.h"
#include "merge.h"
#include "plan.h"
#include "plot.h"

static void usage(void)
{
	printf("rt-latency-report (%s %s)\nUsage:\n"
	       "rt-latency-report compare BASE.json RUN.json [--tolerance=PCT] [--significant]\n"
	       "rt-latency-report merge FILE... -o OUT.json\n"
	       "rt-latency-report plot FILE... -o OUT.png|OUT.svg [--ns]\n"
	       "rt-latency-report junit FILE... -o REPORT.xml\n"
	       "rt-latency-report html FILE... -o REPORT.html [--compare] [--ns]\n"
	       "rt-latency-report plan --percentile=P [--confidence=C] [--interval=US] [--threads=N]\n"
	       "rt-latency-report --help | --version\n\n"
	       "compare   p50, p99, p99.9, p99.99 and max per thread and over all threads,\n"
	       "          base against run (JSON results, or cyclictest's -h text); exit 3\n"
	       "          when any got worse by more than PCT percent (--tolerance=PCT,\n"
	       "          0..100000, default 10); comment lines name the percentiles whose\n"
	       "          95 %% confidence intervals are disjoint (the change is beyond them);\n"
	       "          with --significant, exit 3 only when one of those got worse by\n"
	       "          more than PCT percent\n"
	       "merge     add runs of one tool (thread N to thread N: histograms exactly,\n"
	       "          percentiles recomputed) into OUT.json (-o/--output=OUT.json),\n"
	       "          with an \"inputs\" list of every run's host, kernel and totals\n"
	       "plot      the latency plot of every thread of every FILE (a JSON result, or\n"
	       "          cyclictest's -h/--histfile text; --ns: that text is in ns), drawn\n"
	       "          by gnuplot into OUT.png or OUT.svg (-o/--output)\n"
	       "junit     JUnit XML for CI of results of any tool (-o/--output=REPORT.xml):\n"
	       "          a test suite per FILE, a test case per thread or pair and\n"
	       "          limit of its verdict (the run's --max-latency, --max-percentile,\n"
	       "          --max-overruns; failed: the limit broken and the figures; a\n"
	       "          claim not proven: a failure of type inconclusive, \"INCONCLUSIVE:\n"
	       "          need N more samples\"; no samples: an error), its command line\n"
	       "          and environment as properties\n"
	       "html      one self-contained page (no script, nothing loaded) of every\n"
	       "          FILE: verdict, figures with intervals, histogram per CPU, latency\n"
	       "          over time (records), spikes, isolation, machine; a merge's\n"
	       "          inputs; with --compare, BASE against RUN\n"
	       "plan      the fewest samples whose C %% (default 95) confidence interval of\n"
	       "          the P-th percentile has an upper bound (a --max-percentile claim\n"
	       "          can be proven), and the run that takes at --interval (default\n"
	       "          1000 us) per thread and over --threads (default 1) together\n"
	       "          -o FILE   --output=FILE  where the merge, the plot or the report goes\n"
	       "          --compare html: the two FILEs as BASE and RUN\n"
	       "          --ns      plot, html: cyclictest's histogram text is in ns\n"
	       "          --help    print this help and exit (also after a command)\n"
	       "          --version print the version and exit\n\n"
	       "Every command also reads a tool's --records file (JSON lines) as the run it\n"
	       "describes, a killed one too: its windows added up, \"partial\": true without\n"
	       "its total line.\n\n"
	       "Usage errors and results of different tools or units exit with 2, unreadable\n"
	       "files (and a plot gnuplot cannot draw) with 1, a comparison that got worse with 3.\n", PACKAGE_NAME, PACKAGE_VERSION);
}

/* "COMMAND ... --help" (before any "--"): the help, as with no command. */
static bool command_help(int argc, char *argv[])
{
	if (strcmp(argv[1], "compare") != 0 && strcmp(argv[1], "merge") != 0 &&
	    strcmp(argv[1], "plot") != 0 && strcmp(argv[1], "junit") != 0 &&
	    strcmp(argv[1], "plan") != 0 && strcmp(argv[1], "html") != 0)
		return false;
	for (int i = 2; i < argc && strcmp(argv[i], "--") != 0; i++)
		if (strcmp(argv[i], "--help") == 0)
			return true;
	return false;
}

int main(int argc, char *argv[])
{
	struct rt_report rep;
	int rc;

	rt_prog_init(argv[0]);
	rt_report_init(&rep, argc, argv); /* before getopt permutes argv */
	if (argc < 2)
		return rt_prog_usage_error("a command is needed: compare, merge, plot, junit, html "
					   "or plan");
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 || command_help(argc, argv)) {
		usage();
		return rt_prog_close_stdout() ? RT_EXIT_FAILURE : RT_EXIT_OK;
	}
	if (strcmp(argv[1], "--version") == 0) {
		rt_prog_print_version(stdout);
		return rt_prog_close_stdout() ? RT_EXIT_FAILURE : RT_EXIT_OK;
	}
	if (strcmp(argv[1], "compare") == 0)
		rc = rlr_compare(argc - 1, argv + 1);
	else if (strcmp(argv[1], "merge") == 0)
		rc = rlr_merge(argc - 1, argv + 1, rep.cmdline);
	else if (strcmp(argv[1], "plot") == 0)
		rc = rlr_plot(argc - 1, argv + 1);
	else if (strcmp(argv[1], "junit") == 0)
		rc = rlr_junit(argc - 1, argv + 1);
	else if (strcmp(argv[1], "plan") == 0)
		rc = rlr_plan(argc - 1, argv + 1);
	else if (strcmp(argv[1], "html") == 0)
		rc = rlr_html(argc - 1, argv + 1);
	else
		return rt_prog_usage_error("unknown command '%s': must be compare, merge, plot, junit, "
					   "html or plan", argv[1]);
	if (rt_prog_close_stdout() && rc == RT_EXIT_OK)
		rc = RT_EXIT_FAILURE;
	return rc;
}
