/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The end of a run: the overall verdict from the steps' (each taken from
 * its tool's JSON verdict), summary.json beside the tools' files, the
 * --metrics file, and the closing lines on stdout.
 */
#ifndef RTQ_SUMMARY_H
#define RTQ_SUMMARY_H

#include "findings.h"
#include "qualify.h"
#include "rt_env.h"
#include "rt_report.h"

struct rtq_overall {
	const char *result;     /* "pass", "fail", "inconclusive" */
	char reasons[8][192];
	int nreasons;
	int exit_code;          /* 0, 1 (a tool could not run) or 3 */
	bool partial;
};

/* The overall verdict of p's steps and load. */
void rtq_overall_judge(const struct rtq_plan *p, struct rtq_overall *o);

/* What the other files are: junit.xml and report.html, or why not. */
struct rtq_files {
	bool junit;
	bool html;
	char html_note[160];
};

/* Write summary.json into the result directory. 0 or -errno. */
int rtq_summary_write(const struct rtq_plan *p, const struct rtq_overall *o,
		      const struct rtq_findings *f, const struct rt_env *env,
		      const struct rt_report *rep, const struct rtq_files *files);

/* The --metrics file (atomic). 0 or -errno. */
int rtq_summary_metrics(const struct rtq_plan *p, const struct rtq_overall *o,
			const struct rt_env *env);

/* The load's CPU seconds during the measurement and the seconds measured; false: unknown. */
bool rtq_load_figures(const struct rtq_plan *p, double *cpu_s, double *wall_s);

/* The closing lines: the load's CPU time, the verdict and its reasons, the files. */
void rtq_summary_print(const struct rtq_plan *p, const struct rtq_overall *o,
		       const struct rtq_files *files);

#endif
