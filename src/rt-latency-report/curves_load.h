/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Latency distributions (curves.h) read from an input: one curve per thread
 * from our JSON (the lossless "latency_histogram"), from rt-tests 2.4's JSON
 * (its -h "histogram") or from cyclictest's -h/--histfile histogram text.
 */
#ifndef RLR_CURVES_LOAD_H
#define RLR_CURVES_LOAD_H

#include <stdbool.h>

#include "curves.h"

struct json_object;
struct rlr_input;

/*
 * Thread i's curve from its JSON object: our lossless histogram, else
 * rt-tests 2.4's -h "histogram" (what fell beyond it: c->overflow). 0, or
 * 1 or 2 after a one-line error (no histogram, another layout).
 */
int rlr_curve_from_json(struct rlr_curve *c, struct json_object *thread, const char *path, int i);

/*
 * Read path (JSON or histogram text; text_ns: text is in ns): 0, or 1 after
 * a one-line error (unreadable, neither JSON nor histogram text) or 2 (a
 * JSON that is not one of ours or has no histogram, a text of another
 * layout). rlr_plotfile_free() frees it.
 */
int rlr_plotfile_load(struct rlr_plotfile *f, const char *path, bool text_ns);
/* The same of an input already read (input.h). */
int rlr_plotfile_from_input(struct rlr_plotfile *f, const struct rlr_input *in, bool text_ns);

#endif
