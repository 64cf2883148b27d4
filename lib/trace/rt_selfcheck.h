/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The instrument checked against the kernel: for every sample, the expiry
 * the tool computed against the soft expiry hrtimer_start armed, and the
 * tool's wakeup timestamp against the sys_exit of that clock_nanosleep
 * (after the sched_switch that put the thread on the CPU): beyond the
 * fixed cost of that return (its floor over the run) and what the trace
 * explains in between (IRQs, softirqs, the thread switched out), a sample
 * may add at most RT_SELFCHECK_TOLERANCE_NS. Pure logic on the events
 * rt_tracer read.
 */
#ifndef RT_SELFCHECK_H
#define RT_SELFCHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "rt_json.h"
#include "rt_spike.h"

/* Two views of one sample agree within this (the 2 us). */
#define RT_SELFCHECK_TOLERANCE_NS 2000
/* The share of samples that must agree, in percent. */
#define RT_SELFCHECK_PASS_PCT 99
/*
 * A timer interrupt entered later than this after the armed expiry came
 * late: on bare metal it takes a few microseconds; more is interrupts off
 * in the kernel, an SMI, or a hypervisor that did not run the CPU.
 */
#define RT_SELFCHECK_IRQ_LATE_NS 20000

/* One sample as the tool saw it, in the trace clock. */
struct rt_selfcheck_sample {
	int64_t due_ns;
	int64_t woke_ns;
};

struct rt_selfcheck_result {
	uint64_t samples;
	uint64_t matched;     /* arming and return found in the trace */
	uint64_t switched;    /* of those, with the switch-in that ended the sleep */
	uint64_t agree;       /* matched and within the tolerance */
	/* |our expiry - the armed soft expiry| */
	int64_t expiry_p50, expiry_p99, expiry_max;
	/* our wakeup timestamp - sys_exit: the floor over the run (a fixed
	 * cost), and what each sample adds to it */
	int64_t ret_floor;
	int64_t diff_p50, diff_p99, diff_max;
	/* sched_switch -> sys_exit, what the decomposition calls the return to user */
	int64_t ret_p50, ret_p99;
	/* armed expiry -> the timer's IRQ entry on the thread's CPU */
	uint64_t irq_found;   /* samples whose IRQ entry the trace shows */
	uint64_t irq_late;    /* of those, later than RT_SELFCHECK_IRQ_LATE_NS */
	int64_t irq_p50, irq_p99, irq_max;
};

/* Compare samples (in time order) of task tid with events (sorted). 0 or -ENOMEM. */
int rt_selfcheck_compare(const struct rt_ev *ev, size_t n, int tid,
			 const struct rt_selfcheck_sample *s, size_t ns,
			 struct rt_selfcheck_result *r);

/* At least RT_SELFCHECK_PASS_PCT % of the samples agree (and there are samples). */
bool rt_selfcheck_pass(const struct rt_selfcheck_result *r);

enum rt_selfcheck_verdict {
	RT_SELFCHECK_PASS,
	RT_SELFCHECK_FAIL,
	/* the trace lacks what the check needs: no samples found, no switch-in */
	RT_SELFCHECK_NOT_CHECKED,
};

enum rt_selfcheck_verdict rt_selfcheck_verdict(const struct rt_selfcheck_result *r);

/* Why a check is "not checked" (NULL when it was checked). */
const char *rt_selfcheck_why_not(const struct rt_selfcheck_result *r);

/* "# Self-check: ..." lines, the verdict last. */
void rt_selfcheck_write_text(FILE *f, const struct rt_selfcheck_result *r, int cpu);

/* "self_check": {...}: the same figures, the shares and the verdict. */
void rt_selfcheck_write_json(struct rt_json *j, const struct rt_selfcheck_result *r, int cpu);

#endif
