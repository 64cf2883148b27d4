// SPDX-License-Identifier: GPL-2.0-or-later
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt_cli.h"
#include "rt_prog.h"
#include "rt_records.h"
#include "rt_time.h"

#include "options.h"

enum {
	OPT_DURATION = 256,
	OPT_THRESHOLD,
	OPT_HARDLIMIT,
	OPT_WINDOW,
	OPT_WIDTH,
	OPT_REPORT,
	OPT_CPU_LIST,
	OPT_DEBUG,
	OPT_QUIET,
	OPT_WATCH,
	OPT_JSON,
	OPT_NO_PREFLIGHT,
	OPT_PREFLIGHT,
	OPT_VERSION,
};

static const struct option long_opts[] = {
	{ "duration", required_argument, NULL, OPT_DURATION },
	{ "threshold", required_argument, NULL, OPT_THRESHOLD },
	{ "hardlimit", required_argument, NULL, OPT_HARDLIMIT },
	{ "window", required_argument, NULL, OPT_WINDOW },
	{ "width", required_argument, NULL, OPT_WIDTH },
	{ "report", required_argument, NULL, OPT_REPORT },
	{ "cpu-list", required_argument, NULL, OPT_CPU_LIST },
	{ "debug", no_argument, NULL, OPT_DEBUG },
	{ "quiet", no_argument, NULL, OPT_QUIET },
	{ "watch", no_argument, NULL, OPT_WATCH },
	{ "help", no_argument, NULL, 'h' },
	/* beyond 2.4 */
	RT_CLI_COMMON_LONG_OPTIONS,
	{ "records", required_argument, NULL, RT_CLI_OPT_RECORDS },
	{ "records-interval", required_argument, NULL, RT_CLI_OPT_RECORDS_INTERVAL },
	{ "metrics", required_argument, NULL, RT_CLI_OPT_METRICS },
	/* 2.4's --re abbreviated --report: kept beside --records */
	{ "re", required_argument, NULL, OPT_REPORT },
	{ NULL, 0, NULL, 0 },
};

static void usage(void)
{
	printf("hwlatdetect (%s %s)\nUsage:\nhwlatdetect [options]\n\n"
	       "Runs the kernel's hwlat tracer for a while and reports the hardware and\n"
	       "firmware latencies (SMIs...) it saw; the tracer's settings are restored\n"
	       "at the end.\n\n",
	       PACKAGE_NAME, PACKAGE_VERSION);
	fputs("          --duration=TIME    total time to test for hardware latency: N, Ns, Nm,\n"
	      "                             Nh, Nd or Nw (default 120 s)\n"
	      "          --threshold=US     value above which is considered a hardware latency\n"
	      "                             (tracing_thresh; US: N, Nus, Nms or Ns)\n"
	      "          --hardlimit=US     value above which the test is considered to fail\n"
	      "                             (default: the threshold)\n"
	      "          --window=US        time between samples (hwlat_detector/window)\n"
	      "          --width=US         time to actually measure (hwlat_detector/width)\n"
	      "          --report=FILE      filename for sample data\n"
	      "          --cpu-list=LIST    the CPUs for the hwlat thread to move across\n"
	      "                             (N, N-M and commas; tracing_cpumask)\n"
	      "          --debug            turn on debugging prints\n"
	      "          --quiet            turn off all screen output\n"
	      "          --watch            print sample data to stdout as it arrives\n"
	      "-h        --help             print this help and exit\n"
	      "          --json=FILE        write the results as JSON to FILE ('-' = stdout)\n"
	      "          --records=FILE     append a JSON line per interval to FILE while the\n"
	      "                             test runs ('-' = stdout)\n"
	      "          --records-interval=TIME\n"
	      "                             the interval of --records and --metrics\n"
	      "                             (default 60 s)\n"
	      "          --metrics=FILE     keep FILE up to date as a Prometheus text file\n"
	      "                             (node_exporter's textfile collector)\n"
	      "          --no-preflight     no warnings about the machine before the run, also\n"
	      "                             on a terminal\n"
	      "          --preflight        those warnings also when stderr is not a terminal\n"
	      "          --version          print the version and exit\n"
	      "          --verdict          print the verdict lines; exit 3 on FAIL, 4 on\n"
	      "                             INCONCLUSIVE (rt-tests-ng(7))\n"
	      "\nExit status: 1 when the largest latency exceeds the hardlimit or the test\n"
	      "could not run (with --verdict 3 FAIL, 4 INCONCLUSIVE), 2 for\n"
	      "usage errors, else 0.\n",
	      stdout);
}

