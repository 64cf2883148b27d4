// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer harness for the option parsers of the tools: the input is
 * an argv, words separated by NUL bytes; the first byte picks the parser.
 * Parsing has no side effects besides its messages, so any crash, leak or
 * undefined behaviour here is a bug. Run with -close_fd_mask=3: the one-line
 * errors and --help would flood the fuzzer's output.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt_cli.h"
#include "rt_prog.h"

#include "pairs.h"

#include "../../src/cyclictest/options.h"
#include "../../src/signaltest/options.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_ARGS 32

/* A pair tool with options of its own, as pmqtest's -T and -f. */
static int own_parse(void *settings, int c, const char *name, const char *arg)
{
	long long *v = settings;

	return rt_cli_number(name, arg, 0, 3600, "s", &v[c == 'T']) ? RT_EXIT_USAGE : 0;
}

static int own_check(void *settings, struct pairs_config *cfg)
{
	long long *v = settings;

	cfg->sender_delay_ns = v[0] * 1000000000LL;
	return v[0] && !v[1] ? RT_EXIT_USAGE : 0;
}

static long long own_values[2];
static const struct option own_longopts[] = {
	{ "forcetimeout", required_argument, NULL, 'f' },
	{ "timeout", required_argument, NULL, 'T' },
	{ NULL, 0, NULL, 0 },
};
static const struct pairs_own_options own = {
	.longopts = own_longopts, .shortopts = "f:T:", .help = "", .parse = own_parse,
	.check = own_check, .settings = own_values,
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf, *argv[MAX_ARGS + 1];
	int argc = 1;
	size_t i, start;
	uint8_t which;

	if (size < 1)
		return 0;
	which = data[0] % 5;
	buf = malloc(size);
	if (!buf)
		return 0;
	memcpy(buf, data + 1, size - 1);
	buf[size - 1] = '\0';
	argv[0] = (char *)(which == 0 ? "cyclictest" : which == 1 ? "signaltest" :
			   which == 2 ? "sigwaittest" : which == 3 ? "ptsematest" : "pmqtest");
	for (i = 0, start = 0; i < size && argc < MAX_ARGS; i++) {
		if (buf[i] == '\0') {
			argv[argc++] = buf + start;
			start = i + 1;
		}
	}
	argv[argc] = NULL;
	rt_prog_init(argv[0]);

	if (which == 0) {
		struct cyclictest_config cfg;

		cyclictest_config_init(&cfg);
		if (cyclictest_parse_args(&cfg, argc, argv) == 0)
			cyclictest_config_check(&cfg);
	} else if (which == 1) {
		struct signaltest_config cfg;

		signaltest_parse_args(&cfg, argc, argv);
	} else {
		static const struct pairs_tool sigwait = { .name = "sigwaittest", .summary = "fuzz",
							   .has_fork = true, .has_smp = true };
		static const struct pairs_tool ptsem = { .name = "ptsematest", .summary = "fuzz",
							 .has_smp = true, .prio_floor = 1 };
		static const struct pairs_tool pmq = { .name = "pmqtest", .summary = "fuzz",
						       .has_smp = true, .prio_floor = 1, .own = &own };
		struct pairs_config cfg;

		own_values[0] = own_values[1] = 0;
		pairs_config_init(&cfg, which == 2 ? &sigwait : which == 3 ? &ptsem : &pmq);
		pairs_parse_args(&cfg, argc, argv);
	}
	free(buf);
	return 0;
}
