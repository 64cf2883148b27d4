// SPDX-License-Identifier: GPL-2.0-or-later
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "rt_cli.h"
#include "rt_opt.h"
#include "rt_prog.h"

#include "options.h"

enum { OPT_MAX_MISSES = 256 };

/* 2.4 has short options only; the long names are ours. */
static const struct option long_opts[] = {
	{ "bind", no_argument, NULL, 'b' },
	{ "cpus", required_argument, NULL, 'c' },
	{ "help", no_argument, NULL, 'h' },
	{ "interval", required_argument, NULL, 'i' },
	{ "percent", required_argument, NULL, 'p' },
	{ "run-percent", required_argument, NULL, 'P' },
	{ "rt-prio", required_argument, NULL, 'r' },
	{ "step", required_argument, NULL, 's' },
	{ "threads", required_argument, NULL, 't' },
	{ "duration", required_argument, NULL, 'D' },
	RT_CLI_COMMON_LONG_OPTIONS,
	{ "max-misses", required_argument, NULL, OPT_MAX_MISSES },
	{ NULL, 0, NULL, 0 },
};

static void usage(void)
{
	printf("deadline_test V %s (%s %s)\nUsage:\ndeadline_test <options>\n",
	       RT_INTERFACE_VERSION, PACKAGE_NAME, PACKAGE_VERSION);
	fputs("-b       --bind             Bind on the last cpu. (shortcut for -c <lastcpu>)\n"
	      "-c CPUSET --cpus=CPUSET     Comma/hyphen separated list of CPUs to run deadline\n"
	      "                            tasks on (the list must be a root domain: all CPUs,\n"
	      "                            or an exclusive cpuset made beforehand)\n"
	      "-h       --help             Show this help menu\n"
	      "-i INTV  --interval=INTV    The shortest deadline for the tasks in us\n"
	      "                            (default 1000us)\n"
	      "-p PERCENT --percent=PERCENT\n"
	      "                            The percent of bandwidth to use (1-100%, default 80%)\n"
	      "-P PERCENT --run-percent=PERCENT\n"
	      "                            The percent of runtime for execution completion\n"
	      "                            (default 100%; 101-1000: the work overruns the\n"
	      "                            runtime on purpose, every deadline is missed)\n"
	      "-r PRIO  --rt-prio=PRIO     Add an RT task with given prio to stress system\n"
	      "-s STEP  --step=STEP        The amount to increase the deadline for each task in us\n"
	      "                            (default 500us)\n"
	      "-t NUM   --threads=NUM      The number of threads to run as deadline (default 2)\n"
	      "-D TIME  --duration=TIME    run for TIME: N, Ns, Nm, Nh or Nd (default 10s;\n"
	      "                            0: until SIGINT or SIGTERM)\n"
	      "         --json=FILE        write the results as JSON to FILE ('-' = stdout)\n"
	      "         --max-misses=N     missed deadlines and missed periods allowed in all;\n"
	      "                            more make the verdict FAIL (implies --verdict)\n"
	      "         --no-preflight     no warnings about the machine before the run, also\n"
	      "                            on a terminal\n"
	      "         --preflight        those warnings also when stderr is not a terminal\n"
	      "         --verdict          judge the run: \"# Verdict:\" lines, exit 3 on FAIL\n"
	      "                            (as --max-misses=0 when that is not given)\n"
	      "         --version          print the version and exit\n"
	      "\nExit status: 0 the run ended (misses or not, as 2.4); with --verdict or\n"
	      "--max-misses 3 when more were missed or a thread ran no period (FAIL), 4\n"
	      "INCONCLUSIVE (stopped early); 1 run-time error (SCHED_DEADLINE refused, ...),\n"
	      "2 usage error.\n",
	      stdout);
}

static int parse_one(struct deadline_test_config *cfg, int c, int argc, char *argv[])
{
	long long n;

	switch (c) {
	case 'b': cfg->bind_last = true; break;
	case 'c':
		if (rt_cli_cpulist(rt_cli_opt_name(long_opts, c), optarg, &cfg->cpus))
			return RT_EXIT_USAGE;
		cfg->cpus_arg = optarg;
		break;
	case 'h': usage(); return -1;
	case 'i':
		if (rt_cli_opt_number(long_opts, c, optarg, 1, DL_MAX_INTERVAL_US, "us", &n))
			return RT_EXIT_USAGE;
		cfg->interval_us = (uint64_t)n;
		break;
	case 'p':
		if (rt_cli_opt_number(long_opts, c, optarg, 1, 100, "%", &n))
			return RT_EXIT_USAGE;
		cfg->percent = (int)n;
		break;
	case 'P':
		if (rt_cli_opt_number(long_opts, c, optarg, 1, DL_MAX_RUN_PERCENT, "%", &n))
			return RT_EXIT_USAGE;
		cfg->run_percent = (int)n;
		break;
	case 'r':
		if (rt_cli_opt_number(long_opts, c, optarg, 0, 98, NULL, &n))
			return RT_EXIT_USAGE;
		cfg->rt_prio = (int)n;
		break;
	case 's':
		if (rt_cli_opt_number(long_opts, c, optarg, 0, DL_MAX_INTERVAL_US, "us", &n))
			return RT_EXIT_USAGE;
		cfg->step_us = (uint64_t)n;
		break;
	case 't':
		if (rt_cli_opt_number(long_opts, c, optarg, 1, DL_MAX_THREADS, NULL, &n))
			return RT_EXIT_USAGE;
		cfg->threads = (int)n;
		break;
	case 'D':
		/* 0: until a signal, as -D 0 in cyclictest */
		if (rt_cli_duration(rt_cli_opt_name(long_opts, c), optarg, &cfg->duration_s))
			return RT_EXIT_USAGE;
		break;
	case OPT_MAX_MISSES:
		if (rt_cli_opt_number(long_opts, c, optarg, 0, INT64_MAX, NULL, &n))
			return RT_EXIT_USAGE;
		cfg->max_misses = (uint64_t)n;
		cfg->common.verdict = true;
		break;
	default: return rt_cli_common_or_bad_option(&cfg->common, argc, argv, c, optarg);
	}
	return 0;
}

static int check(struct deadline_test_config *cfg)
{
	uint64_t last = cfg->interval_us + (uint64_t)(cfg->threads - 1) * cfg->step_us;

	if (cfg->bind_last && cfg->cpus_arg)
		return rt_prog_usage_error("--bind|-b and --cpus|-c cannot be used together");
	if (last > (uint64_t)DL_MAX_INTERVAL_US)
		return rt_prog_usage_error("invalid --step %llu with --threads %d: the last "
					   "deadline would be %llu us, more than %lld us",
					   (unsigned long long)cfg->step_us, cfg->threads,
					   (unsigned long long)last, DL_MAX_INTERVAL_US);
	return 0;
}

int deadline_test_parse_args(struct deadline_test_config *cfg, int argc, char *argv[])
{
	int c, err = 0;

	memset(cfg, 0, sizeof(*cfg));
	cfg->interval_us = 1000;
	cfg->percent = 80;
	cfg->run_percent = 100;
	cfg->step_us = 500;
	cfg->threads = 2;
	cfg->duration_s = 10;
	opterr = 0;
	optind = 0;
	/* "+": 2.4's getopt stops at the first word that is not an option */
	while ((c = getopt_long(argc, argv, "+:bc:hi:p:P:r:s:t:D:", long_opts, NULL)) != -1)
		if ((err = parse_one(cfg, c, argc, argv)))
			return err;
	if ((err = rt_cli_no_operands(argc, argv)))
		return err;
	return check(cfg);
}
