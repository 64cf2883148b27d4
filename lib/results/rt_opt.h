/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Checked parsing of option values. Every function returns 0 or a negative
 * errno (-EINVAL: not of the accepted form; -ERANGE: outside the range) and
 * never prints: the tool turns the status into its one-line usage error.
 */
#ifndef RT_OPT_H
#define RT_OPT_H

#include <stdint.h>

#include "rt_affinity.h"

/*
 * A whole decimal integer in min..max. Leading blanks are allowed (an argv
 * word like "-h 3500" yields " 3500"); a sign, digits and nothing after.
 */
int rt_opt_parse_ll(const char *s, long long min, long long max, long long *out);

/* Same for int. */
int rt_opt_parse_int(const char *s, int min, int max, int *out);

/*
 * A duration in whole seconds: N, Ns, Nm, Nh or Nd, suffix in either case.
 * Anything else (fractions, signs, other suffixes) is -EINVAL; a result
 * above max_seconds is -ERANGE.
 */
int rt_opt_parse_duration(const char *s, uint64_t max_seconds, uint64_t *seconds);

/*
 * A time in nanoseconds: N (ns), Nns, Nus, Nms or Ns, suffix in either case
 * (queuelat -m 20us). Anything else is -EINVAL; above max_ns -ERANGE.
 */
int rt_opt_parse_time_ns(const char *s, int64_t max_ns, int64_t *ns);

/*
 * A percentile "P" with at most 4 decimals, 0 < P <= 100 ("99.9", "50",
 * "99.9999"), as an integer in units of 1/10000 percent (99.9 -> 999000):
 * exact, so the rank computed from it never suffers a rounding error.
 */
int rt_opt_parse_percentile(const char *s, uint32_t *permyriad);

/*
 * A percentile limit "P:BOUND" (--max-percentile=99.9:80): P as above,
 * BOUND a whole number in 0..max_bound.
 */
int rt_opt_parse_percentile_limit(const char *s, long long max_bound, uint32_t *permyriad,
				  long long *bound);

/*
 * A scheduling policy name, case-insensitive: other, normal (= other),
 * batch, idle, fifo, rr.
 */
int rt_opt_parse_policy(const char *s, int *policy);

/*
 * A CPU list in libnuma syntax ("2", "0-3", "1,3-5", "!0", "+0-1", "all"),
 * which must name at least one CPU and only CPUs this process may use
 * (-ERANGE otherwise); a descending range ("1-0") is -EDOM.
 */
int rt_opt_parse_cpulist(const char *s, struct rt_cpulist *out);

#endif
