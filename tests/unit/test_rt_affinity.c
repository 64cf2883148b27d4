// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <unistd.h>

#include <numa.h>

#include "unit.h"

#include "rt_affinity.h"

START_TEST(allowed_matches_sched_getaffinity)
{
	struct rt_cpulist l;
	cpu_set_t set;

	ck_assert_int_eq(rt_affinity_allowed(&l), 0);
	ck_assert_int_eq(sched_getaffinity(0, sizeof(set), &set), 0);
	ck_assert_uint_eq(l.count, (unsigned)CPU_COUNT(&set));
	for (unsigned i = 0; i < l.count; i++) {
		ck_assert(CPU_ISSET(l.cpu[i], &set));
		if (i)
			ck_assert_int_lt(l.cpu[i - 1], l.cpu[i]);
	}
}
END_TEST

START_TEST(round_robin_over_list)
{
	struct rt_cpulist l = { .count = 3, .cpu = { 4, 6, 9 } };
	struct rt_cpulist empty = { .count = 0 };

	ck_assert_int_eq(rt_affinity_cpu_for(&l, 0), 4);
	ck_assert_int_eq(rt_affinity_cpu_for(&l, 2), 9);
	ck_assert_int_eq(rt_affinity_cpu_for(&l, 3), 4);
	ck_assert_int_eq(rt_affinity_cpu_for(&l, 7), 6);
	ck_assert_int_eq(rt_affinity_cpu_for(&empty, 0), -1);
	ck_assert(rt_affinity_contains(&l, 6));
	ck_assert(!rt_affinity_contains(&l, 5));
}
END_TEST

START_TEST(format_ranges)
{
	struct rt_cpulist l = { .count = 5, .cpu = { 0, 1, 2, 5, 7 } };
	char buf[32];

	rt_affinity_format(&l, buf, sizeof(buf));
	ck_assert_str_eq(buf, "0-2,5,7");
	l.count = 0;
	rt_affinity_format(&l, buf, sizeof(buf));
	ck_assert_str_eq(buf, "");
}
END_TEST

START_TEST(pin_self_and_read_back)
{
	struct rt_cpulist l;
	cpu_set_t set;
	int cpu;

	ck_assert_int_eq(rt_affinity_allowed(&l), 0);
	cpu = l.cpu[l.count - 1];
	ck_assert_int_eq(rt_affinity_pin_thread(pthread_self(), cpu), 0);
	ck_assert_int_eq(pthread_getaffinity_np(pthread_self(), sizeof(set), &set), 0);
	ck_assert_int_eq(CPU_COUNT(&set), 1);
	ck_assert(CPU_ISSET(cpu, &set));
	ck_assert_int_eq(sched_getcpu(), cpu);
	ck_assert_int_eq(rt_affinity_pin_thread_list(pthread_self(), &l), 0);
	ck_assert_int_eq(pthread_getaffinity_np(pthread_self(), sizeof(set), &set), 0);
	ck_assert_uint_eq((unsigned)CPU_COUNT(&set), l.count);
}
END_TEST

START_TEST(pin_rejects_bad_cpu)
{
	ck_assert_int_eq(rt_affinity_pin_thread(pthread_self(), -1), -EINVAL);
	ck_assert_int_eq(rt_affinity_pin_thread(pthread_self(), CPU_SETSIZE), -EINVAL);
}
END_TEST

START_TEST(node_of_cpu)
{
	struct rt_cpulist l;

	ck_assert_int_eq(rt_affinity_allowed(&l), 0);
	/* The kernel lists each CPU under its node: /sys/devices/system/node/nodeN/cpuM. */
	for (unsigned i = 0; i < l.count; i++) {
		int node = rt_affinity_node_of_cpu(l.cpu[i]);
		char path[128];

		if (node < 0 && numa_available() < 0)
			unit_skip("libnuma finds no NUMA support here (numa_available() < 0, "
				  "as under qemu-user)");
		ck_assert_int_ge(node, 0);
		snprintf(path, sizeof(path), "/sys/devices/system/node/node%d/cpu%d", node, l.cpu[i]);
		if (access("/sys/devices/system/node", F_OK) != 0)
			unit_skip("no /sys/devices/system/node to compare with");
		ck_assert_msg(access(path, F_OK) == 0, "CPU %d is not in node %d (%s)", l.cpu[i],
			      node, path);
	}
	ck_assert_int_eq(rt_affinity_node_of_cpu(CPU_SETSIZE + 5), -1);
}
END_TEST

Suite *unit_suite(void)
{
	Suite *s = suite_create("rt_affinity");
	TCase *tc = tcase_create("cpu_sets_and_pinning");

	tcase_add_test(tc, allowed_matches_sched_getaffinity);
	tcase_add_test(tc, round_robin_over_list);
	tcase_add_test(tc, format_ranges);
	tcase_add_test(tc, pin_self_and_read_back);
	tcase_add_test(tc, pin_rejects_bad_cpu);
	tcase_add_test(tc, node_of_cpu);
	suite_add_tcase(s, tc);
	return s;
}
