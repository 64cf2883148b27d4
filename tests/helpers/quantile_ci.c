// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Test helper: for each line "N PERMYRIAD [CONFIDENCE]" on standard input,
 * print "N PERMYRIAD CONFIDENCE L U" (the ranks of rt_quantile_ci_ranks)
 * or "N PERMYRIAD CONFIDENCE error ERRNO"; for "min PERMYRIAD [CONFIDENCE]"
 * print "min PERMYRIAD CONFIDENCE N" (rt_quantile_ci_min_samples).
 * tests/helpers/quantile_ci_check.py compares them with scipy.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "rt_quantile_ci.h"

int main(void)
{
	char line[256], word[32];
	uint64_t n, l, u;
	uint32_t pm;
	unsigned conf;

	while (fgets(line, sizeof(line), stdin)) {
		int err;

		conf = RT_QUANTILE_CI_CONFIDENCE_PCT;
		if (sscanf(line, "min %" SCNu32 " %u", &pm, &conf) >= 1) {
			err = rt_quantile_ci_min_samples(pm, conf, &n);
			if (err)
				printf("min %" PRIu32 " %u error %d\n", pm, conf, -err);
			else
				printf("min %" PRIu32 " %u %" PRIu64 "\n", pm, conf, n);
			continue;
		}
		if (sscanf(line, "%" SCNu64 " %" SCNu32 " %u", &n, &pm, &conf) < 2) {
			if (sscanf(line, "%31s", word) == 1)
				fprintf(stderr, "quantile_ci: bad line: %s", line);
			continue;
		}
		err = rt_quantile_ci_ranks(n, pm, conf, &l, &u);
		if (err)
			printf("%" PRIu64 " %" PRIu32 " %u error %d\n", n, pm, conf, -err);
		else
			printf("%" PRIu64 " %" PRIu32 " %u %" PRIu64 " %" PRIu64 "\n", n, pm, conf, l,
			       u);
	}
	return 0;
}
