// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "rt_affinity.h"
#include "rt_cli.h"
#include "rt_json.h"
#include "rt_opt.h"
#include "rt_percentiles.h"
#include "rt_prog.h"
#include "rt_reaper.h"
#include "rt_report.h"
#include "rt_tool.h"
#include "rt_worker.h"

#include "pairs.h"

static const struct option long_opts[] = {
	PAIRTOOL_COMMON_LONG_OPTIONS,
	{ "affinity", optional_argument, NULL, 'a' },
	{ "distance", required_argument, NULL, 'd' },
	{ "fork", optional_argument, NULL, 'f' },
	{ "help", no_argument, NULL, 'h' },
	{ "interval", required_argument, NULL, 'i' },
	{ "smp", no_argument, NULL, 'S' },
	{ "threads", optional_argument, NULL, 't' },
	{ NULL, 0, NULL, 0 },
};

/* The tool's table: the common options it has (no --fork or --smp where it
 * lacks them, their letters may be its own), then its own. */
static void tool_options(const struct pairs_tool *tool, struct option *out)
{
	size_t n = 0;

	for (const struct option *o = long_opts; o->name; o++)
		if ((o->val != 'f' || tool->has_fork) && (o->val != 'S' || tool->has_smp))
			out[n++] = *o;
	for (const struct option *o = tool->own ? tool->own->longopts : NULL; o && o->name; o++)
		if (n < PAIRS_MAX_OPTIONS - 1)
			out[n++] = *o;
	out[n] = (struct option){ NULL, 0, NULL, 0 };
}

void pairs_config_init(struct pairs_config *cfg, const struct pairs_tool *tool)
{
	memset(cfg, 0, sizeof(*cfg));
	pairtool_common_init(&cfg->common);
	cfg->tool = tool;
	cfg->pairs = 1;
	cfg->affinity = -1;
	cfg->interval_us = 1000;
	cfg->distance_us = 500;
}

static void usage(const struct pairs_tool *tool)
{
	printf("%s V %s (%s %s)\nUsage:\n%s <options>\n\n%s\n\n", tool->name, RT_INTERFACE_VERSION,
	       PACKAGE_NAME, PACKAGE_VERSION, tool->name, tool->summary);
	fputs("-a [NUM]  --affinity[=NUM]  run all threads on CPU NUM; without NUM pair i on\n"
	      "                            the i-th allowed CPU\n"
	      "-b USEC   --breaktrace=USEC  stop (and stop the ftrace trace) when a latency\n"
	      "                            exceeds USEC\n"
	      "-d DIST   --distance=DIST   interval increment per pair in us (default 500)\n"
	      "-D TIME   --duration=TIME   run time: N, Ns, Nm, Nh or Nd\n", stdout);
	if (tool->has_fork)
		fputs("-f        --fork            sender and receiver are processes, not threads\n",
		      stdout);
	fputs("-h        --help            print this help and exit\n"
	      "-i INTV   --interval=INTV   receiver's sleep between samples in us (default 1000)\n"
	      "          --json=FILE       write the results as JSON to FILE ('-' = stdout)\n"
	      "-l LOOPS  --loops=LOOPS     samples per pair (default 0 = endless)\n"
	      "-p PRIO   --priority=PRIO   SCHED_FIFO priority of pair 0 (0..99, 0 = SCHED_OTHER);\n"
	      "                            pair i gets PRIO-i\n"
	      "-q        --quiet           print only a summary at exit\n", stdout);
	if (tool->has_smp)
		fputs("-S        --smp             one pair per allowed CPU, pinned, same priority\n",
		      stdout);
	fputs("-t [NUM]  --threads[=NUM]   NUM pairs; without NUM one pair per allowed CPU\n",
	      stdout);
	if (tool->own)
		fputs(tool->own->help, stdout);
	fputs("          --version         print the version and exit\n", stdout);
	fputs(pairtool_results_help, stdout);
}

static bool own_letter(const struct pairs_tool *tool, int c)
{
	const struct pairs_own_options *own = tool->own;

	if (!own)
		return false;
	for (const char *l = own->shortopts; *l; l++)
		if (*l == c && c != ':')
			return true;
	for (const struct option *o = own->longopts; o->name; o++)
		if (o->val == c)
			return true;
	return false;
}

