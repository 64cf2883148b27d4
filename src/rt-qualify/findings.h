/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The set-up findings: what lib already reads about the machine (rt_env,
 * its preflight and rt_isolation_preflight's IRQ and housekeeping checks)
 * turned into a list, each finding a problem (it makes a result weak) or a
 * note, with the fix for it.
 */
#ifndef RTQ_FINDINGS_H
#define RTQ_FINDINGS_H

#include <stdbool.h>
#include <stdio.h>

#include "rt_env.h"
#include "rt_json.h"

struct rtq_finding {
	bool problem;
	char *what;        /* one sentence, without the fix */
	const char *fix;   /* what to change; NULL when there is no general one */
};

struct rtq_findings {
	struct rtq_finding *item;
	unsigned n;
	unsigned problems;
};

/*
 * The findings about e (read for the measured CPUs; its preflight is
 * redone here); isolated: the measured CPUs are isolated ones. 0 or -ENOMEM.
 */
int rtq_findings_collect(struct rtq_findings *out, struct rt_env *e, bool isolated);
void rtq_findings_free(struct rtq_findings *f);

/* Add a finding (fix: a constant string or NULL). 0 or -ENOMEM. */
int rtq_findings_add(struct rtq_findings *f, bool problem, const char *fix, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* Swap and transparent huge pages (findings_memory.c): what lib does not read. 0 or -ENOMEM. */
int rtq_findings_memory(struct rtq_findings *f);

/* "problem: ..." / "note: ..." lines, each with its "  fix: ..." line. */
void rtq_findings_print(FILE *out, const struct rtq_findings *f);

/* "findings": [{"kind": "problem"|"note", "what": ..., "fix": ...}, ...] */
void rtq_findings_write_json(struct rt_json *j, const struct rtq_findings *f);

#endif
