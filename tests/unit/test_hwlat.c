// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * hwlatdetect's pure parts: 2.4's value syntaxes (--duration, the
 * microsecond options, --cpu-list into tracing_cpumask's hex mask), the
 * hwlat sample lines (the kernel's formats old and new, and lines that are
 * no sample, on which 2.4 crashed), the summary (spikes, MTBF) and the
 * --metrics series (tracing_cpumask's CPUs, label escaping).
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "unit.h"

#include "metrics.h"
#include "options.h"
#include "sample.h"

static const struct {
	const char *in;
	int err;
	uint64_t s;
} seconds[] = {
	{ "10", 0, 10 }, { "10s", 0, 10 }, { "2m", 0, 120 }, { "1h", 0, 3600 },
	{ "1d", 0, 86400 }, { "2w", 0, 1209600 }, { "5M", 0, 300 }, { "3650d", 0, 315360000 },
	{ "521w", 0, 521ULL * 604800 }, { "522w", -ERANGE, 0 },
	{ "10ms", -EINVAL, 0 }, { "1.5m", -EINVAL, 0 }, { "", -EINVAL, 0 }, { "s", -EINVAL, 0 },
	{ "-5", -EINVAL, 0 }, { " 5", -EINVAL, 0 }, { "5x", -EINVAL, 0 }, { "3651d", -ERANGE, 0 },
	{ "99999999999999999999", -ERANGE, 0 },
};

START_TEST(parses_seconds)
{
	uint64_t v = 0;

	ck_assert_int_eq(hwlat_parse_seconds(seconds[_i].in, &v), seconds[_i].err);
	if (!seconds[_i].err)
		ck_assert_uint_eq(v, seconds[_i].s);
}
END_TEST

static const struct {
	const char *in;
	int err;
	int64_t us;
} micros[] = {
	{ "0", 0, 0 }, { "10", 0, 10 }, { "10us", 0, 10 }, { "2ms", 0, 2000 },
	{ "3s", 0, 3000000 }, { "3600s", 0, 3600000000LL }, { "1m", -EINVAL, 0 },
	{ "1d", -EINVAL, 0 }, { "1.5ms", -EINVAL, 0 }, { "us", -EINVAL, 0 }, { "", -EINVAL, 0 },
	{ "-1", -EINVAL, 0 }, { "10 us", -EINVAL, 0 }, { "3601s", -ERANGE, 0 },
	{ "3600000001", -ERANGE, 0 }, { "99999999999999999999999", -ERANGE, 0 },
};

START_TEST(parses_microseconds)
{
	int64_t v = -1;

	ck_assert_int_eq(hwlat_parse_us(micros[_i].in, HWLAT_MAX_US, &v), micros[_i].err);
	if (!micros[_i].err)
		ck_assert_int_eq(v, micros[_i].us);
}
END_TEST

static const struct {
	const char *in;
	int err;
	const char *mask;
	int max;
} cpus[] = {
	{ "1", 0, "2", 1 }, { "0", 0, "1", 0 }, { "0-3", 0, "f", 3 }, { "1,3-5", 0, "3a", 5 },
	{ "4", 0, "10", 4 }, { "31", 0, "80000000", 31 }, { "32", 0, "1,00000000", 32 },
	{ "0,32,64", 0, "1,00000001,00000001", 64 }, { "5,1", 0, "22", 5 },
	{ "abc", -EINVAL, NULL, 0 }, { "", -EINVAL, NULL, 0 }, { "1,", -EINVAL, NULL, 0 },
	{ ",1", -EINVAL, NULL, 0 }, { "1-", -EINVAL, NULL, 0 }, { "-1", -EINVAL, NULL, 0 },
	{ "1 2", -EINVAL, NULL, 0 }, { "3-1", -EDOM, NULL, 0 }, { "4096", -ERANGE, NULL, 0 },
	{ "0-4095", 0, NULL, 4095 },
};

START_TEST(parses_cpu_lists)
{
	char mask[HWLAT_MAX_CPUS / 4 + HWLAT_MAX_CPUS / 32 + 1];
	int max = -1;

	ck_assert_int_eq(hwlat_parse_cpulist(cpus[_i].in, mask, sizeof(mask), &max), cpus[_i].err);
	if (cpus[_i].err)
		return;
	ck_assert_int_eq(max, cpus[_i].max);
	if (cpus[_i].mask)
		ck_assert_str_eq(mask, cpus[_i].mask);
	else /* all 4096: 1024 f's in 128 groups */
		ck_assert_uint_eq(strlen(mask), 1024 + 127);
}
END_TEST

START_TEST(parses_kernel_lines)
{
	struct hwlat_sample s;
	char buf[128];

	/* 5.x and later: count */
	ck_assert_int_eq(hwlat_sample_parse("           <...>-1234  [001] d...  1234.567890: #1     "
					    "inner/outer(us):   12/11    ts:1764624000.000001000 "
					    "count:3\n", &s), 0);
	ck_assert_int_eq(s.inner_us, 12);
	ck_assert_int_eq(s.outer_us, 11);
	ck_assert_int_eq(s.cpu, 1);
	ck_assert_int_eq(s.count, 3);
	ck_assert_str_eq(s.ts, "1764624000.000001000");
	ck_assert_int_eq(s.ts_sec, 1764624000);
	ck_assert_int_eq(s.ts_nsec, 1000);
	hwlat_sample_format(&s, buf, sizeof(buf));
	ck_assert_str_eq(buf, "ts: 1764624000.000001000, inner:12, outer:11");
	ck_assert_int_eq(hwlat_sample_max(&s), 12);
	/* 4.x: no count, nmi fields; the flags field longer */
	ck_assert_int_eq(hwlat_sample_parse("  <idle>-0 [012] dn.h1 99.1: #22 inner/outer(us):    "
					    "4/250   ts:1500000000.5 nmi-total:3 nmi-count:1", &s), 0);
	ck_assert_int_eq(s.cpu, 12);
	ck_assert_int_eq(s.count, -1);
	ck_assert_int_eq(hwlat_sample_max(&s), 250);
	ck_assert_int_eq(s.ts_nsec, 500000000);
	/* latency format: the CPU is not a field of its own */
	ck_assert_int_eq(hwlat_sample_parse("hwlatd-77 13d.... 5us : #1 inner/outer(us): 1/2 "
					    "ts:7.000000001", &s), 0);
	ck_assert_int_eq(s.cpu, -1);
	ck_assert_int_eq(s.ts_nsec, 1);
}
END_TEST

static const char *const junk[] = {
	"",
	"\n",
	"garbage",
	"CPU:1 [LOST 12 EVENTS]",
	"  <...>-1 [001] d... 1.0: #1 inner/outer(us): 12/11",          /* no ts */
	"  <...>-1 [001] d... 1.0: #1 inner/outer(us): 12/11 ts:",      /* empty ts */
	"  <...>-1 [001] d... 1.0: #1 inner/outer(us): 12/11 ts:1.2.3", /* two dots */
	"  <...>-1 [001] d... 1.0: #1 inner/outer(us): 12/11 ts:1.0123456789", /* 10 decimals */
	"  <...>-1 [001] d... 1.0: #1 inner/outer(us): x/11 ts:1.0",
	"  <...>-1 [001] d... 1.0: #1 inner/outer(us): 12/ ts:1.0",
	"  <...>-1 [001] d... 1.0: #1 inner/outer(us): -1/3 ts:1.0",
	"  <...>-1 [001] d... 1.0: #1 inner/outer(us): 1/2/3 ts:1.0",
	"  <...>-1 [001] d... 1.0: #1 inner/outer(us): 99999999999999999999/1 ts:1.0",
	"  <...>-1 [001] d... 1.0: #1 inner/outer(us):",
	"  <...>-1 [001] d... 1.0: #1 12/11 ts:1.0",                    /* no inner/outer tag */
	"  <...>-1 [001] d... 1.0: #1 inner/outer(us): 1/2 ts:999999999999999999999.0",
};

START_TEST(ignores_other_lines)
{
	struct hwlat_sample s;

	ck_assert_int_eq(hwlat_sample_parse(junk[_i], &s), -EINVAL);
}
END_TEST

START_TEST(ignores_overlong_lines)
{
	char line[2048];
	struct hwlat_sample s;

	memset(line, 'x', sizeof(line) - 1);
	line[sizeof(line) - 1] = '\0';
	memcpy(line, "inner/outer(us): 1/2 ts:1.0 ", 28);
	ck_assert_int_eq(hwlat_sample_parse(line, &s), -EINVAL);
}
END_TEST

static struct hwlat_sample sample(int64_t sec, int64_t nsec, int64_t in, int64_t out, int64_t count)
{
	struct hwlat_sample s = { .ts_sec = sec, .ts_nsec = nsec, .inner_us = in, .outer_us = out,
				  .cpu = 0, .count = count };
	return s;
}

START_TEST(sums_up_samples)
{
	struct hwlat_sample s[3];
	struct hwlat_summary sum;

	hwlat_summarize(NULL, 0, 1000000, 500000, &sum);
	ck_assert_uint_eq(sum.samples, 0);
	ck_assert_uint_eq(sum.spikes, 0);
	ck_assert_int_eq(sum.max_us, 0);
	ck_assert(!sum.has_mtbf);
	/* without count fields: one spike per sample (2.4's count) */
	s[0] = sample(100, 0, 12, 11, -1);
	s[1] = sample(110, 500000000, 25, 9, -1);
	s[2] = sample(120, 0, 8, 30, -1);
	hwlat_summarize(s, 3, 1000000, 500000, &sum);
	ck_assert_uint_eq(sum.samples, 3);
	ck_assert_uint_eq(sum.spikes, 3);
	ck_assert_int_eq(sum.max_us, 30);
	ck_assert(sum.has_mtbf);
	/* 20 s between the first and the last, x window/width 2, over 2 gaps */
	ck_assert(fabs(sum.mtbf_s - 20.0) < 1e-9);
	/* one sample: no MTBF */
	hwlat_summarize(s, 1, 1000000, 500000, &sum);
	ck_assert(!sum.has_mtbf);
	/* count fields: the spikes are their sum */
	s[0].count = 3;
	s[1].count = 2;
	s[2].count = 5;
	hwlat_summarize(s, 3, 1000000, 1000000 / 4, &sum);
	ck_assert_uint_eq(sum.spikes, 10);
	ck_assert(fabs(sum.mtbf_s - 20.0 * 4 / 9) < 1e-9);
	/* one sample of several spikes: MTBF over its window only (span 0) */
	hwlat_summarize(s, 1, 1000000, 500000, &sum);
	ck_assert_uint_eq(sum.spikes, 3);
	ck_assert(sum.has_mtbf);
	ck_assert(fabs(sum.mtbf_s) < 1e-12);
	/* width 0: no MTBF (later rt-tests printed an unset value) */
	hwlat_summarize(s, 3, 1000000, 0, &sum);
	ck_assert(!sum.has_mtbf);
}
END_TEST

static const struct {
	const char *mask;
	const char *cpus; /* the series' CPUs */
} masks[] = {
	{ "3\n", "0 1" }, { "2,0000000d", "0 2 3 33" }, { "80000000,00000000", "63" },
	{ "F0", "4 5 6 7" }, { "0", "" }, { "", "" }, { "3x", "" }, { "-1", "" },
};

START_TEST(series_of_cpumask)
{
	struct hwlat_metrics m = { 0 };
	char got[64] = "";

	ck_assert_int_eq(hwlat_metrics_cpus(&m, masks[_i].mask), 0);
	for (int k = 0; k < m.n; k++)
		snprintf(got + strlen(got), sizeof(got) - strlen(got), "%s%d", k ? " " : "",
			 m.series[k].cpu);
	ck_assert_str_eq(got, masks[_i].cpus);
	hwlat_metrics_close(&m);
}
END_TEST

START_TEST(writes_metrics)
{
	struct hwlat_metrics m = { .kernel = "6.1\"x\\", .preempt = NULL, .threshold_us = 1500000 };
	struct hwlat_sample s = { .inner_us = 7, .outer_us = 1000000, .cpu = -1, .count = -1 };
	const char *last = "\nrt_hwlat_threshold_seconds{tool=\"hwlatdetect\",kernel=\"6.1\\\"x"
			   "\\\\\",preempt=\"\"} 1.5\n";
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	ck_assert_int_eq(hwlat_metrics_cpus(&m, "4"), 0);
	ck_assert_int_eq(hwlat_metrics_add(&m, &s, false), 0);
	s.cpu = 2;
	s.count = 4;
	ck_assert_int_eq(hwlat_metrics_add(&m, &s, true), 0);
	ck_assert_int_eq(hwlat_metrics_write(f, &m, 1), 0);
	fclose(f);
	/* "any" first, escaped label values, seconds exact */
	ck_assert_ptr_nonnull(strstr(text, "\nrt_latency_seconds_bucket{tool=\"hwlatdetect\","
				      "cpu=\"any\",kernel=\"6.1\\\"x\\\\\",preempt=\"\","
				      "le=\"0.000001\"} 0\n"));
	ck_assert_ptr_nonnull(strstr(text, "\nrt_latency_max_seconds{tool=\"hwlatdetect\","
				      "cpu=\"2\",kernel=\"6.1\\\"x\\\\\",preempt=\"\"} 1\n"));
	ck_assert_ptr_nonnull(strstr(text, "cpu=\"2\",kernel=\"6.1\\\"x\\\\\",preempt=\"\"} 4\n"
				      "# HELP rt_hwlat_threshold_seconds"));
	ck_assert_ptr_nonnull(strstr(text, "\nrt_verdict{tool=\"hwlatdetect\",kernel="));
	/* the last line */
	ck_assert_uint_ge(len, strlen(last));
	ck_assert_str_eq(text + len - strlen(last), last);
	/* CPU 2 of the mask took the second sample: series any and 2 */
	ck_assert_int_eq(m.n, 2);
	free(text);
	hwlat_metrics_close(&m);
}
END_TEST

Suite *unit_suite(void)
{
	Suite *s = suite_create("hwlat");
	TCase *tc = tcase_create("values");

	UNIT_LOOP(tc, parses_seconds, seconds);
	UNIT_LOOP(tc, parses_microseconds, micros);
	UNIT_LOOP(tc, parses_cpu_lists, cpus);
	suite_add_tcase(s, tc);
	tc = tcase_create("samples");
	tcase_add_test(tc, parses_kernel_lines);
	UNIT_LOOP(tc, ignores_other_lines, junk);
	tcase_add_test(tc, ignores_overlong_lines);
	tcase_add_test(tc, sums_up_samples);
	suite_add_tcase(s, tc);
	tc = tcase_create("metrics");
	UNIT_LOOP(tc, series_of_cpumask, masks);
	tcase_add_test(tc, writes_metrics);
	suite_add_tcase(s, tc);
	return s;
}
