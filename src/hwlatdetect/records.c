// SPDX-License-Identifier: GPL-2.0-or-later
#include <string.h>
#include <time.h>

#include "rt_json.h"
#include "rt_time.h"

#include "records.h"
#include "report.h"

int hwlat_records_open(struct hwlat_records *r, const struct hwlat_config *cfg)
{
	int err;

	memset(r, 0, sizeof(*r));
	if (!cfg->records)
		return 0;
	if ((err = rt_records_open(&r->rec, cfg->records, cfg->records_interval_s)))
		return err;
	r->open = true;
	return 0;
}


int hwlat_records_start(struct hwlat_records *r, const struct rt_report *rep,
			const struct hwlat_config *cfg, const struct hwlat_result *res,
			const struct rt_env *env)
{
	struct rt_json j;

	if (!r->open)
		return 0;
	rt_records_start(&r->rec, 0);
	rt_records_begin(&r->rec, &j, "run");
	rt_json_string(&j, "tool", "hwlatdetect");
	rt_json_string(&j, "version", PACKAGE_VERSION);
	rt_json_string(&j, "cmdline", rep->cmdline);
	rt_records_time(&r->rec, &j, "start", r->rec.start_ns);
	rt_json_string(&j, "unit", "us");
	rt_json_uint(&j, "records_interval_s", cfg->records_interval_s);
	rt_json_uint(&j, "duration_s", cfg->duration_s);
	rt_json_int(&j, "threshold_us", res->threshold_us);
	rt_json_int(&j, "hardlimit_us", res->hardlimit_us);
	rt_json_int(&j, "window_us", res->window_us);
	rt_json_int(&j, "width_us", res->width_us);
	rt_report_json_sysinfo(&j);
	rt_env_write_json(&j, env);
	rt_records_end(&r->rec, &j);
	return rt_records_sync(&r->rec);
}

static void counts(const struct hwlat_result *res, size_t from, const struct hwlat_summary *sum,
		   struct rt_json *j)
{
	struct hwlat_summary w;

	hwlat_summarize(res->samples + from, res->n - from, res->window_us, res->width_us, &w);
	if (!sum)
		sum = &w;
	rt_json_uint(j, "samples", sum->samples);
	rt_json_uint(j, "spikes", sum->spikes);
	if (sum->samples)
		rt_json_int(j, "max_latency_us", sum->max_us);
	else
		rt_json_null(j, "max_latency_us");
}

static void window(struct hwlat_records *r, const struct hwlat_result *res, int64_t end_ns)
{
	struct rt_json j;

	rt_records_begin(&r->rec, &j, "window");
	rt_records_window_times(&r->rec, &j, end_ns);
	counts(res, r->first, NULL, &j);
	rt_records_end(&r->rec, &j);
	rt_records_sync(&r->rec);
	rt_records_next_window(&r->rec, end_ns);
	r->first = res->n;
}

void hwlat_records_poll(struct hwlat_records *r, const struct hwlat_result *res)
{
	int64_t end;

	if (!r->open)
		return;
	end = rt_records_window_due(&r->rec, rt_time_mono_ns());
	if (end >= 0)
		window(r, res, end);
}

int hwlat_records_finish(struct hwlat_records *r, const struct hwlat_result *res,
			 const struct hwlat_summary *sum, bool failed)
{
	struct rt_json j;
	int64_t now = rt_time_mono_ns();

	if (!r->open)
		return 0;
	window(r, res, now);
	rt_records_begin(&r->rec, &j, "total");
	rt_records_time(&r->rec, &j, "end", now);
	counts(res, 0, sum, &j);
	if (sum->has_mtbf)
		rt_json_double(&j, "mtbf_s", sum->mtbf_s, 3);
	else
		rt_json_null(&j, "mtbf_s");
	rt_json_string(&j, "stopped_by", hwlat_stopped_by(res));
	rt_json_string(&j, "verdict", failed ? "fail" : "pass");
	rt_records_end(&r->rec, &j);
	return rt_records_sync(&r->rec);
}

void hwlat_records_close(struct hwlat_records *r)
{
	if (r->open)
		rt_records_close(&r->rec);
	r->open = false;
}
