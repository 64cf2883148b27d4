// SPDX-License-Identifier: GPL-2.0-or-later
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "unit.h"

#include "rt_metrics.h"

/* Every bound ends a bucket of the lossless histogram, and is the largest such not above its nominal value. */
START_TEST(bounds_are_bucket_ends)
{
	static const int64_t want_us[RT_METRICS_NBOUNDS] = {
		1, 2, 5, 10, 20, 50, 100, 200, 499, 999, 1999, 4991, 9983, 19967, 49919, 99839,
	};
	int64_t b[RT_METRICS_NBOUNDS];
	int64_t units[] = { 1000, 1 };

	rt_metrics_bounds(1000, b);
	for (int i = 0; i < RT_METRICS_NBOUNDS; i++)
		ck_assert_int_eq(b[i], want_us[i]);
	for (size_t u = 0; u < 2; u++) {
		rt_metrics_bounds(units[u], b);
		for (int i = 0; i < RT_METRICS_NBOUNDS; i++) {
			int64_t nominal = rt_metrics_nominal_ns[i] / units[u];
			size_t k = rt_loghist_index(b[i]);

			ck_assert_int_eq(rt_loghist_bucket_high(k), b[i]);
			ck_assert_int_le(b[i], nominal);
			ck_assert_int_gt(rt_loghist_bucket_high(k + 1), nominal);
			if (i)
				ck_assert_int_gt(b[i], b[i - 1]);
		}
	}
}
END_TEST

static char *render(const struct rt_metrics_doc *d)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(rt_metrics_write(f, d), 0);
	fclose(f);
	return buf;
}

/* Samples on both sides of each bound: the cumulative counts are exact. */
START_TEST(histogram_counts_exact)
{
	struct rt_loghist *h = malloc(sizeof(*h));
	struct rt_stats s;
	int64_t b[RT_METRICS_NBOUNDS];
	struct rt_metrics_series ser;
	struct rt_metrics_doc d = {
		.tool = "cyclictest", .series_label = "thread", .kernel = "6.1.0-rt",
		.preempt = "PREEMPT_RT", .unit_ns = 1000, .verdict = RT_METRICS_NO_VERDICT,
		.series = &ser, .n = 1,
	};
	char *text, line[256];

	rt_loghist_init(h);
	rt_stats_init(&s);
	rt_metrics_bounds(1000, b);
	/* at each bound and just above it; one far above the last */
	for (int i = 0; i < RT_METRICS_NBOUNDS; i++) {
		rt_loghist_add(h, b[i]);
		rt_stats_add(&s, b[i]);
		rt_loghist_add(h, b[i] + 1);
		rt_stats_add(&s, b[i] + 1);
	}
	rt_loghist_add(h, 3000000);
	rt_stats_add(&s, 3000000);
	rt_loghist_seal(h, s.max);
	ser = (struct rt_metrics_series){ .id = 0, .cpu = 1, .stats = &s, .hist = h, .overruns = 7 };
	text = render(&d);
	/* 1 us: the sample at 1 (not 2); 2 us: 1, 2, 3 ... */
	ck_assert_ptr_nonnull(strstr(text, "rt_latency_seconds_bucket{tool=\"cyclictest\",thread=\"0\","
				     "cpu=\"1\",kernel=\"6.1.0-rt\",preempt=\"PREEMPT_RT\","
				     "le=\"0.000001\"} 1\n"));
	for (int i = 0; i < RT_METRICS_NBOUNDS; i++) {
		char le[32];

		snprintf(le, sizeof(le), "%.6f", (double)b[i] / 1e6);
		while (le[strlen(le) - 1] == '0')
			le[strlen(le) - 1] = '\0';
		snprintf(line, sizeof(line), "le=\"%s\"} %d\n", le, 2 * i + 1);
		ck_assert_msg(strstr(text, line), "missing %s", line);
	}
	ck_assert_ptr_nonnull(strstr(text, "le=\"+Inf\"} 33\n"));
	snprintf(line, sizeof(line), "} %lld.%06lld\n", (long long)(s.sum / 1000000),
		 (long long)(s.sum % 1000000));
	ck_assert_ptr_nonnull(strstr(text, "rt_latency_seconds_sum{"));
	ck_assert_msg(strstr(text, line), "no sum %s", line);
	ck_assert_ptr_nonnull(strstr(text, "rt_latency_seconds_count{tool=\"cyclictest\",thread=\"0\","
				     "cpu=\"1\",kernel=\"6.1.0-rt\",preempt=\"PREEMPT_RT\"} 33\n"));
	ck_assert_ptr_nonnull(strstr(text, "# TYPE rt_latency_seconds histogram\n"));
	ck_assert_ptr_nonnull(strstr(text, "# HELP rt_latency_seconds "));
	ck_assert_ptr_nonnull(strstr(text, "preempt=\"PREEMPT_RT\"} 3\n")); /* max 3 s */
	ck_assert_ptr_nonnull(strstr(text, "# TYPE rt_samples_total counter\n"));
	ck_assert_ptr_nonnull(strstr(text, "# TYPE rt_overruns_total counter\n"));
	ck_assert_ptr_nonnull(strstr(text, "preempt=\"PREEMPT_RT\"} 7\n"));
	ck_assert_ptr_null(strstr(text, "rt_verdict"));
	ck_assert_ptr_null(strstr(text, "rt_cpu_"));
	free(text);
	free(h);
}
END_TEST

