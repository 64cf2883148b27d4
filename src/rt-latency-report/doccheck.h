/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A result's JSON checked before anything reads a number of it (doccheck.c):
 * the one gate every reader of a document passes.
 */
#ifndef RLR_DOCCHECK_H
#define RLR_DOCCHECK_H

struct json_object;

/*
 * doc is a result of ours or of rt-tests 2.4: 0 with its thread count, or 2
 * after a one-line error naming path.
 */
int rlr_doc_check(struct json_object *doc, const char *path, int *nthreads);

/*
 * Every member of doc that is read has its type (integers are integers,
 * counts not negative, none at the edge of 64 bits): 0, or 2 after a
 * one-line error naming path and the member.
 */
int rlr_doc_types(struct json_object *doc, const char *path, int nthreads);

#endif
