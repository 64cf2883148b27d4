// SPDX-License-Identifier: GPL-2.0-or-later
#include <stdlib.h>

#include "run.h"

const char *const rlr_metric_names[RLR_METRICS] = { "p50", "p99", "p99.9", "p99.99", "max" };

void rlr_free(struct rlr_run *r)
{
	free(r->thread);
	r->thread = NULL;
}
