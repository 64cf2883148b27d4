// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "rt_cli.h"
#include "rt_opt.h"
#include "rt_prog.h"
#include "rt_time.h"

#include "options.h"

enum {
	OPT_ANALYZE = 256,
	OPT_ANALYZE_OUTPUT,
	OPT_DEFAULT_SYSTEM,
	OPT_HISTFILE,
	OPT_JSON,
	OPT_LAPTOP,
	OPT_LATENCY,
	OPT_MAINAFFINITY,
	OPT_POLICY,
	OPT_PRIOSPREAD,
	OPT_SECALIGNED,
	OPT_SELF_CHECK,
	OPT_SPIKE,
	OPT_SPIKE_NODES,
	OPT_SMI,
	OPT_TRACEMARK,
	OPT_DBG,
	OPT_HELP,
	OPT_VERSION,
};

static const char short_opts[] = ":a::A::b:c:d:D:F:h:H:i:l:mMnNo:p:qrRsSt::uvx";

static const struct option long_opts[] = {
	{ "affinity", optional_argument, NULL, 'a' },
	{ "aligned", optional_argument, NULL, 'A' },
	{ "analyze", optional_argument, NULL, OPT_ANALYZE },
	{ "analyze-output", required_argument, NULL, OPT_ANALYZE_OUTPUT },
	{ "breaktrace", required_argument, NULL, 'b' },
	{ "clock", required_argument, NULL, 'c' },
	{ "default-system", no_argument, NULL, OPT_DEFAULT_SYSTEM },
	{ "distance", required_argument, NULL, 'd' },
	{ "duration", required_argument, NULL, 'D' },
	{ "fifo", required_argument, NULL, 'F' },
	{ "histogram", required_argument, NULL, 'h' },
	{ "histofall", required_argument, NULL, 'H' },
	{ "histfile", required_argument, NULL, OPT_HISTFILE },
	{ "interval", required_argument, NULL, 'i' },
	{ "json", required_argument, NULL, OPT_JSON },
	{ "laptop", no_argument, NULL, OPT_LAPTOP },
	{ "latency", required_argument, NULL, OPT_LATENCY },
	{ "loops", required_argument, NULL, 'l' },
	{ "mainaffinity", required_argument, NULL, OPT_MAINAFFINITY },
	{ "mlockall", no_argument, NULL, 'm' },
	{ "refresh_on_max", no_argument, NULL, 'M' },
	{ "nsecs", no_argument, NULL, 'N' },
	{ "oscope", required_argument, NULL, 'o' },
	{ "priority", required_argument, NULL, 'p' },
	/* The spelling the help text of 2.4 shows; an exact match beats the
	 * abbreviation rule, which would find --prio ambiguous. */
	{ "prio", required_argument, NULL, 'p' },
	{ "policy", required_argument, NULL, OPT_POLICY },
	{ "priospread", no_argument, NULL, OPT_PRIOSPREAD },
	{ "quiet", no_argument, NULL, 'q' },
	{ "relative", no_argument, NULL, 'r' },
	{ "resolution", no_argument, NULL, 'R' },
	{ "secaligned", optional_argument, NULL, OPT_SECALIGNED },
	{ "self-check", no_argument, NULL, OPT_SELF_CHECK },
	{ "system", no_argument, NULL, 's' },
	{ "smp", no_argument, NULL, 'S' },
	{ "spike", required_argument, NULL, OPT_SPIKE },
	{ "spike-nodes", required_argument, NULL, OPT_SPIKE_NODES },
	{ "smi", no_argument, NULL, OPT_SMI },
	{ "threads", optional_argument, NULL, 't' },
	{ "tracemark", no_argument, NULL, OPT_TRACEMARK },
	{ "unbuffered", no_argument, NULL, 'u' },
	{ "verbose", no_argument, NULL, 'v' },
	{ "dbg_cyclictest", no_argument, NULL, OPT_DBG },
	{ "posix_timers", no_argument, NULL, 'x' },
	RT_CLI_RESULT_LONG_OPTIONS,
	RT_CLI_OVERRUNS_LONG_OPTION,
	{ "help", no_argument, NULL, OPT_HELP },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ NULL, 0, NULL, 0 },
};

