/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The configuration cyclictest's engine runs (rt_cyclic_run): filled by
 * cyclictest's or cyclicdeadline's parser, then checked here. Tool code
 * shared by two tools: the check prints 2.4's warnings and the one-line
 * usage error, as rt_cli does.
 */
#ifndef RT_CYCLIC_CONFIG_H
#define RT_CYCLIC_CONFIG_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "rt_affinity.h"
#include "rt_cli.h"
#include "rt_time.h"

enum cyclictest_timer {
	CT_TIMER_ABSOLUTE,  /* clock_nanosleep(TIMER_ABSTIME), the default */
	CT_TIMER_RELATIVE,  /* -r: clock_nanosleep relative */
	CT_TIMER_NANOSLEEP, /* -s: nanosleep() */
	CT_TIMER_POSIX,     /* -x: timer_create + sigwait */
	CT_TIMER_DEADLINE,  /* cyclicdeadline: SCHED_DEADLINE, sched_yield to the next period */
};

struct cyclictest_front;

#define CT_MAX_THREADS 4096
#define CT_MAX_INTERVAL_US 1000000
#define CT_MAX_HIST_US 1000000
#define CT_MAX_OSCOPE 1000000
#define CT_MAX_SPIKE_NODES 1000000
#define CT_SELF_CHECK_LOOPS 1000       /* --self-check without -l */
#define CT_SELF_CHECK_MAX_LOOPS 10000  /* what its trace buffer holds for sure */
/* -i plus -d times the thread number: at most an hour. */
#define CT_MAX_THREAD_INTERVAL_US RT_MAX_LIMIT_US

struct cyclictest_config {
	/* what runs */
	int threads;             /* measurement threads */
	bool threads_per_cpu;    /* -t without NUM: one per allowed (or -a) CPU */
	bool smp;                /* -S: one per allowed CPU, pinned */
	int64_t interval_us;     /* -i: thread 0's period */
	int64_t distance_us;     /* -d: added per thread */
	bool distance_given;
	uint64_t loops;          /* -l: per thread, 0 = endless */
	uint64_t duration_s;     /* -D: 0 = no limit */
	clockid_t clock;         /* -c */
	enum cyclictest_timer timer;
	/* scheduling */
	int policy;              /* SCHED_* */
	bool policy_given;
	int priority;            /* -p: 0..99 */
	bool priority_given;
	bool priospread;         /* thread N gets priority - N */
	bool affinity;           /* -a given: pin threads */
	struct rt_cpulist affinity_cpus; /* -a CPUSET, or the allowed CPUs */
	bool mainaffinity;
	struct rt_cpulist mainaffinity_cpus;
	bool mlockall;           /* -m */
	int64_t aligned_us;      /* -A: offset per thread, -1 = off */
	int64_t secaligned_us;   /* --secaligned offset, -1 = off */
	/* power management */
	int latency_us;          /* --latency: written to /dev/cpu_dma_latency */
	bool laptop;
	bool default_system;
	/* output */
	bool quiet;              /* -q */
	bool verbose;            /* -v */
	int64_t oscope;          /* -o: reduce -v output, 0 = off */
	bool nsecs;              /* -N: report in ns */
	bool refresh_on_max;     /* -M */
	bool unbuffered;         /* -u */
	int64_t hist_buckets;    /* -h/-H: buckets (us, ns with -N), 0 = off */
	bool hist_sum;           /* -H */
	const char *histfile;    /* --histfile */
	const char *json;        /* --json, "-" = stdout */
	const char *fifo;        /* -F */
	int64_t breaktrace_us;   /* -b, 0 = off */
	bool tracemark;
	bool analyze;            /* --analyze: spike root cause from a private trace */
	int64_t analyze_us;      /* its threshold (default: -b's) */
	const char *analyze_output; /* --analyze-output: the raw window, NULL = default name */
	bool self_check;         /* --self-check: every sample against the kernel's view */
	int64_t spike_us;        /* --spike, 0 = off */
	int64_t spike_nodes;     /* --spike-nodes */
	bool smi;
	bool resolution;         /* -R */
	bool debug;              /* --dbg_cyclictest */
	/* beyond 2.4: verdict limits, --percentiles, --warmup */
	struct rt_cli_results results;
	/* CT_TIMER_DEADLINE: each thread's runtime, in percent of its interval */
	int64_t deadline_runtime_pct;
	const struct cyclictest_front *front; /* another program's output, NULL = cyclictest */
};

void cyclictest_config_init(struct cyclictest_config *cfg);

/*
 * Cross-option rules and derived values (thread count, per-thread
 * distance). Warnings of 2.4 go to stderr. RT_EXIT_USAGE or 0.
 */
int cyclictest_config_check(struct cyclictest_config *cfg);

/* Interval and priority of thread n. */
int64_t cyclictest_thread_interval_us(const struct cyclictest_config *cfg, int n);
int cyclictest_thread_priority(const struct cyclictest_config *cfg, int n);

#endif
