/* SPDX-License-Identifier: GPL-2.0-or-later */
/* queuelat's configuration: filled by a parser without side effects. */
#ifndef QUEUELAT_OPTIONS_H
#define QUEUELAT_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>

#include "rt_cli.h"

#define QL_MAX_LATENCY_NS 1000000000LL  /* -m: a second */
#define QL_MAX_CYCLES 1000000000LL      /* -c */
#define QL_MAX_MPPS 100000.0            /* -p */
#define QL_MAX_FREQ_MHZ 1000000.0       /* -f: a THz */
#define QL_MAX_QUEUE_LEN 1000000000LL   /* -q */

struct queuelat_config {
	int64_t max_latency_ns;  /* -m (2.4's --max-len) */
	int64_t cycles;          /* -c: cycles to process one packet */
	double mpps;             /* -p: million packets per second arriving */
	double freq_mhz;         /* -f: TSC frequency, 0 = find it (beyond 2.4) */
	int64_t trace_queue_len; /* -q: trace marker when the queue is longer */
	bool trace_queue_given;  /* -q was given: markers for each long queue */
	uint64_t timeout_s;      /* -t: 0 = until exceeded or a signal */
	struct rt_cli_common common; /* --json, --preflight, --no-preflight, --verdict */
};

/* 0, RT_EXIT_USAGE, or -1 after --help/--version (exit 0). */
int queuelat_parse_args(struct queuelat_config *cfg, int argc, char *argv[]);

#endif
