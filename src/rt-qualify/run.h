/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Running the steps: a tool as a child until it ends, with the live line,
 * while rt-qualify sleeps in sigtimedwait (SIGCHLD, SIGINT, SIGTERM,
 * SIGHUP); a stop signal ends the tool with SIGINT, so that it writes what
 * it measured, and no further step starts. The load runs beside the
 * measuring steps and is stopped, and its CPU time read, around them.
 */
#ifndef RTQ_RUN_H
#define RTQ_RUN_H

#include "qualify.h"
#include "steps.h"

/* Seconds a tool may take beyond its -D to write its results (--analyze, the end). */
#define RTQ_STEP_GRACE_S 60

/*
 * How long a stopped tool may take to end before SIGKILL (it writes its
 * results and removes its tracing instance, which waits for tracefs on a
 * busy machine), and the load.
 */
#define RTQ_STOP_GRACE_NS (30 * 1000000000LL)
#define RTQ_LOAD_STOP_GRACE_NS (10 * 1000000000LL)

/* Run step i to its end or a stop signal. 0, or RT_EXIT_FAILURE when it could not start. */
int rtq_run_step(struct rtq_plan *p, int i, const struct rtq_argv *a);

/* Start the load for seconds (none: nothing). 0 or RT_EXIT_FAILURE, said on stderr. */
int rtq_load_start(struct rtq_plan *p, uint64_t seconds);

/* The measurement starts or ends now: read the load's CPU time. */
void rtq_load_mark(struct rtq_plan *p, bool start);

/* Stop the load and reap it. */
void rtq_load_stop(struct rtq_plan *p);

/* Has a stop signal come (without waiting)? Records it in p->stop_signal. */
bool rtq_stop_requested(struct rtq_plan *p);

/* Open "<file>.log" in the result directory for a child's output: fd or -errno. */
int rtq_open_log(const struct rtq_plan *p, const char *file);

#endif
