// SPDX-License-Identifier: GPL-2.0-or-later
/* cyclicdeadline's parser and its T: line, in-process. */
#include <stdio.h>
#include <string.h>

#include "unit.h"

#include "rt_affinity.h"
#include "rt_stats.h"

#include "options.h"
#include "report.h"

static int parse(struct cyclicdeadline_config *cfg, const char *const *words)
{
	char *argv[16];
	int argc = 0;

	argv[argc++] = (char *)"cyclicdeadline";
	for (; *words; words++)
		argv[argc++] = (char *)*words;
	argv[argc] = NULL;
	cyclicdeadline_config_init(cfg);
	return cyclicdeadline_parse_args(cfg, argc, argv);
}

static unsigned allowed_cpus(void)
{
	struct rt_cpulist l;

	ck_assert_int_eq(rt_affinity_allowed(&l), 0);
	return l.count;
}

START_TEST(defaults_are_2_4s)
{
	struct cyclicdeadline_config cfg;
	const char *w[] = { NULL };

	ck_assert_int_eq(parse(&cfg, w), 0);
	ck_assert_int_eq(cyclicdeadline_config_check(&cfg), 0);
	ck_assert_int_eq(cfg.ct.threads, 1);
	ck_assert_int_eq(cfg.ct.interval_us, 1000);
	ck_assert_int_eq(cfg.ct.distance_us, 500);
	ck_assert_int_eq(cfg.ct.timer, CT_TIMER_DEADLINE);
	ck_assert_int_eq(cyclicdeadline_runtime_us(&cfg, 0), 600);
	ck_assert_int_eq(cyclicdeadline_runtime_us(&cfg, 1), 900);
	ck_assert(cfg.all_cpus);
}
END_TEST

START_TEST(bare_a_is_one_thread_per_cpu_unless_t_came_first)
{
	struct cyclicdeadline_config cfg;
	const char *a[] = { "-a", "-q", NULL };
	const char *ta[] = { "-t", "1", "-a", NULL };
	const char *at[] = { "-a", "-t", "3", NULL };
	const char *along[] = { "--affinity", "--threads=2", NULL };

	ck_assert_int_eq(parse(&cfg, a), 0);
	ck_assert_int_eq(cyclicdeadline_config_check(&cfg), 0);
	ck_assert_int_eq(cfg.ct.threads, (int)allowed_cpus());
	ck_assert(cfg.ct.quiet); /* -a did not take -q */
	ck_assert(!cfg.all_cpus); /* 2.4 prints nothing for a bare -a */
	ck_assert_int_eq(parse(&cfg, ta), 0);
	ck_assert_int_eq(cyclicdeadline_config_check(&cfg), 0);
	ck_assert_int_eq(cfg.ct.threads, 1);
	ck_assert_int_eq(parse(&cfg, at), 0);
	ck_assert_int_eq(cyclicdeadline_config_check(&cfg), 0);
	ck_assert_int_eq(cfg.ct.threads, 3);
	ck_assert_int_eq(parse(&cfg, along), 0);
	ck_assert_int_eq(cyclicdeadline_config_check(&cfg), 0);
	ck_assert_int_eq(cfg.ct.threads, 2);
}
END_TEST

START_TEST(more_threads_than_cpus_share_80_percent)
{
	struct cyclicdeadline_config cfg;
	char n[16];
	const char *w[] = { "-t", n, "-i", "10000", NULL };
	unsigned cpus = allowed_cpus();

	snprintf(n, sizeof(n), "%u", 4 * cpus);
	ck_assert_int_eq(parse(&cfg, w), 0);
	ck_assert_int_eq(cyclicdeadline_config_check(&cfg), 0);
	ck_assert_int_eq(cfg.ct.deadline_runtime_pct, 20);
	ck_assert_int_eq(cyclicdeadline_runtime_us(&cfg, 0), 2000);
}
END_TEST

START_TEST(every_cpu_is_all_cpus)
{
	struct cyclicdeadline_config cfg;
	const char *w[] = { "-a", "all", NULL };
	const char *c[] = { "-c", "all", NULL };

	ck_assert_int_eq(parse(&cfg, w), 0);
	ck_assert_int_eq(cyclicdeadline_config_check(&cfg), 0);
	ck_assert(cfg.all_cpus);
	ck_assert_int_eq(cfg.ct.threads, 1);
	ck_assert_int_eq(parse(&cfg, c), 0);
	ck_assert_int_eq(cyclicdeadline_config_check(&cfg), 0);
	ck_assert(cfg.all_cpus);
}
END_TEST

START_TEST(t_line_is_2_4s)
{
	struct rt_stats s;
	char buf[128];

	rt_stats_init(&s);
	cyclicdeadline_format_line(buf, sizeof(buf), 0, 4086, 3334, &s);
	ck_assert_str_eq(buf, "T: 0 ( 4086) I:3334 C:      0 Min:      - Act:    - Avg:    - Max:       -");
	rt_stats_add(&s, 3);
	rt_stats_add(&s, 0);
	rt_stats_add(&s, 14);
	cyclicdeadline_format_line(buf, sizeof(buf), 0, 4086, 3334, &s);
	ck_assert_str_eq(buf, "T: 0 ( 4086) I:3334 C:      3 Min:      0 Act:   14 Avg:    5 Max:      14");
}
END_TEST

Suite *unit_suite(void)
{
	Suite *s = suite_create("cyclicdeadline");
	TCase *tc = tcase_create("options");

	tcase_add_test(tc, defaults_are_2_4s);
	tcase_add_test(tc, bare_a_is_one_thread_per_cpu_unless_t_came_first);
	tcase_add_test(tc, more_threads_than_cpus_share_80_percent);
	tcase_add_test(tc, every_cpu_is_all_cpus);
	tcase_add_test(tc, t_line_is_2_4s);
	suite_add_tcase(s, tc);
	return s;
}
