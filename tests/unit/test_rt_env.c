// SPDX-License-Identifier: GPL-2.0-or-later
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <numa.h>
#include <unistd.h>

#include "unit.h"

#include "rt_env.h"

static char root[64];

/* Write text to root/path, making the directories on the way. */
static void put(const char *path, const char *text)
{
	char full[512];
	FILE *f;

	snprintf(full, sizeof(full), "%s%s", root, path);
	for (char *p = full + strlen(root) + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		mkdir(full, 0755);
		*p = '/';
	}
	f = fopen(full, "w");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	fclose(f);
}

static void make_root(void)
{
	struct bitmask *b = numa_parse_cpustring_all("0-1");

	if (!b)
		unit_skip("libnuma cannot parse the CPU list 0-1 here (fewer than 2 CPUs, or "
			  "no NUMA support as under qemu-user)");
	numa_bitmask_free(b);
	strcpy(root, "/tmp/rt-env-unit.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(root));
}

static void remove_root(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	ck_assert_int_eq(system(cmd), 0);
}

/*
 * A tuned PREEMPT_RT box: CPU 1 isolated, measured CPU 0 not. (CPU lists
 * stay within 0-1: libnuma parses them against this machine's CPUs.)
 */
static void rt_box(void)
{
	put("/proc/sys/kernel/osrelease", "6.12.0-rt5\n");
	put("/proc/sys/kernel/version", "#1 SMP PREEMPT_RT Thu Jan  1 00:00:00 UTC 2026\n");
	put("/proc/cmdline", "root=/dev/sda1 isolcpus=1 rcu_nocbs=1 quiet\n");
	put("/sys/kernel/realtime", "1\n");
	put("/sys/devices/system/cpu/isolated", "1\n");
	put("/sys/devices/system/cpu/nohz_full", "1\n");
	put("/sys/devices/system/cpu/online", "0-1\n");
	put("/sys/devices/system/cpu/present", "0-1\n");
	put("/sys/devices/system/cpu/smt/active", "1\n");
	put("/sys/devices/system/clocksource/clocksource0/current_clocksource", "tsc\n");
	put("/proc/sys/kernel/sched_rt_runtime_us", "-1\n");
	put("/proc/sys/kernel/sched_rt_period_us", "1000000\n");
	put("/proc/cpuinfo", "processor\t: 0\nmodel name\t: Test CPU @ 3.00GHz\n"
			     "flags\t\t: fpu tsc hypervisorx\n");
	put("/proc/17/comm", "irqbalance\n");
	put("/proc/18/comm", "bash\n");
	for (int cpu = 0; cpu <= 1; cpu++) {
		char p[128];

		snprintf(p, sizeof(p), "/sys/devices/system/cpu/cpu%d/cpufreq/scaling_governor", cpu);
		put(p, cpu == 0 ? "powersave\n" : "performance\n");
		for (int k = 0; k < 3; k++) {
			static const char *const names[] = { "POLL", "C1", "C6" };
			static const char *const lat[] = { "0", "2", "85" };

			snprintf(p, sizeof(p), "/sys/devices/system/cpu/cpu%d/cpuidle/state%d/name", cpu, k);
			put(p, names[k]);
			snprintf(p, sizeof(p), "/sys/devices/system/cpu/cpu%d/cpuidle/state%d/latency", cpu, k);
			put(p, lat[k]);
			snprintf(p, sizeof(p), "/sys/devices/system/cpu/cpu%d/cpuidle/state%d/disable", cpu, k);
			/* CPU 1 has C6 disabled: its deepest enabled state is C1 */
			put(p, cpu == 1 && k == 2 ? "1" : "0");
		}
	}
}

START_TEST(every_field_comes_from_its_file)
{
	struct rt_cpulist measured = { 2, { 0, 1 } };
	struct rt_env e;

	make_root();
	rt_box();
	ck_assert_int_eq(rt_env_read_at(&e, root, &measured), 0);
	ck_assert_str_eq(e.release, "6.12.0-rt5");
	ck_assert_str_eq(e.preempt_model, "PREEMPT_RT");
	ck_assert_ptr_null(e.preempt_mode);
	ck_assert_str_eq(e.cmdline, "root=/dev/sda1 isolcpus=1 rcu_nocbs=1 quiet");
	ck_assert_str_eq(e.isolcpus, "1");
	ck_assert_str_eq(e.nohz_full, "1");
	ck_assert_str_eq(e.rcu_nocbs, "1");
	ck_assert_str_eq(e.clocksource, "tsc");
	ck_assert_int_eq(e.smt, 1);
	ck_assert_int_eq(e.rt_runtime_us, -1);
	ck_assert_int_eq(e.rt_period_us, 1000000);
	ck_assert_int_eq(e.hypervisor, 0); /* "hypervisorx" is another flag */
	ck_assert_ptr_null(e.hypervisor_type);
	ck_assert_int_eq(e.irqbalance, 1);
	ck_assert_str_eq(e.cpu_model, "Test CPU @ 3.00GHz");
	ck_assert_int_eq(e.cpus_online, 2);
	ck_assert_int_eq(e.cpus_present, 2);
	ck_assert_uint_eq(e.ncpus, 2);
	ck_assert_int_eq(e.cpus[0].cpu, 0);
	ck_assert(!e.cpus[0].isolated);
	ck_assert_str_eq(e.cpus[0].governor, "powersave");
	ck_assert_str_eq(e.cpus[0].idle_name, "C6");
	ck_assert_int_eq(e.cpus[0].idle_exit_us, 85);
	ck_assert(e.cpus[1].isolated);
	ck_assert_str_eq(e.cpus[1].idle_name, "C1");
	ck_assert_int_eq(e.cpus[1].idle_exit_us, 2);
	rt_env_free(&e);
	remove_root();
}
END_TEST

START_TEST(what_the_kernel_does_not_expose_is_null)
{
	struct rt_cpulist measured = { 1, { 0 } };
	struct rt_env e;
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	struct rt_json j;

	make_root();
	put("/proc/sys/kernel/version", "#1 SMP PREEMPT_DYNAMIC\n");
	ck_assert_int_eq(rt_env_read_at(&e, root, &measured), 0);
	ck_assert_str_eq(e.preempt_model, "PREEMPT_DYNAMIC");
	ck_assert_ptr_null(e.release);
	ck_assert_ptr_null(e.isolcpus);
	ck_assert_ptr_null(e.cpus[0].governor);
	ck_assert_ptr_null(e.cpus[0].idle_name);
	ck_assert_int_eq(e.smt, -1);
	ck_assert_int_eq(e.hypervisor, -1);
	ck_assert_int_eq(e.rt_runtime_us, RT_ENV_NOT_EXPOSED);
	rt_json_init(&j, f);
	rt_json_object_begin(&j, NULL);
	rt_env_write_json(&j, &e);
	rt_json_object_end(&j);
	ck_assert_int_eq(rt_json_finish(&j), 0);
	fclose(f);
	ck_assert_ptr_nonnull(strstr(text, "\"kernel_release\": null"));
	ck_assert_ptr_nonnull(strstr(text, "\"model\": \"PREEMPT_DYNAMIC\""));
	ck_assert_ptr_nonnull(strstr(text, "\"isolcpus\": null"));
	ck_assert_ptr_nonnull(strstr(text, "\"deepest_idle_state\": null"));
	ck_assert_ptr_nonnull(strstr(text, "\"sched_rt_runtime_us\": null"));
	ck_assert_ptr_nonnull(strstr(text, "\"smt\": null"));
	free(text);
	rt_env_free(&e);
	remove_root();
}
END_TEST

/* e's preflight warnings, one per line. */
static void preflight_text(const struct rt_env *e, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (unsigned i = 0; i < e->npreflight && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s\n", e->preflight[i]);
}

START_TEST(preflight_names_each_weakness_once)
{
	struct rt_cpulist measured = { 2, { 0, 1 } };
	struct rt_env_run weak = { .realtime = false, .pm_qos_held = false };
	struct rt_env_run good = { .realtime = true, .pm_qos_held = true };
	struct rt_env e;
	char text[2048], *json = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&json, &len);
	struct rt_json j;

	make_root();
	rt_box();
	put("/proc/sys/kernel/sched_rt_runtime_us", "950000\n");
	put("/proc/cpuinfo", "flags\t\t: fpu hypervisor tsc\n");
	ck_assert_int_eq(rt_env_read_at(&e, root, &measured), 0);
	ck_assert_uint_eq(e.npreflight, 0);
	ck_assert_int_eq(rt_env_preflight(&e, &weak), 0);
	ck_assert_uint_eq(e.npreflight, 6);
	preflight_text(&e, text, sizeof(text));
	ck_assert_str_eq(text,
		"measuring without a real-time priority (no -p, or SCHED_OTHER): these are not "
		"real-time latencies\n"
		"RT throttling is active (kernel.sched_rt_runtime_us 950000 of 1000000): a "
		"real-time task running that long is stopped\n"
		"measured CPU(s) 0 not isolated while CPU(s) 1 are\n"
		"cpufreq governor other than performance on measured CPU(s) 0\n"
		"idle states deeper than 10 us exit latency enabled on measured CPU(s) 0\n"
		"running in a virtual machine (hypervisor not named by the kernel): the host's "
		"scheduling adds latency the guest cannot see\n");
	/* PM QoS held and real-time: those two go (the list is replaced, not added to) */
	ck_assert_int_eq(rt_env_preflight(&e, &good), 0);
	ck_assert_uint_eq(e.npreflight, 4);
	ck_assert_str_eq(e.preflight[0], "RT throttling is active (kernel.sched_rt_runtime_us "
					 "950000 of 1000000): a real-time task running that long "
					 "is stopped");
	/* the JSON carries them, whatever the tool printed */
	rt_json_init(&j, f);
	rt_json_object_begin(&j, NULL);
	rt_env_write_json(&j, &e);
	rt_json_object_end(&j);
	ck_assert_int_eq(rt_json_finish(&j), 0);
	fclose(f);
	ck_assert_ptr_nonnull(strstr(json, "\"cpus_present\": 2,\n    \"preflight\": [\n"
					   "      \"RT throttling is active"));
	ck_assert_ptr_nonnull(strstr(json, "\"running in a virtual machine (hypervisor not named "
					   "by the kernel): the host's scheduling adds latency the "
					   "guest cannot see\"\n    ],\n    \"run_id\": \""));
	free(json);
	rt_env_free(&e);
	remove_root();
}
END_TEST

/* What the kernel says about its preemption, and why the mode is unknown. */
static const struct preempt_case {
	const char *version;
	const char *realtime;   /* /sys/kernel/realtime, NULL: absent */
	const char *mounts;     /* /proc/mounts, NULL: absent */
	const char *preempt;    /* sched/preempt under /dbg and /sys/kernel/debug; "/" a directory */
	const char *model, *model_source, *mode, *mode_source, *unknown;
} preempt_cases[] = {
	/* debugfs not mounted */
	{ "#1 SMP PREEMPT_DYNAMIC", NULL, "proc /proc proc rw 0 0\n", "none (full)",
	  "PREEMPT_DYNAMIC", "kernel_version", NULL, NULL, "debugfs not mounted" },
	/* mounted where /proc/mounts says, not at the usual place */
	{ "#1 SMP PREEMPT_DYNAMIC", NULL,
	  "proc /proc proc rw 0 0\nnone /dbg debugfs rw 0 0\n", "none voluntary (full) lazy",
	  "PREEMPT_DYNAMIC", "kernel_version", "full", "/dbg/sched/preempt", NULL },
	/* unreadable (here a directory; on a locked-down kernel EPERM) */
	{ "#1 SMP PREEMPT_DYNAMIC", NULL, "none /dbg debugfs rw 0 0\n", "/",
	  "PREEMPT_DYNAMIC", "kernel_version", NULL, NULL,
	  "/dbg/sched/preempt not readable: Is a directory" },
	/* no such file on a dynamic kernel: the sched directory needs SCHED_DEBUG */
	{ "#1 SMP PREEMPT_DYNAMIC", NULL, "none /dbg debugfs rw 0 0\n", NULL,
	  "PREEMPT_DYNAMIC", "kernel_version", NULL, NULL,
	  "no /dbg/sched/preempt (a kernel without CONFIG_SCHED_DEBUG)" },
	/* no such file on a full-preemption kernel */
	{ "#1 SMP PREEMPT Thu Jan 1", NULL, "none /dbg debugfs rw 0 0\n", NULL,
	  "PREEMPT", "kernel_version", NULL, NULL, "no dynamic preemption (PREEMPT_DYNAMIC off)" },
	/* a file without the current mode in parentheses */
	{ "#1 SMP PREEMPT_DYNAMIC", NULL, "none /dbg debugfs rw 0 0\n", "none voluntary full",
	  "PREEMPT_DYNAMIC", "kernel_version", NULL, NULL,
	  "/dbg/sched/preempt names no current mode in parentheses" },
	/* /sys/kernel/realtime says RT though the version does not; no /proc/mounts */
	{ "#1 SMP", "1\n", NULL, "(full) lazy",
	  "PREEMPT_RT", "/sys/kernel/realtime", "full", "/sys/kernel/debug/sched/preempt", NULL },
	/* the version says nothing: no model, and no file */
	{ "#1 SMP Thu Jan 1", "0\n", NULL, NULL,
	  NULL, NULL, NULL, NULL, "no dynamic preemption (PREEMPT_DYNAMIC off)" },
};

static void assert_str_or_null(const char *got, const char *want)
{
	if (want)
		ck_assert_str_eq(got, want);
	else
		ck_assert_ptr_null(got);
}

START_TEST(preemption_mode_says_why_it_is_unknown)
{
	const struct preempt_case *c = &preempt_cases[_i];
	struct rt_cpulist measured = { 1, { 0 } };
	char path[256], *json = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&json, &len);
	struct rt_json j;
	struct rt_env e;

	make_root();
	put("/proc/sys/kernel/version", c->version);
	if (c->realtime)
		put("/sys/kernel/realtime", c->realtime);
	if (c->mounts)
		put("/proc/mounts", c->mounts);
	if (c->preempt && strcmp(c->preempt, "/") == 0) {
		put("/dbg/sched/preempt/x", "");
	} else if (c->preempt) {
		put("/dbg/sched/preempt", c->preempt);
		put("/sys/kernel/debug/sched/preempt", c->preempt);
	}
	ck_assert_int_eq(rt_env_read_at(&e, root, &measured), 0);
	assert_str_or_null(e.preempt_model, c->model);
	assert_str_or_null(e.preempt_model_source, c->model_source);
	assert_str_or_null(e.preempt_mode, c->mode);
	assert_str_or_null(e.preempt_mode_source, c->mode_source);
	assert_str_or_null(e.preempt_mode_unknown, c->unknown);
	rt_json_init(&j, f);
	rt_json_object_begin(&j, NULL);
	rt_env_write_json(&j, &e);
	rt_json_object_end(&j);
	ck_assert_int_eq(rt_json_finish(&j), 0);
	fclose(f);
	snprintf(path, sizeof(path), "\"mode_unknown_reason\": %s%s%s\n", c->unknown ? "\"" : "",
		 c->unknown ? c->unknown : "null", c->unknown ? "\"" : "");
	ck_assert_ptr_nonnull(strstr(json, path));
	ck_assert_ptr_nonnull(strstr(json, "\"mode\": "));
	ck_assert_ptr_nonnull(strstr(json, "\"model_source\": "));
	ck_assert_ptr_nonnull(strstr(json, "\"mode_source\": "));
	free(json);
	rt_env_free(&e);
	remove_root();
}
END_TEST

