// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/klog.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#include <x86intrin.h>
#define QL_HAVE_TSC 1
#endif

#include "rt_time.h"

#include "tsc.h"

#define KLOG_READ_ALL 3
#define KLOG_SIZE_BUFFER 10
#define REFINED "Refined TSC clocksource calibration: "
#define DETECTED "tsc: Detected "

const char *ql_tsc_source_text(enum ql_tsc_source s)
{
	switch (s) {
	case QL_TSC_OPTION: return "-f";
	case QL_TSC_SYSFS: return QL_TSC_SYSFS_PATH;
	case QL_TSC_KLOG_REFINED: return "kernel log (tsc: Refined TSC clocksource calibration)";
	case QL_TSC_KLOG_DETECTED: return "kernel log (tsc: Detected ... MHz processor)";
	case QL_TSC_CPUID_15: return "CPUID leaf 0x15 (crystal clock ratio)";
	case QL_TSC_CPUID_16: return "CPUID leaf 0x16 (processor base frequency)";
	case QL_TSC_MEASURED: return "a 50 ms measurement against CLOCK_MONOTONIC_RAW";
	}
	return "?";
}

const char *ql_tsc_source_key(enum ql_tsc_source s)
{
	switch (s) {
	case QL_TSC_OPTION: return "option";
	case QL_TSC_SYSFS: return "sysfs";
	case QL_TSC_KLOG_REFINED:
	case QL_TSC_KLOG_DETECTED: return "kernel_log";
	case QL_TSC_CPUID_15:
	case QL_TSC_CPUID_16: return "cpuid";
	case QL_TSC_MEASURED: return "measured";
	}
	return "?";
}

static int plausible(double mhz)
{
	return isfinite(mhz) && mhz >= 1.0 && mhz <= 1000000.0;
}

int ql_tsc_parse_sysfs(const char *text, double *mhz)
{
	char *end;
	unsigned long long khz;

	if (!text || *text < '0' || *text > '9')
		return -EINVAL;
	errno = 0;
	khz = strtoull(text, &end, 10);
	while (*end == '\n' || *end == ' ')
		end++;
	if (errno || *end != '\0' || !plausible((double)khz / 1000.0))
		return -EINVAL;
	*mhz = (double)khz / 1000.0;
	return 0;
}

/* The number of "X MHz" right after the last occurrence of key in log. */
static int last_mhz(const char *log, const char *key, double *mhz)
{
	const char *p = log, *hit;
	int found = -ENOENT;

	while ((hit = strstr(p, key))) {
		const char *num = hit + strlen(key);
		char *end;
		double v;

		p = num;
		if (*num < '0' || *num > '9')
			continue;
		v = strtod(num, &end);
		if (strncmp(end, " MHz", 4) || !plausible(v))
			continue;
		*mhz = v;
		found = 0;
	}
	return found;
}

int ql_tsc_parse_klog(const char *log, double *mhz, enum ql_tsc_source *src)
{
	if (!log)
		return -ENOENT;
	if (last_mhz(log, REFINED, mhz) == 0) {
		*src = QL_TSC_KLOG_REFINED;
		return 0;
	}
	if (last_mhz(log, DETECTED, mhz) == 0) {
		*src = QL_TSC_KLOG_DETECTED;
		return 0;
	}
	return -ENOENT;
}

int ql_tsc_from_cpuid(uint32_t max_leaf, const uint32_t l15[3], uint32_t l16_eax, double *mhz,
		      enum ql_tsc_source *src)
{
	if (max_leaf >= 0x15 && l15[0] && l15[1] && l15[2]) {
		double v = (double)l15[2] * (double)l15[1] / (double)l15[0] / 1e6;

		if (plausible(v)) {
			*mhz = v;
			*src = QL_TSC_CPUID_15;
			return 0;
		}
	}
	if (max_leaf >= 0x16 && plausible((double)(l16_eax & 0xffff))) {
		*mhz = (double)(l16_eax & 0xffff);
		*src = QL_TSC_CPUID_16;
		return 0;
	}
	return -ENOENT;
}

int ql_tsc_from_measure(uint64_t ticks, int64_t ns, double *mhz)
{
	double v;

	if (ns <= 0)
		return -EINVAL;
	v = (double)ticks * 1000.0 / (double)ns;
	if (!plausible(v))
		return -EINVAL;
	*mhz = v;
	return 0;
}

static int read_sysfs(double *mhz)
{
	char buf[64];
	ssize_t n;
	int fd = open(QL_TSC_SYSFS_PATH, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -EINVAL;
	buf[n] = '\0';
	return ql_tsc_parse_sysfs(buf, mhz);
}

static int read_klog(double *mhz, enum ql_tsc_source *src)
{
	int size = klogctl(KLOG_SIZE_BUFFER, NULL, 0), n, err;
	char *buf;

	if (size <= 0)
		return -ENOENT;
	buf = malloc((size_t)size + 1);
	if (!buf)
		return -ENOMEM;
	n = klogctl(KLOG_READ_ALL, buf, size);
	if (n < 0) {
		free(buf);
		return -errno;
	}
	buf[n] = '\0';
	err = ql_tsc_parse_klog(buf, mhz, src);
	free(buf);
	return err;
}

#ifdef QL_HAVE_TSC
static int read_cpuid(double *mhz, enum ql_tsc_source *src)
{
	uint32_t a, b, c, d, l15[3] = { 0 }, l16 = 0, max = __get_cpuid_max(0, NULL);

	if (max >= 0x15 && __get_cpuid(0x15, &a, &b, &c, &d)) {
		l15[0] = a;
		l15[1] = b;
		l15[2] = c;
	}
	if (max >= 0x16 && __get_cpuid(0x16, &a, &b, &c, &d))
		l16 = a;
	return ql_tsc_from_cpuid(max, l15, l16, mhz, src);
}

static int measure(double *mhz)
{
	struct timespec t0, t1, nap = rt_time_from_ns(QL_TSC_MEASURE_NS);
	uint64_t c0, c1;

	clock_gettime(CLOCK_MONOTONIC_RAW, &t0);
	c0 = __rdtsc();
	while (nanosleep(&nap, &nap) && errno == EINTR)
		;
	c1 = __rdtsc();
	clock_gettime(CLOCK_MONOTONIC_RAW, &t1);
	return ql_tsc_from_measure(c1 - c0, rt_time_diff_ns(&t1, &t0), mhz);
}
#endif

int ql_tsc_detect(double *mhz, enum ql_tsc_source *src, char *why, size_t len)
{
	if (read_sysfs(mhz) == 0) {
		*src = QL_TSC_SYSFS;
		return 0;
	}
	if (read_klog(mhz, src) == 0)
		return 0;
#ifdef QL_HAVE_TSC
	if (read_cpuid(mhz, src) == 0)
		return 0;
	if (measure(mhz) == 0) {
		*src = QL_TSC_MEASURED;
		return 0;
	}
	snprintf(why, len, "no %s, no TSC line in the kernel log, no frequency in CPUID and "
		 "the TSC could not be measured", QL_TSC_SYSFS_PATH);
#else
	{
		struct utsname u;

		if (uname(&u))
			strcpy(u.machine, "this architecture");
		snprintf(why, len, "no %s, no TSC line in the kernel log, and %s has no TSC to "
			 "measure", QL_TSC_SYSFS_PATH, u.machine);
	}
#endif
	return -ENOENT;
}
