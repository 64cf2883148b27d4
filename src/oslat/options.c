// SPDX-License-Identifier: GPL-2.0-or-later
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rt_cli.h"
#include "rt_opt.h"
#include "rt_prog.h"
#include "rt_time.h"

#include "options.h"

enum { OPT_JSON = 256, OPT_ANALYZE, OPT_HELP_LONG };

static const char short_opts[] = ":b:Bc:C:D:f:hm:qsT:vw:z";

static const struct option long_opts[] = {
	{ "bucket-size", required_argument, NULL, 'b' },
	{ "bias", no_argument, NULL, 'B' },
	{ "cpu-list", required_argument, NULL, 'c' },
	{ "cpu-main-thread", required_argument, NULL, 'C' },
	{ "duration", required_argument, NULL, 'D' },
	{ "rtprio", required_argument, NULL, 'f' },
	/* 2.4's --r abbreviated --rtprio: kept beside --records */
	{ "r", required_argument, NULL, 'f' },
	{ "json", required_argument, NULL, OPT_JSON },
	{ "workload-mem", required_argument, NULL, 'm' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "single-preheat", no_argument, NULL, 's' },
	{ "trace-threshold", required_argument, NULL, 'T' },
	{ "version", no_argument, NULL, 'v' },
	{ "workload", required_argument, NULL, 'w' },
	{ "zero-omit", no_argument, NULL, 'z' },
	{ "help", no_argument, NULL, 'h' },
	/* beyond 2.4 */
	{ "analyze", optional_argument, NULL, OPT_ANALYZE },
	RT_CLI_RESULT_LONG_OPTIONS,
	{ NULL, 0, NULL, 0 },
};

static void usage(void)
{
	printf("oslat V %s (%s %s)\nUsage:\noslat <options>\n\n"
	       "An OS latency detector: busy loops on the selected CPUs read the clock\n"
	       "and count the gaps between successive reads in 1-us buckets.\n\n",
	       RT_INTERFACE_VERSION, PACKAGE_NAME, PACKAGE_VERSION);
	fputs("-b N      --bucket-size=N    number of 1-us buckets, the last one holding the\n"
	      "                             overflows (4..1024, default 32)\n"
	      "-B        --bias             shift the bucket labels by the smallest gap seen\n"
	      "                             during the pre-heat\n"
	      "-c LIST   --cpu-list=LIST    CPUs to poll, e.g. 1,3,5,7-15 (default: all allowed)\n"
	      "-C CPU    --cpu-main-thread=CPU  CPU of the main thread (default 0)\n"
	      "-D TIME   --duration=TIME    test duration: N, Ns, Nm, Nh or Nd (default 1 s)\n"
	      "-f PRIO   --rtprio=PRIO      poll at SCHED_FIFO priority PRIO (1..99)\n"
	      "          --json=FILE        write the results as JSON to FILE ('-' = stdout)\n"
	      "-m SIZE   --workload-mem=SIZE  size of each memmove buffer: N bytes or\n"
	      "                             Nb, Nk, Nm, Ng (default 16k, at most 1g)\n"
	      "-q        --quiet            print only the summary at the end\n"
	      "-s        --single-preheat   pre-heat (and measure the clock) on one CPU only\n"
	      "-T US     --trace-threshold=US  stop the test and ftrace when a gap reaches US\n"
	      "-v        --version          print the version and exit\n"
	      "-w NAME   --workload=NAME    work between two clock reads: no (default) or\n"
	      "                             memmove\n"
	      "-z        --zero-omit        print a run of empty buckets as one '...' line\n"
	      "          --analyze[=US]     name what interrupted each gap of at least US\n"
	      "                             (default: -T's, else the bucket size) from a\n"
	      "                             private trace of irq, softirq and sched events\n"
	      "          --isolation        after the summary, print what interrupted each polled\n"
	      "                             CPU (also in the JSON and the records)\n"
	      "          --max-latency=US   verdict: FAIL (exit 3) when a gap exceeds US\n"
	      "          --max-percentile=P:US  verdict on a CPU's P-th percentile: PASS/FAIL\n"
	      "                             when its 95% interval is under/over US, else\n"
	      "                             INCONCLUSIVE (repeatable, e.g. 99.9:5)\n"
	      "          --percentile-claim=point  judge --max-percentile on the percentile\n"
	      "                             alone (default: proven, on the interval)\n"
	      "          --verdict          print the verdict without a\n"
	      "                             limit: every CPU measured (rt-tests-ng(7))\n"
	      "          --no-preflight     no warnings about the machine before the run, also\n"
	      "                             when stderr is a terminal\n"
	      "          --metrics=FILE     keep FILE up to date as a Prometheus text file\n"
	      "                             (node_exporter's textfile collector)\n"
	      "          --percentiles      after the summary, print the gaps' percentiles\n"
	      "          --preflight        those warnings also when stderr is not a terminal\n"
	      "          --records=FILE     append interval records (JSON lines) to FILE\n"
	      "                             ('-' = stdout)\n"
	      "          --records-interval=TIME  one record per CPU every TIME (as -D, default 60)\n"
	      "          --warmup=TIME      pre-heat for TIME instead of 1 s (as -D)\n"
	      "-h        --help             print this help and exit\n"
	      "\nUsage errors exit with 2, run-time errors and a -T stop with 1, a FAIL\n"
	      "verdict with 3, an INCONCLUSIVE one with 4.\n",
	      stdout);
}