static int parse_one(struct pairs_config *cfg, const struct option *opts, int c, int argc,
		     char *argv[])
{
	struct rt_cpulist cpus;
	const char *v;
	long long n;
	int err;

	if (own_letter(cfg->tool, c))
		return cfg->tool->own->parse(cfg->tool->own->settings, c, rt_cli_opt_name(opts, c),
					     optarg);
	err = pairtool_common_option(&cfg->common, opts, c, optarg);
	if (err != PAIRTOOL_NOT_COMMON)
		return err;
	switch (c) {
	case 'a':
		v = rt_cli_optional_value(argc, argv);
		cfg->affinity = -2;
		if (!v)
			break;
		if (rt_opt_parse_ll(v, 0, CPU_SETSIZE - 1, &n) || rt_affinity_allowed(&cpus) ||
		    !rt_affinity_contains(&cpus, (int)n)) {
			char set[256] = "?";

			if (rt_affinity_allowed(&cpus) == 0)
				rt_affinity_format(&cpus, set, sizeof(set));
			return rt_prog_usage_error("invalid --affinity '%s': must be one CPU of "
						   "the allowed CPUs %s", v, set);
		}
		cfg->affinity = (int)n;
		break;
	case 'd':
		if (rt_cli_number(rt_cli_opt_name(opts, c), optarg, 0, PAIRS_MAX_DISTANCE_US,
				  "us", &n))
			return RT_EXIT_USAGE;
		cfg->distance_us = n;
		break;
	case 'f':
		if (!cfg->tool->has_fork)
			return rt_cli_bad_option(argc, argv, '?');
		cfg->fork = true;
		break;
	case 'i':
		if (rt_cli_number(rt_cli_opt_name(opts, c), optarg, 1, PAIRS_MAX_INTERVAL_US,
				  "us", &n))
			return RT_EXIT_USAGE;
		cfg->interval_us = n;
		break;
	case 'S':
		if (!cfg->tool->has_smp)
			return rt_cli_bad_option(argc, argv, '?');
		cfg->smp = true;
		break;
	case 't':
		v = rt_cli_optional_value(argc, argv);
		cfg->pairs_per_cpu = !v;
		if (v && rt_cli_number(rt_cli_opt_name(opts, c), v, 1, PAIRS_MAX_PAIRS, NULL, &n))
			return RT_EXIT_USAGE;
		if (v)
			cfg->pairs = (int)n;
		break;
	case 'h': usage(cfg->tool); return -1;
	default: return rt_cli_bad_option(argc, argv, c);
	}
	return 0;
}

int pairs_parse_args(struct pairs_config *cfg, int argc, char *argv[])
{
	const struct pairs_tool *tool = cfg->tool;
	struct option opts[PAIRS_MAX_OPTIONS];
	struct rt_cpulist allowed;
	char optstring[48] = ":a::b:d:D:hi:l:p:qt::";
	int c, err;

	tool_options(tool, opts);
	if (tool->has_fork)
		strcat(optstring, "f::");
	if (tool->has_smp)
		strcat(optstring, "S");
	if (tool->own && strlen(optstring) + strlen(tool->own->shortopts) < sizeof(optstring))
		strcat(optstring, tool->own->shortopts);
	pairtool_getopt_reset();
	while ((c = getopt_long(argc, argv, optstring, opts, NULL)) != -1)
		if ((err = parse_one(cfg, opts, c, argc, argv)))
			return err;
	if ((err = rt_cli_no_operands(argc, argv)) ||
	    (err = rt_cli_results_check(&cfg->common.results, !cfg->common.quiet)))
		return err;
	if (tool->own && tool->own->check && (err = tool->own->check(tool->own->settings, cfg)))
		return err;
	if (rt_affinity_allowed(&allowed))
		return rt_prog_usage_error("cannot read the CPUs this process may use");
	if (cfg->smp) {
		if (cfg->affinity != -1)
			fprintf(stderr, "WARN: -a ignored due to --smp\n");
		if (cfg->pairs_per_cpu || cfg->pairs != 1)
			fprintf(stderr, "WARN: -t ignored due to --smp\n");
		cfg->affinity = -2;
		cfg->pairs_per_cpu = true;
	}
	if (cfg->pairs_per_cpu)
		cfg->pairs = (int)allowed.count;
	return 0;
}