int hwlat_parse_seconds(const char *s, uint64_t *seconds)
{
	unsigned long long n = 0, mult = 1;
	const char *p = s;

	if (!isdigit((unsigned char)*p))
		return -EINVAL;
	for (; isdigit((unsigned char)*p); p++) {
		if (n > RT_MAX_DURATION_S)
			return -ERANGE;
		n = n * 10 + (unsigned)(*p - '0');
	}
	switch (*p) {
	case '\0': break;
	case 's': case 'S': break;
	case 'm': case 'M': mult = 60; break;
	case 'h': case 'H': mult = 3600; break;
	case 'd': case 'D': mult = 86400; break;
	case 'w': case 'W': mult = 7 * 86400; break;
	default: return -EINVAL;
	}
	if (*p && p[1])
		return -EINVAL;
	if (n > RT_MAX_DURATION_S / mult)
		return -ERANGE;
	*seconds = n * mult;
	return 0;
}

int hwlat_parse_us(const char *s, int64_t max_us, int64_t *us)
{
	long long n = 0, mult = 1;
	const char *p = s;

	if (!isdigit((unsigned char)*p))
		return -EINVAL;
	for (; isdigit((unsigned char)*p); p++) {
		if (n > max_us)
			return -ERANGE;
		n = n * 10 + (*p - '0');
	}
	if (strcmp(p, "us") == 0)
		mult = 1;
	else if (strcmp(p, "ms") == 0)
		mult = 1000;
	else if (strcmp(p, "s") == 0)
		mult = 1000000;
	else if (*p)
		return -EINVAL;
	if (n > max_us / mult)
		return -ERANGE;
	*us = n * mult;
	return 0;
}

static int cpu_number(const char **p, int *cpu)
{
	long n = 0;

	if (!isdigit((unsigned char)**p))
		return -EINVAL;
	for (; isdigit((unsigned char)**p); (*p)++) {
		n = n * 10 + (**p - '0');
		if (n >= HWLAT_MAX_CPUS)
			return -ERANGE;
	}
	*cpu = (int)n;
	return 0;
}

int hwlat_parse_cpulist(const char *s, char *mask, size_t len, int *max_cpu)
{
	unsigned char bits[HWLAT_MAX_CPUS / 8] = { 0 };
	const char *p = s;
	int top = -1, lo, hi, err;
	size_t at = 0;

	for (;;) {
		if ((err = cpu_number(&p, &lo)))
			return err;
		hi = lo;
		if (*p == '-') {
			p++;
			if ((err = cpu_number(&p, &hi)))
				return err;
			if (hi < lo)
				return -EDOM;
		}
		for (int c = lo; c <= hi; c++)
			bits[c / 8] |= (unsigned char)(1u << (c % 8));
		if (hi > top)
			top = hi;
		if (*p == '\0')
			break;
		if (*p++ != ',')
			return -EINVAL;
	}
	/* hex digits from the top one down, a comma before each group of 8 */
	for (int d = top / 4; d >= 0; d--) {
		unsigned nib = (unsigned)(bits[d / 2] >> (d % 2 * 4)) & 0xf;

		if (at + 3 > len)
			return -ERANGE;
		mask[at++] = "0123456789abcdef"[nib];
		if (d && d % 8 == 0)
			mask[at++] = ',';
	}
	mask[at] = '\0';
	*max_cpu = top;
	return 0;
}

static int us_value(const char *name, const char *arg, int64_t min, int64_t *out)
{
	int err = hwlat_parse_us(arg, HWLAT_MAX_US, out);

	if (err == -EINVAL)
		return rt_prog_usage_error("invalid --%s '%s': must be N, Nus, Nms or Ns "
					   "(microseconds by default)", name, arg);
	if (err || *out < min)
		return rt_prog_usage_error("invalid --%s '%s': must be %lld us .. 3600 s", name,
					   arg, (long long)min);
	return 0;
}

