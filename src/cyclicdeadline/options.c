// SPDX-License-Identifier: GPL-2.0-or-later
#include <getopt.h>
#include <inttypes.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>

#include "rt_cli.h"
#include "rt_prog.h"
#include "rt_time.h"

#include "options.h"

enum { OPT_JSON = 256, OPT_TRACEMARK, OPT_ANALYZE, OPT_VERSION };

static const char short_opts[] = ":a::b:c:D:hi:qs:t:";

static const struct option long_opts[] = {
	{ "affinity", optional_argument, NULL, 'a' },
	{ "breaktrace", required_argument, NULL, 'b' },
	{ "duration", required_argument, NULL, 'D' },
	{ "help", no_argument, NULL, 'h' },
	{ "interval", required_argument, NULL, 'i' },
	{ "json", required_argument, NULL, OPT_JSON },
	{ "quiet", no_argument, NULL, 'q' },
	{ "step", required_argument, NULL, 's' },
	{ "threads", required_argument, NULL, 't' },
	{ "tracemark", no_argument, NULL, OPT_TRACEMARK },
	/* beyond 2.4 */
	{ "analyze", optional_argument, NULL, OPT_ANALYZE },
	/* 2.4's --a abbreviated --affinity: kept beside --analyze */
	{ "a", optional_argument, NULL, 'a' },
	{ "version", no_argument, NULL, OPT_VERSION },
	RT_CLI_RESULT_LONG_OPTIONS,
	{ NULL, 0, NULL, 0 },
};

static void usage(void)
{
	printf("cyclicdeadline V %s (%s %s)\nUsage:\ncyclicdeadline <options>\n\n"
	       "Threads under SCHED_DEADLINE give their runtime back each period and measure\n"
	       "how late they start against the period's start, as cyclictest does.\n\n",
	       RT_INTERFACE_VERSION, PACKAGE_NAME, PACKAGE_VERSION);
	fputs("-a [CPUSET] --affinity[=CPUSET]  the CPUs of the run: all of them (a proper\n"
	      "                           subset needs an exclusive cpuset: see the man page);\n"
	      "                           without CPUSET, one thread per CPU unless -t came first\n"
	      "-c CPUSET                  the same as -a CPUSET\n"
	      "-b USEC  --breaktrace=USEC stop the run (and the trace) when a latency > USEC\n"
	      "-D TIME  --duration=TIME   run for TIME: N, Ns, Nm, Nh or Nd (default: until\n"
	      "                           SIGINT or SIGTERM)\n"
	      "-h       --help            print this help and exit\n"
	      "-i INTV  --interval=INTV   deadline and period of thread 0 in us (default 1000)\n"
	      "         --json=FILE       write the results as JSON to FILE ('-' = stdout)\n"
	      "-q       --quiet           print a summary only on exit\n"
	      "-s STEP  --step=STEP       added to the interval of each next thread in us\n"
	      "                           (default 500)\n"
	      "-t NUM   --threads=NUM     number of SCHED_DEADLINE threads (default 1)\n"
	      "         --tracemark       with -b: write a trace marker at the break\n"
	      "         --analyze[=USEC]  explain the worst latency above USEC (default: -b's)\n"
	      "         --max-latency=US  verdict: FAIL (exit 3) when a latency exceeds US\n"
	      "         --max-percentile=P:US  verdict on percentile P: PASS/FAIL when its 95%\n"
	      "                           interval is under/over US, else INCONCLUSIVE\n"
	      "         --percentile-claim=point  judge --max-percentile on the percentile alone\n"
	      "         --verdict         print the verdict without a limit:\n"
	      "                           every thread measured (rt-tests-ng(7))\n"
	      "         --percentiles     print each thread's latency percentiles\n"
	      "         --isolation       after the summary, what disturbed each CPU\n"
	      "         --warmup=TIME     drop the samples of the first TIME\n"
	      "         --records=FILE    append a JSON line per interval to FILE ('-' = stdout)\n"
	      "         --records-interval=TIME  the records' interval (default 60s)\n"
	      "         --metrics=FILE    keep FILE up to date as a Prometheus text file\n"
	      "         --no-preflight    no warnings about the machine before the run, also\n"
	      "                           on a terminal\n"
	      "         --preflight       those warnings also when stderr is not a terminal\n"
	      "         --version         print the version and exit\n"
	      "\nUsage errors exit with 2, run-time errors with 1, a FAIL verdict with 3, an\n"
	      "INCONCLUSIVE one with 4.\n",
	      stdout);
}

