// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The option parsers of every tool, in-process and table-driven: an argv
 * in, and either the configuration out or the exact one-line error (with
 * the "Try" hint) and exit code 2. No process is spawned.
 */
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "unit.h"

#include "rt_affinity.h"
#include "rt_prog.h"

#include "../../src/cyclictest/options.h"
#include "../../src/signaltest/options.h"
#include "../../src/hackbench/options.h"
#include "pairs.h"

enum tool { CYCLICTEST, SIGNALTEST, SIGWAITTEST, PTSEMATEST, HACKBENCH };
static const char *const names[] = { "cyclictest", "signaltest", "sigwaittest", "ptsematest",
				     "hackbench" };

static const struct pairs_tool sigwait_tool = { .name = "sigwaittest", .summary = "s",
						.has_fork = true, .has_smp = true };
static const struct pairs_tool ptsem_tool = { .name = "ptsematest", .summary = "p",
					      .has_smp = true, .prio_floor = 1 };

/* Every configuration, filled by parse(). */
static struct cyclictest_config ct;
static struct signaltest_config st;
static struct pairs_config pc;
static struct hackbench_config hb;
static char err_text[4096];

/* Parse args (split on single spaces) as tool; stderr is captured in err_text. */
static int parse(enum tool tool, const char *args)
{
	static char words[1024]; /* the config may point into it */
	char *argv[64];
	int argc = 0, rc, saved = dup(STDERR_FILENO);
	FILE *tmp = tmpfile();
	size_t n;

	ck_assert_ptr_nonnull(tmp);
	ck_assert_int_ge(saved, 0);
	snprintf(words, sizeof(words), "%s", args);
	argv[argc++] = (char *)names[tool];
	for (char *w = strtok(words, " "); w && argc < 63; w = strtok(NULL, " "))
		argv[argc++] = w;
	argv[argc] = NULL;
	rt_prog_init(names[tool]);
	fflush(stderr);
	dup2(fileno(tmp), STDERR_FILENO);
	switch (tool) {
	case CYCLICTEST:
		cyclictest_config_init(&ct);
		rc = cyclictest_parse_args(&ct, argc, argv);
		if (rc == 0)
			rc = cyclictest_config_check(&ct);
		break;
	case SIGNALTEST:
		rc = signaltest_parse_args(&st, argc, argv);
		break;
	case HACKBENCH:
		rc = hackbench_parse_args(&hb, argc, argv);
		break;
	default:
		pairs_config_init(&pc, tool == SIGWAITTEST ? &sigwait_tool : &ptsem_tool);
		rc = pairs_parse_args(&pc, argc, argv);
		break;
	}
	fflush(stderr);
	dup2(saved, STDERR_FILENO);
	close(saved);
	rewind(tmp);
	n = fread(err_text, 1, sizeof(err_text) - 1, tmp);
	err_text[n] = '\0';
	fclose(tmp);
	return rc;
}

/* The expected first line, with @ALLOWED@ standing for this process's CPUs. */
static void expect_error(enum tool tool, const char *line)
{
	struct rt_cpulist allowed;
	char set[256], want[1024];
	const char *at = strstr(line, "@ALLOWED@");

	ck_assert_int_eq(rt_affinity_allowed(&allowed), 0);
	rt_affinity_format(&allowed, set, sizeof(set));
	if (at)
		snprintf(want, sizeof(want), "%.*s%s%s\nTry '%s --help' for more information.\n",
			 (int)(at - line), line, set, at + 9, names[tool]);
	else
		snprintf(want, sizeof(want), "%s\nTry '%s --help' for more information.\n", line,
			 names[tool]);
	ck_assert_str_eq(err_text, want);
}