/* The --help text, one line a call: one piece, so that it reads as printed. */
void cyclictest_usage(void)
{
	printf("cyclictest V %s (%s %s)\n"
	       "Usage:\n"
	       "cyclictest <options>\n\n", RT_INTERFACE_VERSION, PACKAGE_NAME, PACKAGE_VERSION);
	fputs(
"-a [CPUSET] --affinity[=CPUSET]  pin measurement threads round-robin to CPUSET\n"
"                           (libnuma syntax: 2, 0-3, 1,3-5, !0, +0-1, all);\n"
"                           without CPUSET, thread N runs on the Nth allowed CPU.\n"
"                           Without -a threads are not pinned\n"
"-A [USEC]   --aligned[=USEC]   align the first wakeups of all threads to a common\n"
"                           start, thread N shifted by N*USEC\n"
"            --analyze[=USEC]  explain the worst latency above USEC (default: -b's)\n"
"                           from a private trace of sched, irq and timer events\n"
"            --analyze-output=FILE  save that trace window to FILE\n"
"-b USEC     --breaktrace=USEC  stop the run (and the ftrace trace) when a latency\n"
"                           exceeds USEC\n"
"-c CLOCK    --clock=CLOCK  0 = CLOCK_MONOTONIC (default), 1 = CLOCK_REALTIME\n"
"            --default-system  do not write /dev/cpu_dma_latency (no PM tuning)\n"
"-d DIST     --distance=DIST  interval increment per thread in us (default 500)\n"
"-D TIME     --duration=TIME  run time: N, Ns, Nm, Nh or Nd (default: no limit)\n"
"-F PATH     --fifo=PATH    create a named pipe at PATH serving the status lines\n"
"-h US       --histogram=US  print a latency histogram of US 1-us buckets at exit\n"
"-H US       --histofall=US  like -h, plus a column summing all threads\n"
"            --histfile=PATH  write the histogram to PATH instead of stdout\n"
"-i INTV     --interval=INTV  base interval of thread 0 in us (default 1000)\n"
"            --isolation    after the summary, print what interrupted each measured\n"
"                           CPU (interrupts, softirqs, context switches)\n"
"            --json=FILE    write the results as JSON to FILE ('-' = stdout)\n"
"            --laptop       do not write /dev/cpu_dma_latency (save battery)\n"
"            --latency=PM_QOS  value in us written to /dev/cpu_dma_latency (default 0)\n"
"-l LOOPS    --loops=LOOPS  cycles per thread (default 0 = endless)\n"
"            --mainaffinity=CPUSET  run the main (display) thread on CPUSET\n"
"            --max-latency=US  verdict: FAIL (exit 3) when any latency exceeds US\n"
"            --max-overruns=N  verdict: FAIL when a thread missed more than N periods\n"
"            --max-percentile=P:US  verdict on a thread's P-th percentile: PASS/FAIL\n"
"                           when its 95% interval is under/over US, else\n"
"                           INCONCLUSIVE (repeatable, e.g. 99.9:80)\n"
"            --percentile-claim=point  judge --max-percentile on the percentile\n"
"                           alone (default: proven, on the interval)\n"
"            --verdict      print the verdict without a limit:\n"
"                           every thread measured (rt-tests-ng(7))\n"
"            --metrics=FILE  keep FILE up to date as a Prometheus text file\n"
"                           (node_exporter's textfile collector)\n"
"-m          --mlockall     lock current and future memory (fail if not possible)\n"
"-M          --refresh_on_max  redraw the display only when a maximum grows\n"
"            --no-preflight  no warnings about the machine before the run, also\n"
"                           when stderr is a terminal\n"
"            --preflight    those warnings also when stderr is not a terminal\n"
"-N          --nsecs        report in ns instead of us\n"
"-o RED      --oscope=RED   with -v, print only the maximum of every RED samples\n"
"            --percentiles  after the summary, print percentile and overrun lines\n"
"-p PRIO     --priority=PRIO  real-time priority of the threads (0..99)\n"
"            --records=FILE  append interval records (JSON lines) to FILE ('-' = stdout)\n"
"            --records-interval=TIME  one record per thread every TIME (as -D, default 60),\n"
"                           and the --metrics file rewritten as often\n"
"            --policy=NAME  other, normal, batch, idle, fifo or rr\n"
"            --priospread   give thread N priority PRIO-N\n"
"-q          --quiet        print only a summary at exit\n"
"-r          --relative     sleep relative to the previous wakeup\n"
"-R          --resolution   measure the clock resolution and warn if coarse\n"
"            --secaligned[=USEC]  start at the next full second plus USEC\n"
"            --self-check   compare every sample with the kernel's trace of it\n"
"                           (one pinned thread, -l default 1000); exit 1 unless\n"
"                           99% agree within 2 us\n"
"-s          --system       sleep with the nanosleep() system call\n"
"-S          --smp          one pinned thread per allowed CPU, same priority\n"
"            --spike=USEC   record every latency above USEC and list them at exit\n"
"            --spike-nodes=N  at most N recorded spikes (default 1024)\n"
"            --smi          count System Management Interrupts (x86, MSR 0x34)\n"
"-t [NUM]    --threads[=NUM]  NUM threads; without NUM one per allowed CPU\n"
"            --tracemark    with -b, write a marker into the ftrace trace\n"
"-u          --unbuffered   unbuffered stdout, for live processing\n"
"-v          --verbose      print every sample as n:c:v (thread:cycle:latency)\n"
"            --warmup=TIME  drop what is measured in the first TIME (as -D) from\n"
"                           every result; -D and -l count after it\n"
"            --dbg_cyclictest  print debugging information\n"
"-x          --posix_timers  use POSIX interval timers instead of clock_nanosleep\n"
"            --help         print this help and exit\n"
"            --version      print the version and exit\n"
"\n"
"Usage errors exit with 2, run-time errors with 1, a FAIL verdict with 3, an\n"
"INCONCLUSIVE one with 4.\n", stdout);
}

