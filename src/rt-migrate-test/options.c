// SPDX-License-Identifier: GPL-2.0-or-later
#include <getopt.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>

#include "rt_cli.h"
#include "rt_opt.h"
#include "rt_prog.h"

#include "options.h"


static const struct option long_opts[] = {
	{ "check", no_argument, NULL, 'c' },
	{ "duration", required_argument, NULL, 'D' },
	{ "equal", no_argument, NULL, 'e' },
	{ "help", no_argument, NULL, 'h' },
	RT_CLI_COMMON_LONG_OPTIONS,
	{ "loops", required_argument, NULL, 'l' },
	{ "maxerr", required_argument, NULL, 'm' },
	{ "prio", required_argument, NULL, 'p' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "run-time", required_argument, NULL, 'r' },
	{ "sleep-time", required_argument, NULL, 's' },
	/* beyond 2.4 */
	/* 2.4's --p and --pr abbreviated --prio: kept beside --preflight */
	{ "p", required_argument, NULL, 'p' },
	{ "pr", required_argument, NULL, 'p' },
	{ NULL, 0, NULL, 0 },
};

static void usage(void)
{
	printf("rt-migrate-test %s (%s %s)\nUsage:\nrt-migrate-test <options> [NR_TASKS]\n\n"
	       "NR_TASKS SCHED_FIFO tasks of rising priority are released together each\n"
	       "iteration and busy-loop; -c checks that no task waited while one of lower\n"
	       "priority ran (the scheduler's real-time push/pull migration).\n\n",
	       RT_INTERFACE_VERSION, PACKAGE_NAME, PACKAGE_VERSION);
	fputs("-c       --check           Stop if lower prio task is quicker than higher (off);\n"
	      "                           the verdict: exit 3 when one was\n"
	      "-D TIME  --duration=TIME   Specify a length for the test run: N, Ns, Nm, Nh or Nd\n"
	      "                           (0, as 2.4: no limit but the loops)\n"
	      "-e       --equal           Use equal prio for #CPU-1 tasks (requires > 2 CPUS)\n"
	      "-h       --help            Print this help message\n"
	      "         --json=FILENAME   write final results into FILENAME, JSON formatted\n"
	      "                           ('-' = stdout)\n"
	      "-l LOOPS --loops=LOOPS     Number of iterations to run (50)\n"
	      "-m TIME  --maxerr=TIME     Max allowed error (microsecs) (1000)\n"
	      "-p PRIO  --prio=PRIO       base priority to start RT tasks with (2)\n"
	      "-q       --quiet           print a summary only on exit\n"
	      "-r TIME  --run-time=TIME   Run time (ms) to busy loop the threads (20)\n"
	      "-s TIME  --sleep-time=TIME Sleep time (ms) between intervals (100)\n"
	      "         --no-preflight    no warnings about the machine before the run, also\n"
	      "                           on a terminal\n"
	      "         --preflight       those warnings also when stderr is not a terminal\n"
	      "         --verdict         judge the run (the -c check on every iteration, without\n"
	      "                           stopping): \"# Verdict:\" lines, exit 3 on FAIL, 4 on\n"
	      "                           INCONCLUSIVE\n"
	      "         --version         print the version and exit\n"
	      "NR_TASKS                   number of tasks (allowed CPUs + 1)\n"
	      "\n  () above are defaults \n"
	      "\nExit status: 0 done (and -c passed), 3 -c caught a task out of order (with\n"
	      "--verdict: any FAIL), 4 with --verdict INCONCLUSIVE,\n"
	      "1 could not run, 2 usage error, 130/143 stopped by SIGINT/SIGTERM.\n",
	      stdout);
}

/* A number option into *out: 0 or RT_EXIT_USAGE (the error printed). */
#define NUMBER(c, min, max, unit, out)                                                        \
	(rt_cli_opt_number(long_opts, (c), optarg, (min), (max), (unit), &n) ? RT_EXIT_USAGE  \
									     : ((out) = n, 0))