/* ------------------------------------------------------------------ run */

struct pairs_run {
	const struct pairs_config *cfg;
	void *mech_data;
	struct rt_pair *p;
	char *buf;
	size_t buflen;
};

static int pair_prio(const struct pairs_config *cfg, int i)
{
	int prio = cfg->smp ? cfg->common.priority : cfg->common.priority - i;

	if (cfg->common.priority == 0)
		return 0;
	return prio < cfg->tool->prio_floor ? cfg->tool->prio_floor : prio;
}

static void set_roles(void *tool, struct rt_pair *p)
{
	const struct pairs_config *cfg = ((struct pairs_run *)tool)->cfg;
	struct rt_cpulist allowed;

	rt_affinity_allowed(&allowed);
	for (int i = 0; i < cfg->pairs; i++) {
		int prio = pair_prio(cfg, i);
		int cpu = cfg->affinity == -2 ? rt_affinity_cpu_for(&allowed, (unsigned)i)
					      : cfg->affinity;
		struct rt_pair_role r = {
			.cpu = cpu,
			.policy = prio > 0 ? SCHED_FIFO : SCHED_OTHER,
			.prio = prio,
		};

		r.delay_ns = cfg->sender_delay_ns;
		rt_pair_part(p, 2 * i + 1)->role = r; /* sender */
		r.records = true;
		r.delay_ns = (cfg->interval_us + (int64_t)i * cfg->distance_us) * 1000;
		rt_pair_part(p, 2 * i)->role = r;     /* receiver */
	}
}

static int part_cpu(struct rt_pair_part *pt)
{
	return pt->role.cpu >= 0 ? pt->role.cpu : atomic_load(&pt->cur_cpu);
}

/* Pair i: receiver #2i, sender #2i+1; the display and the verdict say "#2i+1 -> #2i". */
static void pair_tasks(void *tool, int i, int *sender, int *receiver)
{
	(void)tool;
	*sender = 2 * i + 1;
	*receiver = 2 * i;
}

/* "#0: ID.., P.., CPU.., I..; #1: ID.., P.., CPU.., Cycles .." and "#1 -> #0, Min ..". */
static size_t format_block(struct pairs_run *r)
{
	size_t used = 0;
	char *b = r->buf;

	for (int i = 0; i < r->cfg->pairs; i++) {
		struct rt_pair_part *rx = rt_pair_part(r->p, 2 * i), *tx = rt_pair_part(r->p, 2 * i + 1);

		used += (size_t)snprintf(b + used, r->buflen - used,
				 "#%d: ID%d, P%d, CPU%d, I%" PRId64 "; #%d: ID%d, P%d, CPU%d, ",
				 2 * i, (int)atomic_load(&rx->ws.tid), rx->role.prio, part_cpu(rx),
				 rx->role.delay_ns / 1000, 2 * i + 1, (int)atomic_load(&tx->ws.tid),
				 tx->role.prio, part_cpu(tx));
		if (r->cfg->tool->timeouts)
			used += (size_t)snprintf(b + used, r->buflen - used, "TO %" PRIu64 ", ",
						 r->cfg->tool->timeouts(r->mech_data, i));
		used += (size_t)snprintf(b + used, r->buflen - used, "Cycles %" PRIu64 "\n",
					 atomic_load(&tx->sends));
	}
	for (int i = 0; i < r->cfg->pairs; i++) {
		struct rt_stats s;
		int tx, rx;

		pair_tasks(r, i, &tx, &rx);
		rt_pubstats_read(&rt_pair_part(r->p, rx)->ws.stats, &s);
		if (rt_stats_empty(&s))
			used += (size_t)snprintf(b + used, r->buflen - used, "#%d -> #%d (not yet ready)\n",
						 tx, rx);
		else
			used += (size_t)snprintf(b + used, r->buflen - used,
					 "#%d -> #%d, Min %4" PRId64 ", Cur %4" PRId64 ", Avg %4" PRId64
					 ", Max %4" PRId64 "\n", tx, rx, s.min, s.last,
					 (int64_t)(rt_stats_avg(&s) + 0.5), s.max);
	}
	return used;
}

/* Live frame: the block, then the cursor back up over it (2.4's layout). */
static void live_tick(void *tool)
{
	struct pairs_run *r = tool;

	format_block(r);
	printf("%s\033[%dA", r->buf, 2 * r->cfg->pairs);
	fflush(stdout);
}

