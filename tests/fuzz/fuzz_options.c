// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer harness for the option parsers of the four tools: the input is
 * an argv, words separated by NUL bytes; the first byte picks the parser.
 * Parsing has no side effects besides its messages, so any crash, leak or
 * undefined behaviour here is a bug. Run with -close_fd_mask=3: the one-line
 * errors and --help would flood the fuzzer's output.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt_prog.h"

#include "pairs.h"

#include "../../src/cyclictest/options.h"
#include "../../src/signaltest/options.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_ARGS 32

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf, *argv[MAX_ARGS + 1];
	int argc = 1;
	size_t i, start;
	uint8_t which;

	if (size < 1)
		return 0;
	which = data[0] % 4;
	buf = malloc(size);
	if (!buf)
		return 0;
	memcpy(buf, data + 1, size - 1);
	buf[size - 1] = '\0';
	argv[0] = (char *)(which == 0 ? "cyclictest" : which == 1 ? "signaltest" :
			   which == 2 ? "sigwaittest" : "ptsematest");
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
		struct pairs_config cfg;

		pairs_config_init(&cfg, which == 2 ? &sigwait : &ptsem);
		pairs_parse_args(&cfg, argc, argv);
	}
	free(buf);
	return 0;
}
