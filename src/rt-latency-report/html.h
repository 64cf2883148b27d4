/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * html: one self-contained page (styles and images inline, no script, a
 * Content-Security-Policy that loads nothing) of runs, records files,
 * merges, or two runs compared. Every byte from an input is escaped text
 * (html_text.h).
 */
#ifndef RLR_HTML_H
#define RLR_HTML_H

#include <stdbool.h>
#include <stdio.h>

#include "curves.h"
#include "input.h"
#include "run.h"
#include "timeline.h"

/* One input read for the page. */
struct rlr_html_run {
	const char *path;
	struct rlr_input in;      /* its bytes, and its JSON (NULL: histogram text) */
	bool records;             /* a --records file: in.doc is the run it describes */
	struct rlr_timeline tl;   /* records only */
	struct rlr_plotfile pf;   /* its curves */
	const char *unit;         /* "us" or "ns" */
};

/* rt-latency-report html FILE... -o REPORT.html [--compare]: the exit code. */
int rlr_html(int argc, char *argv[]);

/* The sections of one input (html_run.c). */
void rlr_html_run_section(FILE *f, const struct rlr_html_run *r, int index);
/* Its verdict line and broken limits (html_verdict.c). */
void rlr_html_verdict(FILE *f, const struct rlr_html_run *r);
/* The result word of a run: "pass", "fail", "inconclusive", "partial", or NULL. */
const char *rlr_html_result(const struct rlr_html_run *r);
/* Its per-thread table with percentiles and intervals (html_table.c). */
void rlr_html_table(FILE *f, const struct rlr_html_run *r);
/* Histogram (one curve per CPU) of the curves of n runs, in one SVG (html_svg.c). */
void rlr_html_histogram(FILE *f, const struct rlr_html_run *const *runs, int n);
/* A records file's per-window max and p99 over time (html_svg.c). */
void rlr_html_timeline(FILE *f, const struct rlr_html_run *r);
/* Spikes, isolation audit and preflight, machine (html_system.c). */
void rlr_html_spikes(FILE *f, const struct rlr_html_run *r);
void rlr_html_isolation(FILE *f, const struct rlr_html_run *r);
void rlr_html_machine(FILE *f, const struct rlr_html_run *r);
/* A JSON value as nested tables (what the page does not know by name). */
void rlr_html_tree(FILE *f, struct json_object *v, int depth);
/* The inputs of a merge, the runs of the page, two runs compared (html_inputs.c). */
void rlr_html_merge_inputs(FILE *f, const struct rlr_html_run *r);
void rlr_html_runs_summary(FILE *f, struct rlr_html_run *runs, int n);
/* runs[0] the base, runs[1] the run, cmp their figures as compare reads them. */
void rlr_html_compare(FILE *f, const struct rlr_html_run *runs, const struct rlr_run *cmp);

#endif
