// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "rt_hist.h"
#include "rt_mem.h"

int rt_hist_init(struct rt_hist *h, size_t nbuckets, size_t oflow_cap)
{
	memset(h, 0, sizeof(*h));
	if (nbuckets == 0)
		return -EINVAL;
	h->buckets = calloc(nbuckets, sizeof(*h->buckets));
	if (!h->buckets)
		return -ENOMEM;
	if (oflow_cap) {
		h->oflow_log = calloc(oflow_cap, sizeof(*h->oflow_log));
		if (!h->oflow_log) {
			free(h->buckets);
			h->buckets = NULL;
			return -ENOMEM;
		}
	}
	h->nbuckets = nbuckets;
	h->oflow_cap = oflow_cap;
	rt_mem_prefault(h->buckets, nbuckets * sizeof(*h->buckets));
	rt_mem_prefault(h->oflow_log, oflow_cap * sizeof(*h->oflow_log));
	return 0;
}

void rt_hist_free(struct rt_hist *h)
{
	free(h->buckets);
	free(h->oflow_log);
	memset(h, 0, sizeof(*h));
}

size_t rt_hist_next_nonempty(const struct rt_hist *h, size_t from)
{
	while (from < h->nbuckets && h->buckets[from] == 0)
		from++;
	return from;
}

uint64_t rt_hist_unlogged(const struct rt_hist *h)
{
	return h->overflows - h->oflow_logged;
}

static void write_latency(FILE *f, const struct rt_stats *s, int64_t v)
{
	if (rt_stats_empty(s))
		fputs(" -----", f);
	else
		fprintf(f, " %05" PRId64, v);
}

static void write_rows(FILE *f, const struct rt_hist_set *set, int sum)
{
	size_t nbuckets = 0;

	for (size_t t = 0; t < set->n; t++)
		if (set->hists[t].nbuckets > nbuckets)
			nbuckets = set->hists[t].nbuckets;

	for (size_t b = 0; b < nbuckets; b++) {
		uint64_t all = 0;

		fprintf(f, "%06zu ", b);
		for (size_t t = 0; t < set->n; t++) {
			const struct rt_hist *h = &set->hists[t];
			uint64_t c = b < h->nbuckets ? h->buckets[b] : 0;

			fprintf(f, "%s%06" PRIu64, t ? "\t" : "", c);
			all += c;
		}
		if (sum)
			fprintf(f, "\t%06" PRIu64, all);
		fputc('\n', f);
	}
}

static void write_summary(FILE *f, const struct rt_hist_set *set, int sum)
{
	uint64_t all = 0;
	struct rt_stats merged;
	size_t t;

	fputs("# Total:", f);
	for (t = 0; t < set->n; t++) {
		fprintf(f, " %09" PRIu64, set->hists[t].total);
		all += set->hists[t].total;
	}
	if (sum)
		fprintf(f, " %09" PRIu64, all);

	fputs("\n# Min Latencies:", f);
	for (t = 0; t < set->n; t++)
		write_latency(f, &set->stats[t], set->stats[t].min);
	fputs("\n# Avg Latencies:", f);
	for (t = 0; t < set->n; t++)
		write_latency(f, &set->stats[t], rt_stats_avg_int(&set->stats[t]));

	rt_stats_init(&merged);
	fputs("\n# Max Latencies:", f);
	for (t = 0; t < set->n; t++) {
		write_latency(f, &set->stats[t], set->stats[t].max);
		rt_stats_merge(&merged, &set->stats[t]);
	}
	if (sum)
		write_latency(f, &merged, merged.max);

	all = 0;
	fputs("\n# Histogram Overflows:", f);
	for (t = 0; t < set->n; t++) {
		fprintf(f, " %05" PRIu64, set->hists[t].overflows);
		all += set->hists[t].overflows;
	}
	if (sum)
		fprintf(f, " %05" PRIu64, all);
	fputc('\n', f);
}

static void write_overflow_cycles(FILE *f, const struct rt_hist_set *set)
{
	fputs("# Histogram Overflow at cycle number:\n", f);
	for (size_t t = 0; t < set->n; t++) {
		const struct rt_hist *h = &set->hists[t];

		fprintf(f, "# Thread %zu:", t);
		for (size_t i = 0; i < h->oflow_logged; i++)
			fprintf(f, " %05" PRIu64, h->oflow_log[i]);
		if (rt_hist_unlogged(h))
			fprintf(f, " # %05" PRIu64 " others", rt_hist_unlogged(h));
		fputc('\n', f);
	}
}

int rt_hist_write(FILE *f, const struct rt_hist_set *set)
{
	int sum = (set->flags & RT_HIST_SUM_COLUMN) && set->n > 1;

	fputs("# Histogram\n", f);
	write_rows(f, set, sum);
	write_summary(f, set, sum);
	write_overflow_cycles(f, set);
	fputc('\n', f);
	return ferror(f) ? -EIO : 0;
}
