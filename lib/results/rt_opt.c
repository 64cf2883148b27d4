// SPDX-License-Identifier: GPL-2.0-or-later
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <numa.h>

#include "rt_opt.h"
#include "rt_sched.h"

/*
 * libnuma reports parse errors by printing through these weak hooks; the
 * library must stay silent, so the tools' own message is the only one.
 */
void numa_warn(int num, char *fmt, ...)
{
	(void)num;
	(void)fmt;
}

void numa_error(char *where)
{
	(void)where;
}

int rt_opt_parse_ll(const char *s, long long min, long long max, long long *out)
{
	char *end;
	long long v;

	if (!s)
		return -EINVAL;
	while (*s == ' ' || *s == '\t')
		s++;
	if (!*s || !(isdigit((unsigned char)*s) || *s == '-' || *s == '+'))
		return -EINVAL;
	errno = 0;
	v = strtoll(s, &end, 10);
	if (end == s || *end != '\0')
		return -EINVAL;
	if (errno == ERANGE || v < min || v > max)
		return -ERANGE;
	*out = v;
	return 0;
}

int rt_opt_parse_int(const char *s, int min, int max, int *out)
{
	long long v;
	int err = rt_opt_parse_ll(s, min, max, &v);

	if (!err)
		*out = (int)v;
	return err;
}

int rt_opt_parse_percentile(const char *s, uint32_t *permyriad)
{
	uint64_t whole = 0, frac = 0;
	int digits = 0, decimals = 0;

	if (!s)
		return -EINVAL;
	for (; isdigit((unsigned char)*s); s++, digits++) {
		whole = whole * 10 + (uint64_t)(*s - '0');
		if (whole > 100)
			return -ERANGE;
	}
	if (*s == '.') {
		for (s++; isdigit((unsigned char)*s); s++, decimals++) {
			if (decimals == 4)
				return -EINVAL; /* finer than the reports show */
			frac = frac * 10 + (uint64_t)(*s - '0');
		}
		if (decimals == 0)
			return -EINVAL;
	}
	if (digits == 0 || *s != '\0')
		return -EINVAL;
	for (; decimals < 4; decimals++)
		frac *= 10;
	whole = whole * 10000 + frac;
	if (whole == 0 || whole > 1000000)
		return -ERANGE;
	*permyriad = (uint32_t)whole;
	return 0;
}

int rt_opt_parse_percentile_limit(const char *s, long long max_bound, uint32_t *permyriad,
				  long long *bound)
{
	char p[16];
	const char *colon = s ? strchr(s, ':') : NULL;
	size_t len;
	int err;

	if (!colon || (len = (size_t)(colon - s)) >= sizeof(p))
		return -EINVAL;
	memcpy(p, s, len);
	p[len] = '\0';
	if ((err = rt_opt_parse_percentile(p, permyriad)))
		return err;
	if (!isdigit((unsigned char)colon[1]))
		return -EINVAL;
	return rt_opt_parse_ll(colon + 1, 0, max_bound, bound);
}

/*
 * The number a duration starts with (blanks before it skipped), at most
 * max; *s is left on what follows it (the unit). 0, -EINVAL (no digit) or
 * -ERANGE.
 */
static int leading_number(const char **s, uint64_t max, uint64_t *v)
{
	const char *p = *s;

	*v = 0;
	while (*p == ' ' || *p == '\t')
		p++;
	if (!isdigit((unsigned char)*p))
		return -EINVAL;
	for (; isdigit((unsigned char)*p); p++) {
		if (*v > (max - 9) / 10)
			return -ERANGE;
		*v = *v * 10 + (uint64_t)(*p - '0');
	}
	*s = p;
	return 0;
}

