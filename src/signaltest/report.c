// SPDX-License-Identifier: GPL-2.0-or-later
#include <inttypes.h>
#include <stdio.h>

#include "rt_json.h"
#include "rt_percentiles.h"
#include "rt_sysinfo.h"

#include "report.h"

static void print_line(FILE *out, struct rt_pair *p, int k)
{
	struct rt_pair_part *pt = rt_pair_part(p, k);
	struct rt_stats s;
	struct rt_report_line l = {
		.index = k, .tid = (int)atomic_load(&pt->ws.tid), .prio = pt->role.prio,
		.interval_us = -1, .stats = &s, .act_avg_width = 5,
	};
	char line[160];

	rt_pubstats_read(&pt->ws.stats, &s);
	rt_report_status_line(line, sizeof(line), &l);
	fprintf(out, "%s\n", line);
}

void signaltest_print_frame(FILE *out, struct rt_pair *p, bool first, int *loadavg_fd)
{
	char loadavg[128] = "";

	if (!first)
		fputs("\033[3A", out);
	rt_sysinfo_loadavg(loadavg_fd, loadavg, sizeof(loadavg));
	fprintf(out, "%s          \n\n", loadavg);
	print_line(out, p, 0);
}

void signaltest_print_summary(FILE *out, struct rt_pair *p)
{
	for (int k = 0; k < rt_pair_count(p); k++)
		print_line(out, p, k);
}

void signaltest_print_samples(FILE *out, struct rt_pair *p)
{
	struct rt_ring_sample s;

	for (int k = 0; k < rt_pair_count(p); k++)
		while (rt_ring_pop(&rt_pair_part(p, k)->ws.ring, &s))
			fprintf(out, "%8d:%8" PRIu64 ":%8" PRId64 "\n", k, s.cycle, s.value);
}

void signaltest_write_json(struct rt_json *j, struct rt_pair *p)
{
	struct rt_report_sched sched = RT_REPORT_SCHED_INIT;
	char key[16];

	rt_json_int(j, "num_threads", rt_pair_count(p));
	rt_json_object_begin(j, "thread");
	for (int k = 0; k < rt_pair_count(p); k++) {
		struct rt_pair_part *pt = rt_pair_part(p, k);
		const struct rt_stats *s = &pt->ws.stats.stats;

		snprintf(key, sizeof(key), "%d", k);
		rt_json_object_begin(j, key);
		rt_report_json_cycles_min_max_avg(j, s);
		rt_json_int(j, "cpu", pt->role.cpu >= 0 ? pt->role.cpu : atomic_load(&pt->cur_cpu));
		rt_percentiles_write_json(j, "percentiles", pt->ws.loghist);
		if (pt->ws.loghist)
			rt_loghist_write_json(j, "latency_histogram", pt->ws.loghist);
		rt_json_object_end(j);
		rt_report_sched_add(&sched, pt->ws.ran_policy);
	}
	rt_json_object_end(j);
	rt_report_json_scheduling(j, &sched);
}
