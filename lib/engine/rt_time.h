/* SPDX-License-Identifier: GPL-2.0-or-later */
/* timespec arithmetic in 64-bit nanoseconds: no int casts, no 2147 s wrap. */
#ifndef RT_TIME_H
#define RT_TIME_H

#include <stdint.h>
#include <time.h>

#define RT_NSEC_PER_USEC 1000LL
#define RT_NSEC_PER_SEC 1000000000LL
#define RT_USEC_PER_SEC 1000000LL

/* The longest latency limit an option takes (-b, --spike): one hour. */
#define RT_MAX_LIMIT_US (3600LL * RT_USEC_PER_SEC)
/* The longest run -D takes: ten years. */
#define RT_MAX_DURATION_S (3650ULL * 86400)

static inline int64_t rt_time_to_ns(const struct timespec *t)
{
	return (int64_t)t->tv_sec * RT_NSEC_PER_SEC + t->tv_nsec;
}

/*
 * "Now" on clk in ns: the one clock of the suite. Inline because measuring
 * loops (oslat, queuelat) read it per sample, where a call costs.
 */
static inline int64_t rt_time_now_ns(clockid_t clk)
{
	struct timespec t;

	clock_gettime(clk, &t);
	return rt_time_to_ns(&t);
}

/* CLOCK_MONOTONIC in ns, us and ms: durations, timeouts, deadlines. */
static inline int64_t rt_time_mono_ns(void)
{
	return rt_time_now_ns(CLOCK_MONOTONIC);
}

static inline int64_t rt_time_mono_us(void)
{
	return rt_time_mono_ns() / RT_NSEC_PER_USEC;
}

static inline int64_t rt_time_mono_ms(void)
{
	return rt_time_mono_ns() / (1000 * RT_NSEC_PER_USEC);
}

struct timespec rt_time_from_ns(int64_t ns);

/* a - b in ns. */
int64_t rt_time_diff_ns(const struct timespec *a, const struct timespec *b);

/* Add ns (may be negative) and keep tv_nsec in 0..999999999. */
void rt_time_add_ns(struct timespec *t, int64_t ns);

/* Bring tv_nsec into 0..999999999, carrying into tv_sec. */
void rt_time_normalize(struct timespec *t);

/* <0, 0, >0 as a is before, equal to or after b. */
int rt_time_cmp(const struct timespec *a, const struct timespec *b);

#endif