#define GET(c, arg, min, max, unit, field)                                       \
	do {                                                                     \
		long long v_;                                                    \
		if (rt_cli_number(rt_cli_opt_name(long_opts, c), arg, min, max, unit, &v_))        \
			return RT_EXIT_USAGE;                                    \
		(field) = v_;                                                    \
	} while (0)

static int parse_clock(const char *arg, clockid_t *clock)
{
	if (strcmp(arg, "monotonic") == 0) {
		*clock = CLOCK_MONOTONIC;
		return 0;
	}
	if (strcmp(arg, "realtime") == 0) {
		*clock = CLOCK_REALTIME;
		return 0;
	}
	int v;
	if (rt_opt_parse_int(arg, 0, 1, &v))
		return rt_prog_usage_error("invalid --clock '%s': must be 0..1 "
					   "(0 = monotonic, 1 = realtime)", arg);
	*clock = v ? CLOCK_REALTIME : CLOCK_MONOTONIC;
	return 0;
}

/* The options with no letter, 2.4's and ours: one case per option, as the table. */
static int parse_word(struct cyclictest_config *cfg, int c, int argc, char *argv[])
{
	const char *v;

	switch (c) {
	case OPT_ANALYZE:
		cfg->analyze = true;
		v = rt_cli_optional_value(argc, argv);
		if (v)
			GET(c, v, 1, RT_MAX_LIMIT_US, "us", cfg->analyze_us);
		break;
	case OPT_ANALYZE_OUTPUT: cfg->analyze_output = optarg; break;
	case OPT_DEFAULT_SYSTEM: cfg->default_system = true; break;
	case OPT_HISTFILE: cfg->histfile = optarg; break;
	case OPT_JSON: cfg->json = optarg; break;
	case OPT_LAPTOP: cfg->laptop = true; break;
	case OPT_LATENCY: GET(c, optarg, 0, 2000000000, "us", cfg->latency_us); break;
	case OPT_MAINAFFINITY:
		if (rt_cli_cpulist(rt_cli_opt_name(long_opts, c), optarg, &cfg->mainaffinity_cpus))
			return RT_EXIT_USAGE;
		cfg->mainaffinity = true;
		break;
	case OPT_POLICY:
		if (rt_opt_parse_policy(optarg, &cfg->policy))
			return rt_prog_usage_error("invalid --policy '%s': must be other, normal, "
						   "batch, idle, fifo or rr", optarg);
		cfg->policy_given = true;
		break;
	case OPT_PRIOSPREAD: cfg->priospread = true; break;
	case OPT_SECALIGNED:
		v = rt_cli_optional_value(argc, argv);
		cfg->secaligned_us = 0;
		if (v)
			GET(c, v, 0, CT_MAX_INTERVAL_US, "us", cfg->secaligned_us);
		break;
	case OPT_SPIKE: GET(c, optarg, 1, RT_MAX_LIMIT_US, "us", cfg->spike_us); break;
	case OPT_SPIKE_NODES: GET(c, optarg, 1, CT_MAX_SPIKE_NODES, NULL, cfg->spike_nodes); break;
	case OPT_SMI: cfg->smi = true; break;
	case OPT_SELF_CHECK: cfg->self_check = true; break;
	case OPT_TRACEMARK: cfg->tracemark = true; break;
	case OPT_DBG: cfg->debug = true; break;
	case OPT_HELP: cyclictest_usage(); return -1;
	case OPT_VERSION: rt_prog_print_version(stdout); return -1;
	default: return rt_cli_result_or_bad_option(&cfg->results, argc, argv, c, optarg);
	}
	return 0;
}

