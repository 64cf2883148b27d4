// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <stdlib.h>

#include "rt_loghist.h"
#include "rt_quantile_ci.h"

#include "curves.h"

bool rlr_curve_percentile(const struct rlr_curve *c, uint32_t permyriad, int64_t *v)
{
	const uint64_t scale = RT_PERMYRIAD_100;
	uint64_t total, seen = 0, rank;

	if (!rlr_curve_total(c, &total) || !total || !permyriad || permyriad > scale)
		return false;
	/* ceil(total * p / 100), divided first: no product to overflow. */
	rank = total / scale * permyriad + (total % scale * permyriad + scale - 1) / scale;
	for (size_t b = 0; b < c->nbins; b++) {
		seen += c->bin[b].count;
		if (seen >= rank) {
			int64_t top = c->bin[b].high - 1;

			*v = c->has_max && top > c->max ? c->max : top;
			return true;
		}
	}
	return false; /* among the samples beyond the histogram */
}

bool rlr_curve_ci(const struct rlr_curve *c, uint32_t permyriad, int64_t *low, int64_t *high,
		  bool *has_high)
{
	uint64_t total, l, u, seen = 0;
	int64_t v;

	if (!rlr_curve_percentile(c, permyriad, &v) || !rlr_curve_total(c, &total) ||
	    rt_quantile_ci_ranks(total, permyriad, RT_QUANTILE_CI_CONFIDENCE_PCT, &l, &u))
		return false;
	*low = 0;
	*has_high = false;
	for (size_t b = 0; b < c->nbins; b++) {
		uint64_t before = seen;

		seen += c->bin[b].count;
		if (l && before < l && seen >= l)
			*low = c->bin[b].low;
		if (u <= total && before < u && seen >= u) {
			int64_t top = c->bin[b].high - 1;

			*high = c->has_max && top > c->max ? c->max : top;
			*has_high = true;
		}
	}
	return true;
}

bool rlr_curve_total(const struct rlr_curve *c, uint64_t *total)
{
	uint64_t t = c->overflow;

	for (size_t b = 0; b < c->nbins; b++)
		if (__builtin_add_overflow(t, c->bin[b].count, &t))
			return false;
	*total = t;
	return t <= INT64_MAX;
}

/*
 * One pass over the two rising bin lists (every loader builds them rising),
 * a range both have becoming one bin: the sum of T threads takes T passes,
 * where sorting all their bins again at each add took minutes at 4096.
 */
int rlr_curve_add(struct rlr_curve *sum, const struct rlr_curve *c)
{
	uint64_t a, b0;
	struct rlr_bin *out;
	size_t i = 0, j = 0, n = 0;

	if (!rlr_curve_total(sum, &a) || !rlr_curve_total(c, &b0) ||
	    __builtin_add_overflow(a, b0, &a) || a > INT64_MAX)
		return -EOVERFLOW;
	if (c->nbins) { /* a thread without samples has no bins at all (NULL) */
		out = malloc((sum->nbins + c->nbins) * sizeof(*out));
		if (!out)
			return -ENOMEM;
		while (i < sum->nbins || j < c->nbins) {
			bool from_sum = j == c->nbins ||
					(i < sum->nbins && sum->bin[i].low <= c->bin[j].low);
			const struct rlr_bin *x = from_sum ? &sum->bin[i++] : &c->bin[j++];

			/* The total fits 64 bits (checked above): so does any bin's. */
			if (n && out[n - 1].low == x->low && out[n - 1].high == x->high)
				out[n - 1].count += x->count;
			else
				out[n++] = *x;
		}
		free(sum->bin);
		sum->bin = out;
		sum->nbins = n;
	}
	sum->overflow += c->overflow;
	if (c->has_max && (!sum->has_max || c->max > sum->max))
		sum->max = c->max;
	sum->has_max |= c->has_max;
	return 0;
}

void rlr_plotfile_free(struct rlr_plotfile *f)
{
	for (int i = 0; i < f->ncurves; i++)
		free(f->curve[i].bin);
	free(f->curve);
	free(f->origin);
	f->curve = NULL;
	f->origin = NULL;
	f->ncurves = 0;
}
