/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The machine's state that decides what a latency result means: kernel and
 * preemption model, CPU isolation, clocksource, frequency governors and idle
 * states of the measured CPUs, SMT, RT throttling, limits, hypervisor,
 * irqbalance, CPU model. Read from /proc and /sys only (and getrlimit); a
 * value the kernel does not expose is NULL / -1 here and null in the JSON.
 * Also the preflight warnings about what makes a result weak (the tool
 * decides where to print them; the JSON always carries them).
 */
#ifndef RT_ENV_H
#define RT_ENV_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/resource.h>

#include "rt_affinity.h"
#include "rt_json.h"

/* An enabled idle state with a longer exit latency counts as deep. */
#define RT_ENV_DEEP_IDLE_US 10

struct rt_env_cpu {
	int cpu;
	char *governor;        /* cpufreq scaling_governor, NULL without cpufreq */
	char *idle_name;       /* deepest enabled cpuidle state, NULL without cpuidle */
	int64_t idle_exit_us;  /* its exit latency, -1 unknown */
	bool isolated;         /* in /sys/devices/system/cpu/isolated */
};

struct rt_env {
	char *release, *version, *cmdline;
	char *preempt_model;   /* "PREEMPT_RT", "PREEMPT_DYNAMIC", "PREEMPT", NULL */
	/* What named the model: "/sys/kernel/realtime", "kernel_version", NULL */
	const char *preempt_model_source;
	char *preempt_mode;    /* PREEMPT_DYNAMIC's current mode (debugfs), NULL */
	char *preempt_mode_source;  /* the file it was read from, NULL when unknown */
	char *preempt_mode_unknown; /* why it is unknown, NULL when known */
	char *isolcpus;        /* CPU list, "" for none, NULL when not exposed */
	char *nohz_full;
	char *rcu_nocbs;       /* from the command line, NULL when not given */
	char *clocksource;
	int smt;               /* 1 active, 0 not, -1 not exposed */
	int64_t rt_runtime_us; /* -1 = unlimited (no throttling) */
	int64_t rt_period_us;  /* -2 when not exposed (both) */
	struct rlimit rtprio, memlock;
	int hypervisor;        /* 1 the CPU says so, 0 it says not, -1 not exposed */
	char *hypervisor_type; /* /sys/hypervisor/type, NULL */
	int irqbalance;        /* 1 running, 0 not */
	char *cpu_model;
	int cpus_online, cpus_present; /* -1 not exposed */
	struct rt_env_cpu *cpus; /* the measured CPUs */
	unsigned ncpus;
	/* rt_env_preflight()'s warnings, without "WARN: preflight: " */
	char **preflight;
	unsigned npreflight;
	bool judged;           /* rt_env_preflight() ran */
	char *root;            /* where rt_env_open() reads ("" the machine) */
	unsigned parts;        /* the RT_ENV_PART_* read so far */
	/* This run among all: boot id, pid, set-up time in ns (rt_report_run_id) */
	char run_id[96];
};

#define RT_ENV_NOT_EXPOSED (-2)

/*
 * The environment is read in parts, each file once, so that a tool reads
 * before its first sample only what it uses then:
 * - RT_ENV_PART_PREFLIGHT, what rt_env_preflight() judges: RT throttling,
 *   the kernel command line, isolcpus and nohz_full, the measured CPUs'
 *   governors and idle states, the hypervisor (with the CPU model: the
 *   same /proc/cpuinfo). A new preflight check reads its files here.
 * - RT_ENV_PART_REPORT, the rest of the JSON's "environment": kernel
 *   release and version, preemption model and mode, clocksource, SMT,
 *   limits, irqbalance (a walk over /proc), the CPU counts; read when the
 *   JSON is written, after the measuring threads stopped.
 */
#define RT_ENV_PART_PREFLIGHT 0x1u
#define RT_ENV_PART_REPORT    0x2u
#define RT_ENV_PART_ALL       (RT_ENV_PART_PREFLIGHT | RT_ENV_PART_REPORT)

/* Add a measured CPU to l (once), or every allowed CPU when cpu < 0 (not pinned). */
void rt_env_add_measured(struct rt_cpulist *l, int cpu, const struct rt_cpulist *allowed);

/*
 * Set e up for the measured CPUs under root ("" for the machine; a
 * directory with proc/ and sys/ in the unit tests), reading nothing yet:
 * every value is "not exposed" until its part is read. 0 or -ENOMEM.
 */
int rt_env_open(struct rt_env *e, const char *root, const struct rt_cpulist *measured);

/* Read the parts (RT_ENV_PART_*) of an open e not read yet. 0 or -ENOMEM. */
int rt_env_read_parts(struct rt_env *e, unsigned parts);

/* rt_env_open() and every part at once. 0 or -ENOMEM. */
int rt_env_read_at(struct rt_env *e, const char *root, const struct rt_cpulist *measured);
int rt_env_read(struct rt_env *e, const struct rt_cpulist *measured);
void rt_env_free(struct rt_env *e);

/*
 * "environment": { ..., "preflight": [...] } (fields in cyclictest(8)),
 * of every part: read RT_ENV_PART_ALL first.
 */
void rt_env_write_json(struct rt_json *j, const struct rt_env *e);

/* What the run itself does about the findings. */
struct rt_env_run {
	bool realtime;      /* every measuring thread at SCHED_FIFO/RR above 0 */
	bool pm_qos_held;   /* /dev/cpu_dma_latency 0 held: no deep idle */
	bool isolation;     /* also rt_isolation_preflight(): IRQ affinity, housekeeping */
};

/*
 * The preflight warnings into e->preflight (replacing any before), one per
 * weakness found, each at most once: not real-time, RT throttling, a
 * measured CPU not isolated while others are, a governor other than
 * performance, deep idle states, a VM. Each is a sentence without the
 * "WARN: preflight: " a tool prints before it. Reads RT_ENV_PART_PREFLIGHT
 * first when an open e lacks it. 0 or -ENOMEM (then none).
 */
int rt_env_preflight(struct rt_env *e, const struct rt_env_run *run);

/* Append one preflight warning (a sentence as above). 0 or -ENOMEM. */
int rt_env_preflight_add(struct rt_env *e, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