static int parse_one(struct hwlat_config *cfg, int c, int argc, char *argv[])
{
	const char *name = rt_cli_opt_name(long_opts, c);
	int err;

	switch (c) {
	case OPT_DURATION:
		err = hwlat_parse_seconds(optarg, &cfg->duration_s);
		if (err || cfg->duration_s == 0)
			return rt_prog_usage_error("invalid --duration '%s': must be N, Ns, Nm, Nh, "
						   "Nd or Nw, 1 s .. 3650d", optarg);
		break;
	case OPT_THRESHOLD: return us_value(name, optarg, 0, &cfg->threshold_us);
	case OPT_HARDLIMIT: return us_value(name, optarg, 0, &cfg->hardlimit_us);
	case OPT_WINDOW: return us_value(name, optarg, 2, &cfg->window_us);
	case OPT_WIDTH: return us_value(name, optarg, 1, &cfg->width_us);
	case OPT_REPORT:
		if (!*optarg)
			return rt_prog_usage_error("invalid --report '': must name a file");
		cfg->report = optarg;
		break;
	case OPT_CPU_LIST:
		err = hwlat_parse_cpulist(optarg, cfg->cpumask, sizeof(cfg->cpumask), &cfg->max_cpu);
		if (err == -EDOM)
			return rt_prog_usage_error("invalid --cpu-list '%s': a CPU range must "
						   "ascend (LOW-HIGH)", optarg);
		if (err)
			return rt_prog_usage_error("invalid --cpu-list '%s': must be CPU numbers "
						   "(N or N-M, separated by commas) below %d",
						   optarg, HWLAT_MAX_CPUS);
		cfg->cpu_list = optarg;
		break;
	case OPT_DEBUG: cfg->debug = true; break;
	case OPT_QUIET: cfg->quiet = true; break;
	case OPT_WATCH: cfg->watch = true; break;
	case RT_CLI_OPT_RECORDS: cfg->records = optarg; break;
	case RT_CLI_OPT_METRICS: cfg->metrics = optarg; break;
	case RT_CLI_OPT_RECORDS_INTERVAL:
		if (rt_cli_duration(name, optarg, &cfg->records_interval_s))
			return RT_EXIT_USAGE;
		if (cfg->records_interval_s == 0)
			return rt_prog_usage_error("invalid --records-interval '%s': must be at "
						   "least 1 s", optarg);
		cfg->records_interval_given = true;
		break;
	case 'h': usage(); return -1;
	default: return rt_cli_common_or_bad_option(&cfg->common, argc, argv, c, optarg);
	}
	return 0;
}

static int check(const struct hwlat_config *cfg)
{
	struct rt_cli_results shared;

	if (cfg->window_us >= 0 && cfg->width_us >= 0 && cfg->width_us >= cfg->window_us)
		return rt_prog_usage_error("invalid --width %lld us with --window %lld us: the "
					   "width must be less than the window",
					   (long long)cfg->width_us, (long long)cfg->window_us);
	if (cfg->common.json && cfg->records && strcmp(cfg->common.json, "-") == 0 &&
	    strcmp(cfg->records, "-") == 0)
		return rt_prog_usage_error("--json=- and --records=- cannot both use standard "
					   "output");
	/* --metrics' and --records-interval's checks and messages are the other tools' */
	rt_cli_results_init(&shared);
	shared.metrics = cfg->metrics;
	shared.records = cfg->records;
	shared.records_interval_given = cfg->records_interval_given;
	return rt_cli_results_check(&shared, false);
}

int hwlat_parse_args(struct hwlat_config *cfg, int argc, char *argv[])
{
	int c, err;

	memset(cfg, 0, sizeof(*cfg));
	cfg->duration_s = HWLAT_DEFAULT_DURATION_S;
	cfg->threshold_us = cfg->hardlimit_us = cfg->window_us = cfg->width_us = -1;
	cfg->max_cpu = -1;
	cfg->records_interval_s = RT_RECORDS_DEFAULT_INTERVAL_S;
	opterr = 0;
	optind = 0;
	while ((c = getopt_long(argc, argv, ":h", long_opts, NULL)) != -1)
		if ((err = parse_one(cfg, c, argc, argv)))
			return err;
	if ((err = rt_cli_no_operands(argc, argv)))
		return err;
	if (cfg->quiet)
		cfg->debug = false; /* 2.4: --quiet overrides --debug */
	return check(cfg);
}
