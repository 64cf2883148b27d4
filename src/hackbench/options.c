// SPDX-License-Identifier: GPL-2.0-or-later
#include <ctype.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt_cli.h"
#include "rt_prog.h"

#include "options.h"


static const struct option long_opts[] = {
	{ "fds", required_argument, NULL, 'f' },
	{ "fifo", no_argument, NULL, 'F' },
	{ "groups", required_argument, NULL, 'g' },
	{ "help", no_argument, NULL, 'h' },
	{ "loops", required_argument, NULL, 'l' },
	{ "pipe", no_argument, NULL, 'p' },
	{ "inet", no_argument, NULL, 'i' },
	{ "datasize", required_argument, NULL, 's' },
	{ "threads", no_argument, NULL, 'T' },
	{ "processes", no_argument, NULL, 'P' },
	/* beyond 2.4 */
	{ "duration", required_argument, NULL, 'D' },
	RT_CLI_COMMON_LONG_OPTIONS,
	/* 2.4's --pr abbreviated --processes: kept beside --preflight */
	{ "pr", no_argument, NULL, 'P' },
	{ NULL, 0, NULL, 0 },
};

static void usage(void)
{
	printf("hackbench V %s (%s %s)\nUsage:\nhackbench <options>\n\n"
	       "Groups of senders and receivers pass messages over sockets or pipes;\n"
	       "a scheduler benchmark and a load.\n\n",
	       RT_INTERFACE_VERSION, PACKAGE_NAME, PACKAGE_VERSION);
	fputs("-f NUM    --fds=NUM         receivers (and senders) per group (default 20)\n"
	      "-F        --fifo            SCHED_FIFO 1 for the main thread once the workers exist\n"
	      "-g NUM    --groups=NUM      number of groups (default 10)\n"
	      "-h        --help            print this help and exit\n"
	      "-l LOOPS  --loops=LOOPS     messages each sender sends to each receiver (default 100)\n"
	      "-p        --pipe            send data via pipes instead of sockets\n"
	      "-i        --inet            send data via TCP connections over 127.0.0.1\n"
	      "-s SIZE   --datasize=SIZE   message size in bytes (default 100)\n"
	      "-T        --threads         workers are POSIX threads\n"
	      "-P        --processes       workers are processes (fork, the default)\n"
	      "-D TIME   --duration=TIME   repeat the run as a steady load for TIME: N, Ns, Nm,\n"
	      "                            Nh or Nd (stopped early by SIGINT or SIGTERM; 0: no\n"
	      "                            limit, one run as without -D)\n"
	      "          --json=FILE       write the results as JSON to FILE ('-' = stdout)\n"
	      "          --no-preflight    no warnings about the machine before the run, also\n"
	      "                            on a terminal\n"
	      "          --preflight       those warnings also when stderr is not a terminal\n"
	      "          --verdict         judge the run: \"# Verdict:\" lines, exit 3 on FAIL,\n"
	      "                            4 on INCONCLUSIVE (a stop before any message)\n"
	      "          --version         print the version and exit\n"
	      "\nUsage errors exit with 2, run-time errors with 1, with --verdict a FAIL with\n"
	      "3 and an INCONCLUSIVE run with 4.\n",
	      stdout);
}

/*
 * "-s 100 -l 10" passed as one argv word (Linaro's harness) reaches getopt
 * as -s " 100 -l 10": 2.4 takes the leading number and drops the rest.
 * Return the number's text (in buf) and the rest, or arg unchanged.
 */
static const char *leading_number(struct hackbench_config *cfg, const char *optname,
				  const char *arg, char *buf, size_t len)
{
	const char *p = arg, *end;

	while (*p == ' ' || *p == '\t')
		p++;
	end = p;
	if (*end == '-' || *end == '+')
		end++;
	while (isdigit((unsigned char)*end))
		end++;
	if (end == p || (*end != ' ' && *end != '\t') || (size_t)(end - arg) >= len)
		return arg;
	if (!cfg->one_word_opt) {
		cfg->one_word_opt = optname;
		cfg->one_word_rest = end;
	}
	memcpy(buf, arg, (size_t)(end - arg));
	buf[end - arg] = '\0';
	return buf;
}

/* rt_cli_number() of the leading number of arg (2.4's reading of the one-word form). */
static int leading_option_number(struct hackbench_config *cfg, int c, const char *arg,
				 long long max, const char *unit, long long *out)
{
	const char *name = rt_cli_opt_name(long_opts, c);
	char buf[64];

	return rt_cli_number(name, leading_number(cfg, name, arg, buf, sizeof(buf)), 1, max,
			     unit, out);
}

