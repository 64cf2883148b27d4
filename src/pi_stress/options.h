/* SPDX-License-Identifier: GPL-2.0-or-later */
/* pi_stress's configuration: filled by a parser without side effects. */
#ifndef PI_STRESS_OPTIONS_H
#define PI_STRESS_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>

#include "rt_cli.h"

#define PIS_MAX_GROUPS 1024
#define PIS_MAX_INVERSIONS 1000000000000LL

/* The three thread types of a group, and the admin thread. */
enum pis_role { PIS_LOW, PIS_MED, PIS_HIGH, PIS_ADMIN, PIS_ROLES };

/* How one thread type is scheduled (--sched, -r, the defaults). */
struct pis_sched {
	int policy;              /* SCHED_FIFO, SCHED_RR, SCHED_OTHER, SCHED_BATCH, SCHED_IDLE, SCHED_DEADLINE */
	int priority;            /* fifo/rr: 1..99 */
	int nice;                /* other/batch/idle: -20..19 */
	uint64_t runtime_ns;     /* deadline */
	uint64_t deadline_ns;
	uint64_t period_ns;
};

struct pi_stress_config {
	int groups;              /* -g; default: online CPUs - 1, at least 1 */
	uint64_t inversions;     /* -i: per group, 0 = unlimited */
	uint64_t duration_s;     /* -D (as 2.4, -D 0 stops at the first look) */
	bool duration_set;       /* -D given: without it the run goes on until stopped */
	struct rt_cli_common common; /* --json, --preflight, --no-preflight, --verdict */
	bool uniprocessor;       /* -u */
	bool rr;                 /* -r */
	bool prompt;             /* -p */
	bool mlockall;           /* -m */
	bool quiet;              /* -q */
	bool debug;              /* -d */
	bool verbose;            /* -v */
	bool no_pi;              /* --no-pi: plain mutexes (a testing option) */
	uint64_t watchdog_ms;    /* --watchdog: a group without an inversion that long is stuck */
	struct pis_sched sched[PIS_ROLES];
};

/* 0, RT_EXIT_USAGE, or -1 after --help/--version (exit 0). */
int pi_stress_parse_args(struct pi_stress_config *cfg, int argc, char *argv[]);

/*
 * One --sched value ("id=high,policy=deadline,runtime=100000,...") into
 * cfg->sched[], *role set to the role it names. 0 or RT_EXIT_USAGE (the
 * error printed).
 */
int pi_stress_parse_sched(struct pi_stress_config *cfg, const char *arg, int *role);

/* "Low", "Med", "High", "Admin". */
const char *pi_stress_role_name(enum pis_role r);

#endif