static int parse_one(struct migrate_config *cfg, int c, int argc, char *argv[])
{
	long long n;

	switch (c) {
	case 'c': cfg->check = true; break;
	case 'D':
		/* 0: no limit, as 2.4 */
		if (rt_cli_duration(rt_cli_opt_name(long_opts, c), optarg, &cfg->duration_s))
			return RT_EXIT_USAGE;
		break;
	case 'e': cfg->equal = true; break;
	case 'h': usage(); return -1;
	case 'l': return NUMBER(c, 1, MIGRATE_MAX_LOOPS, NULL, cfg->loops);
	case 'm': return NUMBER(c, 0, MIGRATE_MAX_MAXERR_US, "us", cfg->maxerr_us);
	case 'p': return NUMBER(c, 1, MIGRATE_MAX_PRIO - 1, NULL, cfg->prio);
	case 'q': cfg->quiet = true; break;
	case 'r': return NUMBER(c, 1, MIGRATE_MAX_MS, "ms", cfg->run_time_ms);
	case 's': return NUMBER(c, 0, MIGRATE_MAX_MS, "ms", cfg->sleep_time_ms);
	default: return rt_cli_common_or_bad_option(&cfg->common, argc, argv, c, optarg);
	}
	return 0;
}

static int allowed_cpus(void)
{
	cpu_set_t set;

	if (sched_getaffinity(0, sizeof(set), &set) || CPU_COUNT(&set) < 1)
		return 1;
	return CPU_COUNT(&set);
}

int migrate_task_prio(const struct migrate_config *cfg, int i)
{
	if (cfg->equal && i > 0 && i < cfg->nr_tasks - 1)
		return cfg->prio + 1;
	return cfg->prio + i;
}

static int check(const struct migrate_config *cfg)
{
	if (cfg->prio + cfg->nr_tasks > MIGRATE_MAX_PRIO)
		return rt_prog_usage_error("invalid --prio %d with %d tasks: they take priorities "
					   "%d..%d and the main thread %d, above %d",
					   cfg->prio, cfg->nr_tasks, cfg->prio,
					   cfg->prio + cfg->nr_tasks - 1, cfg->prio + cfg->nr_tasks,
					   MIGRATE_MAX_PRIO);
	if (cfg->loops * cfg->nr_tasks > MIGRATE_MAX_SAMPLES)
		return rt_prog_usage_error("invalid --loops %lld with %d tasks: more than %lld "
					   "samples to keep", (long long)cfg->loops,
					   cfg->nr_tasks, MIGRATE_MAX_SAMPLES);
	return 0;
}

int migrate_parse_args(struct migrate_config *cfg, int argc, char *argv[])
{
	const char *tasks = NULL;
	int c, err = 0;

	memset(cfg, 0, sizeof(*cfg));
	cfg->prio = 2;
	cfg->run_time_ms = 20;
	cfg->sleep_time_ms = 100;
	cfg->maxerr_us = 1000;
	cfg->loops = 50;
	opterr = 0;
	optind = 0;
	while ((c = getopt_long(argc, argv, ":cD:ehl:m:p:qr:s:", long_opts, NULL)) != -1)
		if ((err = parse_one(cfg, c, argc, argv)))
			return err;
	/* 2.4 reads the first other word as NR_TASKS (Red Hat's test: "2"); more is an error */
	for (; optind < argc && !tasks; optind++)
		if (argv[optind][0] != '\0')
			tasks = argv[optind];
	if ((err = rt_cli_no_operands(argc, argv)))
		return err;
	if (tasks) {
		long long n;

		if (rt_opt_parse_ll(tasks, 1, MIGRATE_MAX_PRIO - 1, &n))
			return rt_prog_usage_error("invalid NR_TASKS '%s': must be 1..%d", tasks,
						   MIGRATE_MAX_PRIO - 1);
		cfg->nr_tasks = (int)n;
	} else {
		cfg->nr_tasks = allowed_cpus() + 1;
	}
	return check(cfg);
}