/*
 * Read in parts: open reads nothing; the preflight part is what the
 * warnings judge (rt_env_preflight reads it itself); the report part the
 * rest; each once. Together they equal rt_env_read_at, field for field.
 */
START_TEST(parts_read_what_they_name_once)
{
	struct rt_cpulist measured = { 2, { 0, 1 } };
	struct rt_env_run weak = { .realtime = false, .pm_qos_held = false };
	struct rt_env e, all;
	char *a = NULL, *b = NULL;
	size_t alen = 0, blen = 0;
	FILE *fa = open_memstream(&a, &alen), *fb = open_memstream(&b, &blen);
	struct rt_json j;

	make_root();
	rt_box();
	put("/proc/sys/kernel/sched_rt_runtime_us", "950000\n");
	ck_assert_int_eq(rt_env_open(&e, root, &measured), 0);
	ck_assert_ptr_null(e.cmdline);
	ck_assert_ptr_null(e.release);
	ck_assert_int_eq(e.rt_runtime_us, RT_ENV_NOT_EXPOSED);
	ck_assert_int_eq(e.cpus[1].cpu, 1);
	ck_assert_int_eq(e.cpus[1].idle_exit_us, -1);
	ck_assert(!e.judged);
	/* the warnings read their part, and only it */
	ck_assert_int_eq(rt_env_preflight(&e, &weak), 0);
	ck_assert(e.judged);
	ck_assert_uint_eq(e.parts, RT_ENV_PART_PREFLIGHT);
	ck_assert_uint_eq(e.npreflight, 5);
	ck_assert_str_eq(e.cpus[0].idle_name, "C6");
	ck_assert_str_eq(e.cpus[1].idle_name, "C1");
	ck_assert_str_eq(e.rcu_nocbs, "1");
	ck_assert_str_eq(e.cpu_model, "Test CPU @ 3.00GHz");
	ck_assert_ptr_null(e.release);
	ck_assert_int_eq(e.cpus_online, -1);
	/* a part is read once: a file changed since does not show */
	put("/proc/sys/kernel/sched_rt_runtime_us", "-1\n");
	ck_assert_int_eq(rt_env_read_parts(&e, RT_ENV_PART_ALL), 0);
	ck_assert_int_eq(e.rt_runtime_us, 950000);
	ck_assert_str_eq(e.release, "6.12.0-rt5");
	ck_assert_int_eq(e.irqbalance, 1);
	ck_assert_uint_eq(e.parts, RT_ENV_PART_ALL);
	/* everything as one read gives */
	put("/proc/sys/kernel/sched_rt_runtime_us", "950000\n");
	ck_assert_int_eq(rt_env_read_at(&all, root, &measured), 0);
	ck_assert_int_eq(rt_env_preflight(&all, &weak), 0);
	rt_json_init(&j, fa);
	rt_json_object_begin(&j, NULL);
	rt_env_write_json(&j, &e);
	rt_json_object_end(&j);
	ck_assert_int_eq(rt_json_finish(&j), 0);
	fclose(fa);
	rt_json_init(&j, fb);
	rt_json_object_begin(&j, NULL);
	/* the same run: one id (each open takes its own) */
	memcpy(all.run_id, e.run_id, sizeof(all.run_id));
	rt_env_write_json(&j, &all);
	rt_json_object_end(&j);
	ck_assert_int_eq(rt_json_finish(&j), 0);
	fclose(fb);
	ck_assert_str_eq(a, b);
	free(a);
	free(b);
	rt_env_free(&e);
	rt_env_free(&all);
	remove_root();
}
END_TEST