void cyclicdeadline_config_init(struct cyclicdeadline_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cyclictest_config_init(&cfg->ct);
	cfg->ct.threads = 1;
	cfg->ct.interval_us = 1000;
	cfg->ct.distance_us = 500;
	cfg->ct.distance_given = true;
	cfg->ct.timer = CT_TIMER_DEADLINE;
	cfg->ct.policy = SCHED_OTHER; /* until the thread switches itself */
	cfg->ct.deadline_runtime_pct = CD_RUNTIME_PCT;
}

static int number(int c, const char *arg, long long min, long long max, const char *unit,
		  long long *out)
{
	return rt_cli_number(rt_cli_opt_name(long_opts, c), arg, min, max, unit, out);
}

static int cpuset(struct cyclicdeadline_config *cfg, int c, const char *v)
{
	cfg->affinity_given = true;
	cfg->affinity_bare = !v;
	cfg->cpus_arg = v;
	if (!v) {
		cfg->cpus.count = 0;
		return 0;
	}
	return rt_cli_cpulist(rt_cli_opt_name(long_opts, c), v, &cfg->cpus);
}

static int parse_one(struct cyclicdeadline_config *cfg, int c, int argc, char *argv[])
{
	struct cyclictest_config *ct = &cfg->ct;
	const char *v;
	long long n;

	switch (c) {
	case 'a':
		v = rt_cli_optional_value(argc, argv);
		if (cpuset(cfg, c, v))
			return RT_EXIT_USAGE;
		/* 2.4: a bare -a gives one thread per CPU, unless -t came first */
		if (!v && !cfg->threads_given)
			ct->threads = 0;
		break;
	case 'c':
		if (cpuset(cfg, c, optarg))
			return RT_EXIT_USAGE;
		break;
	case 'b':
		if (number(c, optarg, 1, RT_MAX_LIMIT_US, "us", &n))
			return RT_EXIT_USAGE;
		ct->breaktrace_us = n;
		break;
	case 'D':
		if (rt_cli_duration(rt_cli_opt_name(long_opts, c), optarg, &ct->duration_s))
			return RT_EXIT_USAGE;
		break;
	case 'h': usage(); return -1;
	case 'i':
		if (number(c, optarg, CD_MIN_INTERVAL_US, CD_MAX_INTERVAL_US, "us", &n))
			return RT_EXIT_USAGE;
		ct->interval_us = n;
		break;
	case OPT_JSON: ct->json = optarg; break;
	case 'q': ct->quiet = true; break;
	case 's':
		if (number(c, optarg, 0, CD_MAX_STEP_US, "us", &n))
			return RT_EXIT_USAGE;
		ct->distance_us = n;
		break;
	case 't':
		if (number(c, optarg, 1, CD_MAX_THREADS, NULL, &n))
			return RT_EXIT_USAGE;
		ct->threads = (int)n;
		cfg->threads_given = true;
		break;
	case OPT_TRACEMARK: ct->tracemark = true; break;
	case OPT_ANALYZE:
		ct->analyze = true;
		v = rt_cli_optional_value(argc, argv);
		if (v && number(c, v, 1, RT_MAX_LIMIT_US, "us", &n))
			return RT_EXIT_USAGE;
		if (v)
			ct->analyze_us = n;
		break;
	case OPT_VERSION:
		rt_prog_print_version(stdout);
		return -1;
	default: return rt_cli_result_or_bad_option(&ct->results, argc, argv, c, optarg);
	}
	return 0;
}