void oslat_config_init(struct oslat_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->buckets = 32;
	cfg->main_cpu = -1;
	cfg->duration_s = 1;
	cfg->workload_bytes = 16 * 1024;
	cfg->workload = OSLAT_WORKLOAD_NO;
	rt_cli_results_init(&cfg->results);
}

int oslat_parse_size(const char *s, uint64_t max, uint64_t *bytes)
{
	unsigned long long v;
	uint64_t mult = 1;
	char *end;

	if (!s || !isdigit((unsigned char)s[0]))
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno)
		return -ERANGE;
	switch (tolower((unsigned char)*end)) {
	case '\0': break;
	case 'b': mult = 1; end++; break;
	case 'k': mult = 1024; end++; break;
	case 'm': mult = 1024 * 1024; end++; break;
	case 'g': mult = 1024 * 1024 * 1024; end++; break;
	default: return -EINVAL;
	}
	if (*end)
		return -EINVAL;
	if (v > max / mult)
		return -ERANGE;
	*bytes = v * mult;
	return 0;
}

#define GET(c, arg, min, max, unit, field)                                               \
	do {                                                                             \
		long long v_;                                                            \
		if (rt_cli_number(rt_cli_opt_name(long_opts, c), arg, min, max, unit, &v_)) \
			return RT_EXIT_USAGE;                                            \
		(field) = v_;                                                            \
	} while (0)

