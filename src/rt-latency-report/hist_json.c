// SPDX-License-Identifier: GPL-2.0-or-later
#include <inttypes.h>
#include <json-c/json.h>
#include <stdint.h>
#include <stdio.h>

#include "rt_loghist.h"
#include "rt_quantile_ci.h"

#include "hist_json.h"

struct json_object *rlr_percentiles_json(const struct rt_loghist *h)
{
	struct json_object *p = json_object_new_object();

	for (int k = 0; k < RT_LOGHIST_NPCT; k++) {
		int64_t v;

		json_object_object_add(p, rt_loghist_pct_names[k],
				       rt_loghist_percentile(h, rt_loghist_pcts[k], &v)
					       ? json_object_new_int64(v) : NULL);
	}
	return p;
}

struct json_object *rlr_percentiles_ci_json(const struct rt_loghist *h)
{
	struct json_object *p = json_object_new_object();

	for (int k = 0; k < RT_LOGHIST_NPCT; k++) {
		struct json_object *ci = NULL;
		struct rt_pct_ci v;

		if (!rt_loghist_pct_ci(h, rt_loghist_pcts[k], RT_QUANTILE_CI_CONFIDENCE_PCT, &v)) {
			ci = json_object_new_object();
			json_object_object_add(ci, "low", json_object_new_int64(v.low));
			json_object_object_add(ci, "high",
					       v.has_high ? json_object_new_int64(v.high) : NULL);
			json_object_object_add(ci, "confidence",
					       json_object_new_int((int)v.confidence_pct));
		}
		json_object_object_add(p, rt_loghist_pct_names[k], ci);
	}
	return p;
}

struct json_object *rlr_histogram_json(const struct rt_loghist *h)
{
	struct json_object *o = json_object_new_object(), *b = json_object_new_object();

	json_object_object_add(o, "layout", json_object_new_string("log-linear"));
	json_object_object_add(o, "exact_below", json_object_new_int(RT_LOGHIST_EXACT));
	json_object_object_add(o, "sub_buckets", json_object_new_int(RT_LOGHIST_SUB));
	json_object_object_add(o, "count", json_object_new_int64((int64_t)h->count));
	json_object_object_add(o, "max", h->count ? json_object_new_int64(h->max) : NULL);
	for (size_t i = 0; i < RT_LOGHIST_BUCKETS; i++) {
		char key[24];

		if (!h->bucket[i])
			continue;
		snprintf(key, sizeof(key), "%" PRId64, rt_loghist_bucket_low(i));
		json_object_object_add(b, key, json_object_new_int64((int64_t)h->bucket[i]));
	}
	json_object_object_add(o, "buckets", b);
	return o;
}
