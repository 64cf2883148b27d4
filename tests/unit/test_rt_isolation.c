// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "unit.h"

#include "rt_irqtab.h"
#include "rt_isolation.h"
#include "rt_isolation_preflight.h"

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
	strcpy(root, "/tmp/rt-isolation-unit.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(root));
}

static void remove_root(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	ck_assert_int_eq(system(cmd), 0);
}

static const int measured[] = { 1, 3 };

static const char interrupts[] =
	"           CPU0       CPU1       CPU2       CPU3       \n"
	"  0:         44          0          0          0   IO-APIC   2-edge      timer\n"
	" 24:          1       1190          0          7  IR-PCI-MSI 512000-edge      nvme0q2\n"
	" 25:\t0\t  3  0 \t 2 PCI-MSIX-0000:00:01.0   0-edge      virtio0-config, i8042\n"
	" 26:          0         10          0          0  IO-APIC   4-edge      nvme0q2\n"
	"NMI:          1          2          0          0   Non-maskable interrupts\n"
	"LOC:   12794010         13   11125092         40   Local timer interrupts\n"
	"BAD:          1        abc          3          4   garbled\n"
	"BIG:          1 99999999999999999999999          3 4   overflowed\n"
	"SHORT:        1          2\n"
	"ERR:          0\n"
	"MIS:          0\n"
	"\n";

START_TEST(parser_keeps_the_measured_columns)
{
	struct rt_irqtab t;
	uint64_t *c;
	bool present[2];

	ck_assert_int_eq(rt_irqtab_init(&t, true, measured, 2), 0);
	ck_assert_int_eq(rt_irqtab_parse(&t, interrupts, NULL, NULL), 0);
	ck_assert_uint_eq(t.nsrc, 6);
	ck_assert_uint_eq(t.bad_lines, 3); /* BAD, BIG, SHORT; ERR and MIS are left out */
	c = calloc(rt_irqtab_capacity(&t) * 2, sizeof(*c));
	ck_assert_int_eq(rt_irqtab_parse(&t, interrupts, c, present), 0);
	ck_assert(present[0] && present[1]);
	ck_assert_str_eq(t.src[0].key, "0");
	ck_assert_str_eq(t.src[0].name, "timer");
	ck_assert_str_eq(t.src[1].name, "nvme0q2");
	ck_assert_uint_eq(c[1 * 2 + 0], 1190);   /* IRQ 24 on CPU 1 */
	ck_assert_uint_eq(c[1 * 2 + 1], 7);      /* on CPU 3 */
	/* tabs and odd spacing; an action of two names */
	ck_assert_str_eq(t.src[2].name, "virtio0-config, i8042");
	ck_assert_uint_eq(c[2 * 2 + 0], 3);
	ck_assert_uint_eq(c[2 * 2 + 1], 2);
	/* a second IRQ of the same name is told apart by its number */
	ck_assert_str_eq(t.src[3].name, "nvme0q2:26");
	ck_assert_str_eq(t.src[5].name, "LOC");
	ck_assert_uint_eq(c[5 * 2 + 0], 13);
	ck_assert_uint_eq(c[5 * 2 + 1], 40);
	free(c);
	rt_irqtab_free(&t);
}
END_TEST