static const struct {
	enum tool tool;
	const char *args;
	const char *line;
} errors[] = {
	{ CYCLICTEST, "-i 0", "cyclictest: invalid --interval '0': must be 1..1000000 (us)" },
	{ CYCLICTEST, "-i 100x", "cyclictest: invalid --interval '100x': must be 1..1000000 (us)" },
	{ CYCLICTEST, "-c 2", "cyclictest: invalid --clock '2': must be 0..1 (0 = monotonic, 1 = realtime)" },
	{ CYCLICTEST, "-D 1.5m", "cyclictest: invalid --duration '1.5m': must be N, Ns, Nm, Nh or Nd, at most 3650d" },
	{ CYCLICTEST, "-t0", "cyclictest: invalid --threads '0': must be 1..4096" },
	{ CYCLICTEST, "-p 100", "cyclictest: invalid --priority '100': must be 0..99" },
	{ CYCLICTEST, "-a 99", "cyclictest: invalid --affinity '99': must be a CPU list within the allowed CPUs @ALLOWED@" },
	{ CYCLICTEST, "-a 1-0", "cyclictest: invalid --affinity '1-0': a CPU range must ascend (LOW-HIGH)" },
	{ CYCLICTEST, "--mainaffinity=1-0", "cyclictest: invalid --mainaffinity '1-0': a CPU range must ascend (LOW-HIGH)" },
	{ CYCLICTEST, "-b 0", "cyclictest: invalid --breaktrace '0': must be 1..3600000000 (us)" },
	{ CYCLICTEST, "--spike=3600000001", "cyclictest: invalid --spike '3600000001': must be 1..3600000000 (us)" },
	{ CYCLICTEST, "-H 1000001", "cyclictest: invalid --histofall '1000001': must be 1..1000000 (us)" },
	{ CYCLICTEST, "-l -1", "cyclictest: invalid --loops '-1': must be 0..4611686018427387904" },
	{ CYCLICTEST, "-o 5", "cyclictest: --oscope needs --verbose" },
	{ CYCLICTEST, "--policy=batch -p 80", "cyclictest: invalid --priority '80': must be 0 with --policy other, normal, batch or idle" },
	{ CYCLICTEST, "-s -x", "cyclictest: --system and --posix_timers are mutually exclusive" },
	{ CYCLICTEST, "--pri 80", "cyclictest: unrecognized or ambiguous option '--pri'" },
	{ CYCLICTEST, "-z", "cyclictest: invalid option '-z'" },
	{ CYCLICTEST, "-i", "cyclictest: option '-i' requires an argument" },
	{ CYCLICTEST, "--json", "cyclictest: option '--json' requires an argument" },
	{ CYCLICTEST, "-q stray", "cyclictest: unexpected argument 'stray'" },
	{ CYCLICTEST, "-t 4096 -i 1000000 -d 1000000", "cyclictest: invalid --distance '1000000': thread 4095 would get an interval above 1 hour" },
	{ SIGNALTEST, "-t 1", "signaltest: invalid --threads '1': must be 2..1024" },
	{ SIGNALTEST, "-a 1-0", "signaltest: invalid --affinity '1-0': a CPU range must ascend (LOW-HIGH)" },
	{ SIGNALTEST, "-a 99", "signaltest: invalid --affinity '99': must be a CPU list within the allowed CPUs @ALLOWED@" },
	{ SIGNALTEST, "-D 10ms", "signaltest: invalid --duration '10ms': must be N, Ns, Nm, Nh or Nd, at most 3650d" },
	{ SIGNALTEST, "-b 0", "signaltest: invalid --breaktrace '0': must be 1..3600000000 (us)" },
	{ SIGNALTEST, "--interval=5", "signaltest: unrecognized or ambiguous option '--interval=5'" },
	{ SIGWAITTEST, "-i 0", "sigwaittest: invalid --interval '0': must be 1..10000000 (us)" },
	{ SIGWAITTEST, "-a 1-0", "sigwaittest: invalid --affinity '1-0': must be one CPU of the allowed CPUs @ALLOWED@" },
	{ SIGWAITTEST, "-t 5000", "sigwaittest: invalid --threads '5000': must be 1..1024" },
	{ SIGWAITTEST, "-p -1", "sigwaittest: invalid --priority '-1': must be 0..99" },
	{ SIGWAITTEST, "-q stray", "sigwaittest: unexpected argument 'stray'" },
	{ PTSEMATEST, "-f", "ptsematest: invalid option '-f'" },
	{ PTSEMATEST, "-a 1-0", "ptsematest: invalid --affinity '1-0': must be one CPU of the allowed CPUs @ALLOWED@" },
	{ PTSEMATEST, "-l", "ptsematest: option '-l' requires an argument" },
	{ PTSEMATEST, "-d 1000001", "ptsematest: invalid --distance '1000001': must be 0..1000000 (us)" },
	{ CYCLICTEST, "--max-percentile=99.9", "cyclictest: invalid --max-percentile '99.9': must be P:BOUND, P in 0.0001..100 with at most 4 decimals, BOUND 0..3600000000000 (us, or ns with cyclictest -N)" },
	{ CYCLICTEST, "--max-latency=-1", "cyclictest: invalid --max-latency '-1': must be 0..3600000000000 (us, or ns with cyclictest -N)" },
	{ CYCLICTEST, "--max-overruns=x", "cyclictest: invalid --max-overruns 'x': must be 0..4611686018427387904" },
	{ CYCLICTEST, "--warmup=1.5", "cyclictest: invalid --warmup '1.5': must be N, Ns, Nm, Nh or Nd, at most 3650d" },
	{ SIGNALTEST, "--max-overruns=1", "signaltest: unrecognized or ambiguous option '--max-overruns=1'" },
	{ SIGWAITTEST, "--warmup=5x", "sigwaittest: invalid --warmup '5x': must be N, Ns, Nm, Nh or Nd, at most 3650d" },
	{ PTSEMATEST, "--max-percentile=0:5", "ptsematest: invalid --max-percentile '0:5': must be P:BOUND, P in 0.0001..100 with at most 4 decimals, BOUND 0..3600000000000 (us, or ns with cyclictest -N)" },
	{ PTSEMATEST, "--max-percentile=1:1 --max-percentile=2:1 --max-percentile=3:1 --max-percentile=4:1 --max-percentile=5:1 --max-percentile=6:1 --max-percentile=7:1 --max-percentile=8:1 --max-percentile=9:1 --max-percentile=10:1 --max-percentile=11:1 --max-percentile=12:1 --max-percentile=13:1 --max-percentile=14:1 --max-percentile=15:1 --max-percentile=16:1 --max-percentile=17:1", "ptsematest: invalid --max-percentile '17:1': at most 16 percentile limits" },
};

