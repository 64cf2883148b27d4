/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What sigwaittest and ptsematest share besides the engine: their options
 * (those of rt-tests 2.4), the pair layout (receiver #2i, sender #2i+1),
 * the "#1 -> #0, Min ..." display, the JSON section and the run itself. A
 * tool supplies only its name, the options it has beyond the common ones
 * and its hand-over mechanism.
 */
#ifndef RT_PAIRTOOL_H
#define RT_PAIRTOOL_H

#include <stdbool.h>
#include <stdint.h>

#include "rt_pair.h"
#include "rt_report.h"

#define RT_PAIRTOOL_MAX_PAIRS 1024

struct rt_pairtool_config {
	/* what the tool offers */
	const char *name;         /* program name for --help */
	const char *summary;      /* one line: what it measures */
	bool has_fork;            /* -f: processes instead of threads */
	bool has_smp;             /* -S: one pair per CPU, same priority */
	int prio_floor;           /* lowest priority of a pair with -p */
	/* what the user asked for */
	int pairs;                /* -t */
	bool pairs_per_cpu;       /* -t without NUM, or -S */
	bool smp;
	int affinity;             /* -a: -1 unpinned, -2 pair i on CPU i, else that CPU */
	long interval_us;         /* -i */
	long distance_us;         /* -d */
	uint64_t loops;           /* -l, 0 = endless */
	uint64_t duration_s;      /* -D, 0 = no limit */
	int priority;             /* -p */
	bool quiet;               /* -q */
	bool fork;                /* -f */
	long breaktrace_us;       /* -b, 0 = off */
	const char *json;         /* --json */
};

/* A pair tool: what it is called, offers, and how its pairs hand over. */
struct rt_pairtool {
	const char *name;
	const char *summary;
	bool has_fork;
	bool has_smp;
	int prio_floor;
	const struct rt_pair_mech *mech;
	/* Optional: the mechanism's data for n participants, and its release. */
	void *(*mech_setup)(int participants);
	void (*mech_teardown)(void *data, int participants);
};

/*
 * A whole pair tool's main: program init, command line, parsing, the run,
 * stdout check. Returns the exit code.
 */
int rt_pairtool_main(const struct rt_pairtool *tool, int argc, char *argv[]);

/* Defaults of 2.4: 1 pair, -i 1000, -d 500, unpinned, priority 0. */
void rt_pairtool_init(struct rt_pairtool_config *cfg, const char *name, const char *summary);

/* Parse argv: 0, RT_EXIT_USAGE, or -1 after --help/--version (exit 0). */
int rt_pairtool_parse(struct rt_pairtool_config *cfg, int argc, char *argv[]);

/*
 * Run the measurement with the given mechanism (mech_data reaches it through
 * rt_pair_mech_data) and print the report; rep holds the command line taken
 * before parsing. Returns the exit code.
 */
int rt_pairtool_run(const struct rt_pairtool_config *cfg, const struct rt_report *rep,
		    const struct rt_pair_mech *mech, void *mech_data);

#endif
