// SPDX-License-Identifier: GPL-2.0-or-later
#include <getopt.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rt_cli.h"
#include "rt_opt.h"
#include "rt_prog.h"

#include "options.h"

#ifndef SCHED_DEADLINE
#define SCHED_DEADLINE 6
#endif

enum { OPT_NO_PI = 256, OPT_WATCHDOG };

static const struct option long_opts[] = {
	{ "debug", no_argument, NULL, 'd' },
	{ "duration", required_argument, NULL, 'D' },
	{ "groups", required_argument, NULL, 'g' },
	{ "help", no_argument, NULL, 'h' },
	{ "inversions", required_argument, NULL, 'i' },
	RT_CLI_COMMON_LONG_OPTIONS,
	{ "mlockall", no_argument, NULL, 'm' },
	{ "prompt", no_argument, NULL, 'p' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "rr", no_argument, NULL, 'r' },
	{ "sched", required_argument, NULL, 's' },
	{ "uniprocessor", no_argument, NULL, 'u' },
	{ "verbose", no_argument, NULL, 'v' },
	/* beyond 2.4 */
	{ "no-pi", no_argument, NULL, OPT_NO_PI },
	{ "watchdog", required_argument, NULL, OPT_WATCHDOG },
	{ NULL, 0, NULL, 0 },
};

static const char *const role_names[PIS_ROLES] = {
	[PIS_LOW] = "Low", [PIS_MED] = "Med", [PIS_HIGH] = "High", [PIS_ADMIN] = "Admin",
};

const char *pi_stress_role_name(enum pis_role r)
{
	return role_names[r];
}

static void usage(void)
{
	printf("pi_stress V %s (%s %s)\nUsage:\npi_stress <options>\n\n"
	       "Groups of three threads (low, medium, high priority) build a priority\n"
	       "inversion on a priority-inheritance mutex, over and over; a group whose\n"
	       "inversion is never resolved fails the test.\n\n",
	       RT_INTERFACE_VERSION, PACKAGE_NAME, PACKAGE_VERSION);
	fputs("-d       --debug           turn on debug prints\n"
	      "-D TIME  --duration=TIME   length of test run in seconds (default is infinite)\n"
	      "                           Append 'm', 'h', or 'd'\n"
	      "                           to specify minutes, hours or days.\n"
	      "                           (0, as 2.4: stop at the first look)\n"
	      "-g N     --groups=N        set the number of inversion groups\n"
	      "-h       --help            print this message\n"
	      "-i INV   --inversions=INV  number of inversions per group (default is infinite)\n"
	      "         --json=FILENAME   write final results into FILENAME, JSON formatted\n"
	      "-m       --mlockall        lock current and future memory\n"
	      "-p       --prompt          prompt before starting the test\n"
	      "-q       --quiet           suppress running output\n"
	      "-r       --rr              use SCHED_RR for test threads [SCHED_FIFO]\n"
	      "-s OPTS  --sched OPTS      scheduling options per thread type:\n"
	      "   id=[high|med|low]      select thread\n"
	      "   ,policy=[fifo,rr]       scheduling class [SCHED_FIFO, SCHED_RR]\n"
	      "     ,priority=N           scheduling priority\n"
	      "   ,policy=[other,batch,idle] scheduling class [SCHED_OTHER, ...]\n"
	      "     ,nice=N               nice value\n"
	      "   ,policy=[deadline]      scheduling class [DEADLINE]\n"
	      "     ,runtime=N\n"
	      "     ,deadline=N\n"
	      "     ,period=N             (nanoseconds)\n"
	      "-u       --uniprocessor    force all threads to run on one processor\n"
	      "-v       --verbose         lots of output\n"
	      "-V                         print 2.4's version line (pi_stress v2.40)\n"
	      "         --version         print the version of rt-tests-ng and of the interface\n"
	      "         --no-pi           testing: mutexes without priority inheritance, so\n"
	      "                           that the watchdog catches an unresolved inversion\n"
	      "                           (with -u or on one CPU)\n"
	      "         --watchdog=TIME   a group without an inversion for TIME (seconds)\n"
	      "                           is stuck: the test fails (default 3.75 s)\n"
	      "         --no-preflight    no warnings about the machine before the run, also\n"
	      "                           on a terminal\n"
	      "         --preflight       those warnings also when stderr is not a terminal\n"
	      "         --verdict         judge the run: \"# Verdict:\" lines, exit 3 on FAIL,\n"
	      "                           4 on INCONCLUSIVE (a run shorter than the\n"
	      "                           watchdog: a stuck group could not be caught)\n"
	      "\nExit status: 0 done, 3 a group got stuck (FAIL), 4 with --verdict\n"
	      "INCONCLUSIVE, 1 could not run, 2 usage error.\n",
	      stdout);
}

/* A number of a --sched value: rt_cli's usage error names it "--sched KEY". */
static int sched_number(const char *key, const char *val, long long min, long long max,
			long long *out)
{
	char name[32];

	snprintf(name, sizeof(name), "sched %s", key);
	return rt_cli_number(name, val, min, max, NULL, out);
}