int cyclicdeadline_parse_args(struct cyclicdeadline_config *cfg, int argc, char *argv[])
{
	int c, err;

	opterr = 0;
	optind = 0;
	while ((c = getopt_long(argc, argv, short_opts, long_opts, NULL)) != -1)
		if ((err = parse_one(cfg, c, argc, argv)))
			return err;
	return rt_cli_no_operands(argc, argv);
}

static bool same_cpus(const struct rt_cpulist *a, const struct rt_cpulist *b)
{
	if (a->count != b->count)
		return false;
	for (unsigned i = 0; i < a->count; i++) {
		bool found = false;

		for (unsigned k = 0; k < b->count && !found; k++)
			found = a->cpu[i] == b->cpu[k];
		if (!found)
			return false;
	}
	return true;
}

int cyclicdeadline_config_check(struct cyclicdeadline_config *cfg)
{
	struct cyclictest_config *ct = &cfg->ct;
	struct rt_cpulist allowed;
	char a[256], o[256];
	int err;

	if (ct->tracemark && !ct->breaktrace_us)
		return rt_prog_usage_error("--tracemark needs --breaktrace");
	if (ct->analyze && !ct->analyze_us) {
		if (!ct->breaktrace_us)
			return rt_prog_usage_error("--analyze needs a threshold: --analyze=USEC or "
						   "--breaktrace=USEC");
		ct->analyze_us = ct->breaktrace_us;
	}
	if ((err = rt_cli_results_check(&ct->results, !ct->quiet)))
		return err;
	if (rt_affinity_allowed(&allowed) || !allowed.count)
		return rt_prog_usage_error("cannot read the CPUs this process may use");
	cfg->nr_cpus = allowed.count;
	cfg->all_cpus = !cfg->affinity_given || (!cfg->affinity_bare &&
						 same_cpus(&cfg->cpus, &allowed));
	if (cfg->affinity_given && !cfg->affinity_bare && !cfg->all_cpus) {
		/*
		 * 2.4 made cgroup-v1 cpusets and moved every task of the system
		 * into them. We refuse: the kernel admits a SCHED_DEADLINE thread
		 * only with an affinity that covers its root domain.
		 */
		rt_affinity_format(&cfg->cpus, a, sizeof(a));
		rt_affinity_format(&allowed, o, sizeof(o));
		rt_prog_error("-a %s: a SCHED_DEADLINE thread's affinity must cover its whole root "
			      "domain (CPUs %s here), and cyclicdeadline creates no cpusets: run it "
			      "in an exclusive cpuset of CPUs %s (a cgroup-v2 cpuset partition, "
			      "or cset shield) and omit -a", a, o, a);
		return RT_EXIT_FAILURE;
	}
	if (ct->threads == 0) /* a bare -a */
		ct->threads = (int)allowed.count;
	if ((unsigned)ct->threads > cfg->nr_cpus)
		ct->deadline_runtime_pct = (int64_t)cfg->nr_cpus * CD_OVERCOMMIT_PCT / ct->threads;
	if (cyclictest_thread_interval_us(ct, ct->threads - 1) > CD_MAX_INTERVAL_US * 4)
		return rt_prog_usage_error("invalid --step '%" PRId64 "': thread %d would get an "
					   "interval above %d us", ct->distance_us, ct->threads - 1,
					   CD_MAX_INTERVAL_US * 4);
	if (cyclicdeadline_runtime_us(cfg, 0) < 1)
		return rt_prog_usage_error("invalid --interval '%" PRId64 "': %d threads on %u CPUs "
					   "leave it a runtime under 1 us", ct->interval_us,
					   ct->threads, cfg->nr_cpus);
	return 0;
}

int64_t cyclicdeadline_runtime_us(const struct cyclicdeadline_config *cfg, int n)
{
	return cyclictest_thread_interval_us(&cfg->ct, n) * cfg->ct.deadline_runtime_pct / 100;
}
