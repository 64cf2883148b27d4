// SPDX-License-Identifier: GPL-2.0-or-later
#include <string.h>

#include "rt_loghist.h"

const uint32_t rt_loghist_pcts[RT_LOGHIST_NPCT] = {
	500000, 900000, 990000, 999000, 999900, 999990, 999999,
};
const char *const rt_loghist_pct_names[RT_LOGHIST_NPCT] = {
	"p50", "p90", "p99", "p99.9", "p99.99", "p99.999", "p99.9999",
};

void rt_loghist_init(struct rt_loghist *h)
{
	memset(h, 0, sizeof(*h));
}

void rt_loghist_seal(struct rt_loghist *h, int64_t max)
{
	uint64_t n = 0;

	for (size_t i = 0; i < RT_LOGHIST_BUCKETS; i++)
		n += h->bucket[i];
	h->count = n;
	h->max = max;
}

int64_t rt_loghist_bucket_low(size_t i)
{
	size_t e, sub;

	if (i < RT_LOGHIST_EXACT)
		return (int64_t)i;
	e = (i - RT_LOGHIST_EXACT) / RT_LOGHIST_SUB + RT_LOGHIST_SUB_BITS;
	sub = (i - RT_LOGHIST_EXACT) % RT_LOGHIST_SUB;
	return (int64_t)((uint64_t)(RT_LOGHIST_SUB + sub) << (e - RT_LOGHIST_SUB_BITS));
}

int64_t rt_loghist_bucket_high(size_t i)
{
	if (i + 1 >= RT_LOGHIST_BUCKETS)
		return INT64_MAX; /* the last bucket takes everything above */
	return rt_loghist_bucket_low(i + 1) - 1;
}

void rt_loghist_merge(struct rt_loghist *dst, const struct rt_loghist *src)
{
	if (src->count == 0)
		return;
	for (size_t i = 0; i < RT_LOGHIST_BUCKETS; i++)
		dst->bucket[i] += src->bucket[i];
	if (dst->count == 0 || src->max > dst->max)
		dst->max = src->max;
	dst->count += src->count;
}

bool rt_loghist_percentile(const struct rt_loghist *h, uint32_t permyriad, int64_t *out)
{
	const uint64_t scale = RT_PERMYRIAD_100;
	uint64_t pm = permyriad, rank, seen = 0;

	if (h->count == 0 || pm == 0 || pm > scale)
		return false;
	/* rank = ceil(count * p / 100) in integers, so 99.9% of 1000 is 999,
	 * not 1000, and counts of any size do not overflow. */
	rank = h->count / scale * pm + (h->count % scale * pm + scale - 1) / scale;
	if (rank < 1)
		rank = 1;
	if (rank > h->count)
		rank = h->count;
	for (size_t i = 0; i < RT_LOGHIST_BUCKETS; i++) {
		seen += h->bucket[i];
		if (seen >= rank) {
			int64_t high = rt_loghist_bucket_high(i);

			*out = high < h->max ? high : h->max;
			return true;
		}
	}
	*out = h->max; /* not reached: the counts add up to count */
	return true;
}