static int sched_policy(const char *val, int *policy)
{
	if (strcmp(val, "deadline") == 0) {
		*policy = SCHED_DEADLINE;
		return 0;
	}
	if (rt_opt_parse_policy(val, policy))
		return rt_prog_usage_error("invalid --sched policy '%s': must be fifo, rr, other, "
					   "batch, idle or deadline", val);
	return 0;
}

/* What one --sched value set, before it is checked as a whole. */
struct sched_words {
	struct pis_sched s;
	int role;
	bool have_nice, have_rt, have_dl;
};

static int sched_role(const char *val, int *role)
{
	if (strcmp(val, "low") == 0)
		*role = PIS_LOW;
	else if (strcmp(val, "med") == 0)
		*role = PIS_MED;
	else if (strcmp(val, "high") == 0)
		*role = PIS_HIGH;
	else
		return rt_prog_usage_error("invalid --sched id '%s': must be low, med or high", val);
	return 0;
}

static int sched_deadline_word(struct sched_words *w, const char *key, const char *val)
{
	long long n;
	int err;

	/* 2^63 ns is beyond any period; the kernel checks the rest */
	if ((err = sched_number(key, val, 1, INT64_MAX, &n)))
		return err;
	if (key[0] == 'r')
		w->s.runtime_ns = (uint64_t)n;
	else if (key[0] == 'd')
		w->s.deadline_ns = (uint64_t)n;
	else
		w->s.period_ns = (uint64_t)n;
	w->have_dl = true;
	return 0;
}

/* One key=value of a --sched value (tok is modified). */
static int sched_word(struct sched_words *w, const char *arg, char *tok)
{
	char *val = strchr(tok, '=');
	long long n;
	int err;

	if (!val)
		return rt_prog_usage_error("invalid --sched '%s': '%s' is not key=value", arg, tok);
	*val++ = '\0';
	if (strcmp(tok, "id") == 0)
		return sched_role(val, &w->role);
	if (strcmp(tok, "policy") == 0)
		return sched_policy(val, &w->s.policy);
	if (strcmp(tok, "priority") == 0) {
		w->have_rt = true;
		if (!(err = sched_number(tok, val, 1, 99, &n)))
			w->s.priority = (int)n;
		return err;
	}
	if (strcmp(tok, "nice") == 0) {
		w->have_nice = true;
		if (!(err = sched_number(tok, val, -20, 19, &n)))
			w->s.nice = (int)n;
		return err;
	}
	if (strcmp(tok, "runtime") == 0 || strcmp(tok, "deadline") == 0 ||
	    strcmp(tok, "period") == 0)
		return sched_deadline_word(w, tok, val);
	return rt_prog_usage_error("invalid --sched '%s': unknown key '%s' (id, policy, priority, "
				   "nice, runtime, deadline, period)", arg, tok);
}

/* The words together: each policy takes its own parameters only. */
static int sched_check(const struct pi_stress_config *cfg, struct sched_words *w,
		       const char *arg)
{
	struct pis_sched *s = &w->s;
	const struct pis_sched *was = &cfg->sched[w->role];

	if (s->policy < 0)
		s->policy = was->policy == SCHED_DEADLINE ? SCHED_FIFO : was->policy;
	if (s->policy == SCHED_FIFO || s->policy == SCHED_RR) {
		if (w->have_nice || w->have_dl)
			return rt_prog_usage_error("invalid --sched '%s': %s takes priority only",
						   arg, s->policy == SCHED_FIFO ? "fifo" : "rr");
		if (s->priority < 0)
			s->priority = was->priority > 0 ? was->priority : w->role + 1;
		return 0;
	}
	s->priority = 0;
	if (s->policy == SCHED_DEADLINE) {
		if (w->have_nice || w->have_rt)
			return rt_prog_usage_error("invalid --sched '%s': deadline takes runtime, "
						   "deadline and period only", arg);
		if (!s->runtime_ns || !s->deadline_ns || !s->period_ns)
			return rt_prog_usage_error("invalid --sched '%s': deadline needs runtime, "
						   "deadline and period (ns)", arg);
		if (s->runtime_ns > s->deadline_ns || s->deadline_ns > s->period_ns)
			return rt_prog_usage_error("invalid --sched '%s': must be runtime <= "
						   "deadline <= period", arg);
		return 0;
	}
	if (w->have_rt || w->have_dl)
		return rt_prog_usage_error("invalid --sched '%s': %s takes nice only", arg,
					   s->policy == SCHED_OTHER ? "other" :
					   s->policy == SCHED_BATCH ? "batch" : "idle");
	return 0;
}

int pi_stress_parse_sched(struct pi_stress_config *cfg, const char *arg, int *role_out)
{
	struct sched_words w = { .s = { .policy = -1, .priority = -1 }, .role = -1 };
	char *copy = strdup(arg), *save = NULL, *tok;
	int err = 0;

	if (!copy)
		return rt_prog_usage_error("out of memory");
	for (tok = strtok_r(copy, ",", &save); tok && !err; tok = strtok_r(NULL, ",", &save))
		err = sched_word(&w, arg, tok);
	free(copy);
	if (err)
		return err;
	if (w.role < 0)
		return rt_prog_usage_error("invalid --sched '%s': id=low, id=med or id=high is "
					   "required", arg);
	if ((err = sched_check(cfg, &w, arg)))
		return err;
	cfg->sched[w.role] = w.s;
	*role_out = w.role;
	return 0;
}

