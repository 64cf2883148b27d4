/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What rt-qualify's files share: the plan of the run (CPUs, load, steps),
 * each step's outcome, and the result directory.
 */
#ifndef RTQ_QUALIFY_H
#define RTQ_QUALIFY_H

#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "rt_affinity.h"

#include "child.h"
#include "options.h"

struct json_object;

enum rtq_step_id { RTQ_STEP_NOISE, RTQ_STEP_CYCLICTEST, RTQ_STEP_OSLAT, RTQ_NSTEPS };

/* One measuring step and what came of it. */
struct rtq_step {
	const char *name;        /* "hardware-noise", "cyclictest", "oslat" */
	const char *tool;        /* the program run */
	const char *file;        /* base name of its files: "<file>.json", ".records", ".prom", ".log" */
	char note[160];          /* e.g. why oslat stands in for hwlatdetect; "" none */
	uint64_t duration_s;
	bool under_load;
	bool ran;                /* started */
	bool stopped;            /* stopped by rt-qualify (a signal), before its end */
	int exit_code;           /* the tool's, -1 not run */
	double elapsed_s;
	/* from its JSON */
	char result[16];         /* "pass", "fail", "inconclusive"; "error" no verdict; "not run" */
	int64_t max_us;          /* -1: unknown */
	uint64_t samples;
	struct json_object *verdict; /* the tool's "verdict" object, NULL when none */
};

/* The load and the CPU time it used while the tools measured. */
struct rtq_load_run {
	enum rtq_load kind;
	const char *path;        /* the program; NULL: none, or not installed */
	struct rt_reaper_child child; /* the reaper's record of it (pid, and when reaped: rusage) */
	bool started, ended_early;
	bool stopped;            /* by rtq_load_stop: its end is not an early one */
	int exit_code;
	int64_t cpu_at_start_ns, cpu_at_end_ns; /* rtq_load_cpu_ns() around the measurement */
	bool cpu_known;
	int64_t measure_start_ns, measure_end_ns; /* CLOCK_MONOTONIC */
};

struct rtq_plan {
	const struct rtq_config *cfg;
	char dir[PATH_MAX];          /* the result directory */
	int dirfd;
	char self_dir[PATH_MAX];     /* where rt-qualify runs from */
	struct rt_cpulist measured, load_cpus;
	bool isolated;               /* the measured CPUs are isolated ones */
	bool hwlat;                  /* the kernel has the hwlat tracer */
	uint64_t records_interval_s;
	bool tty;                    /* stdout is a terminal: the live line */
	const sigset_t *signals;     /* rt_signal_setup's, with SIGCHLD */
	struct rt_reaper *reaper;    /* the children: tools, load, reports */
	int stop_signal;             /* SIGINT/SIGTERM/SIGHUP received, 0 none */
	struct rtq_step step[RTQ_NSTEPS];
	struct rtq_load_run load;
};

#endif