START_TEST(bad_argv_gives_exit_2_and_the_exact_error_line)
{
	ck_assert_int_eq(parse(errors[_i].tool, errors[_i].args), RT_EXIT_USAGE);
	expect_error(errors[_i].tool, errors[_i].line);
}
END_TEST

START_TEST(cyclictest_values_land_in_the_config)
{
	ck_assert_int_eq(parse(CYCLICTEST, "-t 4 -i 200 -d 100 -l 7 -p 80 -D 2m -N -q"), 0);
	ck_assert_str_eq(err_text, "");
	ck_assert_int_eq(ct.threads, 4);
	ck_assert_int_eq(ct.interval_us, 200);
	ck_assert_int_eq(cyclictest_thread_interval_us(&ct, 3), 500);
	ck_assert_uint_eq(ct.loops, 7);
	ck_assert_uint_eq(ct.duration_s, 120);
	ck_assert_int_eq(ct.priority, 80);
	ck_assert_int_eq(ct.policy, SCHED_FIFO);
	ck_assert(ct.nsecs && ct.quiet && !ct.verbose);
}
END_TEST

START_TEST(cyclictest_clustered_short_options)
{
	ck_assert_int_eq(parse(CYCLICTEST, "-qmu -Sp90 -i100"), 0);
	ck_assert(ct.quiet && ct.mlockall && ct.unbuffered && ct.smp && ct.affinity);
	ck_assert_int_eq(ct.priority, 90);
	ck_assert_int_eq(ct.interval_us, 100);
	ck_assert_int_eq(ct.threads, (int)ct.affinity_cpus.count);
}
END_TEST

START_TEST(cyclictest_limits_above_2_to_the_31_ns_are_64_bit)
{
	/* 2.5 s in us: times 1000 overflows a 32-bit long. */
	ck_assert_int_eq(parse(CYCLICTEST, "-b 2500000 --spike=2500000 -A 1000000"), 0);
	ck_assert_int_eq(ct.breaktrace_us, 2500000);
	ck_assert_int_eq(ct.spike_us, 2500000);
	ck_assert_int_gt(ct.spike_us * 1000, 2147483647LL);
	ck_assert_int_eq(ct.aligned_us, 1000000);
	ck_assert_int_eq(parse(CYCLICTEST, "-t 3000 -d 1000000"), 0);
	ck_assert_int_eq(cyclictest_thread_interval_us(&ct, 2999), 1000 + 2999 * 1000000LL);
}
END_TEST

START_TEST(cyclictest_histogram_zeroes_distance_with_a_warning)
{
	ck_assert_int_eq(parse(CYCLICTEST, "-t 2 -d 300 -h 50"), 0);
	ck_assert_int_eq(ct.hist_buckets, 50);
	ck_assert_int_eq(ct.distance_us, 0);
	ck_assert_str_eq(err_text, "WARN: distance is ignored and set to 0, if histogram enabled\n");
}
END_TEST