static int parse_one(struct pi_stress_config *cfg, int c, int argc, char *argv[],
		     bool *rr_given, bool sched_given[])
{
	long long n;
	uint64_t secs;
	int role;

	switch (c) {
	case 'd': cfg->debug = true; break;
	case 'D':
		if (rt_cli_duration("duration", optarg, &cfg->duration_s))
			return RT_EXIT_USAGE;
		cfg->duration_set = true;
		break;
	case 'g':
		if (rt_cli_number("groups", optarg, 1, PIS_MAX_GROUPS, NULL, &n))
			return RT_EXIT_USAGE;
		cfg->groups = (int)n;
		break;
	case 'h': usage(); return -1;
	case 'i':
		if (rt_cli_number("inversions", optarg, 1, PIS_MAX_INVERSIONS, NULL, &n))
			return RT_EXIT_USAGE;
		cfg->inversions = (uint64_t)n;
		break;
	case 'm': cfg->mlockall = true; break;
	case 'p': cfg->prompt = true; break;
	case 'q': cfg->quiet = true; break;
	case 'r': *rr_given = true; break;
	case 's':
		if (pi_stress_parse_sched(cfg, optarg, &role))
			return RT_EXIT_USAGE;
		sched_given[role] = true;
		break;
	case 'u': cfg->uniprocessor = true; break;
	case 'v': cfg->verbose = true; break;
	case 'V':
		/* 2.4's form, which scripts may compare: no newline */
		printf("pi_stress v%s ", RT_INTERFACE_VERSION);
		return -1;
	case OPT_NO_PI: cfg->no_pi = true; break;
	case OPT_WATCHDOG:
		if (rt_cli_duration("watchdog", optarg, &secs))
			return RT_EXIT_USAGE;
		if (secs == 0 || secs > 3600)
			return rt_prog_usage_error("invalid --watchdog '%s': must be 1..3600 s",
						   optarg);
		cfg->watchdog_ms = secs * 1000;
		break;
	default: return rt_cli_common_or_bad_option(&cfg->common, argc, argv, c, optarg);
	}
	return 0;
}

static bool rt_policy(int policy)
{
	return policy == SCHED_FIFO || policy == SCHED_RR;
}

/*
 * Real-time low, med and high must be in that order: a med above high would
 * starve high with or without priority inheritance (a stuck group that
 * proves nothing).
 */
static int check_order(const struct pi_stress_config *cfg)
{
	const struct pis_sched *s = cfg->sched;

	if (rt_policy(s[PIS_MED].policy) && rt_policy(s[PIS_HIGH].policy) &&
	    s[PIS_MED].priority >= s[PIS_HIGH].priority)
		return rt_prog_usage_error("invalid --sched: the med priority (%d) must be below "
					   "the high one (%d)", s[PIS_MED].priority,
					   s[PIS_HIGH].priority);
	if (rt_policy(s[PIS_LOW].policy) && rt_policy(s[PIS_MED].policy) &&
	    s[PIS_LOW].priority >= s[PIS_MED].priority)
		return rt_prog_usage_error("invalid --sched: the low priority (%d) must be below "
					   "the med one (%d)", s[PIS_LOW].priority,
					   s[PIS_MED].priority);
	return 0;
}

static void defaults(struct pi_stress_config *cfg)
{
	long online = sysconf(_SC_NPROCESSORS_ONLN);

	memset(cfg, 0, sizeof(*cfg));
	cfg->groups = online > 1 ? (int)(online - 1 < PIS_MAX_GROUPS ? online - 1
								      : PIS_MAX_GROUPS) : 1;
	cfg->watchdog_ms = 3750; /* 2.4: no progress in 5 checks, 0.75 s apart */
	for (int r = 0; r < PIS_ROLES; r++)
		cfg->sched[r] = (struct pis_sched){ .policy = SCHED_FIFO, .priority = r + 1 };
}

int pi_stress_parse_args(struct pi_stress_config *cfg, int argc, char *argv[])
{
	bool rr = false, sched_given[3] = { false, false, false };
	int c, err;

	defaults(cfg);
	opterr = 0;
	optind = 0;
	while ((c = getopt_long(argc, argv, ":dD:g:hi:mpqrs:uvV", long_opts, NULL)) != -1)
		if ((err = parse_one(cfg, c, argc, argv, &rr, sched_given)))
			return err;
	if ((err = rt_cli_no_operands(argc, argv)))
		return err;
	/* -r: SCHED_RR for every role that --sched did not set */
	if (rr)
		for (int r = 0; r < PIS_ROLES; r++)
			if (r == PIS_ADMIN || !sched_given[r])
				cfg->sched[r].policy = SCHED_RR;
	return check_order(cfg);
}
