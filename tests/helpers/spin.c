// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Known-delay generator for tests: on CPU <cpu> at SCHED_FIFO 99, every
 * <gap_ms> busy-spin for <spin_us>, <count> times. Anything measured on that
 * CPU at a lower priority sees a wakeup delayed by up to <spin_us>. With
 * LINGER_MS it then sleeps that long, still at SCHED_FIFO 99, so a tool can
 * look it up after the last spin.
 * Usage: spin CPU SPIN_US GAP_MS COUNT [LINGER_MS]
 */
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

int main(int argc, char *argv[])
{
	struct sched_param sp = { .sched_priority = 99 };
	cpu_set_t set;
	int cpu, count;
	long spin_us, gap_ms, linger_ms;

	if (argc != 5 && argc != 6) {
		fprintf(stderr, "usage: spin CPU SPIN_US GAP_MS COUNT [LINGER_MS]\n");
		return 2;
	}
	cpu = atoi(argv[1]);
	spin_us = atol(argv[2]);
	gap_ms = atol(argv[3]);
	count = atoi(argv[4]);
	linger_ms = argc == 6 ? atol(argv[5]) : 0;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set) || sched_setscheduler(0, SCHED_FIFO, &sp)) {
		perror("spin: affinity/SCHED_FIFO 99");
		return 1;
	}
	for (int i = 0; i < count; i++) {
		struct timespec gap = { gap_ms / 1000, (gap_ms % 1000) * 1000000L };
		long long end;

		nanosleep(&gap, NULL);
		end = now_ns() + spin_us * 1000;
		while (now_ns() < end)
			;
	}
	if (linger_ms > 0) {
		struct timespec linger = { linger_ms / 1000, (linger_ms % 1000) * 1000000L };

		nanosleep(&linger, NULL);
	}
	/*
	 * Leave SCHED_FIFO 99 before exiting: whatever runs at exit (LeakSanitizer
	 * scans the heap for ~40 ms in a sanitized build) must not add to the
	 * known delay.
	 */
	sp.sched_priority = 0;
	sched_setscheduler(0, SCHED_OTHER, &sp);
	return 0;
}
