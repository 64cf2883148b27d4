// SPDX-License-Identifier: GPL-2.0-or-later
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "sample.h"

#define MAX_TOKENS 32
#define VALUE_MAX (INT64_C(1) << 53)

/* Split a copy of line on blanks: at most MAX_TOKENS words. */
static int split(char *buf, char *tok[])
{
	int n = 0;

	for (char *p = strtok(buf, " \t\r\n"); p && n < MAX_TOKENS; p = strtok(NULL, " \t\r\n"))
		tok[n++] = p;
	return n;
}

/* Whole decimal digits (at most 18) into *v. */
static bool digits(const char *p, const char *end, int64_t *v)
{
	int64_t n = 0;

	if (p == end || end - p > 18)
		return false;
	for (; p < end; p++) {
		if (!isdigit((unsigned char)*p))
			return false;
		n = n * 10 + (*p - '0');
	}
	*v = n;
	return true;
}

static bool pair(const char *t, int64_t *inner, int64_t *outer)
{
	const char *slash = strchr(t, '/');

	return slash && digits(t, slash, inner) && digits(slash + 1, t + strlen(t), outer) &&
	       *inner < VALUE_MAX && *outer < VALUE_MAX;
}

static bool timestamp(const char *t, struct hwlat_sample *s)
{
	const char *dot = strchr(t, '.'), *end = t + strlen(t);
	int64_t frac = 0;

	if ((size_t)(end - t) >= sizeof(s->ts))
		return false;
	if (!digits(t, dot ? dot : end, &s->ts_sec))
		return false;
	if (dot) {
		if (!digits(dot + 1, end, &frac) || end - dot - 1 > 9)
			return false;
		for (long i = end - dot - 1; i < 9; i++)
			frac *= 10;
	}
	s->ts_nsec = frac;
	memcpy(s->ts, t, (size_t)(end - t) + 1);
	return true;
}

int hwlat_sample_parse(const char *line, struct hwlat_sample *s)
{
	char buf[1024], *tok[MAX_TOKENS];
	int n, io = -1;
	bool have_ts = false;

	if (strlen(line) >= sizeof(buf))
		return -EINVAL;
	memcpy(buf, line, strlen(line) + 1);
	n = split(buf, tok);
	memset(s, 0, sizeof(*s));
	s->cpu = -1;
	s->count = -1;
	for (int i = 0; i + 1 < n; i++)
		if (strcmp(tok[i], "inner/outer(us):") == 0) {
			io = i + 1;
			break;
		}
	if (io < 0 || !pair(tok[io], &s->inner_us, &s->outer_us))
		return -EINVAL;
	for (int i = io + 1; i < n; i++) {
		int64_t v;

		if (strncmp(tok[i], "ts:", 3) == 0 && !have_ts) {
			if (!timestamp(tok[i] + 3, s))
				return -EINVAL;
			have_ts = true;
		} else if (strncmp(tok[i], "count:", 6) == 0 &&
			   digits(tok[i] + 6, tok[i] + strlen(tok[i]), &v) && v < VALUE_MAX) {
			s->count = v;
		}
	}
	if (!have_ts)
		return -EINVAL;
	/* the CPU: "[001]" before the event */
	for (int i = 0; i < io; i++) {
		size_t len = strlen(tok[i]);
		int64_t cpu;

		if (len > 2 && tok[i][0] == '[' && tok[i][len - 1] == ']' &&
		    digits(tok[i] + 1, tok[i] + len - 1, &cpu) && cpu < 1 << 20) {
			s->cpu = (int)cpu;
			break;
		}
	}
	return 0;
}

int64_t hwlat_sample_max(const struct hwlat_sample *s)
{
	return s->inner_us > s->outer_us ? s->inner_us : s->outer_us;
}

void hwlat_sample_format(const struct hwlat_sample *s, char *buf, size_t len)
{
	snprintf(buf, len, "ts: %s, inner:%" PRId64 ", outer:%" PRId64, s->ts, s->inner_us,
		 s->outer_us);
}

void hwlat_summarize(const struct hwlat_sample *s, size_t n, int64_t window_us, int64_t width_us,
		     struct hwlat_summary *out)
{
	bool counted = n && s[0].count >= 0;

	memset(out, 0, sizeof(*out));
	out->samples = n;
	for (size_t i = 0; i < n; i++) {
		if (hwlat_sample_max(&s[i]) > out->max_us)
			out->max_us = hwlat_sample_max(&s[i]);
		out->spikes += counted ? (s[i].count >= 0 ? (uint64_t)s[i].count : 1) : 1;
	}
	if (out->spikes > 1 && width_us > 0 && window_us > 0) {
		double span = (double)(s[n - 1].ts_sec - s[0].ts_sec) +
			      (double)(s[n - 1].ts_nsec - s[0].ts_nsec) / 1e9;

		out->has_mtbf = true;
		out->mtbf_s = span * (double)window_us / ((double)(out->spikes - 1) * (double)width_us);
	}
}