START_TEST(signaltest_values_land_in_the_config)
{
	ck_assert_int_eq(parse(SIGNALTEST, "-t 3 -l 100 -p 80 -m -b 50 -q --json=x.json -v"), 0);
	ck_assert_str_eq(err_text, "");
	ck_assert_int_eq(st.threads, 3);
	ck_assert_uint_eq(st.common.loops, 100);
	ck_assert_int_eq(st.common.priority, 80);
	ck_assert_int_eq(st.common.breaktrace_us, 50);
	ck_assert(st.common.mlockall && st.common.quiet && st.verbose);
	ck_assert_str_eq(st.common.json, "x.json");
}
END_TEST

START_TEST(pair_tools_values_land_in_the_config)
{
	ck_assert_int_eq(parse(SIGWAITTEST, "-f -t 2 -i 500 -d 0 -D 3 -p 70"), 0);
	ck_assert(pc.fork);
	ck_assert_int_eq(pc.pairs, 2);
	ck_assert_int_eq(pc.interval_us, 500);
	ck_assert_int_eq(pc.distance_us, 0);
	ck_assert_uint_eq(pc.common.duration_s, 3);
	ck_assert_int_eq(pc.common.priority, 70);
	ck_assert_int_eq(parse(PTSEMATEST, "-S -a 0 -t 3"), 0);
	ck_assert(pc.smp && pc.pairs_per_cpu);
	ck_assert_int_eq(pc.affinity, -2);
	ck_assert_str_eq(err_text, "WARN: -a ignored due to --smp\nWARN: -t ignored due to --smp\n");
}
END_TEST

START_TEST(verdict_options_land_in_every_tool)
{
	ck_assert_int_eq(parse(CYCLICTEST, "-q --max-latency=80 --max-percentile=99.9:50 "
				     "--max-percentile=50:10 --max-overruns=0 --percentiles --warmup=2m"), 0);
	ck_assert_int_eq(ct.results.limits.max_latency, 80);
	ck_assert_int_eq(ct.results.limits.max_overruns, 0);
	ck_assert_int_eq(ct.results.limits.npct, 2);
	ck_assert_uint_eq(ct.results.limits.pct[0].permyriad, 999000);
	ck_assert_int_eq(ct.results.limits.pct[0].bound, 50);
	ck_assert_uint_eq(ct.results.limits.pct[1].permyriad, 500000);
	ck_assert(ct.results.percentiles);
	ck_assert_uint_eq(ct.results.warmup_s, 120);
	ck_assert_int_eq(parse(CYCLICTEST, "-q"), 0);
	ck_assert(!rt_limits_any(&ct.results.limits) && !ct.results.percentiles);
	ck_assert_int_eq(parse(SIGNALTEST, "--max-latency=5 --warmup=3"), 0);
	ck_assert_int_eq(st.common.results.limits.max_latency, 5);
	ck_assert_int_eq(st.common.results.limits.max_overruns, -1);
	ck_assert_uint_eq(st.common.results.warmup_s, 3);
	ck_assert_int_eq(parse(PTSEMATEST, "--max-percentile=99.9999:7 --percentiles"), 0);
	ck_assert_uint_eq(pc.common.results.limits.pct[0].permyriad, 999999);
	ck_assert(pc.common.results.percentiles);
}
END_TEST