START_TEST(parser_follows_hotplug_and_new_sources)
{
	struct rt_irqtab t;
	uint64_t *c;
	bool present[2];

	ck_assert_int_eq(rt_irqtab_init(&t, true, measured, 2), 0);
	ck_assert_int_eq(rt_irqtab_parse(&t, interrupts, NULL, NULL), 0);
	c = calloc(rt_irqtab_capacity(&t) * 2, sizeof(*c));
	/* CPU 3 went offline: three columns; a new IRQ 99 appeared, IRQ 0 went */
	ck_assert_int_eq(rt_irqtab_parse(&t,
					 "  CPU0  CPU1  CPU2\n"
					 " 99:  5  6  7  PCI-MSI 1-edge  eth0\n"
					 "LOC:  1  20  3  Local timer interrupts\n"
					 " 24:  1  1200  0  IR-PCI-MSI 512000-edge  nvme0q2\n",
					 c, present), 0);
	ck_assert(present[0]);
	ck_assert(!present[1]);
	ck_assert_uint_eq(t.nsrc, 7);
	ck_assert_str_eq(t.src[6].name, "eth0");
	ck_assert_uint_eq(c[6 * 2], 6);
	ck_assert_uint_eq(c[5 * 2], 20);
	ck_assert_uint_eq(c[1 * 2], 1200);
	ck_assert_uint_eq(c[0], 0); /* IRQ 0 is gone */
	/* no header: rejected */
	ck_assert_int_eq(rt_irqtab_parse(&t, " 24: 1 2 3\n", c, present), -EINVAL);
	ck_assert_int_eq(rt_irqtab_parse(&t, "", c, present), -EINVAL);
	free(c);
	rt_irqtab_free(&t);
}
END_TEST

START_TEST(parser_never_grows_past_its_table)
{
	struct rt_irqtab t;
	char text[8192];
	size_t used;
	uint64_t *c;

	ck_assert_int_eq(rt_irqtab_init(&t, false, measured, 2), 0);
	ck_assert_int_eq(rt_irqtab_parse(&t, "  CPU1  CPU3\nHI: 1 2\n", NULL, NULL), 0);
	c = calloc(rt_irqtab_capacity(&t) * 2, sizeof(*c));
	used = (size_t)snprintf(text, sizeof(text), "  CPU1  CPU3\n");
	for (int i = 0; i < RT_IRQTAB_SPARE + 10; i++)
		used += (size_t)snprintf(text + used, sizeof(text) - used, "K%d: %d 1\n", i, i);
	ck_assert_int_eq(rt_irqtab_parse(&t, text, c, NULL), 0);
	ck_assert_uint_eq(t.nsrc, rt_irqtab_capacity(&t));
	ck_assert_uint_eq(t.skipped, RT_IRQTAB_SPARE + 10 - (rt_irqtab_capacity(&t) - 1));
	free(c);
	rt_irqtab_free(&t);
}
END_TEST

static void tables(unsigned loc1, unsigned nvme1, unsigned loc3, unsigned timer1, unsigned vol,
		   unsigned invol)
{
	char text[1024];

	snprintf(text, sizeof(text),
		 "           CPU0       CPU1       CPU2       CPU3\n"
		 " 24:          1 %10u          0          7  IR-PCI-MSI 512000-edge      nvme0q2\n"
		 "LOC:          5 %10u          9 %10u   Local timer interrupts\n",
		 nvme1, loc1, loc3);
	put("/proc/interrupts", text);
	snprintf(text, sizeof(text),
		 "                    CPU0       CPU1       CPU2       CPU3\n"
		 "          HI:          0          0          0          0\n"
		 "       TIMER:          1 %10u          1          4\n", timer1);
	put("/proc/softirqs", text);
	snprintf(text, sizeof(text),
		 "Name:\tcyclictest\nState:\tS (sleeping)\nvoluntary_ctxt_switches:\t%u\n"
		 "nonvoluntary_ctxt_switches:\t%u\n", vol, invol);
	put("/proc/42/task/43/status", text);
}

static char *json_of(struct rt_isolation *iso, enum rt_isolation_span span)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct rt_json j;

	rt_json_init_compact(&j, f);
	rt_json_object_begin(&j, NULL);
	rt_isolation_write_json(&j, iso, span);
	rt_json_object_end(&j);
	ck_assert_int_eq(rt_json_finish(&j), 0);
	fclose(f);
	return buf;
}

static struct rt_isolation *open_fake(void)
{
	struct rt_cpulist l = { .count = 2, .cpu = { 1, 3 } };
	struct rt_isolation *iso;

	ck_assert_int_eq(rt_isolation_create(&iso, root, &l), 0);
	ck_assert_int_eq(rt_isolation_add_thread(iso, 42, 43, 1), 0);
	return iso;
}

