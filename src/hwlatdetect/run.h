/* SPDX-License-Identifier: GPL-2.0-or-later */
/* hwlatdetect's run: set the tracer up, read its samples, stop it. */
#ifndef HWLATDETECT_RUN_H
#define HWLATDETECT_RUN_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rt_verdict.h"

#include "options.h"
#include "sample.h"
#include "tracer.h"

#define HWLAT_SMI_CPUS 1024

struct hwlat_result {
	/* the tracer's settings for the run, read back */
	int64_t threshold_us, window_us, width_us;
	int64_t hardlimit_us;      /* --hardlimit, or the threshold */
	struct hwlat_sample *samples; /* in arrival order */
	size_t n, cap;
	uint64_t ignored;          /* lines of trace_pipe that are no hwlat sample */
	int stop_signal;           /* SIGINT/SIGTERM/SIGHUP that ended it early, 0 */
	bool started;              /* the tracer ran */
	/* SMI counts (MSR 0x34) before and after, where readable */
	bool has_smi;
	struct rt_verdict verdict; /* hwlat_judge(), for the text and the JSON */
	int smi_cpus;              /* how many online CPUs were read */
	int smi_cpu[HWLAT_SMI_CPUS]; /* their numbers: the counts below are per entry */
	uint64_t smi_before[HWLAT_SMI_CPUS], smi_after[HWLAT_SMI_CPUS];
};

/* What the loop tells its caller: a sample arrived; a poll (every 100 ms). */
struct hwlat_hooks {
	void (*sample)(void *ctx, const struct hwlat_sample *s);
	void (*tick)(void *ctx);
	void *ctx;
};

/*
 * Put the tracer in place: tracing_on 0, current_tracer hwlat, then the
 * options in 2.4's order (threshold, window, width, cpumask), reading the
 * settings back into res. 0, or RT_EXIT_FAILURE with the error printed.
 */
int hwlat_apply(const struct hwlat_config *cfg, struct hwlat_tracer *t, struct hwlat_result *res);

/*
 * Sample for the duration or until a signal of set: hold PM QoS 0,
 * tracing_on 1, read trace_pipe every 100 ms, then tracing_on 0.
 * 0, or RT_EXIT_FAILURE with the error printed.
 */
int hwlat_measure(const struct hwlat_config *cfg, struct hwlat_tracer *t, const sigset_t *set,
		  struct hwlat_result *res, const struct hwlat_hooks *hooks);

/* Read the SMI counters (MSR 0x34 of every CPU) into before or after. */
void hwlat_read_smis(struct hwlat_result *res, bool after);

void hwlat_result_free(struct hwlat_result *res);

#endif
