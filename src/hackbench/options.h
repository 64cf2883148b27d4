/* SPDX-License-Identifier: GPL-2.0-or-later */
/* hackbench's configuration: filled by a parser without side effects. */
#ifndef HACKBENCH_OPTIONS_H
#define HACKBENCH_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>

#include "rt_cli.h"

/* Linux has at most 4194304 (PID_MAX_LIMIT) tasks: 2 x groups x fds beyond that cannot run. */
#define HB_MAX_TASKS 4194304LL
#define HB_MAX_GROUPS 100000
#define HB_MAX_FDS 100000
#define HB_MAX_LOOPS 4294967295LL      /* 2.4's unsigned int */
#define HB_MAX_DATASIZE (64LL << 20)    /* bytes: one buffer per worker */

enum hb_transport { HB_SOCKET, HB_PIPE, HB_INET };

struct hackbench_config {
	int groups;               /* -g */
	int fds;                  /* -f: receivers (and senders) per group */
	uint64_t loops;           /* -l: messages from each sender to each receiver */
	uint64_t datasize;        /* -s: bytes per message */
	bool threads;             /* -T (true) or -P (false, default) */
	enum hb_transport transport; /* socketpair (default), -p, -i */
	bool fifo;                /* -F: the parent at SCHED_FIFO 1 once the workers exist */
	uint64_t duration_s;      /* -D: repeat the run until then, 0 = one run */
	struct rt_cli_common common; /* --json, --preflight, --no-preflight, --verdict */
	/* Words 2.4 ignores silently; main warns about them. */
	const char *ignored_word; /* the first non-option word (old positional form) */
	int ignored_words;
	const char *one_word_opt; /* an option whose value held more words ("-s 100 -l 10") */
	const char *one_word_rest;
};

/* 0, RT_EXIT_USAGE, or -1 after --help/--version (exit 0). */
int hackbench_parse_args(struct hackbench_config *cfg, int argc, char *argv[]);

/* Tasks, fds per task and messages of one run. */
uint64_t hackbench_tasks(const struct hackbench_config *cfg);
uint64_t hackbench_messages(const struct hackbench_config *cfg);

#endif
