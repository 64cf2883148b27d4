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

#include "rt_cli.h"
#include "rt_mem.h"
#include "rt_output.h"
#include "rt_pair.h"
#include "rt_prog.h"
#include "rt_report.h"
#include "rt_sched.h"
#include "rt_signal.h"

#include "options.h"
#include "report.h"

#define LIVE_REFRESH_NS (100 * 1000 * 1000LL)
#define VERBOSE_DRAIN_NS (10 * 1000 * 1000LL)
#define VERBOSE_RING 65536
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

static int prepare(const struct signaltest_config *cfg)
{
	int err;

	if (rt_cli_check_rt_permission(cfg->priority ? SCHED_FIFO : SCHED_OTHER, cfg->priority))
		return RT_EXIT_FAILURE;
	rt_mem_keep_heap();
	err = cfg->mlockall ? rt_mem_lock_all() : rt_mem_lock_all_if_unlimited();
	if (err && cfg->mlockall) {
		rt_prog_error_errno(-err, "--mlockall: cannot lock memory");
		return RT_EXIT_FAILURE;
	}
	return 0;
}

static void set_roles(const struct signaltest_config *cfg, struct rt_pair *p)
{
	for (int k = 0; k < cfg->threads; k++)
		rt_pair_part(p, k)->role = (struct rt_pair_role){
			.cpu = cfg->affinity ? rt_affinity_cpu_for(&cfg->cpus, (unsigned)k) : -1,
			.policy = cfg->priority ? SCHED_FIFO : SCHED_OTHER,
			.prio = cfg->priority,
			.records = true,
		};
}

static int report(const struct signaltest_config *cfg, struct display *d,
		  struct rt_output *json, const struct rt_report *rep)
{
	int rc = RT_EXIT_OK, err, bp;
	int64_t bv;

	if (cfg->verbose)
		signaltest_print_samples(stdout, d->p);
	else if (!cfg->quiet)
		signaltest_print_frame(stdout, d->p, !d->drawn, &d->loadavg_fd);
	if ((bp = rt_pair_break(d->p, &bv)) >= 0)
		printf("Thread %d exceeded trace limit.\n", bp);
	signaltest_print_summary(stdout, d->p);
	for (int k = 0; k < cfg->threads; k++) {
		struct rt_pair_part *pt = rt_pair_part(d->p, k);
		uint64_t lost = atomic_load(&pt->samples.lost);

		if (pt->error) {
			rt_prog_error_errno(pt->error, "thread %d: %s failed", k, pt->error_what);
			rc = RT_EXIT_FAILURE;
		}
		if (lost) {
			rt_prog_error("thread %d: %" PRIu64 " verbose samples were lost", k, lost);
			rc = RT_EXIT_FAILURE;
		}
	}
	if (json->f) {
		err = signaltest_write_json(json->f, d->p, rep, rc);
		err = err ? err : rt_output_commit(json);
		if (err) {
			rt_output_abort(json);
			rt_prog_error_errno(-err, "cannot write --json file '%s'", cfg->json);
			rc = RT_EXIT_FAILURE;
		}
	}
	return rc;
}

static int run(const struct signaltest_config *cfg, const struct rt_report *rep)
{
	struct rt_pair_config pc = {
		.rings = 1, .ring_size = cfg->threads, .starter = 0, .counter = 0,
		.loops = cfg->loops, .break_us = cfg->breaktrace_us,
		.pause_every = PAUSE_EVERY, .pause_ns = PAUSE_NS,
		.verbose = cfg->verbose, .ring_samples = VERBOSE_RING,
		.mech = &rt_pair_mech_signal,
	};
	struct display d = { .cfg = cfg, .loadavg_fd = -1 };
	struct rt_output json = { 0 };
	sigset_t signals;
	int rc, err;

	if ((err = rt_signal_setup(&signals))) {
		rt_prog_error_errno(-err, "cannot set up signal handling");
		return RT_EXIT_FAILURE;
	}
	if (cfg->json && rt_cli_open_output(&json, "json", cfg->json))
		return RT_EXIT_FAILURE;
	if ((rc = prepare(cfg)) || (err = rt_pair_create(&d.p, &pc))) {
		if (!rc) {
			rt_prog_error_errno(-err, "cannot set up the threads");
			rc = RT_EXIT_FAILURE;
		}
		rt_output_abort(&json);
		return rc;
	}
	set_roles(cfg, d.p);
	if ((err = rt_pair_start(d.p))) {
		rt_prog_error_errno(-err, "cannot start the threads");
		rc = RT_EXIT_FAILURE;
	} else {
		bool ticks = cfg->verbose || !cfg->quiet;

		rt_pair_run(d.p, &signals, (int64_t)cfg->duration_s * 1000000000LL,
			    !ticks ? -1 : cfg->verbose ? VERBOSE_DRAIN_NS : LIVE_REFRESH_NS,
			    ticks ? tick : NULL, &d);
	}
	rt_pair_stop(d.p);
	if (!rc)
		rc = report(cfg, &d, &json, rep);
	else
		rt_output_abort(&json);
	rt_pair_destroy(d.p);
	if (d.loadavg_fd >= 0)
		close(d.loadavg_fd);
	return rc;
}

int main(int argc, char *argv[])
{
	struct signaltest_config cfg;
	struct rt_report rep;
	int rc;

	rt_prog_init(argv[0]);
	rt_report_init(&rep, argc, argv);
	rc = signaltest_parse_args(&cfg, argc, argv);
	if (rc < 0)
		return rt_prog_close_stdout() ? RT_EXIT_FAILURE : RT_EXIT_OK;
	if (rc)
		return rc;
	rc = run(&cfg, &rep);
	if (rt_prog_close_stdout() && rc == RT_EXIT_OK)
		rc = RT_EXIT_FAILURE;
	return rc;
}