START_TEST(hackbench_values_land_in_the_config)
{
	char *one_word[] = { (char *)"hackbench", (char *)"-s 100 -l 100 -g 10 -f 20", NULL };

	ck_assert_int_eq(parse(HACKBENCH, ""), 0);
	ck_assert_int_eq(hb.groups, 10);
	ck_assert_int_eq(hb.fds, 20);
	ck_assert_uint_eq(hb.loops, 100);
	ck_assert_uint_eq(hb.datasize, 100);
	ck_assert(!hb.threads && hb.transport == HB_SOCKET && !hb.fifo && !hb.duration_s);
	ck_assert_uint_eq(hackbench_tasks(&hb), 400);
	ck_assert_uint_eq(hackbench_messages(&hb), 10 * 20 * 20 * 100);
	ck_assert_int_eq(parse(HACKBENCH, "-g 3 -f 4 -l 5 -s 6 -T -p -F -D 2m --json=x.json "
				     "--no-preflight"), 0);
	ck_assert_int_eq(hb.groups, 3);
	ck_assert_int_eq(hb.fds, 4);
	ck_assert_uint_eq(hb.loops, 5);
	ck_assert_uint_eq(hb.datasize, 6);
	ck_assert(hb.threads && hb.transport == HB_PIPE && hb.fifo &&
		  hb.common.preflight == RT_CLI_PREFLIGHT_NEVER);
	ck_assert_uint_eq(hb.duration_s, 120);
	ck_assert_str_eq(hb.common.json, "x.json");
	/* 2.4's abbreviations: --d is --datasize although --duration exists */
	ck_assert_int_eq(parse(HACKBENCH, "--d=50 --gr=2 --thr --process --in"), 0);
	ck_assert_uint_eq(hb.datasize, 50);
	ck_assert(hb.groups == 2 && !hb.threads && hb.transport == HB_INET);
	ck_assert_int_eq(parse(HACKBENCH, "--d 60 --du 5"), 0);
	ck_assert_uint_eq(hb.datasize, 60);
	ck_assert_uint_eq(hb.duration_s, 5);
	/* stray words: ignored (2.4's old positional form), main warns */
	ck_assert_int_eq(parse(HACKBENCH, "10 process 100 -g 2"), 0);
	ck_assert_int_eq(hb.ignored_words, 3);
	ck_assert_str_eq(hb.ignored_word, "10");
	ck_assert_int_eq(hb.groups, 2);
	/* Linaro's one word: only the leading number of -s counts, as in 2.4 */
	rt_prog_init("hackbench");
	ck_assert_int_eq(hackbench_parse_args(&hb, 2, one_word), 0);
	ck_assert_uint_eq(hb.datasize, 100);
	ck_assert(hb.groups == 10 && hb.fds == 20 && hb.loops == 100);
	ck_assert_str_eq(hb.one_word_opt, "datasize");
	ck_assert_str_eq(hb.one_word_rest, " -l 100 -g 10 -f 20");
	/* but a number with junk is not that */
	ck_assert_int_eq(parse(HACKBENCH, "-g 2x"), 2);
	expect_error(HACKBENCH, "hackbench: invalid --groups '2x': must be 1..100000");
	ck_assert_int_eq(parse(HACKBENCH, "-i -p"), 2);
	expect_error(HACKBENCH, "hackbench: --pipe|-p and --inet|-i cannot be used together");
}
END_TEST

START_TEST(preflight_options_last_one_wins)
{
	ck_assert_int_eq(parse(CYCLICTEST, "-q"), 0);
	ck_assert_int_eq(ct.results.preflight, RT_CLI_PREFLIGHT_TTY);
	ck_assert_int_eq(parse(CYCLICTEST, "--no-preflight --preflight"), 0);
	ck_assert_int_eq(ct.results.preflight, RT_CLI_PREFLIGHT_ALWAYS);
	ck_assert_int_eq(parse(SIGNALTEST, "--preflight --no-preflight"), 0);
	ck_assert_int_eq(st.common.results.preflight, RT_CLI_PREFLIGHT_NEVER);
	ck_assert_int_eq(parse(SIGWAITTEST, "--pre"), 0);
	ck_assert_int_eq(pc.common.results.preflight, RT_CLI_PREFLIGHT_ALWAYS);
	/* 2.4's --pr still abbreviates --priority, beside --preflight */
	ck_assert_int_eq(parse(PTSEMATEST, "--pr=70"), 0);
	ck_assert_int_eq(pc.common.priority, 70);
	ck_assert_str_eq(err_text, "");
}
END_TEST

START_TEST(help_and_version_end_parsing_with_minus_one)
{
	FILE *saved = stdout;

	stdout = fopen("/dev/null", "w");
	ck_assert_int_eq(parse(CYCLICTEST, "--help"), -1);
	ck_assert_int_eq(parse(SIGNALTEST, "--version"), -1);
	ck_assert_int_eq(parse(PTSEMATEST, "--help"), -1);
	ck_assert_int_eq(parse(HACKBENCH, "--version"), -1);
	fclose(stdout);
	stdout = saved;
}
END_TEST

Suite *unit_suite(void)
{
	Suite *s = suite_create("options");
	TCase *tc = tcase_create("parsers");

	UNIT_LOOP(tc, bad_argv_gives_exit_2_and_the_exact_error_line, errors);
	tcase_add_test(tc, cyclictest_values_land_in_the_config);
	tcase_add_test(tc, cyclictest_clustered_short_options);
	tcase_add_test(tc, cyclictest_limits_above_2_to_the_31_ns_are_64_bit);
	tcase_add_test(tc, cyclictest_histogram_zeroes_distance_with_a_warning);
	tcase_add_test(tc, signaltest_values_land_in_the_config);
	tcase_add_test(tc, pair_tools_values_land_in_the_config);
	tcase_add_test(tc, verdict_options_land_in_every_tool);
	tcase_add_test(tc, hackbench_values_land_in_the_config);
	tcase_add_test(tc, preflight_options_last_one_wins);
	tcase_add_test(tc, help_and_version_end_parsing_with_minus_one);
	suite_add_tcase(s, tc);
	return s;
}
