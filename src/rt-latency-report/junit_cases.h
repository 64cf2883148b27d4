/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * junit: what one result file says, as test cases: one per thread or pair
 * (or group, task) and per limit of the run's verdict, each passed, failed
 * (a limit broken: its figures; a claim the run did not prove: inconclusive),
 * in error (nothing measured, a worker died, the run did not end) or skipped
 * (the result says the check was not run).
 * No XML here (junit.c writes it).
 */
#ifndef RLR_JUNIT_CASES_H
#define RLR_JUNIT_CASES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct json_object;

enum rlr_jkind { RLR_JPASS, RLR_JFAILURE, RLR_JERROR, RLR_JSKIPPED };

struct rlr_jcase {
	char *name;      /* "thread 0: max-latency", "pair 1", "group 2" */
	enum rlr_jkind kind;
	char *message;   /* one line: the broken limit and its figures */
	char *text;      /* the figures at length; NULL when none */
	const char *type; /* the failure's type when not the kind's (static) */
};

/* The failure type of a run stopped early or killed (never a complete pass). */
#define RLR_JTYPE_PARTIAL "rt-tests-ng.partial"

/* The failure type of a claim the run did not prove (exit 3, not a broken limit). */
#define RLR_JTYPE_INCONCLUSIVE "rt-tests-ng.inconclusive"

struct rlr_jsuite {
	const char *path;          /* the input, as named on the command line */
	struct json_object *doc;   /* its result (not owned) */
	char tool[64];             /* the command's name from "cmdline:" */
	int64_t start_s;           /* start (epoch seconds, -1 unknown) */
	double time_s;             /* the time measured (s) */
	/* A run stopped early or killed: why, what was measured of what was asked. */
	bool partial;
	char cause[64];            /* verdict.stop.cause; "killed": records without a total */
	double done, asked;        /* -1: unknown */
	char unit[16];             /* "s", "loops" ... */
	char stop_text[192];       /* "partial: killed after 4 of 30 s asked" */
	size_t ncases, cap;
	struct rlr_jcase *cases;
	size_t failures, errors, skipped;
};

/*
 * The test cases of doc (the result read from path, already checked to be
 * one of ours: rlr_junit_check()): 0, 1 (out of memory) or 2 after a
 * one-line error (a member the cases need has the wrong type).
 */
int rlr_junit_cases(struct rlr_jsuite *s, const char *path, struct json_object *doc);
void rlr_junit_suite_free(struct rlr_jsuite *s);

/*
 * doc is a result of a tool of ours (or of rt-tests 2.4) whose every string
 * and member name XML can carry: 0, or 2 after a one-line error naming path
 * and what is wrong.
 */
int rlr_junit_check(const char *path, struct json_object *doc);

#endif
