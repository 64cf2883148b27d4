/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Another program's face on cyclictest's engine (cyclicdeadline): what it
 * prints instead of cyclictest's lines. A NULL front, or a NULL member, is
 * cyclictest's own behaviour.
 */
#ifndef RT_CYCLIC_FRONT_H
#define RT_CYCLIC_FRONT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "rt_json.h"

struct ct_run;
struct ct_thread;

struct cyclictest_front {
	const char *tool;        /* the records' "tool" */
	bool no_pm_qos;          /* leave /dev/cpu_dma_latency alone, silently */
	bool no_status;          /* no SIGUSR2 shm object, no -F fifo */
	/* one status line without newline (the live display, -q, SIGUSR1) */
	size_t (*format_status)(char *buf, size_t len, struct ct_thread *t);
	/* the live display; first = no cursor-up before it */
	void (*print_frame)(FILE *out, struct ct_run *run, bool first);
	/* -b's lines */
	void (*print_break)(FILE *out, struct ct_run *run);
	/* a thread's JSON members (the object is open) */
	void (*json_thread)(struct rt_json *j, const struct ct_thread *t);
	/* every thread is set up and waits at the gate */
	void (*started)(struct ct_run *run);
	/* a thread failed its set-up (t->ws.error): print the one line */
	void (*setup_failed)(struct ct_run *run, const struct ct_thread *t);
};

#endif