static int parse_one(struct hackbench_config *cfg, int c, int argc, char *argv[])
{
	long long n;

	switch (c) {
	case 'f':
		if (leading_option_number(cfg, c, optarg, HB_MAX_FDS, NULL, &n))
			return RT_EXIT_USAGE;
		cfg->fds = (int)n;
		break;
	case 'g':
		if (leading_option_number(cfg, c, optarg, HB_MAX_GROUPS, NULL, &n))
			return RT_EXIT_USAGE;
		cfg->groups = (int)n;
		break;
	case 'l':
		if (leading_option_number(cfg, c, optarg, HB_MAX_LOOPS, NULL, &n))
			return RT_EXIT_USAGE;
		cfg->loops = (uint64_t)n;
		break;
	case 's':
		if (leading_option_number(cfg, c, optarg, HB_MAX_DATASIZE, "bytes", &n))
			return RT_EXIT_USAGE;
		cfg->datasize = (uint64_t)n;
		break;
	case 'F': cfg->fifo = true; break;
	case 'h': usage(); return -1;
	case 'p':
		if (cfg->transport == HB_INET)
			goto pipe_and_inet;
		cfg->transport = HB_PIPE;
		break;
	case 'i':
		if (cfg->transport == HB_PIPE)
			goto pipe_and_inet;
		cfg->transport = HB_INET;
		break;
	case 'T': cfg->threads = true; break;
	case 'P': cfg->threads = false; break;
	case 'D':
		/* 0: no time limit, one round (as cyclictest's -D 0 has no limit) */
		if (rt_cli_duration(rt_cli_opt_name(long_opts, c), optarg, &cfg->duration_s))
			return RT_EXIT_USAGE;
		break;
	default: return rt_cli_common_or_bad_option(&cfg->common, argc, argv, c, optarg);
	}
	return 0;
pipe_and_inet:
	return rt_prog_usage_error("--pipe|-p and --inet|-i cannot be used together");
}

/*
 * 2.4 took "--d" for --datasize; --duration would make it ambiguous. The
 * copy of argv given to getopt spells it out (before any "--").
 */
#define DATASIZE_ABBREV_MAX 64
static void expand_datasize_abbrev(int argc, char *argv[], char *words[],
				   char bufs[][DATASIZE_ABBREV_MAX])
{
	int k = 0;

	for (int i = 0; i < argc; i++) {
		words[i] = argv[i];
		if (i == 0 || k >= 2)
			continue;
		if (strcmp(argv[i], "--") == 0)
			break;
		if (strcmp(argv[i], "--d") == 0) {
			words[i] = (char *)"--datasize";
		} else if (strncmp(argv[i], "--d=", 4) == 0 &&
			   strlen(argv[i]) + 7 < DATASIZE_ABBREV_MAX) {
			snprintf(bufs[k], DATASIZE_ABBREV_MAX, "--datasize=%s", argv[i] + 4);
			words[i] = bufs[k++];
		}
	}
	words[argc] = NULL;
}

uint64_t hackbench_tasks(const struct hackbench_config *cfg)
{
	return 2ULL * (uint64_t)cfg->groups * (uint64_t)cfg->fds;
}

uint64_t hackbench_messages(const struct hackbench_config *cfg)
{
	return (uint64_t)cfg->groups * (uint64_t)cfg->fds * (uint64_t)cfg->fds * cfg->loops;
}

static int check(const struct hackbench_config *cfg)
{
	uint64_t m, bytes;

	if (hackbench_tasks(cfg) > (uint64_t)HB_MAX_TASKS)
		return rt_prog_usage_error("invalid --groups %d with --fds %d: 2 x %d x %d = %llu "
					   "tasks, more than Linux allows (%lld)", cfg->groups,
					   cfg->fds, cfg->groups, cfg->fds,
					   (unsigned long long)hackbench_tasks(cfg), HB_MAX_TASKS);
	/* Counted in bytes per run: groups x fds x fds x loops x datasize < 2^63. */
	if (__builtin_mul_overflow((uint64_t)cfg->groups * (uint64_t)cfg->fds * (uint64_t)cfg->fds,
				   cfg->loops, &m) ||
	    __builtin_mul_overflow(m, cfg->datasize, &bytes) || bytes > (uint64_t)INT64_MAX)
		return rt_prog_usage_error("invalid --loops %llu: groups x fds x fds x loops x "
					   "datasize exceeds 2^63 bytes",
					   (unsigned long long)cfg->loops);
	return 0;
}

int hackbench_parse_args(struct hackbench_config *cfg, int argc, char *argv[])
{
	char **words = calloc((size_t)argc + 1, sizeof(*words));
	/* static: a value taken from them may stay in cfg (one_word_rest) */
	static char bufs[2][DATASIZE_ABBREV_MAX];
	int c, err = 0;

	memset(cfg, 0, sizeof(*cfg));
	cfg->groups = 10;
	cfg->fds = 20;
	cfg->loops = 100;
	cfg->datasize = 100;
	if (!words)
		return rt_prog_usage_error("out of memory");
	expand_datasize_abbrev(argc, argv, words, bufs);
	opterr = 0;
	optind = 0;
	while ((c = getopt_long(argc, words, ":f:Fg:hl:pis:TPD:", long_opts, NULL)) != -1)
		if ((err = parse_one(cfg, c, argc, words)))
			break;
	/* 2.4 ignores other words (its old "hackbench 10 process 100" form). */
	for (; !err && optind < argc; optind++) {
		if (words[optind][0] == '\0')
			continue;
		if (!cfg->ignored_words++)
			cfg->ignored_word = words[optind]; /* a word of argv */
	}
	free(words);
	if (err)
		return err;
	return check(cfg);
}