START_TEST(windows_add_up_to_the_run)
{
	struct rt_isolation_sums run, win, last;
	struct rt_isolation *iso;
	char *js;

	make_root();
	tables(100, 1000, 50, 10, 5, 1);
	iso = open_fake();
	ck_assert_int_eq(rt_isolation_start(iso), 0);
	tables(130, 1002, 51, 12, 25, 1);
	ck_assert_int_eq(rt_isolation_mark_window(iso), 0);
	tables(150, 1010, 55, 13, 40, 4);
	ck_assert_int_eq(rt_isolation_end(iso), 0);

	ck_assert_int_eq(rt_isolation_sums(iso, RT_ISOLATION_RUN, 1, &run), 0);
	ck_assert(run.known);
	ck_assert_uint_eq(run.interrupts, 50 + 10);
	ck_assert_uint_eq(run.softirqs, 3);
	ck_assert_uint_eq(run.voluntary, 35);
	ck_assert_uint_eq(run.involuntary, 3);
	ck_assert_int_eq(rt_isolation_sums(iso, RT_ISOLATION_WINDOW, 1, &win), 0);
	ck_assert_int_eq(rt_isolation_sums(iso, RT_ISOLATION_LAST, 1, &last), 0);
	ck_assert_uint_eq(win.interrupts + last.interrupts, run.interrupts);
	ck_assert_uint_eq(win.softirqs + last.softirqs, run.softirqs);
	ck_assert_uint_eq(win.voluntary + last.voluntary, run.voluntary);
	ck_assert_uint_eq(win.involuntary + last.involuntary, run.involuntary);
	ck_assert_int_eq(rt_isolation_sums(iso, RT_ISOLATION_RUN, 3, &run), 0);
	ck_assert_uint_eq(run.interrupts, 5);
	ck_assert_uint_eq(run.voluntary, 0); /* no thread there */
	ck_assert_int_eq(rt_isolation_sums(iso, RT_ISOLATION_RUN, -1, &run), 0);
	ck_assert_uint_eq(run.interrupts, 65);
	ck_assert_int_eq(rt_isolation_sums(iso, RT_ISOLATION_RUN, 7, &run), -ENOENT);

	js = json_of(iso, RT_ISOLATION_RUN);
	ck_assert_ptr_nonnull(strstr(js, "{\"cpu\":1,\"interrupts\":{\"total\":60,\"by_source\":"
					 "{\"nvme0q2\":10,\"LOC\":50}},\"softirqs\":{\"total\":3,"
					 "\"by_kind\":{\"TIMER\":3}},\"context_switches\":{\"threads\":1,"
					 "\"voluntary\":35,\"involuntary\":3},\"smi\":null,"
					 "\"thermal_throttle\":null,\"idle_time_us\":null,"
					 "\"freq_time_ms\":null}"));
	ck_assert_ptr_nonnull(strstr(js, "\"total\":{\"interrupts\":{\"total\":65,"));
	free(js);
	rt_isolation_free(iso);
	remove_root();
}
END_TEST

START_TEST(text_names_the_top_sources)
{
	struct rt_isolation *iso;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	make_root();
	tables(100, 1000, 50, 10, 5, 1);
	iso = open_fake();
	f = open_memstream(&buf, &len);
	rt_isolation_write_text(f, iso); /* nothing before the end */
	fflush(f);
	ck_assert_uint_eq(len, 0);
	ck_assert_int_eq(rt_isolation_start(iso), 0);
	tables(113, 2190, 50, 10, 6, 1);
	ck_assert_int_eq(rt_isolation_end(iso), 0);
	rt_isolation_write_text(f, iso);
	fclose(f);
	ck_assert_str_eq(buf,
			 "# Isolation: CPU 1: 1203 interrupts (nvme0q2 1190, LOC 13), 0 softirqs, "
			 "0 involuntary switches\n"
			 "# Isolation: CPU 3: 0 interrupts, 0 softirqs\n"
			 "# Isolation: all measured CPUs: 1203 interrupts, 0 softirqs; 1 thread: "
			 "1 voluntary, 0 involuntary switches\n");
	free(buf);
	rt_isolation_free(iso);
	remove_root();
}
END_TEST