int rt_opt_parse_duration(const char *s, uint64_t max_seconds, uint64_t *seconds)
{
	uint64_t v, mult = 1;
	int err;

	if (!s)
		return -EINVAL;
	if ((err = leading_number(&s, UINT64_MAX, &v)))
		return err;
	switch (tolower((unsigned char)*s)) {
	case '\0': break;
	case 's': mult = 1; s++; break;
	case 'm': mult = 60; s++; break;
	case 'h': mult = 3600; s++; break;
	case 'd': mult = 86400; s++; break;
	default: return -EINVAL;
	}
	if (*s != '\0')
		return -EINVAL;
	if (v > max_seconds / mult)
		return -ERANGE;
	*seconds = v * mult;
	return 0;
}

/* The multiplier of a time suffix in ns: "ns", "us", "ms", "s"; 0 if none of them. */
static int64_t time_suffix_ns(const char *u)
{
	static const struct { const char *name; int64_t ns; } units[] = {
		{ "", 1 }, { "ns", 1 }, { "us", 1000 }, { "ms", 1000000 }, { "s", 1000000000 },
	};

	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (strcasecmp(u, units[i].name) == 0)
			return units[i].ns;
	return 0;
}

int rt_opt_parse_time_ns(const char *s, int64_t max_ns, int64_t *ns)
{
	uint64_t u;
	int64_t v, mult;
	int err;

	if (!s)
		return -EINVAL;
	if ((err = leading_number(&s, INT64_MAX, &u)))
		return err;
	v = (int64_t)u;
	if (!(mult = time_suffix_ns(s)))
		return -EINVAL;
	if (v > max_ns / mult)
		return -ERANGE;
	*ns = v * mult;
	return 0;
}

int rt_opt_parse_policy(const char *s, int *policy)
{
	if (!s)
		return -EINVAL;
	return rt_sched_policy_from_name(s, policy);
}

/*
 * libnuma reads CPU numbers with strtoul (so 0x1f and 017 work) and then
 * walks a range bit by bit; a number that overflows slips past its range
 * check, and "0-0500000000000000000000" spins for ever. Refuse any number
 * of CPU_SETSIZE or more before libnuma sees it (-ERANGE). libnuma also
 * reads a descending range "1-0" as "1": refuse that too (-EDOM).
 */
static int check_cpu_numbers(const char *s)
{
	unsigned long long prev = 0;
	bool have_prev = false;

	for (const char *p = s; *p;) {
		if (isdigit((unsigned char)*p)) {
			bool range_end = have_prev && p > s && p[-1] == '-';
			char *end;
			unsigned long long v;

			errno = 0;
			v = strtoull(p, &end, 0);
			if (errno || v >= CPU_SETSIZE)
				return -ERANGE;
			if (range_end && v < prev)
				return -EDOM;
			prev = v;
			have_prev = !range_end;
			p = end > p ? end : p + 1;
		} else {
			if (*p != '-')
				have_prev = false;
			p++;
		}
	}
	return 0;
}

int rt_opt_parse_cpulist(const char *s, struct rt_cpulist *out)
{
	struct rt_cpulist allowed;
	struct bitmask *mask;
	int err;

	out->count = 0;
	if (!s)
		return -EINVAL;
	while (*s == ' ' || *s == '\t')
		s++;
	if (!*s)
		return -EINVAL;
	if ((err = check_cpu_numbers(s)))
		return err;
	err = rt_affinity_allowed(&allowed);
	if (err)
		return err;
	mask = numa_parse_cpustring_all(s);
	if (!mask)
		return -EINVAL;
	for (unsigned c = 0; c < mask->size && c < CPU_SETSIZE; c++) {
		if (!numa_bitmask_isbitset(mask, c))
			continue;
		if (!rt_affinity_contains(&allowed, (int)c)) {
			err = -ERANGE;
			break;
		}
		out->cpu[out->count++] = (int)c;
	}
	numa_bitmask_free(mask);
	if (!err && out->count == 0)
		err = -ERANGE;
	if (err)
		out->count = 0;
	return err;
}
