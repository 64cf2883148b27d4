/* SPDX-License-Identifier: GPL-2.0-or-later */
/* signaltest's configuration: filled by a parser without side effects. */
#ifndef SIGNALTEST_OPTIONS_H
#define SIGNALTEST_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>

#include "rt_affinity.h"

#include "pairtool.h"

#define ST_MAX_THREADS 1024

struct signaltest_config {
	struct pairtool_common common; /* -b -D -l (round trips) -m -p -q --json */
	int threads;            /* -t: threads in the ring, >= 2 */
	bool smp;               /* -S: one per allowed CPU, pinned */
	bool affinity;          /* -a: pin round-robin over cpus */
	struct rt_cpulist cpus;
	bool verbose;           /* -v */
};

/* 0, RT_EXIT_USAGE, or -1 after --help/--version (exit 0). */
int signaltest_parse_args(struct signaltest_config *cfg, int argc, char *argv[]);

#endif
