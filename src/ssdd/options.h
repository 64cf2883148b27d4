/* SPDX-License-Identifier: GPL-2.0-or-later */
/* ssdd's configuration: filled by a parser without side effects. */
#ifndef SSDD_OPTIONS_H
#define SSDD_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>

#include "rt_cli.h"

/* Each pair is two processes; Linux has at most 4194304 (PID_MAX_LIMIT) tasks. */
#define SSDD_MAX_FORKS 100000
#define SSDD_MAX_ITERS 2147483647LL /* 2.4's int */
#define SSDD_MAX_EXIT_AFTER 1000000000LL

struct ssdd_config {
	int forks;                /* -f: tracer/tracee pairs */
	int64_t iters;            /* -i: single steps per pair */
	bool quiet;               /* -q: only the final lines */
	struct rt_cli_common common; /* --json, --preflight, --no-preflight, --verdict */
	/* --tracee-exit-after (testing): pair 0's tracee leaves its loop after so many turns */
	int64_t tracee_exit_after; /* -1 = never */
	const char *ignored_word; /* the first non-option word (2.4 ignores them) */
	int ignored_words;
};

/* 0, RT_EXIT_USAGE, or -1 after --help/--version (exit 0). */
int ssdd_parse_args(struct ssdd_config *cfg, int argc, char *argv[]);

#endif