START_TEST(counters_going_backwards_count_nothing_or_wrap)
{
	struct rt_isolation_sums run;
	struct rt_isolation *iso;

	make_root();
	/* LOC of CPU 1 wraps at 2^32; IRQ 24 was freed and requested again */
	tables(4294967290u, 1000, 50, 10, 5, 1);
	iso = open_fake();
	ck_assert_int_eq(rt_isolation_start(iso), 0);
	tables(5, 3, 50, 10, 4, 1);
	ck_assert_int_eq(rt_isolation_end(iso), 0);
	ck_assert_int_eq(rt_isolation_sums(iso, RT_ISOLATION_RUN, 1, &run), 0);
	ck_assert_uint_eq(run.interrupts, 11);
	ck_assert_uint_eq(run.voluntary, 0);
	rt_isolation_free(iso);
	remove_root();
}
END_TEST

START_TEST(a_thread_gone_or_a_table_missing)
{
	struct rt_cpulist l = { .count = 1, .cpu = { 1 } };
	struct rt_isolation *iso;
	char *js;

	make_root();
	tables(1, 1, 1, 1, 1, 1);
	iso = open_fake();
	ck_assert_int_eq(rt_isolation_start(iso), 0);
	tables(2, 2, 2, 2, 2, 2);
	unlink(strcat(strcpy((char[128]){ 0 }, root), "/proc/42/task/43/status"));
	ck_assert_int_eq(rt_isolation_end(iso), 0); /* the thread is not there: 0 */
	rt_isolation_free(iso);
	/* no /proc/interrupts: the start fails, the JSON says null */
	unlink(strcat(strcpy((char[128]){ 0 }, root), "/proc/interrupts"));
	ck_assert_int_eq(rt_isolation_create(&iso, root, &l), 0);
	ck_assert_int_eq(rt_isolation_start(iso), -ENOENT);
	js = json_of(iso, RT_ISOLATION_RUN);
	ck_assert_str_eq(js, "{\"isolation\":null}\n");
	free(js);
	rt_isolation_free(iso);
	remove_root();
}
END_TEST

START_TEST(extras_where_the_machine_has_them)
{
	struct rt_cpulist l = { .count = 1, .cpu = { 1 } };
	struct rt_isolation *iso;
	uint64_t smi;
	char path[256], *js;
	int fd;

	make_root();
	tables(1, 1, 1, 1, 1, 1);
	put("/dev/cpu/1/msr", "");
	snprintf(path, sizeof(path), "%s/dev/cpu/1/msr", root);
	fd = open(path, O_WRONLY);
	smi = 7;
	ck_assert_int_eq(pwrite(fd, &smi, sizeof(smi), 0x34), sizeof(smi));
	put("/sys/devices/system/cpu/cpu1/thermal_throttle/core_throttle_count", "3\n");
	put("/sys/devices/system/cpu/cpu1/thermal_throttle/package_throttle_count", "4\n");
	put("/sys/devices/system/cpu/cpu1/cpuidle/state0/name", "POLL\n");
	put("/sys/devices/system/cpu/cpu1/cpuidle/state0/time", "100\n");
	put("/sys/devices/system/cpu/cpu1/cpuidle/state1/name", "C1\n");
	put("/sys/devices/system/cpu/cpu1/cpuidle/state1/time", "5000\n");
	put("/sys/devices/system/cpu/cpu1/cpufreq/stats/time_in_state", "2400000 10\n800000 3\n");
	ck_assert_int_eq(rt_isolation_create(&iso, root, &l), 0);
	ck_assert_int_eq(rt_isolation_start(iso), 0);
	smi = 9;
	ck_assert_int_eq(pwrite(fd, &smi, sizeof(smi), 0x34), sizeof(smi));
	close(fd);
	put("/sys/devices/system/cpu/cpu1/thermal_throttle/core_throttle_count", "5\n");
	put("/sys/devices/system/cpu/cpu1/cpuidle/state1/time", "6500\n");
	put("/sys/devices/system/cpu/cpu1/cpufreq/stats/time_in_state", "2400000 25\n800000 3\n");
	ck_assert_int_eq(rt_isolation_end(iso), 0);
	js = json_of(iso, RT_ISOLATION_RUN);
	ck_assert_ptr_nonnull(strstr(js, "\"smi\":2,\"thermal_throttle\":{\"core\":2,\"package\":0},"
					 "\"idle_time_us\":{\"POLL\":0,\"C1\":1500},"
					 "\"freq_time_ms\":{\"2400000\":150,\"800000\":0}}"));
	ck_assert_ptr_nonnull(strstr(js, "\"smi\":2}}"));
	free(js);
	rt_isolation_free(iso);
	remove_root();
}
END_TEST

