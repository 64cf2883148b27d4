/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The verdict (rt_verdict.h) written out: the "# Verdict:" lines and the
 * "verdict" JSON object, the same in every tool (rt-tests-ng(7)).
 */
#ifndef RT_VERDICT_WRITE_H
#define RT_VERDICT_WRITE_H

#include <stddef.h>
#include <stdio.h>

#include "rt_json.h"
#include "rt_verdict.h"

/* "max-latency", "max-percentile=99.9", "max-overruns", "samples", "failed", a check's name. */
void rt_broken_limit_name(const struct rt_broken *b, char *buf, size_t len);

/*
 * "# Verdict: PASS", "# Verdict: FAIL" or "# Verdict: INCONCLUSIVE", then
 * one line per broken limit, "# Verdict: <subject>: <limit>: <reason>":
 * "# Verdict: thread 1: max-percentile=99.9: 81 > 80 us",
 * "# Verdict: thread 0: max-percentile=99.99: INCONCLUSIVE: 52 us, 95 % CI
 * 48-61, need 120000 more samples" (48-? without an upper bound; "more
 * samples would not decide" when no number would),
 * "# Verdict: pair 1 (#3 -> #2): max-latency: 90 > 80 us",
 * "# Verdict: thread 0: no samples, nothing was measured",
 * "# Verdict: group 2: stuck: no progress for 3.75 s",
 * "# Verdict: nothing was checked",
 * "# Verdict: pair 0 (#1 -> #0): failed: child 1234 (#1) killed by signal 9
 * (Killed)" ... unit is "us" or "ns" (the series' unit); and when partial
 * "# Verdict: partial: stopped by SIGINT after 2.1 of 10 s".
 */
void rt_verdict_write_text(FILE *f, const struct rt_verdict *v, const char *unit);

/*
 * "verdict": {"result": "pass"|"fail"|"inconclusive", "broken": [{limit,
 * <subject>: N, value, bound, unit, reason}...], "checked": [{what, count}],
 * "partial": bool, "stop": {cause, done, asked, unit}}; a percentile judged
 * on its interval adds "low", "high" (null: none), "confidence", and when
 * inconclusive "result": "inconclusive", "more_samples" (null: unknown) and
 * "samples_needed"; a pair tool's entries have "pair", "sender", "receiver"
 * where "thread" is; a "failed" entry has the pid as value, bound 0, and
 * "detail". schema/verdict.schema.json describes it.
 */
void rt_verdict_write_json(struct rt_json *j, const struct rt_verdict *v);

#endif
