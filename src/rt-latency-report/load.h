/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A result file read back (with json-c) as the run it describes (run.h):
 * what rt-latency-report needs of our JSON, or of rt-tests 2.4's (which has
 * no percentiles), or of cyclictest's -h text.
 */
#ifndef RLR_LOAD_H
#define RLR_LOAD_H

#include "run.h"

struct rlr_input;

/*
 * Read path (our JSON, rt-tests 2.4's, or cyclictest's -h text, whose
 * percentiles come from its histograms where they hold the rank): 0; 1
 * with a one-line error printed (unreadable, neither JSON nor histogram
 * text) or 2 (JSON, but not a result of ours or of rt-tests 2.4; a
 * histogram of another layout). rlr_free() frees it.
 */
int rlr_load(struct rlr_run *r, const char *path);
/* The same of an input already read (input.h). */
int rlr_load_input(struct rlr_run *r, const struct rlr_input *in);

#endif
