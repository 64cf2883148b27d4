// SPDX-License-Identifier: GPL-2.0-or-later
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "rt_cli.h"
#include "rt_prog.h"

#include "options.h"

static const struct option long_opts[] = {
	PAIRTOOL_COMMON_LONG_OPTIONS,
	{ "affinity", optional_argument, NULL, 'a' },
	{ "help", no_argument, NULL, 'h' },
	{ "mlockall", no_argument, NULL, 'm' },
	{ "smp", no_argument, NULL, 'S' },
	{ "threads", required_argument, NULL, 't' },
	{ "verbose", no_argument, NULL, 'v' },
	{ NULL, 0, NULL, 0 },
};

static void usage(void)
{
	printf("signaltest V %s (%s %s)\nUsage:\nsignaltest <options>\n\n"
	       "Measures how fast a signal travels around a ring of threads.\n\n",
	       RT_INTERFACE_VERSION, PACKAGE_NAME, PACKAGE_VERSION);
	fputs("-a [CPUSET] --affinity[=CPUSET]  pin the threads round-robin to CPUSET\n"
	      "                           (libnuma syntax); without CPUSET, thread N runs on\n"
	      "                           the Nth allowed CPU\n"
	      "-b USEC   --breaktrace=USEC  stop when a latency exceeds USEC\n"
	      "-D TIME   --duration=TIME   run time: N, Ns, Nm, Nh or Nd\n"
	      "-h        --help            print this help and exit\n"
	      "          --json=FILE       write the results as JSON to FILE ('-' = stdout)\n"
	      "-l LOOPS  --loops=LOOPS     round trips (default 0 = endless)\n"
	      "-m        --mlockall        lock current and future memory\n"
	      "-p PRIO   --priority=PRIO   SCHED_FIFO priority of all threads (0..99,\n"
	      "                            0 = SCHED_OTHER)\n"
	      "-q        --quiet           print only a summary at exit\n"
	      "-S        --smp             one thread per allowed CPU, pinned\n"
	      "-t NUM    --threads=NUM     threads in the ring (default 2, at least 2)\n"
	      "-v        --verbose         print every sample as n:c:v (thread:cycle:latency)\n"
	      "          --version         print the version and exit\n", stdout);
	fputs(pairtool_results_help, stdout);
}

static int parse_one(struct signaltest_config *cfg, int c, int argc, char *argv[])
{
	const char *v;
	long long n;
	int err = pairtool_common_option(&cfg->common, long_opts, c, optarg);

	if (err != PAIRTOOL_NOT_COMMON)
		return err;
	switch (c) {
	case 'a':
		cfg->affinity = true;
		v = rt_cli_optional_value(argc, argv);
		if (v)
			return rt_cli_cpulist(rt_cli_opt_name(long_opts, c), v, &cfg->cpus);
		cfg->cpus.count = 0;
		break;
	case 'h': usage(); return -1;
	case 'm': cfg->common.mlockall = true; break;
	case 'S': cfg->smp = true; break;
	case 't':
		if (rt_cli_number(rt_cli_opt_name(long_opts, c), optarg, 2, ST_MAX_THREADS, NULL, &n))
			return RT_EXIT_USAGE;
		cfg->threads = (int)n;
		break;
	case 'v': cfg->verbose = true; break;
	default: return rt_cli_bad_option(argc, argv, c);
	}
	return 0;
}

int signaltest_parse_args(struct signaltest_config *cfg, int argc, char *argv[])
{
	struct rt_cpulist allowed;
	int c, err;

	memset(cfg, 0, sizeof(*cfg));
	pairtool_common_init(&cfg->common);
	cfg->threads = 2;
	pairtool_getopt_reset();
	while ((c = getopt_long(argc, argv, ":a::b:D:hl:mp:qSt:v", long_opts, NULL)) != -1)
		if ((err = parse_one(cfg, c, argc, argv)))
			return err;
	if ((err = rt_cli_no_operands(argc, argv)) ||
	    (err = rt_cli_results_check(&cfg->common.results, !cfg->common.quiet || cfg->verbose)))
		return err;
	if (rt_affinity_allowed(&allowed))
		return rt_prog_usage_error("cannot read the CPUs this process may use");
	if (cfg->smp) {
		cfg->affinity = true;
		cfg->cpus = allowed;
		cfg->threads = allowed.count >= 2 ? (int)allowed.count : 2;
	} else if (cfg->affinity && cfg->cpus.count == 0) {
		cfg->cpus = allowed;
	}
	return 0;
}
