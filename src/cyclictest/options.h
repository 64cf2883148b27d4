/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cyclictest's options: parsed into the engine's config (rt_cyclic_config) without side effects. */
#ifndef CYCLICTEST_OPTIONS_H
#define CYCLICTEST_OPTIONS_H

#include "rt_cyclic_config.h"

/*
 * Parse argv into cfg. Only stores values: no files opened, no scheduling.
 * On a usage error prints the one-line message and returns RT_EXIT_USAGE;
 * returns -1 after --help or --version were printed (exit 0); else 0.
 */
int cyclictest_parse_args(struct cyclictest_config *cfg, int argc, char *argv[]);

void cyclictest_usage(void);

#endif