/* rt_isolation_preflight's say(): keep up to four lines. */
struct said {
	char line[4][1024];
	unsigned n;
};

static int keep_line(void *ctx, const char *line)
{
	struct said *w = ctx;

	ck_assert_uint_lt(w->n, 4);
	snprintf(w->line[w->n++], sizeof(w->line[0]), "%s", line);
	return 0;
}

START_TEST(preflight_one_line_per_kind)
{
	struct rt_cpulist cpus = { .count = 2, .cpu = { 0, 1 } };
	struct said w = { .n = 0 };
	struct rt_isolation_preflight_in in = { .cpus = &cpus };

	make_root();
	put("/proc/interrupts", "  CPU0  CPU1\n"
	    " 24:  1  2  IO-APIC 5-edge  ttyS0\n"
	    " 25:  1  2  IO-APIC 6-edge  eth0\n"
	    " 26:  1  2  IO-APIC 7-edge  eth1\n"
	    " 30:  1  2  IO-APIC 8-edge  nvme\n"
	    "LOC:  1  2  Local timer interrupts\n");
	put("/proc/irq/24/effective_affinity_list", "1\n");
	put("/proc/irq/25/effective_affinity_list", "0-1\n");
	put("/proc/irq/26/smp_affinity_list", "1\n");
	put("/proc/irq/30/effective_affinity_list", "0\n");
	in.root = root;
	in.nohz_full = "1";
	in.cmdline = "quiet isolcpus=managed_irq,domain,0-1 nohz_full=1";
	ck_assert_int_eq(rt_isolation_preflight(&in, keep_line, &w), 0);
	ck_assert_uint_eq(w.n, 2);
	ck_assert_str_eq(w.line[0], "measured CPU(s) 0-1 in the affinity of device "
			 "interrupt(s) 24-26,30 (/proc/irq/N/effective_affinity_list)");
	ck_assert_str_eq(w.line[1], "measured CPU(s) not isolated from kernel housekeeping: "
			 "not in nohz_full (CPU 0), rcu_nocbs (CPU 0-1)");
	remove_root();
}
END_TEST

Suite *unit_suite(void)
{
	Suite *s = suite_create("rt_isolation");
	TCase *tc = tcase_create("isolation");

	tcase_add_test(tc, parser_keeps_the_measured_columns);
	tcase_add_test(tc, parser_follows_hotplug_and_new_sources);
	tcase_add_test(tc, parser_never_grows_past_its_table);
	tcase_add_test(tc, windows_add_up_to_the_run);
	tcase_add_test(tc, text_names_the_top_sources);
	tcase_add_test(tc, counters_going_backwards_count_nothing_or_wrap);
	tcase_add_test(tc, a_thread_gone_or_a_table_missing);
	tcase_add_test(tc, extras_where_the_machine_has_them);
	tcase_add_test(tc, preflight_one_line_per_kind);
	suite_add_tcase(s, tc);
	return s;
}
