/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The TSC frequency when -f is not given: from sysfs (tsc_freq_khz, where a
 * kernel has it), the kernel log ("tsc: Refined TSC clocksource calibration",
 * "tsc: Detected ... MHz processor"), CPUID leaves 0x15/0x16, or measured
 * against CLOCK_MONOTONIC_RAW. The parsers are pure, for unit tests.
 */
#ifndef QUEUELAT_TSC_H
#define QUEUELAT_TSC_H

#include <stddef.h>
#include <stdint.h>

enum ql_tsc_source {
	QL_TSC_OPTION,          /* -f */
	QL_TSC_SYSFS,
	QL_TSC_KLOG_REFINED,
	QL_TSC_KLOG_DETECTED,
	QL_TSC_CPUID_15,
	QL_TSC_CPUID_16,
	QL_TSC_MEASURED,
};

#define QL_TSC_SYSFS_PATH "/sys/devices/system/cpu/cpu0/tsc_freq_khz"
#define QL_TSC_MEASURE_NS 50000000LL   /* 50 ms */

/* Text of the output and the JSON: "kernel log (tsc: Detected ... MHz processor)". */
const char *ql_tsc_source_text(enum ql_tsc_source s);
/* A short key for the JSON: "option", "sysfs", "kernel_log", "cpuid", "measured". */
const char *ql_tsc_source_key(enum ql_tsc_source s);

/* tsc_freq_khz's content ("2096000\n"): 0 and *mhz, or -EINVAL. */
int ql_tsc_parse_sysfs(const char *text, double *mhz);
/*
 * The kernel log: the last "Refined TSC clocksource calibration: X MHz",
 * else the last "tsc: Detected X MHz processor". 0, or -ENOENT.
 */
int ql_tsc_parse_klog(const char *log, double *mhz, enum ql_tsc_source *src);
/*
 * CPUID leaves: 0x15 (eax denominator, ebx numerator, ecx crystal Hz) when
 * all three are set, else 0x16 (eax base MHz). max_leaf is leaf 0's eax.
 * 0, or -ENOENT.
 */
int ql_tsc_from_cpuid(uint32_t max_leaf, const uint32_t l15[3], uint32_t l16_eax, double *mhz,
		      enum ql_tsc_source *src);
/* The counter's ticks over ns nanoseconds, in MHz: 0, or -EINVAL. */
int ql_tsc_from_measure(uint64_t ticks, int64_t ns, double *mhz);

/*
 * Find it on this machine, in the order above. 0, or -ENOENT with what is
 * missing in why (a sentence for the one-line error).
 */
int ql_tsc_detect(double *mhz, enum ql_tsc_source *src, char *why, size_t len);

#endif
