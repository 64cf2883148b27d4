// SPDX-License-Identifier: GPL-2.0-or-later
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "rt_cli.h"
#include "rt_prog.h"

#include "options.h"

enum { OPT_TRACEE_EXIT = 256 };

static const struct option long_opts[] = {
	{ "forks", required_argument, NULL, 'f' },
	{ "help", no_argument, NULL, 'h' },
	{ "iters", required_argument, NULL, 'i' },
	RT_CLI_COMMON_LONG_OPTIONS,
	{ "quiet", no_argument, NULL, 'q' },
	/* beyond 2.4 */
	{ "tracee-exit-after", required_argument, NULL, OPT_TRACEE_EXIT },
	{ NULL, 0, NULL, 0 },
};

static void usage(void)
{
	printf("ssdd V %s (%s %s)\nUsage:\nssdd <options>\n\n"
	       "Tracer/tracee pairs: each tracer single-steps its tracee with\n"
	       "PTRACE_SINGLESTEP and checks every step.\n\n",
	       RT_INTERFACE_VERSION, PACKAGE_NAME, PACKAGE_VERSION);
	fputs("-f NUM    --forks=NUM       number of tracer/tracee pairs (default 10)\n"
	      "-h        --help            print this help and exit\n"
	      "          --json=FILE       write the results as JSON to FILE ('-' = stdout)\n"
	      "-q        --quiet           print only the final lines\n"
	      "-i NUM    --iters=NUM       single steps per pair (default 10000)\n"
	      "          --no-preflight    no warnings about the machine before the run, also\n"
	      "                            on a terminal\n"
	      "          --preflight       those warnings also when stderr is not a terminal\n"
	      "          --tracee-exit-after=N\n"
	      "                            testing: the tracee of pair 0 leaves its loop after\n"
	      "                            N turns and exits, so that its tracer sees an exit\n"
	      "                            where it expects a single-step stop (the run fails)\n"
	      "          --verdict         judge the run: \"# Verdict:\" lines, exit 3 on FAIL,\n"
	      "                            4 on INCONCLUSIVE (a stop before any step)\n"
	      "          --version         print the version and exit\n"
	      "\nExit status: 0 no step went wrong, 3 a single step went wrong (FAIL), 4\n"
	      "with --verdict INCONCLUSIVE, 1 the test could not run, 2 usage error.\n",
	      stdout);
}

static int parse_one(struct ssdd_config *cfg, int c, int argc, char *argv[])
{
	long long n;

	switch (c) {
	case 'f':
		if (rt_cli_opt_number(long_opts, c, optarg, 1, SSDD_MAX_FORKS, NULL, &n))
			return RT_EXIT_USAGE;
		cfg->forks = (int)n;
		break;
	case 'i':
		if (rt_cli_opt_number(long_opts, c, optarg, 1, SSDD_MAX_ITERS, NULL, &n))
			return RT_EXIT_USAGE;
		cfg->iters = n;
		break;
	case 'q': cfg->quiet = true; break;
	case 'h': usage(); return -1;
	case OPT_TRACEE_EXIT:
		if (rt_cli_opt_number(long_opts, c, optarg, 0, SSDD_MAX_EXIT_AFTER, NULL, &n))
			return RT_EXIT_USAGE;
		cfg->tracee_exit_after = n;
		break;
	default: return rt_cli_common_or_bad_option(&cfg->common, argc, argv, c, optarg);
	}
	return 0;
}

int ssdd_parse_args(struct ssdd_config *cfg, int argc, char *argv[])
{
	int c, err;

	memset(cfg, 0, sizeof(*cfg));
	cfg->forks = 10;
	cfg->iters = 10000;
	cfg->tracee_exit_after = -1;
	opterr = 0;
	optind = 0;
	while ((c = getopt_long(argc, argv, ":f:hi:q", long_opts, NULL)) != -1)
		if ((err = parse_one(cfg, c, argc, argv)))
			return err;
	/* 2.4 ignores other words; main warns about them. */
	for (; optind < argc; optind++) {
		if (argv[optind][0] == '\0')
			continue;
		if (!cfg->ignored_words++)
			cfg->ignored_word = argv[optind];
	}
	return 0;
}
