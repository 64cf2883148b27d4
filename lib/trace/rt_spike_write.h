/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A spike's analysis (rt_spike.h) written out: the text lines after a
 * tool's summary and the "analysis" JSON object, the same words in both.
 */
#ifndef RT_SPIKE_WRITE_H
#define RT_SPIKE_WRITE_H

#include <stddef.h>
#include <stdio.h>

#include "rt_json.h"
#include "rt_spike.h"

/*
 * From the kernel prio sched_switch shows: "FIFO 99" (prio 0, policy
 * known), "RT 99" (policy unknown), "OTHER nice 0" (120).
 */
void rt_spike_prio_label(int prio, int policy, char *buf, size_t len);

/* "task", "irq", "softirq", "rt_throttling", "idle_exit", "no_interrupt". */
const char *rt_spike_kind_name(enum rt_blocker_kind k);

/*
 * The evidence of an outside cause: "seen: a hypervisor (KVM), steal time
 * 120 us on CPU 1 within 10 ms, 2 SMIs within 10 ms", or "not visible
 * from inside".
 */
void rt_spike_write_outside(FILE *f, const struct rt_outside *o, int cpu);

/* "label 12.3 us" (one decimal, truncated), or "label -" for ns < 0. */
void rt_spike_write_us(FILE *f, const char *label, int64_t ns);

/*
 * The report, after the summary:
 * "# Spike: 3120 us on CPU 1, blocked by task blocker (pid 4711, FIFO 99)
 *  for 2990 us (96%)", or "..., no interrupt reached CPU 1 for 4628 us
 *  (ticks missed: 4): interrupts were off in the kernel, or the CPU was
 *  not running this kernel (SMI, hypervisor); seen: a hypervisor (KVM);
 *  3649 us (99%) of it", or "..., exit from idle (state C1) took ...",
 *  then the decomposition (not for a polling thread) and one line per
 *  blocker.
 * unit: "us" or "ns" (the run's); file: where the raw window was saved.
 */
void rt_spike_write_text(FILE *f, const struct rt_spike_report *r, const char *unit,
			 const char *file);

/*
 * The headline alone, with its newline: "blocked by task blocker (pid 4711,
 * FIFO 99) for 2990 us (96%)", "no interrupt reached CPU 1 ...", or "not
 * explained: REASON".
 */
void rt_spike_write_headline(FILE *f, const struct rt_spike_report *r);

/*
 * "analysis": {...} with the same content: the decomposition (the phase
 * split), explained, reason, the headline, main_blocker and blockers
 * (kind task, irq, softirq, rt_throttling, idle_exit or no_interrupt,
 * with hold, ticks_missed, steal_us and smi where they apply), the
 * outside evidence.
 */
void rt_spike_write_json(struct rt_json *j, const struct rt_spike_report *r, const char *file);

/* The members of that object only, for a tool's own object (oslat's gaps). */
void rt_spike_write_json_body(struct rt_json *j, const struct rt_spike_report *r,
			      const char *file);

#endif
