/* SPDX-License-Identifier: GPL-2.0-or-later */
/* get_cyclictest_snapshot's configuration: filled by a parser without side effects. */
#ifndef GCS_OPTIONS_H
#define GCS_OPTIONS_H

#include <stdbool.h>
#include <sys/types.h>

#define GCS_MAX_PID 4194304 /* PID_MAX_LIMIT */

/* The PIDs of -s or -p: none given (count 0) means every instance. */
struct gcs_pids {
	bool given;  /* the option was given */
	pid_t *pids; /* as given, in order */
	int count;
};

struct gcs_config {
	bool list;               /* -l */
	struct gcs_pids snapshot; /* -s [PID ...] */
	struct gcs_pids print;   /* -p [PID ...] */
	bool no_options;         /* no argument at all: snapshot all and print all */
};

/* 0, RT_EXIT_USAGE, or -1 after --help/--version (exit 0). Free with gcs_config_free. */
int gcs_parse_args(struct gcs_config *cfg, int argc, char *argv[]);
void gcs_config_free(struct gcs_config *cfg);

#endif