/* 2.4's one-letter options, one case per option as in 2.4's table; the rest by name. */
static int parse_letter(struct cyclictest_config *cfg, int c, int argc, char *argv[])
{
	const char *v;

	switch (c) {
	case 'a':
		cfg->affinity = true;
		v = rt_cli_optional_value(argc, argv);
		if (v && rt_cli_cpulist(rt_cli_opt_name(long_opts, c), v, &cfg->affinity_cpus))
			return RT_EXIT_USAGE;
		if (!v)
			cfg->affinity_cpus.count = 0; /* all allowed CPUs, decided later */
		break;
	case 'A':
		v = rt_cli_optional_value(argc, argv);
		cfg->aligned_us = 0;
		if (v)
			GET(c, v, 0, CT_MAX_INTERVAL_US, "us", cfg->aligned_us);
		break;
	case 'b': GET(c, optarg, 1, RT_MAX_LIMIT_US, "us", cfg->breaktrace_us); break;
	case 'c':
		if (parse_clock(optarg, &cfg->clock))
			return RT_EXIT_USAGE;
		break;
	case 'd':
		GET(c, optarg, 0, CT_MAX_INTERVAL_US, "us", cfg->distance_us);
		cfg->distance_given = true;
		break;
	case 'D':
		if (rt_cli_duration(rt_cli_opt_name(long_opts, c), optarg, &cfg->duration_s))
			return RT_EXIT_USAGE;
		break;
	case 'F': cfg->fifo = optarg; break;
	case 'H':
		cfg->hist_sum = true;
		/* fall through */
	case 'h': GET(c, optarg, 1, CT_MAX_HIST_US, "us", cfg->hist_buckets); break;
	case 'i': GET(c, optarg, 1, CT_MAX_INTERVAL_US, "us", cfg->interval_us); break;
	case 'l': GET(c, optarg, 0, 1LL << 62, NULL, cfg->loops); break;
	case 'm': cfg->mlockall = true; break;
	case 'M': cfg->refresh_on_max = true; break;
	case 'n':
		rt_prog_error("warning: -n is obsolete and ignored (clock_nanosleep is the default)");
		break;
	case 'N': cfg->nsecs = true; break;
	case 'o': GET(c, optarg, 1, CT_MAX_OSCOPE, "samples", cfg->oscope); break;
	case 'p':
		GET(c, optarg, 0, 99, NULL, cfg->priority);
		cfg->priority_given = true;
		break;
	case 'q': cfg->quiet = true; break;
	case 'r': cfg->timer = CT_TIMER_RELATIVE; break;
	case 'R': cfg->resolution = true; break;
	case 's': cfg->timer = cfg->timer == CT_TIMER_POSIX ? -1 : CT_TIMER_NANOSLEEP; break;
	case 'S': cfg->smp = true; break;
	case 't':
		v = rt_cli_optional_value(argc, argv);
		cfg->threads_per_cpu = !v;
		if (v)
			GET(c, v, 1, CT_MAX_THREADS, NULL, cfg->threads);
		break;
	case 'u': cfg->unbuffered = true; break;
	case 'v': cfg->verbose = true; break;
	case 'x': cfg->timer = cfg->timer == CT_TIMER_NANOSLEEP ? -1 : CT_TIMER_POSIX; break;
	default: return parse_word(cfg, c, argc, argv);
	}
	return 0;
}

int cyclictest_parse_args(struct cyclictest_config *cfg, int argc, char *argv[])
{
	int c, err;

	opterr = 0;
	optind = 0; /* glibc: a full reset, also of a half-read "-abc" cluster */
	while ((c = getopt_long(argc, argv, short_opts, long_opts, NULL)) != -1) {
		err = parse_letter(cfg, c, argc, argv);
		if (err)
			return err;
	}
	/* Empty argv words (from scripts that expand empty variables) are ignored. */
	return rt_cli_no_operands(argc, argv);
}
