// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <limits.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>

#include "unit.h"

#include "rt_opt.h"

static const struct {
	const char *in;
	long long min, max;
	int err;
	long long out;
} ll_cases[] = {
	{ "0", 0, 10, 0, 0 },
	{ "10", 0, 10, 0, 10 },
	{ " 3500", 1, 1000000, 0, 3500 }, /* "-h 3500" in one argv word */
	{ "-5", -10, 10, 0, -5 },
	{ "+7", 0, 10, 0, 7 },
	{ "11", 0, 10, -ERANGE, 0 },
	{ "-1", 0, 10, -ERANGE, 0 },
	{ "99999999999999999999", 0, LLONG_MAX, -ERANGE, 0 },
	{ "", 0, 10, -EINVAL, 0 },
	{ " ", 0, 10, -EINVAL, 0 },
	{ "abc", 0, 10, -EINVAL, 0 },
	{ "5x", 0, 10, -EINVAL, 0 },
	{ "5 ", 0, 10, -EINVAL, 0 },
	{ "1.5", 0, 10, -EINVAL, 0 },
	{ "0x10", 0, 100, -EINVAL, 0 },
	{ "--5", -10, 10, -EINVAL, 0 },
};

START_TEST(parse_ll_table)
{
	long long out = -12345;
	int err = rt_opt_parse_ll(ll_cases[_i].in, ll_cases[_i].min, ll_cases[_i].max, &out);

	ck_assert_msg(err == ll_cases[_i].err, "'%s': err %d, want %d", ll_cases[_i].in, err,
		      ll_cases[_i].err);
	if (!err)
		ck_assert_int_eq(out, ll_cases[_i].out);
	else
		ck_assert_int_eq(out, -12345); /* untouched on error */
}
END_TEST

START_TEST(parse_ll_null)
{
	long long out;

	ck_assert_int_eq(rt_opt_parse_ll(NULL, 0, 1, &out), -EINVAL);
}
END_TEST

START_TEST(parse_int_limits)
{
	int out;

	ck_assert_int_eq(rt_opt_parse_int("2147483647", 0, INT_MAX, &out), 0);
	ck_assert_int_eq(out, INT_MAX);
	ck_assert_int_eq(rt_opt_parse_int("2147483648", 0, INT_MAX, &out), -ERANGE);
	ck_assert_int_eq(rt_opt_parse_int("100", 0, 99, &out), -ERANGE);
}
END_TEST

static const struct {
	const char *in;
	int err;
	uint64_t out;
} dur_cases[] = {
	{ "10", 0, 10 },       { "10s", 0, 10 },         { "10S", 0, 10 },
	{ "2m", 0, 120 },      { "2M", 0, 120 },         { "1h", 0, 3600 },
	{ "1H", 0, 3600 },     { "1d", 0, 86400 },       { "1D", 0, 86400 },
	{ "0", 0, 0 },         { "5x", -EINVAL, 0 },     { "1.5m", -EINVAL, 0 },
	{ "abc", -EINVAL, 0 }, { "", -EINVAL, 0 },       { "-5", -EINVAL, 0 },
	{ "10ms", -EINVAL, 0 }, { "m", -EINVAL, 0 },     { "3651d", -ERANGE, 0 },
	{ "99999999999999999999999", -ERANGE, 0 },
};

START_TEST(parse_duration_table)
{
	uint64_t out = 777;
	int err = rt_opt_parse_duration(dur_cases[_i].in, 3650ULL * 86400, &out);

	ck_assert_msg(err == dur_cases[_i].err, "'%s': err %d, want %d", dur_cases[_i].in, err,
		      dur_cases[_i].err);
	if (!err)
		ck_assert_uint_eq(out, dur_cases[_i].out);
	else
		ck_assert_uint_eq(out, 777);
}
END_TEST

static const struct {
	const char *in;
	int err;
	int policy;
} pol_cases[] = {
	{ "other", 0, SCHED_OTHER }, { "normal", 0, SCHED_OTHER }, { "batch", 0, SCHED_BATCH },
	{ "idle", 0, SCHED_IDLE },   { "fifo", 0, SCHED_FIFO },     { "rr", 0, SCHED_RR },
	{ "FIFO", 0, SCHED_FIFO },   { "Rr", 0, SCHED_RR },         { "fif", -EINVAL, 0 },
	{ "deadline", -EINVAL, 0 },  { "", -EINVAL, 0 },            { "fifo ", -EINVAL, 0 },
};

START_TEST(parse_policy_table)
{
	int policy = -1;
	int err = rt_opt_parse_policy(pol_cases[_i].in, &policy);

	ck_assert_msg(err == pol_cases[_i].err, "'%s'", pol_cases[_i].in);
	if (!err)
		ck_assert_int_eq(policy, pol_cases[_i].policy);
}
END_TEST

