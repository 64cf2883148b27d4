/* SPDX-License-Identifier: GPL-2.0-or-later */
/* pip_stress's configuration: filled by a parser without side effects. */
#ifndef PIP_STRESS_OPTIONS_H
#define PIP_STRESS_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>

#include "rt_cli.h"

#define PIP_DEFAULT_USLEEP_US 500    /* 2.4's usleep_val */
#define PIP_MAX_USLEEP_US 1000000
#define PIP_DEFAULT_WORK_MS 1000
#define PIP_MAX_WORK_MS 60000

struct pip_config {
	long long usleep_us;       /* -s: how long low holds the mutex while medium runs */
	long long work_ms;         /* --work: medium's busy work, the bound of the test */
	bool no_pi;               /* --no-pi: a plain mutex (a testing option: must FAIL) */
	struct rt_cli_common common; /* --json, --preflight, --no-preflight, --verdict */
};

/* 0, RT_EXIT_USAGE, or -1 after --help/--version (exit 0). */
int pip_parse_args(struct pip_config *cfg, int argc, char *argv[]);

#endif
