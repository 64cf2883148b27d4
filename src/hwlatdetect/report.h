/* SPDX-License-Identifier: GPL-2.0-or-later */
/* hwlatdetect's output: 2.4's report, the verdict and the JSON. */
#ifndef HWLATDETECT_REPORT_H
#define HWLATDETECT_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "rt_env.h"
#include "rt_output.h"
#include "rt_report.h"
#include "rt_verdict_write.h"

#include "options.h"
#include "run.h"
#include "sample.h"

/* The parameter block, a blank line and "Starting test". */
void hwlat_print_header(FILE *f, const struct hwlat_config *cfg, const struct hwlat_result *res);

/* "test finished" .. "SMIs during run: N" (before the report file's line). */
void hwlat_print_summary(FILE *f, const struct hwlat_result *res, const struct hwlat_summary *sum);

/* One "ts: ..., inner:N, outer:N" line. */
void hwlat_print_sample(FILE *f, const struct hwlat_sample *s);

/* The --report file's lines. 0 or -errno. */
int hwlat_write_samples(FILE *f, const struct hwlat_result *res);

/* Did the largest latency exceed the hardlimit? (exit status 1) */
bool hwlat_failed(const struct hwlat_result *res, const struct hwlat_summary *sum);

/*
 * Judge the run into res->verdict: the windows sampled in done_s seconds
 * are the evidence, the hardlimit the check; a signal before the end of
 * --duration makes it partial. 0 or -ENOMEM.
 */
int hwlat_judge(const struct hwlat_config *cfg, struct hwlat_result *res,
		const struct hwlat_summary *sum, double done_s);

/* Did the user ask for a judgement (--hardlimit or --verdict)? */
bool hwlat_judge_asked(const struct hwlat_config *cfg);

/*
 * The "# Verdict:" lines (rt_verdict_write_text): when asked, or when the
 * hardlimit was exceeded (2.4 judges that too: exit 1), e.g. "# Verdict:
 * FAIL" and "# Verdict: hardlimit: max latency 30 us > hardlimit 15 us".
 */
void hwlat_print_verdict(FILE *f, const struct hwlat_config *cfg, const struct hwlat_result *res);

/* The JSON document (2.4's header, then hwlatdetect's keys). 0 or -errno. */
int hwlat_write_json(FILE *f, const struct rt_report *rep, int return_code,
		     const struct hwlat_config *cfg, const struct hwlat_result *res,
		     const struct hwlat_summary *sum, const struct rt_env *env);

/*
 * The end of the text (unless --quiet): the summary, the --report file
 * (written and committed to file; on failure one line on stderr) and its
 * line, the samples (unless --watch) and the verdict. 0 or RT_EXIT_FAILURE.
 */
int hwlat_finish_report(FILE *f, const struct hwlat_config *cfg, struct rt_output *file,
			const struct hwlat_result *res, const struct hwlat_summary *sum);

/* "SIGINT", "SIGTERM", "SIGHUP" or "duration". */
const char *hwlat_stopped_by(const struct hwlat_result *res);

#endif
