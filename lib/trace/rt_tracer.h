/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A private tracefs instance for spike analysis (libtracefs and
 * libtraceevent): instances/<tool>-<pid> (named and locked as rt_instance.h
 * says) with the sched, irq and timer
 * events of the measured CPUs (and power:cpu_idle where the kernel has it),
 * the mono trace clock (CLOCK_MONOTONIC) and a
 * buffer of its own. The global buffer's settings are never touched; the
 * instance is removed by rt_tracer_close on every exit path, and stale
 * instances of gone runs are removed at the next open.
 * Built without libtracefs, rt_tracer_open fails with -ENOTSUP.
 * The libraries are not linked: the first rt_tracer_load or rt_tracer_open
 * loads them (dlopen), so a run that never asks for a trace never loads them.
 */
#ifndef RT_TRACER_H
#define RT_TRACER_H

#include <sched.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rt_spike.h"

struct rt_tracer;

/* Built with libtracefs and libtraceevent? */
bool rt_tracer_built(void);

/*
 * Load libtracefs and libtraceevent, once per process (rt_tracer_open does
 * it too). 0 or -errno (-ENOTSUP: not built with them; -ELIBACC: one cannot
 * be loaded, and *why says which and why: "needs libtracefs.so.1: ...").
 */
int rt_tracer_load(const char **why);

/* rt_tracer_open flags: also hrtimer_start and raw_syscalls:sys_exit (--self-check). */
#define RT_TRACER_ARMING 1u

/*
 * Create and start the instance "<tool>-<pid>" tracing the CPUs in cpus
 * with buffer_kb per CPU. 0 or -errno (-ENOTSUP: not built with
 * libtracefs; -ENODEV: no tracefs; -EEXIST: an instance of that name
 * exists, not ours); *why names the step that failed.
 */
int rt_tracer_open(struct rt_tracer **out, const char *tool, const cpu_set_t *cpus,
		   size_t buffer_kb, unsigned flags, const char **why);

/* Record hrtimer_start and sys_exit of this task only. 0 or -errno. */
int rt_tracer_filter_pid(struct rt_tracer *t, int pid);

/* The names of the events it records (the kernel may lack some). */
const char *rt_tracer_events(const struct rt_tracer *t);

/* Stop recording (the buffer keeps what it has). */
int rt_tracer_stop(struct rt_tracer *t);

/* Empty the buffer and record again. */
int rt_tracer_restart(struct rt_tracer *t);

/*
 * Consume the buffer: the events from from_ns to to_ns (trace clock) into
 * a malloc'd array sorted by time. 0 or -errno.
 */
int rt_tracer_read(struct rt_tracer *t, int64_t from_ns, int64_t to_ns, struct rt_ev **ev,
		   size_t *n);

/*
 * Consume what the buffer holds so far while it goes on recording: the
 * events, sorted by time, into a malloc'd array. Where the kernel lost
 * events of a traced CPU since the last call (its per-CPU stats "overrun"
 * or "dropped events" grew), an RT_EV_LOST marks the place. 0 or -errno.
 */
int rt_tracer_consume(struct rt_tracer *t, struct rt_ev **ev, size_t *n);

/* Stop, remove the instance and free. NULL is fine. */
void rt_tracer_close(struct rt_tracer *t);

/* Remove the instances of tool whose run is provably gone (rt_instance.h). */
void rt_tracer_clean_stale(const char *tool);

#endif
