// SPDX-License-Identifier: GPL-2.0-or-later
#include <inttypes.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "rt_cyclic_config.h"

#include "rt_affinity.h"
#include "rt_cli.h"
#include "rt_prog.h"

void cyclictest_config_init(struct cyclictest_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->threads = 1;
	cfg->interval_us = 1000;
	cfg->distance_us = 500;
	cfg->clock = CLOCK_MONOTONIC;
	cfg->timer = CT_TIMER_ABSOLUTE;
	cfg->policy = SCHED_OTHER;
	cfg->aligned_us = -1;
	cfg->secaligned_us = -1;
	cfg->spike_nodes = 1024;
	rt_cli_results_init(&cfg->results);
}

int64_t cyclictest_thread_interval_us(const struct cyclictest_config *cfg, int n)
{
	return cfg->interval_us + (int64_t)n * cfg->distance_us;
}

int cyclictest_thread_priority(const struct cyclictest_config *cfg, int n)
{
	int prio = cfg->priority;

	if (cfg->priospread) {
		prio -= n;
		if (prio < 1)
			prio = 1;
	}
	return prio;
}

static int check_policy(struct cyclictest_config *cfg)
{
	bool rt = cfg->policy == SCHED_FIFO || cfg->policy == SCHED_RR;

	if (cfg->priospread && !cfg->priority_given) {
		cfg->priority = cfg->threads + 1 > 99 ? 99 : cfg->threads + 1;
		cfg->priority_given = true;
		fprintf(stderr, "defaulting realtime priority to %d\n", cfg->priority);
	}
	if (!cfg->policy_given) {
		cfg->policy = cfg->priority > 0 ? SCHED_FIFO : SCHED_OTHER;
		return 0;
	}
	if (rt && !cfg->priority_given) {
		cfg->priority = cfg->threads + 1 > 99 ? 99 : cfg->threads + 1;
		fprintf(stderr, "defaulting realtime priority to %d\n", cfg->priority);
	}
	if (rt && cfg->priority == 0)
		return rt_prog_usage_error("invalid --priority '0': must be 1..99 with --policy=%s",
					   cfg->policy == SCHED_FIFO ? "fifo" : "rr");
	if (!rt && cfg->priority > 0)
		return rt_prog_usage_error("invalid --priority '%d': must be 0 with --policy "
					   "other, normal, batch or idle", cfg->priority);
	return 0;
}

/* --self-check: one pinned clock_nanosleep thread and a count it can trace whole. */
static int check_self_check(struct cyclictest_config *cfg)
{
	struct rt_cpulist allowed;

	if (cfg->timer != CT_TIMER_ABSOLUTE)
		return rt_prog_usage_error("--self-check checks absolute clock_nanosleep wakeups: "
					   "not with -r, -s or -x");
	if (cfg->verbose)
		return rt_prog_usage_error("--self-check and --verbose are mutually exclusive");
	if (cfg->duration_s)
		return rt_prog_usage_error("--self-check counts samples: give -l, not -D");
	if (cfg->smp || cfg->threads_per_cpu || cfg->threads != 1)
		return rt_prog_usage_error("--self-check measures one thread: not with -t or -S");
	if (!cfg->loops)
		cfg->loops = CT_SELF_CHECK_LOOPS;
	if (cfg->loops > CT_SELF_CHECK_MAX_LOOPS)
		return rt_prog_usage_error("invalid --loops '%" PRIu64 "': must be 1..%d with "
					   "--self-check", cfg->loops, CT_SELF_CHECK_MAX_LOOPS);
	if (!cfg->affinity && rt_affinity_allowed(&allowed) == 0) {
		cfg->affinity = true;
		cfg->affinity_cpus = allowed;
		cfg->affinity_cpus.count = 1; /* the first allowed CPU */
	}
	return 0;
}

int cyclictest_config_check(struct cyclictest_config *cfg)
{
	struct rt_cpulist allowed;
	int err;

	if ((int)cfg->timer == -1)
		return rt_prog_usage_error("--system and --posix_timers are mutually exclusive");
	if (cfg->oscope && !cfg->verbose)
		return rt_prog_usage_error("--oscope needs --verbose");
	if (cfg->aligned_us >= 0 && cfg->secaligned_us >= 0)
		return rt_prog_usage_error("--aligned and --secaligned are mutually exclusive");
	if (cfg->tracemark && !cfg->breaktrace_us)
		return rt_prog_usage_error("--tracemark needs --breaktrace");
	if (cfg->analyze && !cfg->analyze_us) {
		if (!cfg->breaktrace_us)
			return rt_prog_usage_error("--analyze needs a threshold: --analyze=USEC or "
						   "--breaktrace=USEC");
		cfg->analyze_us = cfg->breaktrace_us;
	}
	if (cfg->analyze_output && !cfg->analyze)
		return rt_prog_usage_error("--analyze-output needs --analyze");
	if ((err = rt_cli_results_check(&cfg->results, !cfg->quiet || cfg->verbose)))
		return err;
	if (cfg->self_check && (err = check_self_check(cfg)))
		return err;
	if (cfg->smi && !cfg->affinity && !cfg->smp)
		return rt_prog_usage_error("--smi needs --affinity or --smp (SMIs are counted per CPU)");
	if (rt_affinity_allowed(&allowed))
		return rt_prog_usage_error("cannot read the CPUs this process may use");

	if (cfg->smp) {
		if (cfg->affinity)
			fprintf(stderr, "WARN: -a ignored due to smp mode\n");
		if (cfg->threads_per_cpu || cfg->threads != 1)
			fprintf(stderr, "WARN: -t ignored due to smp mode\n");
		cfg->affinity = true;
		cfg->affinity_cpus = allowed;
		cfg->threads = (int)allowed.count;
	} else if (cfg->affinity && cfg->affinity_cpus.count == 0) {
		cfg->affinity_cpus = allowed;
	}
	if (cfg->threads_per_cpu && !cfg->smp)
		cfg->threads = (int)(cfg->affinity ? cfg->affinity_cpus.count : allowed.count);

	if (cfg->hist_buckets) {
		if (cfg->distance_given && cfg->distance_us)
			fprintf(stderr, "WARN: distance is ignored and set to 0, if histogram enabled\n");
		cfg->distance_us = 0;
	}
	if (cyclictest_thread_interval_us(cfg, cfg->threads - 1) > CT_MAX_THREAD_INTERVAL_US)
		return rt_prog_usage_error("invalid --distance '%" PRId64 "': thread %d would get an "
					   "interval above 1 hour", cfg->distance_us,
					   cfg->threads - 1);
	return check_policy(cfg);
}
