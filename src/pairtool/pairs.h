/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The tools made of sender/receiver pairs (sigwaittest, ptsematest,
 * svsematest, pmqtest):
 * their options (those of rt-tests 2.4), the pair layout (receiver #2i,
 * sender #2i+1), the "#1 -> #0, Min ..." display and the JSON section. A
 * tool supplies only its name, the options it has beyond the common ones
 * and its hand-over mechanism.
 */
#ifndef PAIRTOOL_PAIRS_H
#define PAIRTOOL_PAIRS_H

#include <getopt.h>
#include <stdbool.h>
#include <stdint.h>

#include "rt_pair.h"
#include "rt_report.h"

#include "pairtool.h"

#define PAIRS_MAX_PAIRS 1024
#define PAIRS_MAX_INTERVAL_US 10000000
#define PAIRS_MAX_DISTANCE_US 1000000
#define PAIRS_MAX_OPTIONS 48

struct pairs_config;

/* Options a tool has beyond those of every pair tool (pmqtest's -T and -f). */
struct pairs_own_options {
	const struct option *longopts; /* ends with a NULL name */
	const char *shortopts;         /* their getopt letters, e.g. "f:T:" */
	const char *help;              /* their --help lines */
	/* Take option c (name: its long name) into settings: 0 or RT_EXIT_USAGE. */
	int (*parse)(void *settings, int c, const char *name, const char *arg);
	/* After all options: 0 or RT_EXIT_USAGE; may set cfg->sender_delay_ns. */
	int (*check)(void *settings, struct pairs_config *cfg);
	void *settings;
};

/* A pair tool: what it is called, offers, and how its pairs hand over. */
struct pairs_tool {
	const char *name;
	const char *summary;      /* one line: what it measures */
	bool has_fork;            /* -f: processes instead of threads */
	bool has_smp;             /* -S: one pair per CPU, same priority */
	int prio_floor;           /* lowest priority of a pair with -p */
	const struct pairs_own_options *own; /* may be NULL */
	const struct rt_pair_mech *mech;
	/* Optional: the mechanism's data for n participants, and its release. */
	void *(*mech_setup)(const struct pairs_config *cfg, int participants);
	void (*mech_teardown)(void *data, int participants);
	/* Optional: the receiver's timeouts of pair i ("TO n", "timeoutcount"). */
	uint64_t (*timeouts)(void *mech_data, int pair);
	/*
	 * Optional: the one line on stderr saying that the hand-over failed for
	 * good during the run (err: errno, what: the call, see rt_pair_fail).
	 * Without it: "<what> failed during the run: <strerror>".
	 */
	void (*run_error)(void *mech_data, int err, const char *what);
};

struct pairs_config {
	const struct pairs_tool *tool;
	struct pairtool_common common; /* -b -D -l -p -q --json */
	int pairs;                /* -t */
	bool pairs_per_cpu;       /* -t without NUM, or -S */
	bool smp;                 /* -S */
	int affinity;             /* -a: -1 unpinned, -2 pair i on CPU i, else that CPU */
	int64_t interval_us;      /* -i */
	int64_t distance_us;      /* -d */
	bool fork;                /* -f */
	int64_t sender_delay_ns;  /* senders wait this long before each send */
};

/* Defaults of 2.4: 1 pair, -i 1000, -d 500, unpinned, priority 0. */
void pairs_config_init(struct pairs_config *cfg, const struct pairs_tool *tool);

/* Parse argv: 0, RT_EXIT_USAGE, or -1 after --help/--version (exit 0). */
int pairs_parse_args(struct pairs_config *cfg, int argc, char *argv[]);

/* A whole pair tool's main; returns the exit code. */
int pairs_main(const struct pairs_tool *tool, int argc, char *argv[]);

#endif
