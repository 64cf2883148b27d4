// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>

#include "rt_percentiles.h"
#include "rt_quantile_ci.h"

static void column(FILE *f, bool valid, int64_t v)
{
	if (valid)
		fprintf(f, " %05" PRId64, v);
	else
		fputs(" -----", f);
}

void rt_percentiles_write_text(FILE *f, const struct rt_series *s, int n)
{
	for (int p = 0; p < RT_LOGHIST_NPCT; p++) {
		/* "p99.9" -> "# P99.9 Latencies:" */
		fprintf(f, "# P%s Latencies:", rt_loghist_pct_names[p] + 1);
		for (int i = 0; i < n; i++) {
			int64_t v = 0;
			bool ok = s[i].hist && rt_loghist_percentile(s[i].hist, rt_loghist_pcts[p], &v);

			column(f, ok, v);
		}
		fputc('\n', f);
	}
}

void rt_percentiles_write_ci_text(FILE *f, const struct rt_series *s, int n, const char *unit)
{
	const unsigned conf = RT_QUANTILE_CI_CONFIDENCE_PCT;

	for (int i = 0; i < n; i++) {
		if (!s[i].hist || !s[i].hist->count)
			continue;
		for (int p = 0; p < RT_LOGHIST_NPCT; p++) {
			struct rt_pct_ci ci;
			uint64_t need;

			if (rt_loghist_pct_ci(s[i].hist, rt_loghist_pcts[p], conf, &ci))
				continue;
			fprintf(f, "# T: %d %s %" PRId64 " %s (%u %% CI %" PRId64 "-", i,
				rt_loghist_pct_names[p], ci.value, unit, conf, ci.low);
			if (ci.has_high)
				fprintf(f, "%" PRId64 ")\n", ci.high);
			else if (!rt_quantile_ci_min_samples(rt_loghist_pcts[p], conf, &need))
				fprintf(f, "?: too few samples, %" PRIu64 " needed)\n", need);
			else
				fputs("?: too few samples)\n", f);
		}
	}
}

void rt_overruns_write_text(FILE *f, const struct rt_series *s, int n)
{
	fputs("# Overruns:", f);
	for (int i = 0; i < n; i++)
		column(f, s[i].overruns >= 0, s[i].overruns);
	fputc('\n', f);
}

static void write_ci_json(struct rt_json *j, const char *key, const struct rt_loghist *h)
{
	char name[64];

	snprintf(name, sizeof(name), "%s_ci", key);
	rt_json_object_begin(j, name);
	for (int p = 0; p < RT_LOGHIST_NPCT; p++) {
		struct rt_pct_ci ci;

		if (!h || rt_loghist_pct_ci(h, rt_loghist_pcts[p], RT_QUANTILE_CI_CONFIDENCE_PCT,
					    &ci)) {
			rt_json_null(j, rt_loghist_pct_names[p]);
			continue;
		}
		rt_json_object_begin(j, rt_loghist_pct_names[p]);
		rt_json_int(j, "low", ci.low);
		if (ci.has_high)
			rt_json_int(j, "high", ci.high);
		else
			rt_json_null(j, "high");
		rt_json_int(j, "confidence", ci.confidence_pct);
		rt_json_object_end(j);
	}
	rt_json_object_end(j);
}

static void write_values_json(struct rt_json *j, const char *key, const struct rt_loghist *h)
{
	rt_json_object_begin(j, key);
	for (int p = 0; p < RT_LOGHIST_NPCT; p++) {
		int64_t v;

		if (h && rt_loghist_percentile(h, rt_loghist_pcts[p], &v))
			rt_json_int(j, rt_loghist_pct_names[p], v);
		else
			rt_json_null(j, rt_loghist_pct_names[p]);
	}
	rt_json_object_end(j);
}

void rt_percentiles_write_json(struct rt_json *j, const char *key, const struct rt_loghist *h)
{
	write_values_json(j, key, h);
	if (key)
		write_ci_json(j, key, h);
}

int rt_percentiles_write_json_total(struct rt_json *j, const char *key, const struct rt_series *s,
				    int n)
{
	struct rt_loghist *all = malloc(sizeof(*all));

	if (all) {
		rt_loghist_init(all);
		for (int i = 0; i < n; i++)
			if (s[i].hist)
				rt_loghist_merge(all, s[i].hist);
	}
	rt_percentiles_write_json(j, key, all);
	free(all);
	return all ? 0 : -ENOMEM;
}

void rt_loghist_write_json(struct rt_json *j, const char *key, const struct rt_loghist *h)
{
	char low[24];

	rt_json_object_begin(j, key);
	rt_json_string(j, "layout", "log-linear");
	rt_json_int(j, "exact_below", RT_LOGHIST_EXACT);
	rt_json_int(j, "sub_buckets", RT_LOGHIST_SUB);
	rt_json_uint(j, "count", h->count);
	if (h->count)
		rt_json_int(j, "max", h->max);
	else
		rt_json_null(j, "max");
	rt_json_object_begin(j, "buckets");
	for (size_t i = 0; i < RT_LOGHIST_BUCKETS; i++) {
		if (!h->bucket[i])
			continue;
		snprintf(low, sizeof(low), "%" PRId64, rt_loghist_bucket_low(i));
		rt_json_uint(j, low, h->bucket[i]);
	}
	rt_json_object_end(j);
	rt_json_object_end(j);
}