/* Input reaches a label value escaped; the verdict and isolation counts appear when given. */
START_TEST(labels_escaped_verdict_isolation)
{
	struct rt_stats s;
	struct rt_metrics_series ser = { .id = 3, .cpu = -1, .stats = &s, .hist = NULL, .overruns = -1 };
	struct rt_metrics_cpu cpu = { .cpu = 2, .sums = { 10, 20, 30, 40, true } };
	struct rt_metrics_doc d = {
		.tool = "signaltest", .series_label = "pair", .kernel = "a\"b\\c\nd",
		.preempt = NULL, .unit_ns = 1, .verdict = 0, .series = &ser, .n = 1,
		.cpus = &cpu, .ncpus = 1,
	};
	char *text;

	rt_stats_init(&s);
	text = render(&d);
	ck_assert_ptr_nonnull(strstr(text, "pair=\"3\",cpu=\"any\",kernel=\"a\\\"b\\\\c\\nd\","
				     "preempt=\"\""));
	ck_assert_ptr_null(strstr(text, "rt_latency_max_seconds")); /* no sample, no maximum */
	ck_assert_ptr_null(strstr(text, "rt_overruns_total"));
	ck_assert_ptr_nonnull(strstr(text, "le=\"0.000000999\"} 0\n"));
	ck_assert_ptr_nonnull(strstr(text, "rt_verdict{tool=\"signaltest\",kernel=\"a\\\"b\\\\c\\nd\","
				     "preempt=\"\"} 0\n"));
	ck_assert_ptr_nonnull(strstr(text, "rt_cpu_interrupts_total{tool=\"signaltest\",cpu=\"2\","));
	ck_assert_ptr_nonnull(strstr(text, "} 10\n"));
	ck_assert_ptr_nonnull(strstr(text, "kind=\"voluntary\"} 30\n"));
	ck_assert_ptr_nonnull(strstr(text, "kind=\"involuntary\"} 40\n"));
	/* one line per newline: the escaped newline did not break a line */
	for (char *p = text; (p = strchr(p, '\n')); p++)
		ck_assert(p[1] == '\0' || p[1] == '#' || p[1] == 'r');
	free(text);
	d.verdict = 1;
	text = render(&d);
	ck_assert_ptr_nonnull(strstr(text, "preempt=\"\"} 1\n"));
	free(text);
}
END_TEST

/* Entries of dir, hidden ones too (the temporary file is hidden). */
static int count_entries(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	ck_assert_ptr_nonnull(d);
	while ((e = readdir(d)))
		n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
	closedir(d);
	return n;
}

/* The file is replaced whole; a failure leaves neither a temporary file nor a change. */
START_TEST(file_atomic_and_no_temp_left)
{
	char dir[] = "/tmp/test_rt_metrics.XXXXXX", path[128], text[64];
	struct rt_stats s;
	struct rt_metrics_series ser = { .id = 0, .cpu = 0, .stats = &s, .hist = NULL, .overruns = -1 };
	struct rt_metrics_doc d = {
		.tool = "t", .series_label = "thread", .unit_ns = 1000,
		.verdict = RT_METRICS_NO_VERDICT, .series = &ser, .n = 1,
	};
	mode_t mask = umask(022);
	struct stat st;
	FILE *f;

	rt_stats_init(&s);
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/m.prom", dir);
	f = fopen(path, "w");
	fputs("old\n", f);
	fclose(f);
	ck_assert_int_eq(rt_metrics_check_path(path), 0);
	ck_assert_int_eq(count_entries(dir), 1);
	ck_assert_int_eq(rt_metrics_write_file(path, &d), 0);
	ck_assert_int_eq(count_entries(dir), 1);
	/* node_exporter runs as another user: readable by all (umask 022) */
	ck_assert_int_eq(stat(path, &st), 0);
	ck_assert_int_eq(st.st_mode & 0777, 0644);
	f = fopen(path, "r");
	ck_assert_ptr_nonnull(fgets(text, sizeof(text), f));
	fclose(f);
	ck_assert(strncmp(text, "# HELP rt_latency_seconds", 25) == 0);
	/* renaming over a directory fails: the temporary file is gone */
	snprintf(path, sizeof(path), "%s/sub", dir);
	ck_assert_int_eq(mkdir(path, 0755), 0);
	ck_assert_int_eq(rt_metrics_write_file(path, &d), -EISDIR);
	ck_assert_int_eq(count_entries(dir), 2);
	rmdir(path);
	/* a directory that does not exist */
	snprintf(path, sizeof(path), "%s/none/m.prom", dir);
	ck_assert_int_eq(rt_metrics_write_file(path, &d), -ENOENT);
	ck_assert_int_eq(rt_metrics_check_path(path), -ENOENT);
	snprintf(path, sizeof(path), "%s/m.prom", dir);
	unlink(path);
	ck_assert_int_eq(rmdir(dir), 0);
	umask(mask);
}
END_TEST