/* -f: "failed": [{participant, role, pid, cause}] of pair i's dead processes. */
static void write_failed(struct rt_json *j, struct rt_pair *p, int i)
{
	struct rt_worker_exit how;
	char cause[80];
	bool any = false;

	for (int k = 2 * i; k <= 2 * i + 1; k++) {
		if (!rt_pair_failed(p, k, &how))
			continue;
		if (!any)
			rt_json_array_begin(j, "failed");
		any = true;
		pairtool_exit_cause(&how, cause, sizeof(cause));
		rt_json_object_begin(j, NULL);
		rt_json_int(j, "participant", k);
		rt_json_string(j, "role", k == 2 * i ? "receiver" : "sender");
		rt_json_int(j, "pid", how.pid);
		rt_json_string(j, "cause", cause);
		if (how.code == CLD_EXITED)
			rt_json_int(j, "exit_status", how.status);
		else if (how.code != RT_REAPER_UNKNOWN)
			rt_json_int(j, "signal", how.status);
		rt_json_object_end(j);
	}
	if (any)
		rt_json_array_end(j);
}

static void write_json(void *tool, struct rt_json *j)
{
	struct pairs_run *r = tool;
	struct rt_report_sched sched = RT_REPORT_SCHED_INIT;
	char key[16];

	rt_json_int(j, "num_threads", r->cfg->pairs);
	rt_json_object_begin(j, "thread");
	for (int i = 0; i < r->cfg->pairs; i++) {
		struct rt_pair_part *rx = rt_pair_part(r->p, 2 * i), *tx = rt_pair_part(r->p, 2 * i + 1);
		const struct rt_stats *s = &rx->ws.stats.stats;

		snprintf(key, sizeof(key), "%d", i);
		rt_json_object_begin(j, key);
		rt_json_object_begin(j, "sender");
		rt_json_int(j, "cpu", part_cpu(tx));
		rt_json_int(j, "priority", tx->role.prio);
		rt_json_uint(j, "samples", atomic_load(&tx->sends));
		rt_json_int(j, "interval", rx->role.delay_ns / 1000);
		rt_json_object_end(j);
		rt_json_object_begin(j, "receiver");
		rt_json_int(j, "cpu", part_cpu(rx));
		rt_json_int(j, "priority", rx->role.prio);
		if (r->cfg->tool->timeouts)
			rt_json_uint(j, "timeoutcount", r->cfg->tool->timeouts(r->mech_data, i));
		rt_report_json_min_avg_max(j, s);
		rt_percentiles_write_json(j, "percentiles", rx->ws.loghist);
		if (rx->ws.loghist)
			rt_loghist_write_json(j, "latency_histogram", rx->ws.loghist);
		rt_json_object_end(j);
		write_failed(j, r->p, i);
		rt_json_object_end(j);
		rt_report_sched_add(&sched, tx->ws.ran_policy);
		rt_report_sched_add(&sched, rx->ws.ran_policy);
	}
	rt_json_object_end(j);
	rt_report_json_scheduling(j, &sched);
}

static int nseries(void *tool)
{
	return ((struct pairs_run *)tool)->cfg->pairs;
}

/* Pair i's series is its receiver's. */
static int series_part(void *tool, int i)
{
	(void)tool;
	return 2 * i;
}

/*
 * Participant k's hand-over failed during the run: one line, unless an
 * earlier participant said the same (a removed object fails them all).
 */
static void say_run_error(const struct pairs_run *r, int k)
{
	const struct rt_pair_part *pt = rt_pair_part(r->p, k);

	for (int i = 0; i < k; i++) {
		const struct rt_pair_part *o = rt_pair_part(r->p, i);

		if (o->error_in_run && o->ws.error == pt->ws.error && o->ws.error_what == pt->ws.error_what)
			return;
	}
	if (r->cfg->tool->run_error)
		r->cfg->tool->run_error(r->mech_data, pt->ws.error, pt->ws.error_what);
	else
		rt_prog_error_errno(pt->ws.error, "%s failed during the run", pt->ws.error_what);
}

