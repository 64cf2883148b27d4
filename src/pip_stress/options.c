// SPDX-License-Identifier: GPL-2.0-or-later
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "rt_cli.h"
#include "rt_prog.h"

#include "options.h"

enum { OPT_NO_PI = 256, OPT_WORK };

static const struct option long_opts[] = {
	{ "help", no_argument, NULL, 'h' },
	/* beyond 2.4 (2.4 had -s in its option string but did not handle it) */
	{ "usleep", required_argument, NULL, 's' },
	{ "work", required_argument, NULL, OPT_WORK },
	{ "no-pi", no_argument, NULL, OPT_NO_PI },
	RT_CLI_COMMON_LONG_OPTIONS,
	{ NULL, 0, NULL, 0 },
};

static void usage(void)
{
	printf("pip_stress V %s (%s %s)\nUsage:\npip_stress <options>\n\n"
	       "A priority inversion over processes: low, medium and high priority\n"
	       "processes on one CPU, low and high sharing a priority inheritance mutex.\n"
	       "PASS when the high priority process gets the mutex before the medium one\n"
	       "has finished its busy work.\n\n",
	       RT_INTERFACE_VERSION, PACKAGE_NAME, PACKAGE_VERSION);
	fputs("-h        --help            Show this help menu.\n"
	      "-s USEC   --usleep=USEC     how long the low priority process holds the mutex\n"
	      "                            once the medium one runs (default 500, 1..1000000)\n"
	      "          --work=MS         busy work of the medium priority process, in ms:\n"
	      "                            the bound of the test (default 1000, 1..60000)\n"
	      "          --no-pi           a mutex without priority inheritance, to check that\n"
	      "                            the test catches an unresolved inversion (FAIL)\n"
	      "          --json=FILE       write the results as JSON to FILE ('-' = stdout)\n"
	      "          --no-preflight    no warnings about the machine before the run, also\n"
	      "                            on a terminal\n"
	      "          --preflight       those warnings also when stderr is not a terminal\n"
	      "          --verdict         judge the run: \"# Verdict:\" lines, exit 3 on FAIL,\n"
	      "                            4 on INCONCLUSIVE (no inversion set up, or a\n"
	      "                            stop before one was resolved)\n"
	      "          --version         print the version and exit\n"
	      "\nExit status: 0 done, 3 FAIL (the inversion was not resolved), 4 with\n"
	      "--verdict INCONCLUSIVE, 1 the test could not run, 2 usage errors.\n",
	      stdout);
}

static int parse_one(struct pip_config *cfg, int c, int argc, char *argv[])
{
	switch (c) {
	case 'h': usage(); return -1;
	case 's':
		return rt_cli_number("usleep", optarg, 1, PIP_MAX_USLEEP_US, "us", &cfg->usleep_us);
	case OPT_WORK:
		return rt_cli_number("work", optarg, 1, PIP_MAX_WORK_MS, "ms", &cfg->work_ms);
	case OPT_NO_PI: cfg->no_pi = true; break;
	default: return rt_cli_common_or_bad_option(&cfg->common, argc, argv, c, optarg);
	}
	return 0;
}

int pip_parse_args(struct pip_config *cfg, int argc, char *argv[])
{
	int c, err;

	memset(cfg, 0, sizeof(*cfg));
	cfg->usleep_us = PIP_DEFAULT_USLEEP_US;
	cfg->work_ms = PIP_DEFAULT_WORK_MS;
	opterr = 0;
	optind = 0;
	while ((c = getopt_long(argc, argv, ":s:h", long_opts, NULL)) != -1)
		if ((err = parse_one(cfg, c, argc, argv)))
			return err;
	/* 2.4 ignored other words; no harness passes any: a usage error */
	if ((err = rt_cli_no_operands(argc, argv)))
		return err;
	if (cfg->usleep_us >= cfg->work_ms * 1000)
		return rt_prog_usage_error("invalid --usleep %lld: must be less than --work "
					   "(%lld ms), or the medium priority process ends before "
					   "the low one releases the mutex",
					   cfg->usleep_us, cfg->work_ms);
	return 0;
}