static int parse_one(struct oslat_config *cfg, int c, int argc, char *argv[])
{
	const char *arg;
	int err;

	switch (c) {
	case 'b': GET(c, optarg, OSLAT_MIN_BUCKETS, OSLAT_MAX_BUCKETS, NULL, cfg->buckets); break;
	case 'B': cfg->bias = true; break;
	case 'c':
		if (rt_cli_cpulist("cpu-list", optarg, &cfg->cpus))
			return RT_EXIT_USAGE;
		cfg->cpus_given = true;
		break;
	case 'C': GET(c, optarg, 0, CPU_SETSIZE - 1, NULL, cfg->main_cpu); break;
	case 'D':
		if (rt_cli_duration("duration", optarg, &cfg->duration_s))
			return RT_EXIT_USAGE;
		if (cfg->duration_s == 0)
			return rt_prog_usage_error("invalid --duration '%s': must be at least 1 s",
						   optarg);
		break;
	case 'f': GET(c, optarg, 1, 99, NULL, cfg->rtprio); break;
	case OPT_JSON: cfg->json = optarg; break;
	case 'm':
		if ((err = oslat_parse_size(optarg, OSLAT_MAX_WORKLOAD_BYTES, &cfg->workload_bytes)))
			return rt_prog_usage_error("invalid --workload-mem '%s': must be N bytes or "
						   "Nb, Nk, Nm, Ng, at most 1g", optarg);
		break;
	case 'q': cfg->quiet = true; break;
	case 's': cfg->single_preheat = true; break;
	case 'T': GET(c, optarg, 1, RT_MAX_LIMIT_US, "us", cfg->trace_threshold_us); break;
	case 'v':
		printf("oslat V %s\n", RT_INTERFACE_VERSION);
		rt_prog_print_version(stdout);
		return -1;
	case 'w':
		if (strcmp(optarg, "no") == 0)
			cfg->workload = OSLAT_WORKLOAD_NO;
		else if (strcmp(optarg, "memmove") == 0)
			cfg->workload = OSLAT_WORKLOAD_MEMMOVE;
		else
			return rt_prog_usage_error("invalid --workload '%s': must be no or memmove",
						   optarg);
		break;
	case 'z': cfg->zero_omit = true; break;
	case 'h': usage(); return -1;
	case OPT_ANALYZE:
		cfg->analyze = true;
		arg = rt_cli_optional_value(argc, argv);
		if (arg)
			GET(c, arg, 1, RT_MAX_LIMIT_US, "us", cfg->analyze_us);
		break;
	default: return rt_cli_result_or_bad_option(&cfg->results, argc, argv, c, optarg);
	}
	return 0;
}

/* The CPUs to poll and the main thread's, within what this process may use. */
static int check_cpus(struct oslat_config *cfg)
{
	struct rt_cpulist allowed;
	char set[256] = "?";

	if (rt_affinity_allowed(&allowed)) {
		rt_prog_error("cannot read the CPUs this process may use");
		return RT_EXIT_FAILURE;
	}
	rt_affinity_format(&allowed, set, sizeof(set));
	if (!cfg->cpus_given)
		cfg->cpus = allowed;
	for (unsigned i = 0; i < cfg->cpus.count; i++)
		if (!rt_affinity_contains(&allowed, cfg->cpus.cpu[i]))
			return rt_prog_usage_error("invalid --cpu-list: CPU %d is not among the "
						   "allowed CPUs %s", cfg->cpus.cpu[i], set);
	if (cfg->main_cpu < 0) {
		cfg->main_cpu = rt_affinity_contains(&allowed, 0) ? 0 : allowed.cpu[0];
		/* --analyze: main reads the trace every tick, not on a polled CPU if it can */
		for (unsigned i = 0; cfg->analyze && rt_affinity_contains(&cfg->cpus, cfg->main_cpu) &&
				     i < allowed.count; i++)
			if (!rt_affinity_contains(&cfg->cpus, allowed.cpu[i]))
				cfg->main_cpu = allowed.cpu[i];
	} else if (!rt_affinity_contains(&allowed, cfg->main_cpu)) {
		return rt_prog_usage_error("invalid --cpu-main-thread '%d': must be one of the "
					   "allowed CPUs %s", cfg->main_cpu, set);
	}
	return 0;
}

int oslat_parse_args(struct oslat_config *cfg, int argc, char *argv[])
{
	int c, err;

	oslat_config_init(cfg);
	opterr = 0;
	optind = 0;
	while ((c = getopt_long(argc, argv, short_opts, long_opts, NULL)) != -1)
		if ((err = parse_one(cfg, c, argc, argv)))
			return err;
	/* 2.4 ignores words that are not options; none of its harnesses passes one (issue 29) */
	if ((err = rt_cli_no_operands(argc, argv)))
		return err;
	if (cfg->analyze && !cfg->analyze_us)
		cfg->analyze_us = cfg->trace_threshold_us ? cfg->trace_threshold_us : cfg->buckets;
	if ((err = rt_cli_results_check(&cfg->results, !cfg->quiet)))
		return err;
	return check_cpus(cfg);
}