static const struct {
	const char *in;
	int err;
	uint32_t permyriad;
	long long bound;
} pct_cases[] = {
	{ "99.9:80", 0, 999000, 80 },       { "50:0", 0, 500000, 0 },
	{ "100:7", 0, 1000000, 7 },          { "99.9999:1000", 0, 999999, 1000 },
	{ "0.0001:5", 0, 1, 5 },             { "99.90:3", 0, 999000, 3 },
	{ "0:5", -ERANGE, 0, 0 },            { "100.0001:5", -ERANGE, 0, 0 },
	{ "101:5", -ERANGE, 0, 0 },          { "99.99999:5", -EINVAL, 0, 0 },
	{ "99.9", -EINVAL, 0, 0 },           { "99.9:", -EINVAL, 0, 0 },
	{ ":80", -EINVAL, 0, 0 },            { "99.:80", -EINVAL, 0, 0 },
	{ ".9:80", -EINVAL, 0, 0 },          { "-1:80", -EINVAL, 0, 0 },
	{ "99.9:-1", -EINVAL, 0, 0 },        { "99.9:80us", -EINVAL, 0, 0 },
	{ "nan:80", -EINVAL, 0, 0 },         { "1e2:80", -EINVAL, 0, 0 },
	{ "99.9:1001", -ERANGE, 0, 0 },      { "99.9:80:1", -EINVAL, 0, 0 },
};

START_TEST(parse_percentile_limit_table)
{
	uint32_t pm = 7;
	long long bound = 7;
	int err = rt_opt_parse_percentile_limit(pct_cases[_i].in, 1000, &pm, &bound);

	ck_assert_msg(err == pct_cases[_i].err, "'%s': err %d, want %d", pct_cases[_i].in, err,
		      pct_cases[_i].err);
	if (!err) {
		ck_assert_uint_eq(pm, pct_cases[_i].permyriad);
		ck_assert_int_eq(bound, pct_cases[_i].bound);
	}
}
END_TEST

static struct rt_cpulist allowed;

static void cpus_setup(void)
{
	ck_assert_int_eq(rt_affinity_allowed(&allowed), 0);
}

START_TEST(cpulist_single_and_all)
{
	struct rt_cpulist l;
	char buf[16];

	snprintf(buf, sizeof(buf), "%d", allowed.cpu[0]);
	ck_assert_int_eq(rt_opt_parse_cpulist(buf, &l), 0);
	ck_assert_uint_eq(l.count, 1);
	ck_assert_int_eq(l.cpu[0], allowed.cpu[0]);

	ck_assert_int_eq(rt_opt_parse_cpulist("all", &l), 0);
	ck_assert_uint_eq(l.count, allowed.count);
	for (unsigned i = 0; i < l.count; i++)
		ck_assert_int_eq(l.cpu[i], allowed.cpu[i]);
}
END_TEST

START_TEST(cpulist_descending_range_is_refused)
{
	struct rt_cpulist l;

	ck_assert_int_eq(rt_opt_parse_cpulist("1-0", &l), -EDOM);
	ck_assert_int_eq(rt_opt_parse_cpulist("0,3-2", &l), -EDOM);
	ck_assert_int_eq(rt_opt_parse_cpulist("!1-0", &l), -EDOM);
	ck_assert_uint_eq(l.count, 0);
	ck_assert_int_eq(rt_opt_parse_cpulist("0-0", &l), 0); /* a range of one */
	ck_assert_uint_eq(l.count, 1);
}
END_TEST

START_TEST(cpulist_range_list_negation_relative)
{
	struct rt_cpulist l;
	char buf[64];

	if (allowed.count < 2 || allowed.cpu[0] != 0 || allowed.cpu[1] != 1) {
		unit_skip("needs CPUs 0 and 1 (cpulist_single_and_all covers the rest)");
	}
	ck_assert_int_eq(rt_opt_parse_cpulist("0-1", &l), 0);
	ck_assert_uint_eq(l.count, 2);
	ck_assert_int_eq(rt_opt_parse_cpulist("1,0", &l), 0);
	ck_assert_uint_eq(l.count, 2);
	ck_assert_int_eq(l.cpu[0], 0); /* ascending, whatever the input order */
	ck_assert_int_eq(rt_opt_parse_cpulist("+1", &l), 0);
	ck_assert_uint_eq(l.count, 1);
	ck_assert_int_eq(l.cpu[0], 1);
	snprintf(buf, sizeof(buf), "!0");
	ck_assert_int_eq(rt_opt_parse_cpulist(buf, &l), 0);
	ck_assert_uint_eq(l.count, allowed.count - 1);
	ck_assert(!rt_affinity_contains(&l, 0));
}
END_TEST

