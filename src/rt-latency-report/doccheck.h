/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A result's JSON checked before anything reads a number of it (doccheck.c):
 * the one gate every reader of a document passes.
 */
#ifndef RLR_DOCCHECK_H
#define RLR_DOCCHECK_H

#include <stddef.h>

struct json_object;

/*
 * doc is a result of ours or of rt-tests 2.4: 0 with its thread count, or 2
 * after a one-line error naming path.
 */
int rlr_doc_check(struct json_object *doc, const char *path, int *nthreads);

/*
 * Every member of doc that is read has its type (integers are integers,
 * counts not negative, none at the edge of 64 bits, latencies within
 * RLR_MAX_VALUE, numbers finite): 0, or 2 after a one-line error naming
 * path and the member.
 */
int rlr_doc_types(struct json_object *doc, const char *path, int nthreads);

/*
 * A --records window line (line of path) by the same rules, before
 * records.c or timeline.c read a number of it: its start_s and end_s are
 * there, finite, from 0 to RLR_MAX_SECONDS; its figures and histogram as a
 * thread's in a result. 0, or 2 after a one-line error naming path, the
 * line and the member.
 */
int rlr_doc_window(struct json_object *w, const char *path, size_t line);

#endif
