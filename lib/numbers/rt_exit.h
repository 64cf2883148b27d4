/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The exit statuses of every tool, rt-qualify and rt-latency-report, once
 * (rt-tests-ng(7), EXIT STATUS; each man page says what its tool adds).
 * Header only: the verdict (numbers) and the front end (results) share it.
 */
#ifndef RT_EXIT_H
#define RT_EXIT_H

#define RT_EXIT_OK 0           /* PASS, or nothing was asked */
#define RT_EXIT_FAILURE 1      /* a run-time error */
#define RT_EXIT_USAGE 2        /* a usage error: nothing was run */
#define RT_EXIT_FAIL 3         /* FAIL: a limit or a check was broken */
#define RT_EXIT_INCONCLUSIVE 4 /* asked for, but not proven: stopped early, too few samples */

#include <stdbool.h>

/*
 * A status that is a verdict, not an error: FAIL or INCONCLUSIVE (a reader
 * of a result file; files of versions before 0.1.0 have 3 for both).
 */
static inline bool rt_exit_is_verdict(long long status)
{
	return status == RT_EXIT_FAIL || status == RT_EXIT_INCONCLUSIVE;
}

#endif
