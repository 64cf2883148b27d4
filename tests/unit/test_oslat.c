// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * oslat's pure logic on synthetic data: 2.4's summary layout byte for byte
 * (TABs, %03d labels, -z, bias), the average (each thread its own overflow
 * surplus: 2.4 added thread 0's to all), the percentiles of the gaps from
 * the lossless histogram, the --records window arithmetic, -m sizes and
 * what --analyze names for a gap from synthetic trace events.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "unit.h"

#include "rt_loghist.h"
#include "rt_percentiles.h"
#include "rt_prog.h"

#include "analyze.h"
#include "options.h"
#include "records.h"
#include "report.h"

static struct rt_loghist h0, h1;

/* Thread 0: 1000 gaps of 1 us, 10 of 2, 3 overflows of 40, 50, 3000 us; thread 1: 500 of 1 us. */
static void two_threads(struct oslat_result r[2], uint64_t b0[4], uint64_t b1[4])
{
	rt_loghist_init(&h0);
	rt_loghist_init(&h1);
	memset(r, 0, 2 * sizeof(*r));
	b0[0] = 1000, b0[1] = 10, b0[2] = 0, b0[3] = 3;
	b1[0] = 500, b1[1] = 0, b1[2] = 0, b1[3] = 0;
	h0.bucket[rt_loghist_index(1)] = 1000;
	h0.bucket[rt_loghist_index(2)] = 10;
	h0.bucket[rt_loghist_index(40)]++;
	h0.bucket[rt_loghist_index(50)]++;
	h0.bucket[rt_loghist_index(3000)]++;
	rt_loghist_seal(&h0, 3000);
	h1.bucket[rt_loghist_index(1)] = 500;
	rt_loghist_seal(&h1, 1);
	r[0] = (struct oslat_result){ .cpu = 0, .mhz = 2096, .buckets = b0,
		.stats = { .count = 1013, .min = 1, .max = 3000, .sum = 1000 + 20 + 40 + 50 + 3000 },
		.duration_s = 0.998, .hist = &h0 };
	r[1] = (struct oslat_result){ .cpu = 1, .mhz = 2092, .buckets = b1,
		.stats = { .count = 500, .min = 1, .max = 1, .sum = 500 },
		.duration_s = 1.0, .hist = &h1 };
}

static void summary_text(const struct oslat_summary *s, char *buf, size_t len)
{
	FILE *f = fmemopen(buf, len, "w");

	ck_assert_ptr_nonnull(f);
	oslat_print_summary(f, s);
	fclose(f);
}

START_TEST(summary_is_2_4s_layout)
{
	struct oslat_result r[2];
	uint64_t b0[4], b1[4];
	char text[4096];

	two_threads(r, b0, b1);
	summary_text(&(struct oslat_summary){ .n = 2, .res = r, .buckets = 4 }, text, sizeof(text));
	ck_assert_str_eq(text,
			 "        Core:\t 0 1\n"
			 "Counter Freq:\t 2096 2092 (Mhz)\n"
			 "    001 (us):\t 1000 500\n"
			 "    002 (us):\t 10 0\n"
			 "    003 (us):\t 0 0\n"
			 "    004 (us):\t 3 0 (including overflows)\n"
			 "     Minimum:\t 1 1 (us)\n"
			 "     Average:\t 4.057 1.000 (us)\n"
			 "     Maximum:\t 3000 1 (us)\n"
			 "     Max-Min:\t 2999 0 (us)\n"
			 "    Duration:\t 0.998 1.000 (sec)\n"
			 "\n");
	/* -z and -B: empty runs are one "..." line, the last bucket always shows */
	summary_text(&(struct oslat_summary){ .n = 2, .res = r, .buckets = 4, .bias_us = 1,
					      .zero_omit = true }, text, sizeof(text));
	ck_assert_str_eq(text,
			 "        Core:\t 0 1\n"
			 "Counter Freq:\t 2096 2092 (Mhz)\n"
			 "    002 (us):\t 1000 500\n"
			 "    003 (us):\t 10 0\n"
			 "    ...\n"
			 "    005 (us):\t 3 0 (including overflows)\n"
			 "     Minimum:\t 1 1 (us)\n"
			 "     Average:\t 5.057 2.000 (us)\n"
			 "     Maximum:\t 3000 1 (us)\n"
			 "     Max-Min:\t 2999 0 (us)\n"
			 "    Duration:\t 0.998 1.000 (sec)\n"
			 "\n");
}
END_TEST

START_TEST(thread_without_gaps_prints_no_numbers)
{
	uint64_t b[4] = { 0 };
	struct oslat_result r = { .cpu = 3, .mhz = 2000, .buckets = b };
	char text[4096];

	summary_text(&(struct oslat_summary){ .n = 1, .res = &r, .buckets = 4, .zero_omit = true },
		     text, sizeof(text));
	ck_assert_str_eq(text,
			 "        Core:\t 3\n"
			 "Counter Freq:\t 2000 (Mhz)\n"
			 "    ...\n"
			 "    004 (us):\t 0 (including overflows)\n"
			 "     Minimum:\t - (us)\n"
			 "     Average:\t - (us)\n"
			 "     Maximum:\t - (us)\n"
			 "     Max-Min:\t - (us)\n"
			 "    Duration:\t 0.000 (sec)\n"
			 "\n");
}
END_TEST

START_TEST(percentiles_of_the_gaps_are_exact)
{
	struct oslat_result r[2];
	uint64_t b0[4], b1[4];
	struct rt_series *s;
	int64_t v;

	two_threads(r, b0, b1);
	s = oslat_series(&(struct oslat_summary){ .n = 2, .res = r, .buckets = 4 });
	ck_assert_ptr_nonnull(s);
	ck_assert(rt_loghist_percentile(s[0].hist, 500000, &v));
	ck_assert_int_eq(v, 1);
	/* rank 1003 of 1013 is the last 2 us gap; 1004 the first overflow */
	ck_assert(rt_loghist_percentile(s[0].hist, 990000, &v));
	ck_assert_int_eq(v, 2);
	ck_assert(rt_loghist_percentile(s[0].hist, 999000, &v));
	ck_assert_int_eq(v, 50);
	ck_assert(rt_loghist_percentile(s[0].hist, RT_PERMYRIAD_100, &v));
	ck_assert_int_eq(v, 3000);
	ck_assert(rt_loghist_percentile(s[1].hist, 999999, &v));
	ck_assert_int_eq(v, 1);
	free(s);
}
END_TEST

START_TEST(records_window_adds_the_difference)
{
	static struct rt_window_half h;
	static struct rt_loghist ovf, seen_ovf;
	uint64_t cnt[4] = { 100, 5, 0, 2 }, seen[4] = { 40, 5, 0, 1 }, seen_extra = 7;

	memset(&h, 0, sizeof(h));
	rt_loghist_init(&h.hist);
	rt_loghist_init(&ovf);
	rt_loghist_init(&seen_ovf);
	ovf.bucket[rt_loghist_index(10)] = 1;  /* seen before */
	seen_ovf.bucket[rt_loghist_index(10)] = 1;
	ovf.bucket[rt_loghist_index(20)] = 1;  /* new: 20 us, surplus 16 */
	oslat_records_add(&h, 4, cnt, seen, &ovf, &seen_ovf, 7 + 16, &seen_extra, 20);
	ck_assert_uint_eq(h.stats.count, 61);
	ck_assert_int_eq(h.stats.min, 1);
	ck_assert_int_eq(h.stats.max, 20);
	ck_assert_int_eq(h.stats.sum, 60 + 20);
	ck_assert_uint_eq(seen[0], 100);
	ck_assert_uint_eq(seen[3], 2);
	ck_assert_uint_eq(seen_extra, 23);
	ck_assert_uint_eq(h.hist.bucket[rt_loghist_index(20)], 1);
	ck_assert_uint_eq(h.hist.bucket[rt_loghist_index(10)], 0);
}
END_TEST

START_TEST(sizes)
{
	uint64_t b;

	ck_assert_int_eq(oslat_parse_size("4096", 1ULL << 30, &b), 0);
	ck_assert_uint_eq(b, 4096);
	ck_assert_int_eq(oslat_parse_size("16K", 1ULL << 30, &b), 0);
	ck_assert_uint_eq(b, 16384);
	ck_assert_int_eq(oslat_parse_size("1g", 1ULL << 30, &b), 0);
	ck_assert_uint_eq(b, 1ULL << 30);
	ck_assert_int_ne(oslat_parse_size("2g", 1ULL << 30, &b), 0);
	ck_assert_int_ne(oslat_parse_size("1.5m", 1ULL << 30, &b), 0);
	ck_assert_int_ne(oslat_parse_size("-1", 1ULL << 30, &b), 0);
	ck_assert_int_ne(oslat_parse_size("99999999999999999999k", 1ULL << 30, &b), 0);
}
END_TEST

static struct rt_ev ev_of(int64_t ts, int cpu, enum rt_ev_type type)
{
	struct rt_ev e;

	memset(&e, 0, sizeof(e));
	e.ts_ns = ts;
	e.cpu = cpu;
	e.type = type;
	return e;
}

START_TEST(analysis_names_irq_softirq_and_task)
{
	/* thread 100 polls CPU 1; gap from 10 000 to 60 000 ns */
	struct rt_ev ev[12];
	struct oslat_gap g;
	size_t n = 0;
	char text[512];
	FILE *f;

	ev[n] = ev_of(1000, 1, RT_EV_SWITCH), ev[n].pid = 100, strcpy(ev[n].comm, "oslat"), n++;
	ev[n] = ev_of(11000, 1, RT_EV_IRQ_ENTRY), ev[n].irq = 24, strcpy(ev[n].name, "virtio0-input"), n++;
	ev[n] = ev_of(12000, 0, RT_EV_IRQ_ENTRY), ev[n].irq = 9, strcpy(ev[n].name, "other-cpu"), n++;
	ev[n] = ev_of(14000, 1, RT_EV_IRQ_EXIT), n++;
	ev[n] = ev_of(14000, 1, RT_EV_SOFTIRQ_ENTRY), ev[n].irq = 3, strcpy(ev[n].name, "NET_RX"), n++;
	ev[n] = ev_of(16000, 1, RT_EV_SOFTIRQ_EXIT), n++;
	ev[n] = ev_of(20000, 1, RT_EV_SWITCH), ev[n].pid = 4242, ev[n].prio = 0, strcpy(ev[n].comm, "spin"),
		ev[n].prev_pid = 100, n++;
	ev[n] = ev_of(30000, 1, RT_EV_TIMER_IRQ_ENTRY), n++;
	ev[n] = ev_of(31000, 1, RT_EV_TIMER_IRQ_EXIT), n++;
	ev[n] = ev_of(58000, 1, RT_EV_SWITCH), ev[n].pid = 100, strcpy(ev[n].comm, "oslat"),
		ev[n].prev_pid = 4242, n++;
	ev[n] = ev_of(70000, 1, RT_EV_IRQ_ENTRY), ev[n].irq = 1, strcpy(ev[n].name, "after"), n++;
	oslat_gap_explain(ev, n, 1, 100, 10000, 60000, &g);
	g.cpu = 1;
	g.gap_us = 51;
	ck_assert(g.complete);
	ck_assert_uint_eq(g.nblockers, 4);
	ck_assert_int_eq(g.blockers[0].kind, RT_BLOCKER_TASK);
	ck_assert_int_eq(g.blockers[0].id, 4242);
	ck_assert_int_eq(g.blockers[0].ns, 37000);
	ck_assert_int_eq(g.blockers[1].kind, RT_BLOCKER_IRQ);
	ck_assert_int_eq(g.blockers[1].id, 24);
	ck_assert_int_eq(g.blockers[1].ns, 3000);
	ck_assert_int_eq(g.blockers[2].kind, RT_BLOCKER_SOFTIRQ);
	ck_assert_int_eq(g.blockers[2].ns, 2000);
	ck_assert_str_eq(g.blockers[3].name, "local_timer");
	f = fmemopen(text, sizeof(text), "w");
	oslat_gap_write_text(f, &g);
	fclose(f);
	ck_assert_str_eq(text, "# Gap: CPU 1: 51 us: task spin (pid 4242) 37 us, irq 24 "
			       "(virtio0-input) 3 us, softirq NET_RX 2 us, irq local_timer 1 us\n");
	/* nothing traced in the gap: said so, nothing named */
	oslat_gap_explain(ev, n, 1, 100, 59000, 69000, &g);
	ck_assert_uint_eq(g.nblockers, 0);
}
END_TEST

static struct oslat_config cfg;

/* Parse args (split on single spaces), stderr silenced. */
static int parse(const char *args)
{
	static char words[512];
	char *argv[32];
	int argc = 0, rc, saved = dup(STDERR_FILENO);
	FILE *null = fopen("/dev/null", "w");

	snprintf(words, sizeof(words), "%s", args);
	argv[argc++] = (char *)"oslat";
	for (char *w = strtok(words, " "); w && argc < 31; w = strtok(NULL, " "))
		argv[argc++] = w;
	argv[argc] = NULL;
	rt_prog_init("oslat");
	fflush(stderr);
	dup2(fileno(null), STDERR_FILENO);
	rc = oslat_parse_args(&cfg, argc, argv);
	fflush(stderr);
	dup2(saved, STDERR_FILENO);
	close(saved);
	fclose(null);
	return rc;
}

START_TEST(options_and_2_4s_abbreviations)
{
	ck_assert_int_eq(parse(""), 0);
	ck_assert_int_eq(cfg.buckets, 32);
	ck_assert_uint_eq(cfg.duration_s, 1);
	ck_assert_uint_eq(cfg.workload_bytes, 16384);
	ck_assert(!cfg.analyze && !cfg.bias && !cfg.quiet && cfg.rtprio == 0);
	ck_assert_int_eq(parse("--bu=8 --dur 2m --r=5 --workload memmove --workload-m=64k -Bqsz"), 0);
	ck_assert_int_eq(cfg.buckets, 8);
	ck_assert_uint_eq(cfg.duration_s, 120);
	ck_assert_int_eq(cfg.rtprio, 5);
	ck_assert_int_eq(cfg.workload, OSLAT_WORKLOAD_MEMMOVE);
	ck_assert_uint_eq(cfg.workload_bytes, 65536);
	ck_assert(cfg.bias && cfg.quiet && cfg.single_preheat && cfg.zero_omit);
	/* --analyze: -T's threshold, else the bucket size; or its own */
	ck_assert_int_eq(parse("--analyze -b 16"), 0);
	ck_assert_int_eq(cfg.analyze_us, 16);
	ck_assert_int_eq(parse("--analyze -T 7"), 0);
	ck_assert_int_eq(cfg.analyze_us, 7);
	ck_assert_int_eq(parse("--analyze=40 -T 7"), 0);
	ck_assert_int_eq(cfg.analyze_us, 40);
	/* issue 29: a stray word is a usage error (2.4 ignored it) */
	ck_assert_int_eq(parse("--max-latency=100 --percentiles -c 0 stray"), 2);
	ck_assert_int_eq(parse("--max-latency=100 --percentiles -c 0"), 0);
	ck_assert_int_eq(cfg.results.limits.max_latency, 100);
	ck_assert_uint_eq(cfg.cpus.count, 1);
	ck_assert_int_eq(parse("-b 4"), 0);
	ck_assert_int_eq(parse("-b 3"), RT_EXIT_USAGE);
	ck_assert_int_eq(parse("-D 0"), RT_EXIT_USAGE);
	ck_assert_int_eq(parse("-m 4096"), 0);
	ck_assert_uint_eq(cfg.workload_bytes, 4096);
	ck_assert_int_eq(parse("--c=1"), RT_EXIT_USAGE);
}
END_TEST

START_TEST(analyze_keeps_the_main_thread_off_the_polled_cpus)
{
	struct rt_cpulist allowed;
	char args[64];

	ck_assert_int_eq(rt_affinity_allowed(&allowed), 0);
	if (allowed.count < 2)
		return; /* nowhere else to go */
	snprintf(args, sizeof(args), "--analyze=100 -c %d", allowed.cpu[0]);
	ck_assert_int_eq(parse(args), 0);
	ck_assert_int_ne(cfg.main_cpu, allowed.cpu[0]);
	ck_assert(rt_affinity_contains(&allowed, cfg.main_cpu));
	/* without --analyze, 2.4's default; with -C, the user's choice */
	snprintf(args, sizeof(args), "-c %d", allowed.cpu[0]);
	ck_assert_int_eq(parse(args), 0);
	ck_assert_int_eq(cfg.main_cpu, rt_affinity_contains(&allowed, 0) ? 0 : allowed.cpu[0]);
	snprintf(args, sizeof(args), "--analyze=100 -c %d -C %d", allowed.cpu[0], allowed.cpu[0]);
	ck_assert_int_eq(parse(args), 0);
	ck_assert_int_eq(cfg.main_cpu, allowed.cpu[0]);
}
END_TEST

Suite *unit_suite(void)
{
	Suite *s = suite_create("oslat");
	TCase *tc = tcase_create("logic");

	tcase_add_test(tc, summary_is_2_4s_layout);
	tcase_add_test(tc, thread_without_gaps_prints_no_numbers);
	tcase_add_test(tc, percentiles_of_the_gaps_are_exact);
	tcase_add_test(tc, records_window_adds_the_difference);
	tcase_add_test(tc, sizes);
	tcase_add_test(tc, options_and_2_4s_abbreviations);
	tcase_add_test(tc, analysis_names_irq_softirq_and_task);
	tcase_add_test(tc, analyze_keeps_the_main_thread_off_the_polled_cpus);
	suite_add_tcase(s, tc);
	return s;
}