static int report(void *tool)
{
	struct pairs_run *r = tool;
	int rc = RT_EXIT_OK;

	format_block(r);
	if (r->cfg->common.quiet) {
		fputs(r->buf, stdout);
	} else {
		printf("%s\033[%dA\033[%dB", r->buf, 2 * r->cfg->pairs, 2 * r->cfg->pairs + 2);
		fflush(stdout);
	}
	for (int k = 0; k < rt_pair_count(r->p); k++) {
		struct rt_pair_part *pt = rt_pair_part(r->p, k);

		if (!pt->ws.error)
			continue;
		rc = RT_EXIT_FAILURE;
		if (pt->error_in_run)
			say_run_error(r, k);
		else
			rt_prog_error_errno(pt->ws.error, "#%d: %s failed", k, pt->ws.error_what);
	}
	return rc;
}

static void print_break(void *tool)
{
	struct pairs_run *r = tool;
	int64_t bv;
	int bp = rt_pair_break(r->p, &bv);

	if (bp >= 0)
		printf("# Break: #%d -> #%d exceeded %" PRId64 " us with %" PRId64 " us\n", bp + 1, bp,
		       r->cfg->common.breaktrace_us, bv);
}

static int run(const struct pairs_config *cfg, const struct rt_report *rep, void *mech_data)
{
	const struct pairtool_ops ops = {
		.set_roles = set_roles,
		.tick = cfg->common.quiet ? NULL : live_tick,
		.tick_ns = RT_LIVE_REFRESH_NS,
		.report = report,
		.write_json = write_json,
		.nseries = nseries,
		.series_part = series_part,
		.pair_tasks = pair_tasks,
		.epilogue = print_break,
		.stops_trace = true,
		.what = "pairs",
	};
	struct rt_pair_config pc = {
		.rings = cfg->pairs, .ring_size = 2, .starter = 1, .counter = 0,
		.loops = cfg->common.loops, .break_us = cfg->common.breaktrace_us,
		.processes = cfg->fork, .mech = cfg->tool->mech, .mech_data = mech_data,
	};
	struct pairs_run r = { .cfg = cfg, .mech_data = mech_data };
	int rc;

	r.buflen = 256 * (size_t)cfg->pairs + 64;
	r.buf = malloc(r.buflen);
	if (!r.buf) {
		rt_prog_error_errno(ENOMEM, "cannot set up the pairs");
		return RT_EXIT_FAILURE;
	}
	rc = pairtool_run(&cfg->common, rep, pc, &ops, &r, &r.p);
	free(r.buf);
	return rc;
}

/* What the run needs beside the configuration: the tool and its hand-over. */
struct pairs_own {
	const struct pairs_tool *tool;
	void *data;      /* the hand-over's, from mech_setup */
	bool set_up;     /* mech_setup succeeded (or there is none) */
};

static int parse(struct rt_tool *t, int argc, char *argv[])
{
	const struct pairs_own *o = t->own;

	t->own_signals = true; /* pairtool_run blocks them and writes the --json file */
	pairs_config_init(t->cfg, o->tool);
	return pairs_parse_args(t->cfg, argc, argv);
}

static int setup(struct rt_tool *t)
{
	const struct pairs_config *cfg = t->cfg;
	struct pairs_own *o = t->own;

	if (o->tool->mech_setup && !(o->data = o->tool->mech_setup(cfg, 2 * cfg->pairs))) {
		rt_prog_error("cannot set up the hand-over");
		return RT_EXIT_FAILURE;
	}
	o->set_up = true;
	return 0;
}

static int run_pairs(struct rt_tool *t)
{
	const struct pairs_own *o = t->own;

	return run(t->cfg, &t->rep, o->data);
}

static void restore(struct rt_tool *t, int rc)
{
	const struct pairs_config *cfg = t->cfg;
	const struct pairs_own *o = t->own;

	(void)rc;
	if (o->set_up && o->tool->mech_teardown)
		o->tool->mech_teardown(o->data, 2 * cfg->pairs);
}

static const struct rt_tool_ops pairs_ops = { .parse = parse, .setup = setup,
					      .run = run_pairs, .restore = restore };

int pairs_main(const struct pairs_tool *tool, int argc, char *argv[])
{
	struct pairs_config cfg;
	struct pairs_own own = { .tool = tool };
	struct rt_tool t = { .ops = &pairs_ops, .cfg = &cfg, .own = &own };

	return rt_tool_main(&t, argc, argv);
}
