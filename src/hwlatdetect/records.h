/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hwlatdetect --records: lib/rt_records' NDJSON file with a "run" line, one
 * "window" line per interval (the samples that arrived in it) and a
 * "total" line at the end, also after SIGINT/SIGTERM.
 */
#ifndef HWLATDETECT_RECORDS_H
#define HWLATDETECT_RECORDS_H

#include <stdbool.h>
#include <stddef.h>

#include "rt_env.h"
#include "rt_records.h"
#include "rt_report.h"

#include "options.h"
#include "run.h"
#include "sample.h"

struct hwlat_records {
	struct rt_records rec;
	bool open;
	size_t first; /* the first sample of the open window */
};

/* Open cfg->records (nothing when not asked for). 0 or -errno. */
int hwlat_records_open(struct hwlat_records *r, const struct hwlat_config *cfg);

/* The run line; the first window opens now. 0 or -errno. */
int hwlat_records_start(struct hwlat_records *r, const struct rt_report *rep,
			const struct hwlat_config *cfg, const struct hwlat_result *res,
			const struct rt_env *env);

/* Close the open window when one is due. */
void hwlat_records_poll(struct hwlat_records *r, const struct hwlat_result *res);

/* The last window and the total line. 0 or the first error of the run (-errno). */
int hwlat_records_finish(struct hwlat_records *r, const struct hwlat_result *res,
			 const struct hwlat_summary *sum, bool failed);

void hwlat_records_close(struct hwlat_records *r);

#endif
