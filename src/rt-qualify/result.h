/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A step's outcome read back from its tool's JSON, the same file the user
 * gets: the "verdict" object (kept whole for the summary), its result,
 * the largest latency and the samples. The file is untrusted input: read
 * whole with a bound, parsed once, every figure type-checked.
 */
#ifndef RTQ_RESULT_H
#define RTQ_RESULT_H

#include "qualify.h"

/*
 * Fill st's result, max_us, samples and verdict from "<st->file>.json" in
 * dirfd. 0, or -errno when it is missing or not a result (st->result is
 * then "error").
 */
int rtq_result_read(struct rtq_step *st, int dirfd);

/* Drop the kept verdict object. */
void rtq_result_free(struct rtq_step *st);

#endif