/* Idle states found from the deepest down: gaps end the list, as before. */
START_TEST(deepest_enabled_idle_state_from_the_top)
{
	struct rt_cpulist measured = { 1, { 0 } };
	struct rt_env e;

	make_root();
	put("/sys/devices/system/cpu/cpu0/cpuidle/state0/name", "POLL\n");
	put("/sys/devices/system/cpu/cpu0/cpuidle/state0/latency", "0\n");
	put("/sys/devices/system/cpu/cpu0/cpuidle/state1/name", "C1\n");
	put("/sys/devices/system/cpu/cpu0/cpuidle/state1/latency", "2\n");
	put("/sys/devices/system/cpu/cpu0/cpuidle/state2/name", "C3\n");
	put("/sys/devices/system/cpu/cpu0/cpuidle/state2/latency", "40\n");
	put("/sys/devices/system/cpu/cpu0/cpuidle/state2/disable", "1\n");
	/* after a gap: not a state of the list */
	put("/sys/devices/system/cpu/cpu0/cpuidle/state4/name", "C10\n");
	put("/sys/devices/system/cpu/cpu0/cpuidle/state4/latency", "900\n");
	ck_assert_int_eq(rt_env_read_at(&e, root, &measured), 0);
	ck_assert_str_eq(e.cpus[0].idle_name, "C1");
	ck_assert_int_eq(e.cpus[0].idle_exit_us, 2);
	rt_env_free(&e);
	remove_root();
}
END_TEST

