// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt_cli.h"
#include "rt_opt.h"
#include "rt_prog.h"

#include "options.h"


static const struct option long_opts[] = {
	{ "cycles", required_argument, NULL, 'c' },
	{ "freq", required_argument, NULL, 'f' },
	{ "help", no_argument, NULL, 'h' },
	{ "max-len", required_argument, NULL, 'm' },
	{ "packets", required_argument, NULL, 'p' },
	{ "queue-len", required_argument, NULL, 'q' },
	{ "timeout", required_argument, NULL, 't' },
	/* beyond 2.4 */
	RT_CLI_COMMON_LONG_OPTIONS,
	/* 2.4's --p abbreviated --packets: kept beside --preflight (an exact match wins) */
	{ "p", required_argument, NULL, 'p' },
	{ NULL, 0, NULL, 0 },
};

static void usage(void)
{
	printf("queuelat V %s (%s %s)\nUsage:\nqueuelat <options>\n\n",
	       RT_INTERFACE_VERSION, PACKAGE_NAME, PACKAGE_VERSION);
	fputs("-c N     --cycles N        number of cycles to process one packet (int)\n"
	      "-f F     --freq F          TSC frequency in MHz (float); found from the kernel\n"
	      "                           or the CPU when not given\n"
	      "-h       --help            show this help menu\n"
	      "-m LEN   --max-len LEN     maximum latency allowed, in nanoseconds (int)\n"
	      "                           (also Nns, Nus, Nms or Ns)\n"
	      "-p F     --packets F       million packets per second (float)\n"
	      "-q N     --queue-len N     minimum queue len to print trace (int); also writes\n"
	      "                           a trace marker for each such block\n"
	      "-t TIME  --timeout TIME    timeout, in seconds (int); also Ns, Nm, Nh or Nd\n"
	      "         --json=FILE       write the results as JSON to FILE ('-' = stdout)\n"
	      "         --no-preflight    no warnings about the machine before the run, also\n"
	      "                           on a terminal\n"
	      "         --preflight       those warnings also when stderr is not a terminal\n"
	      "         --verdict         judge the run: \"# Verdict:\" lines, exit 3 when the\n"
	      "                           queue exceeded, 4 when nothing was measured\n"
	      "         --version         print the version and exit\n"
	      "\n-m, -c and -p are required. The run ends when the queue holds more packets\n"
	      "than can be processed within -m (\"queue length exceeded\"), at the timeout\n"
	      "or on SIGINT/SIGTERM; the exit status is 0 in all these cases unless\n"
	      "--verdict is given.\n"
	      "Usage errors exit with 2, run-time errors with 1.\n",
	      stdout);
}

/* A positive finite float in (0, max]: 0 or RT_EXIT_USAGE. */
static int float_value(const char *name, const char *arg, double max, const char *unit,
		       double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(arg, &end);
	if (end == arg || *end != '\0' || errno || !isfinite(v) || v <= 0.0 || v > max)
		return rt_prog_usage_error("invalid --%s '%s': must be a number above 0 and at "
					   "most %g (%s)", name, arg, max, unit);
	*out = v;
	return 0;
}

static int parse_one(struct queuelat_config *cfg, int c, int argc, char *argv[],
		     unsigned *given)
{
	const char *name = rt_cli_opt_name(long_opts, c);
	long long n;

	switch (c) {
	case 'c':
		if (rt_cli_number(name, optarg, 1, QL_MAX_CYCLES, "cycles", &n))
			return RT_EXIT_USAGE;
		cfg->cycles = n;
		*given |= 1;
		break;
	case 'm':
		/* 2.4 read "20us" as 20 (ns); the unit is honoured here (NEWS) */
		if (rt_opt_parse_time_ns(optarg, QL_MAX_LATENCY_NS, &cfg->max_latency_ns) ||
		    cfg->max_latency_ns < 1)
			return rt_prog_usage_error("invalid --%s '%s': must be 1 ns to 1 s: N (ns), "
						   "Nns, Nus, Nms or Ns", name, optarg);
		*given |= 2;
		break;
	case 'p':
		if (float_value(name, optarg, QL_MAX_MPPS, "million packets per second",
				&cfg->mpps))
			return RT_EXIT_USAGE;
		*given |= 4;
		break;
	case 'f':
		if (float_value(name, optarg, QL_MAX_FREQ_MHZ, "MHz", &cfg->freq_mhz))
			return RT_EXIT_USAGE;
		break;
	case 'q':
		if (rt_cli_number(name, optarg, 0, QL_MAX_QUEUE_LEN, "packets", &n))
			return RT_EXIT_USAGE;
		cfg->trace_queue_len = n;
		cfg->trace_queue_given = true;
		break;
	case 't':
		/* 2.4: seconds, 0 = none; the other tools' suffixes too */
		if (rt_cli_duration(name, optarg, &cfg->timeout_s))
			return RT_EXIT_USAGE;
		break;
	case 'h': usage(); return -1;
	default: return rt_cli_common_or_bad_option(&cfg->common, argc, argv, c, optarg);
	}
	return 0;
}

int queuelat_parse_args(struct queuelat_config *cfg, int argc, char *argv[])
{
	unsigned given = 0;
	int c, err;

	memset(cfg, 0, sizeof(*cfg));
	opterr = 0;
	optind = 0;
	while ((c = getopt_long(argc, argv, ":c:f:hm:p:q:t:", long_opts, NULL)) != -1)
		if ((err = parse_one(cfg, c, argc, argv, &given)))
			return err;
	if ((err = rt_cli_no_operands(argc, argv)))
		return err;
	if (given != 7)
		return rt_prog_usage_error("options -m, -c and -p are required (-f too with "
					   "rt-tests 2.4)");
	return 0;
}