START_TEST(cpulist_rejects)
{
	struct rt_cpulist l;

	ck_assert_int_eq(rt_opt_parse_cpulist("", &l), -EINVAL);
	ck_assert_int_eq(rt_opt_parse_cpulist(NULL, &l), -EINVAL);
	ck_assert_int_ne(rt_opt_parse_cpulist("abc", &l), 0);
	ck_assert_int_ne(rt_opt_parse_cpulist("9999", &l), 0);
	/* Found by fuzz_values: an overflowing range end made libnuma spin. */
	ck_assert_int_eq(rt_opt_parse_cpulist("0-00000000000000500000000000000000000", &l), -ERANGE);
	ck_assert_int_eq(rt_opt_parse_cpulist("0-0500000000000000000000", &l), -ERANGE);
	ck_assert_int_eq(rt_opt_parse_cpulist("0-0xffffffffffffffffff", &l), -ERANGE);
	ck_assert_int_eq(rt_opt_parse_cpulist("0,1024", &l), -ERANGE);
	ck_assert_int_ne(rt_opt_parse_cpulist("3-1", &l), 0);
	ck_assert_uint_eq(l.count, 0);
}
END_TEST

START_TEST(cpulist_outside_allowed_set)
{
	struct rt_cpulist l;
	char buf[16];
	int outside = -1;

	/* First CPU number the process may not use but that exists (or not). */
	for (int c = 0; c < CPU_SETSIZE && outside < 0; c++)
		if (!rt_affinity_contains(&allowed, c))
			outside = c;
	snprintf(buf, sizeof(buf), "%d", outside);
	ck_assert_int_ne(rt_opt_parse_cpulist(buf, &l), 0);
}
END_TEST

/* queuelat -m: a time in ns with an optional unit (2.4 read "20us" as 20). */
START_TEST(time_ns_units)
{
	int64_t ns;

	ck_assert_int_eq(rt_opt_parse_time_ns("20000", 1000000000, &ns), 0);
	ck_assert_int_eq(ns, 20000);
	ck_assert_int_eq(rt_opt_parse_time_ns("20us", 1000000000, &ns), 0);
	ck_assert_int_eq(ns, 20000);
	ck_assert_int_eq(rt_opt_parse_time_ns("20US", 1000000000, &ns), 0);
	ck_assert_int_eq(ns, 20000);
	ck_assert_int_eq(rt_opt_parse_time_ns("7ns", 1000000000, &ns), 0);
	ck_assert_int_eq(ns, 7);
	ck_assert_int_eq(rt_opt_parse_time_ns("100ms", 1000000000, &ns), 0);
	ck_assert_int_eq(ns, 100000000);
	ck_assert_int_eq(rt_opt_parse_time_ns("1s", 1000000000, &ns), 0);
	ck_assert_int_eq(ns, 1000000000);
	ck_assert_int_eq(rt_opt_parse_time_ns("2s", 1000000000, &ns), -ERANGE);
	ck_assert_int_eq(rt_opt_parse_time_ns("99999999999999999999", INT64_MAX, &ns), -ERANGE);
	ck_assert_int_eq(rt_opt_parse_time_ns("1.5us", 1000000000, &ns), -EINVAL);
	ck_assert_int_eq(rt_opt_parse_time_ns("20xs", 1000000000, &ns), -EINVAL);
	ck_assert_int_eq(rt_opt_parse_time_ns("-1", 1000000000, &ns), -EINVAL);
	ck_assert_int_eq(rt_opt_parse_time_ns("us", 1000000000, &ns), -EINVAL);
	ck_assert_int_eq(rt_opt_parse_time_ns("", 1000000000, &ns), -EINVAL);
}
END_TEST

Suite *unit_suite(void)
{
	Suite *s = suite_create("rt_opt");
	TCase *tc;

	tc = tcase_create("numbers_with_ranges_and_no_trailing_junk");
	tcase_add_loop_test(tc, parse_ll_table, 0, sizeof(ll_cases) / sizeof(ll_cases[0]));
	tcase_add_test(tc, parse_ll_null);
	tcase_add_test(tc, parse_int_limits);
	suite_add_tcase(s, tc);

	tc = tcase_create("durations_with_units");
	tcase_add_loop_test(tc, parse_duration_table, 0,
			    sizeof(dur_cases) / sizeof(dur_cases[0]));
	suite_add_tcase(s, tc);

	tc = tcase_create("percentile_limits_exact_to_four_decimals");
	UNIT_LOOP(tc, parse_percentile_limit_table, pct_cases);
	suite_add_tcase(s, tc);

	tc = tcase_create("policy_names");
	tcase_add_loop_test(tc, parse_policy_table, 0, sizeof(pol_cases) / sizeof(pol_cases[0]));
	suite_add_tcase(s, tc);

	tc = tcase_create("cpu_lists_within_allowed_set");
	tcase_add_checked_fixture(tc, cpus_setup, NULL);
	tcase_add_test(tc, cpulist_single_and_all);
	tcase_add_test(tc, cpulist_range_list_negation_relative);
	tcase_add_test(tc, cpulist_descending_range_is_refused);
	tcase_add_test(tc, cpulist_rejects);
	tcase_add_test(tc, cpulist_outside_allowed_set);
	tcase_add_test(tc, time_ns_units);
	suite_add_tcase(s, tc);
	return s;
}
