/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The files made from the tools' results by rt-latency-report, run as it
 * ships: junit.xml (`junit`) and report.html (`html`, where this build has
 * that command; otherwise the note says so).
 */
#ifndef RTQ_REPORTS_H
#define RTQ_REPORTS_H

#include "qualify.h"
#include "summary.h"

/* Make junit.xml and report.html from the steps' JSON files; files says what was made. */
void rtq_reports_make(const struct rtq_plan *p, struct rtq_files *files);

#endif