/* Windows added up give the same file as the whole run; the end adds the verdict. */
START_TEST(set_adds_windows)
{
	char dir[] = "/tmp/test_rt_metrics.XXXXXX", path[128];
	struct rt_metrics_doc doc = { .tool = "cyclictest", .series_label = "thread", .unit_ns = 1000 };
	struct rt_metrics_set m;
	struct rt_loghist *w = malloc(sizeof(*w)), *all = malloc(sizeof(*all));
	struct rt_stats ws, as;
	struct rt_series series[2];
	int cpus[2] = { 0, 0 };
	char *a = NULL, *b = NULL;
	size_t len;
	FILE *f;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/m.prom", dir);
	ck_assert_int_eq(rt_metrics_set_open(&m, path, &doc, 2, cpus, true), 0);
	ck_assert_int_eq(rt_metrics_set_labels(&m, "6.1", "PREEMPT_DYNAMIC"), 0);
	rt_loghist_init(all);
	rt_stats_init(&as);
	for (int win = 0; win < 3; win++) {
		rt_loghist_init(w);
		rt_stats_init(&ws);
		for (int v = 1; v < 400; v += 7 + win) {
			rt_loghist_add(w, v);
			rt_stats_add(&ws, v);
			rt_loghist_add(all, v);
			rt_stats_add(&as, v);
		}
		rt_loghist_seal(w, ws.max);
		rt_metrics_set_add(&m, 0, &ws, w, 2);
	}
	ck_assert_int_eq(rt_metrics_set_flush(&m, NULL), 0);
	f = fopen(path, "r");
	ck_assert_int_gt(getdelim(&a, &len, '\0', f), 0);
	fclose(f);
	rt_loghist_seal(all, as.max);
	series[0] = (struct rt_series){ .stats = as, .hist = all, .overruns = 6 };
	rt_stats_init(&series[1].stats);
	series[1].hist = NULL;
	series[1].overruns = 0;
	ck_assert_int_eq(rt_metrics_set_finish(&m, series, RT_METRICS_NO_VERDICT, NULL), 0);
	f = fopen(path, "r");
	ck_assert_int_gt(getdelim(&b, &len, '\0', f), 0);
	fclose(f);
	ck_assert_str_eq(a, b);
	ck_assert_ptr_nonnull(strstr(a, "rt_overruns_total{tool=\"cyclictest\",thread=\"0\",cpu=\"0\","
				  "kernel=\"6.1\",preempt=\"PREEMPT_DYNAMIC\"} 6\n"));
	ck_assert_int_eq(rt_metrics_set_finish(&m, series, 1, NULL), 0);
	free(a);
	a = NULL;
	f = fopen(path, "r");
	ck_assert_int_gt(getdelim(&a, &len, '\0', f), 0);
	fclose(f);
	ck_assert_ptr_nonnull(strstr(a, "\nrt_verdict{tool=\"cyclictest\",kernel=\"6.1\","
				  "preempt=\"PREEMPT_DYNAMIC\"} 1\n"));
	rt_metrics_set_close(&m);
	unlink(path);
	ck_assert_int_eq(rmdir(dir), 0);
	free(a);
	free(b);
	free(w);
	free(all);
}
END_TEST

Suite *unit_suite(void)
{
	Suite *s = suite_create("rt_metrics");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, bounds_are_bucket_ends);
	tcase_add_test(tc, histogram_counts_exact);
	tcase_add_test(tc, labels_escaped_verdict_isolation);
	tcase_add_test(tc, file_atomic_and_no_temp_left);
	tcase_add_test(tc, set_adds_windows);
	suite_add_tcase(s, tc);
	return s;
}
