// SPDX-License-Identifier: GPL-2.0-or-later
#include "rt_time.h"

struct timespec rt_time_from_ns(int64_t ns)
{
	struct timespec t;

	t.tv_sec = ns / RT_NSEC_PER_SEC;
	t.tv_nsec = ns % RT_NSEC_PER_SEC;
	if (t.tv_nsec < 0) {
		t.tv_nsec += RT_NSEC_PER_SEC;
		t.tv_sec--;
	}
	return t;
}

int64_t rt_time_diff_ns(const struct timespec *a, const struct timespec *b)
{
	return ((int64_t)a->tv_sec - (int64_t)b->tv_sec) * RT_NSEC_PER_SEC +
	       ((int64_t)a->tv_nsec - (int64_t)b->tv_nsec);
}

void rt_time_normalize(struct timespec *t)
{
	if (t->tv_nsec >= RT_NSEC_PER_SEC || t->tv_nsec < 0) {
		t->tv_sec += t->tv_nsec / RT_NSEC_PER_SEC;
		t->tv_nsec %= RT_NSEC_PER_SEC;
		if (t->tv_nsec < 0) {
			t->tv_nsec += RT_NSEC_PER_SEC;
			t->tv_sec--;
		}
	}
}

void rt_time_add_ns(struct timespec *t, int64_t ns)
{
	t->tv_sec += ns / RT_NSEC_PER_SEC;
	t->tv_nsec += ns % RT_NSEC_PER_SEC;
	rt_time_normalize(t);
}

int rt_time_cmp(const struct timespec *a, const struct timespec *b)
{
	if (a->tv_sec != b->tv_sec)
		return a->tv_sec < b->tv_sec ? -1 : 1;
	if (a->tv_nsec != b->tv_nsec)
		return a->tv_nsec < b->tv_nsec ? -1 : 1;
	return 0;
}
