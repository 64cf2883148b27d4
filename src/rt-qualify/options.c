// SPDX-License-Identifier: GPL-2.0-or-later
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "rt_cli.h"
#include "rt_opt.h"
#include "rt_prog.h"
#include "rt_time.h"

#include "options.h"

enum {
	OPT_LOAD = 256, OPT_CPUS, OPT_SETUP_ONLY, OPT_METRICS, OPT_VERSION,
	OPT_MAX_LATENCY, OPT_MAX_PERCENTILE,
};

static const struct option long_opts[] = {
	{ "output", required_argument, NULL, 'o' },
	{ "duration", required_argument, NULL, 'D' },
	{ "max-latency", required_argument, NULL, OPT_MAX_LATENCY },
	{ "max-percentile", required_argument, NULL, OPT_MAX_PERCENTILE },
	{ "load", required_argument, NULL, OPT_LOAD },
	{ "cpus", required_argument, NULL, OPT_CPUS },
	{ "setup-only", no_argument, NULL, OPT_SETUP_ONLY },
	{ "metrics", required_argument, NULL, OPT_METRICS },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ NULL, 0, NULL, 0 },
};

static void usage(void)
{
	printf("rt-qualify (%s %s)\nUsage:\nrt-qualify [options]\n\n", PACKAGE_NAME,
	       PACKAGE_VERSION);
	fputs("Is this machine fit for real-time work? Checks the set-up, measures the\n"
	      "hardware noise (hwlatdetect, or oslat where the kernel has no hwlat tracer),\n"
	      "then cyclictest and oslat under load, and writes one result directory.\n\n"
	      "-o DIR    --output=DIR       the result directory (default: a new one named\n"
	      "                             rt-qualify-HOST-YYYYmmdd-HHMMSS)\n"
	      "-D TIME   --duration=TIME    measurement time of all steps together: N, Ns,\n"
	      "                             Nm, Nh or Nd (default 5m, at least 3 s)\n"
	      "          --max-latency=US   the largest latency allowed (default 100)\n"
	      "          --max-percentile=P:US  a percentile limit for cyclictest and oslat\n"
	      "                             (repeatable, e.g. 99.9:50)\n"
	      "          --load=NAME        hackbench (default), stress-ng or none\n"
	      "          --cpus=LIST        the measured CPUs (default: the isolated ones,\n"
	      "                             else all)\n"
	      "          --setup-only       print the set-up findings and stop\n"
	      "          --metrics=FILE     write the verdicts as a Prometheus text file\n"
	      "-h        --help             print this help and exit\n"
	      "          --version          print the version and exit\n"
	      "\nExit status: 0 fit, 3 not fit (or, with --setup-only, a problem found),\n"
	      "4 not proven, 1 run-time errors, 2 usage errors.\n",
	      stdout);
}

const char *rtq_load_name(enum rtq_load load)
{
	switch (load) {
	case RTQ_LOAD_STRESS_NG: return "stress-ng";
	case RTQ_LOAD_NONE: return "none";
	default: return "hackbench";
	}
}

static int parse_load(struct rtq_config *cfg, const char *arg)
{
	static const enum rtq_load loads[] = { RTQ_LOAD_HACKBENCH, RTQ_LOAD_STRESS_NG,
					       RTQ_LOAD_NONE };

	for (size_t i = 0; i < sizeof(loads) / sizeof(loads[0]); i++)
		if (strcmp(arg, rtq_load_name(loads[i])) == 0) {
			cfg->load = loads[i];
			return 0;
		}
	return rt_prog_usage_error("invalid --load '%s': must be hackbench, stress-ng or none",
				   arg);
}

static int parse_percentile(struct rtq_config *cfg, const char *arg)
{
	uint32_t permyriad;
	long long bound;

	if (rt_opt_parse_percentile_limit(arg, RT_MAX_LIMIT_US, &permyriad, &bound))
		return rt_prog_usage_error("invalid --max-percentile '%s': must be P:US, 0 < P <= "
					   "100 with at most 4 decimals, US 0..%lld", arg,
					   (long long)RT_MAX_LIMIT_US);
	if (cfg->npct == RTQ_MAX_PCT_LIMITS)
		return rt_prog_usage_error("too many --max-percentile limits (at most %d)",
					   RTQ_MAX_PCT_LIMITS);
	cfg->pct[cfg->npct++] = arg;
	return 0;
}

static int parse_one(struct rtq_config *cfg, int c, int argc, char *argv[])
{
	long long n;

	switch (c) {
	case 'o':
		if (!optarg[0])
			return rt_prog_usage_error("invalid --output '': must name a directory");
		cfg->output = optarg;
		return 0;
	case 'D':
		if (rt_cli_duration("duration", optarg, &cfg->duration_s))
			return RT_EXIT_USAGE;
		if (cfg->duration_s < RTQ_MIN_DURATION_S)
			return rt_prog_usage_error("invalid --duration '%s': must be at least %d s",
						   optarg, RTQ_MIN_DURATION_S);
		return 0;
	case OPT_MAX_LATENCY:
		if (rt_cli_number("max-latency", optarg, 1, RT_MAX_LIMIT_US, "us", &n))
			return RT_EXIT_USAGE;
		cfg->max_latency_us = n;
		return 0;
	case OPT_MAX_PERCENTILE: return parse_percentile(cfg, optarg);
	case OPT_LOAD: return parse_load(cfg, optarg);
	case OPT_CPUS:
		if (rt_cli_cpulist("cpus", optarg, &cfg->cpus))
			return RT_EXIT_USAGE;
		cfg->cpus_given = true;
		return 0;
	case OPT_SETUP_ONLY: cfg->setup_only = true; return 0;
	case OPT_METRICS:
		if (!optarg[0])
			return rt_prog_usage_error("invalid --metrics '': must name a file");
		cfg->metrics = optarg;
		return 0;
	case 'h': usage(); return -1;
	case OPT_VERSION: rt_prog_print_version(stdout); return -1;
	default: return rt_cli_bad_option(argc, argv, c);
	}
}

int rtq_parse_args(struct rtq_config *cfg, int argc, char *argv[])
{
	int c, err;

	memset(cfg, 0, sizeof(*cfg));
	cfg->duration_s = RTQ_DEFAULT_DURATION_S;
	cfg->max_latency_us = RTQ_DEFAULT_MAX_LATENCY_US;
	cfg->load = RTQ_LOAD_HACKBENCH;
	opterr = 0;
	optind = 0;
	while ((c = getopt_long(argc, argv, ":o:D:h", long_opts, NULL)) != -1)
		if ((err = parse_one(cfg, c, argc, argv)))
			return err;
	return rt_cli_no_operands(argc, argv);
}
