/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A --records file (newline-delimited JSON) read as the run it describes:
 * a result document of the tools' JSON layout, every window line added up
 * per thread (the lossless histograms bucket by bucket, exact), up to the
 * last whole line (a torn last line, without its newline, is ignored).
 * The run line gives "cmdline:", sysinfo and environment; "partial": true
 * when the file has no total line (the run was killed); "records" says
 * which time the windows cover. A file that holds several runs (appended
 * to) is read as its last run.
 */
#ifndef RLR_RECORDS_H
#define RLR_RECORDS_H

#include <stdbool.h>
#include <stddef.h>

struct json_object;

/* Whether the bytes are a --records file (they start with its run line). */
bool rlr_records_is(const char *buf, size_t len);

/*
 * *doc the result document: 0; else 1 after a one-line error naming path
 * (not a records file: a line that is not one, out of memory) or 2 (a
 * window's member of the wrong type or out of range, by doccheck.c's rules).
 */
int rlr_records_doc(const char *buf, size_t len, const char *path,
		    struct json_object **doc);

#endif
