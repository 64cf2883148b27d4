// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * signaltest: a signal travels around a ring of threads; each thread
 * measures the time from its predecessor's send to its own wakeup.
 * Compatible with rt-tests 2.4 (see NEWS for what differs).
 */
#include <errno.h>
#include <inttypes.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "rt_pair.h"
#include "rt_pair_signal.h"
#include "rt_prog.h"
#include "rt_report.h"
#include "rt_sched.h"
#include "rt_tool.h"
#include "rt_worker.h"

#include "options.h"
#include "report.h"

/* Thread 0 rests 10 ms every 16 round trips, as in 2.4, so the ring does not
 * hog the CPUs; the rest falls between two hand-overs, not inside one. */
#define PAUSE_EVERY 16
#define PAUSE_NS (10 * 1000 * 1000LL)

struct display {
	const struct signaltest_config *cfg;
	struct rt_pair *p;
	int loadavg_fd;
	bool drawn;
};

static void tick(void *arg)
{
	struct display *d = arg;

	if (d->cfg->verbose) {
		signaltest_print_samples(stdout, d->p);
		return;
	}
	signaltest_print_frame(stdout, d->p, !d->drawn, &d->loadavg_fd);
	fflush(stdout);
	d->drawn = true;
}

static void set_roles(void *tool, struct rt_pair *p)
{
	const struct signaltest_config *cfg = ((struct display *)tool)->cfg;

	for (int k = 0; k < cfg->threads; k++)
		rt_pair_part(p, k)->role = (struct rt_pair_role){
			.cpu = cfg->affinity ? rt_affinity_cpu_for(&cfg->cpus, (unsigned)k) : -1,
			.policy = cfg->common.priority ? SCHED_FIFO : SCHED_OTHER,
			.prio = cfg->common.priority,
			.records = true,
		};
}

static int report(void *tool)
{
	struct display *d = tool;
	const struct signaltest_config *cfg = d->cfg;
	int rc = RT_EXIT_OK, bp;
	int64_t bv;

	if (cfg->verbose)
		signaltest_print_samples(stdout, d->p);
	else if (!cfg->common.quiet)
		signaltest_print_frame(stdout, d->p, !d->drawn, &d->loadavg_fd);
	if ((bp = rt_pair_break(d->p, &bv)) >= 0)
		printf("Thread %d exceeded trace limit.\n", bp);
	signaltest_print_summary(stdout, d->p);
	for (int k = 0; k < cfg->threads; k++) {
		struct rt_pair_part *pt = rt_pair_part(d->p, k);
		uint64_t lost = atomic_load(&pt->ws.ring.lost);

		if (pt->ws.error) {
			rt_prog_error_errno(pt->ws.error, "thread %d: %s failed", k, pt->ws.error_what);
			rc = RT_EXIT_FAILURE;
		}
		if (lost) {
			rt_prog_error("thread %d: %" PRIu64 " verbose samples were lost", k, lost);
			rc = RT_EXIT_FAILURE;
		}
	}
	return rc;
}

static void write_json(void *tool, struct rt_json *j)
{
	signaltest_write_json(j, ((struct display *)tool)->p);
}

static int nseries(void *tool)
{
	return ((struct display *)tool)->cfg->threads;
}

static int series_part(void *tool, int i)
{
	(void)tool;
	return i;
}

/* pairtool_run blocks the signals and writes the --json file itself. */
static int run(struct rt_tool *t)
{
	const struct signaltest_config *cfg = t->cfg;
	bool ticks = cfg->verbose || !cfg->common.quiet;
	const struct pairtool_ops ops = {
		.set_roles = set_roles,
		.tick = ticks ? tick : NULL,
		.tick_ns = cfg->verbose ? RT_VERBOSE_DRAIN_NS : RT_LIVE_REFRESH_NS,
		.report = report,
		.write_json = write_json,
		.nseries = nseries,
		.series_part = series_part,
		.what = "threads",
	};
	struct rt_pair_config pc = {
		.rings = 1, .ring_size = cfg->threads, .starter = 0, .counter = 0,
		.loops = cfg->common.loops, .break_us = cfg->common.breaktrace_us,
		.pause_every = PAUSE_EVERY, .pause_ns = PAUSE_NS,
		.verbose = cfg->verbose, .ring_samples = RT_RING_VERBOSE_SAMPLES,
		.mech = &rt_pair_mech_signal,
	};
	struct display d = { .cfg = cfg, .loadavg_fd = -1 };
	int rc = pairtool_run(&cfg->common, &t->rep, pc, &ops, &d, &d.p);

	if (d.loadavg_fd >= 0)
		close(d.loadavg_fd);
	return rc;
}

static int parse(struct rt_tool *t, int argc, char *argv[])
{
	t->own_signals = true;
	return signaltest_parse_args(t->cfg, argc, argv);
}

static const struct rt_tool_ops signaltest_ops = { .parse = parse, .run = run };

int main(int argc, char *argv[])
{
	struct signaltest_config cfg;
	struct rt_tool t = { .ops = &signaltest_ops, .cfg = &cfg };

	return rt_tool_main(&t, argc, argv);
}
