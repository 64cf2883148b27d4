// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Hard-IRQ work generator for tests: on CPU <cpu>, arm <count> timerfds to
 * expire at the same instant, <delay_ms> from now, then wait past it. The
 * local timer interrupt then runs every expiry back to back, so a task due
 * on that CPU meanwhile is delayed by interrupt work, not by another task.
 * The timers are spread over processes when COUNT exceeds RLIMIT_NOFILE.
 * Usage: irqstorm CPU COUNT DELAY_MS
 */
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/timerfd.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char *argv[])
{
	struct itimerspec its = { 0 };
	struct rlimit rl;
	struct timespec now, end;
	cpu_set_t set;
	int cpu, count, per;
	long delay_ms;

	if (argc != 4) {
		fprintf(stderr, "usage: irqstorm CPU COUNT DELAY_MS\n");
		return 2;
	}
	cpu = atoi(argv[1]);
	count = atoi(argv[2]);
	delay_ms = atol(argv[3]);
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set) < 0) {
		perror("irqstorm: sched_setaffinity");
		return 1;
	}
	getrlimit(RLIMIT_NOFILE, &rl);
	rl.rlim_cur = rl.rlim_max;
	setrlimit(RLIMIT_NOFILE, &rl);
	per = (int)rl.rlim_cur - 64;
	if (per < 1) {
		fprintf(stderr, "irqstorm: RLIMIT_NOFILE too small\n");
		return 1;
	}
	clock_gettime(CLOCK_MONOTONIC, &now);
	its.it_value.tv_sec = now.tv_sec + (now.tv_nsec + delay_ms * 1000000L) / 1000000000L;
	its.it_value.tv_nsec = (now.tv_nsec + delay_ms * 1000000L) % 1000000000L;
	for (int left = count; left > 0; left -= per) {
		int n = left < per ? left : per;

		if (left > per && fork() != 0)
			continue; /* the parent arms the last share itself */
		for (int i = 0; i < n; i++) {
			int fd = timerfd_create(CLOCK_MONOTONIC, 0);

			if (fd < 0 || timerfd_settime(fd, TFD_TIMER_ABSTIME, &its, NULL) < 0) {
				perror("irqstorm: timerfd");
				return 1;
			}
		}
		break;
	}
	/* Stay busy on the CPU until after the expiry, so the timers stay local. */
	end = its.it_value;
	end.tv_sec += 1;
	do
		clock_gettime(CLOCK_MONOTONIC, &now);
	while (now.tv_sec < end.tv_sec || (now.tv_sec == end.tv_sec && now.tv_nsec < end.tv_nsec));
	while (wait(NULL) > 0)
		;
	return 0;
}
