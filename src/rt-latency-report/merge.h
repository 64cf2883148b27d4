/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RLR_MERGE_H
#define RLR_MERGE_H

struct json_object;
struct rt_loghist;

/* A sealed histogram's "percentiles" and "latency_histogram" objects, as the tools write them. */
struct json_object *rlr_percentiles_json(const struct rt_loghist *h);
/* Its "percentiles_ci": each percentile's 95 % interval (rt_quantile_ci), null when empty. */
struct json_object *rlr_percentiles_ci_json(const struct rt_loghist *h);
struct json_object *rlr_histogram_json(const struct rt_loghist *h);

/* rt-latency-report merge FILE... -o OUT.json: the exit code. */
int rlr_merge(int argc, char *argv[], const char *cmdline);

#endif
