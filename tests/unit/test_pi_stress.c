// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pi_stress's pure parts: the option parser's configuration (--sched per
 * thread type, -r, the defaults, -D 0) and the verdict (no PASS without
 * evidence: a run shorter than the watchdog, or a group quiet at the end
 * that the watchdog could not judge, is INCONCLUSIVE; a stuck group FAIL).
 * The barrier is lib's rt_gate (test_rt_gate).
 */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "unit.h"

#include "rt_prog.h"

#include "../../src/pi_stress/options.h"
#include "../../src/pi_stress/report.h"
#include "../../src/pi_stress/run.h"
#include "../../src/pi_stress/sched_attr.h"

static struct pi_stress_config cfg;

static int parse(const char *args)
{
	static char words[1024];
	char *argv[64];
	int argc = 0;

	snprintf(words, sizeof(words), "%s", args);
	argv[argc++] = (char *)"pi_stress";
	for (char *w = strtok(words, " "); w && argc < 63; w = strtok(NULL, " "))
		argv[argc++] = w;
	argv[argc] = NULL;
	rt_prog_init("pi_stress");
	return pi_stress_parse_args(&cfg, argc, argv);
}

START_TEST(defaults_are_2_4s)
{
	long online = sysconf(_SC_NPROCESSORS_ONLN);

	ck_assert_int_eq(parse(""), 0);
	ck_assert_int_eq(cfg.groups, online > 1 ? online - 1 : 1);
	ck_assert_uint_eq(cfg.inversions, 0);
	ck_assert_uint_eq(cfg.duration_s, 0);
	ck_assert_uint_eq(cfg.watchdog_ms, 3750);
	for (int r = 0; r < PIS_ROLES; r++) {
		ck_assert_int_eq(cfg.sched[r].policy, SCHED_FIFO);
		ck_assert_int_eq(cfg.sched[r].priority, r + 1);
	}
	ck_assert(!cfg.no_pi && !cfg.uniprocessor && !cfg.quiet);
}
END_TEST

START_TEST(values_land_in_the_config)
{
	ck_assert_int_eq(parse("-g 3 -i 5 -D 2m -u -q -m -d -v -p --no-pi --watchdog=2 -r "
			       "-s id=high,policy=deadline,runtime=1000,deadline=2000,period=3000 "
			       "--sched=id=med,policy=other,nice=5"), 0);
	ck_assert_int_eq(cfg.groups, 3);
	ck_assert_uint_eq(cfg.inversions, 5);
	ck_assert_uint_eq(cfg.duration_s, 120);
	ck_assert(cfg.uniprocessor && cfg.quiet && cfg.mlockall && cfg.debug && cfg.verbose &&
		  cfg.prompt && cfg.no_pi);
	ck_assert_uint_eq(cfg.watchdog_ms, 2000);
	ck_assert_int_eq(cfg.sched[PIS_HIGH].policy, SCHED_DEADLINE);
	ck_assert_uint_eq(cfg.sched[PIS_HIGH].runtime_ns, 1000);
	ck_assert_uint_eq(cfg.sched[PIS_HIGH].deadline_ns, 2000);
	ck_assert_uint_eq(cfg.sched[PIS_HIGH].period_ns, 3000);
	ck_assert_int_eq(cfg.sched[PIS_MED].policy, SCHED_OTHER);
	ck_assert_int_eq(cfg.sched[PIS_MED].nice, 5);
	/* -r: RR where --sched did not say otherwise, the priorities kept */
	ck_assert_int_eq(cfg.sched[PIS_LOW].policy, SCHED_RR);
	ck_assert_int_eq(cfg.sched[PIS_LOW].priority, 1);
	ck_assert_int_eq(cfg.sched[PIS_ADMIN].policy, SCHED_RR);
	ck_assert_int_eq(cfg.sched[PIS_ADMIN].priority, 4);
}
END_TEST

START_TEST(sched_priority_alone_keeps_the_policy)
{
	ck_assert_int_eq(parse("-s id=high,priority=20 -s id=med,policy=rr,priority=10"), 0);
	ck_assert_int_eq(cfg.sched[PIS_HIGH].policy, SCHED_FIFO);
	ck_assert_int_eq(cfg.sched[PIS_HIGH].priority, 20);
	ck_assert_int_eq(cfg.sched[PIS_MED].policy, SCHED_RR);
	ck_assert_int_eq(cfg.sched[PIS_MED].priority, 10);
	ck_assert_int_eq(cfg.sched[PIS_LOW].priority, 1);
}
END_TEST

/* ------------------------------------------------------------ the verdict */

/* A result of one group: inversions, run length and quiet time at the end in ms. */
static const char *judge(uint64_t inversions, int64_t run_ms, int64_t quiet_ms, bool stuck)
{
	static char result[16];
	uint64_t per_group[1] = { inversions };
	bool stuck_g[1] = { stuck }, finished[1] = { false };
	int64_t quiet[1] = { quiet_ms * 1000000 };
	struct pis_result res = {
		.ngroups = 1, .per_group = per_group, .stuck = stuck_g, .nstuck = stuck,
		.finished = finished, .quiet_ns = quiet, .total = inversions,
		.elapsed_ns = run_ms * 1000000, .started = true,
	};
	struct rt_verdict v;

	pi_stress_judge(&v, &cfg, &res);
	snprintf(result, sizeof(result), "%s", rt_verdict_result(&v));
	rt_verdict_free(&v);
	return result;
}

START_TEST(no_pass_without_the_watchdog)
{
	ck_assert_int_eq(parse("--no-pi -u -D 2"), 0);
	ck_assert(cfg.duration_set);
	/* 2 s, shorter than the 3.75 s watchdog: its check never ran */
	ck_assert_str_eq(judge(0, 2000, 2000, false), "inconclusive");
	ck_assert_str_eq(judge(50000, 2000, 0, false), "inconclusive");
	/* long enough, and inverting to the end */
	ck_assert_str_eq(judge(500000, 10000, 1, false), "pass");
	/* a stall in the last watchdog period, caught by nothing */
	ck_assert_str_eq(judge(500000, 10000, 2000, false), "inconclusive");
	ck_assert_str_eq(judge(500000, 10000, 3750, true), "fail");
	ck_assert_int_eq(parse("-D 0"), 0); /* 2.4: stop at the first look */
	ck_assert(cfg.duration_set);
	ck_assert_uint_eq(cfg.duration_s, 0);
}
END_TEST

Suite *unit_suite(void)
{
	Suite *s = suite_create("pi_stress");
	TCase *tc = tcase_create("pi_stress");

	tcase_add_test(tc, defaults_are_2_4s);
	tcase_add_test(tc, values_land_in_the_config);
	tcase_add_test(tc, sched_priority_alone_keeps_the_policy);
	tcase_add_test(tc, no_pass_without_the_watchdog);
	tcase_set_timeout(tc, 30);
	suite_add_tcase(s, tc);
	return s;
}