START_TEST(unpinned_threads_measure_every_allowed_cpu)
{
	struct rt_cpulist allowed = { 3, { 0, 1, 3 } }, l = { 0 };

	rt_env_add_measured(&l, 1, &allowed);
	rt_env_add_measured(&l, -1, &allowed);
	rt_env_add_measured(&l, 3, &allowed);
	ck_assert_uint_eq(l.count, 3);
	ck_assert_int_eq(l.cpu[0], 1);
	ck_assert_int_eq(l.cpu[1], 0);
	ck_assert_int_eq(l.cpu[2], 3);
}
END_TEST

Suite *unit_suite(void)
{
	Suite *s = suite_create("rt_env");
	TCase *tc = tcase_create("env");

	tcase_add_test(tc, every_field_comes_from_its_file);
	tcase_add_test(tc, what_the_kernel_does_not_expose_is_null);
	tcase_add_test(tc, preflight_names_each_weakness_once);
	tcase_add_loop_test(tc, preemption_mode_says_why_it_is_unknown, 0,
			    (int)(sizeof(preempt_cases) / sizeof(preempt_cases[0])));
	tcase_add_test(tc, unpinned_threads_measure_every_allowed_cpu);
	tcase_add_test(tc, parts_read_what_they_name_once);
	tcase_add_test(tc, deepest_enabled_idle_state_from_the_top);
	suite_add_tcase(s, tc);
	return s;
}
