/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A sealed histogram (rt_loghist) as the tools write it in their JSON: what
 * a --records file read back (records.c) and a merge (merge.c) both build.
 */
#ifndef RLR_HIST_JSON_H
#define RLR_HIST_JSON_H

struct json_object;
struct rt_loghist;

/* Its "percentiles" and "latency_histogram" objects. */
struct json_object *rlr_percentiles_json(const struct rt_loghist *h);
/* Its "percentiles_ci": each percentile's 95 % interval (rt_quantile_ci), null when empty. */
struct json_object *rlr_percentiles_ci_json(const struct rt_loghist *h);
struct json_object *rlr_histogram_json(const struct rt_loghist *h);

#endif
