// SPDX-License-Identifier: GPL-2.0-or-later
#include <ctype.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt_cli.h"
#include "rt_prog.h"

#include "options.h"

enum { OPT_VERSION = 256 };

static const struct option long_opts[] = {
	{ "help", no_argument, NULL, 'h' },
	{ "list", no_argument, NULL, 'l' },
	{ "snapshot", optional_argument, NULL, 's' },
	{ "print", optional_argument, NULL, 'p' },
	/* beyond 2.4 */
	{ "version", no_argument, NULL, OPT_VERSION },
	{ NULL, 0, NULL, 0 },
};

static void usage(void)
{
	printf("usage: get_cyclictest_snapshot [-h] [-l] [-s [pid ...]] [-p [pid ...]]\n\n"
	       "Get a snapshot of running instances of cyclictest (%s %s)\n\n",
	       PACKAGE_NAME, PACKAGE_VERSION);
	fputs("-h       --help                show this help and exit\n"
	      "-l       --list                list the main pid(s) of running instances of\n"
	      "                               cyclictest\n"
	      "-s [PID ...] --snapshot [PID ...]\n"
	      "                               take a snapshot of running instances of\n"
	      "                               cyclictest (all, or the PIDs given): send\n"
	      "                               SIGUSR2 and wait up to 1 s for it to be written\n"
	      "-p [PID ...] --print [PID ...] print the snapshots (all, or the PIDs given)\n"
	      "         --version             print the version and exit\n"
	      "\nThe options run in the order list, snapshot, print; without any, every\n"
	      "instance is snapshotted and printed. Only a live cyclictest that holds its\n"
	      "/dev/shm/cyclictest<PID> object is signalled; stale objects are reported.\n"
	      "Usage errors exit with 2, other errors with 1.\n",
	      stdout);
}

/* Words argparse takes as values of -s/-p: not an option (a negative number is a value). */
static bool is_value(const char *w)
{
	return w[0] != '-' || isdigit((unsigned char)w[1]);
}

static int add_pid(struct gcs_pids *p, const char *name, const char *arg)
{
	long long v;

	if (rt_cli_number(name, arg, 1, GCS_MAX_PID, "PID", &v))
		return RT_EXIT_USAGE;
	p->pids[p->count++] = (pid_t)v;
	return 0;
}

/* -s/-p: the attached value only, else every value word that follows (2.4's argparse). */
static int take_pids(struct gcs_pids *p, const char *name, int argc, char *argv[])
{
	p->given = true;
	p->count = 0; /* given again: the last one counts, as with argparse */
	if (optarg)
		return add_pid(p, name, optarg);
	while (optind < argc && is_value(argv[optind]))
		if (add_pid(p, name, argv[optind++]))
			return RT_EXIT_USAGE;
	return 0;
}

static int parse_one(struct gcs_config *cfg, int c, int argc, char *argv[])
{
	const char *name = rt_cli_opt_name(long_opts, c);

	switch (c) {
	case 'l': cfg->list = true; break;
	case 's': return take_pids(&cfg->snapshot, name, argc, argv);
	case 'p': return take_pids(&cfg->print, name, argc, argv);
	case 'h': usage(); return -1;
	case OPT_VERSION: rt_prog_print_version(stdout); return -1;
	default: return rt_cli_bad_option(argc, argv, c);
	}
	return 0;
}

int gcs_parse_args(struct gcs_config *cfg, int argc, char *argv[])
{
	int c, err;

	memset(cfg, 0, sizeof(*cfg));
	cfg->snapshot.pids = calloc((size_t)argc + 1, sizeof(pid_t));
	cfg->print.pids = calloc((size_t)argc + 1, sizeof(pid_t));
	if (!cfg->snapshot.pids || !cfg->print.pids) {
		rt_prog_error("out of memory");
		return RT_EXIT_USAGE;
	}
	cfg->no_options = argc <= 1;
	opterr = 0;
	optind = 0;
	/* '+': stop at the first word that is not an option; it is an error below */
	while ((c = getopt_long(argc, argv, "+:hls::p::", long_opts, NULL)) != -1)
		if ((err = parse_one(cfg, c, argc, argv)))
			return err;
	if (optind > 1 && optind <= argc && strcmp(argv[optind - 1], "--") == 0)
		return rt_prog_usage_error("unexpected argument '--'");
	if (optind < argc)
		return rt_prog_usage_error("unexpected argument '%s'", argv[optind]);
	return 0;
}

void gcs_config_free(struct gcs_config *cfg)
{
	free(cfg->snapshot.pids);
	free(cfg->print.pids);
	cfg->snapshot.pids = cfg->print.pids = NULL;
}
